"""Version precedence in the library (issue #17, item 6) on real CUAD base + amendment sets:
Glu Mobile's Fox content licence with Amendments No. 1-3 (No. 3 amends Section 4 and
Section 17(a)), Federated's Services Agreement with two amendments of Exhibit A (plus a power
of attorney of the same date and parties as a decoy), Stremick's/Premier's Manufacturing
Agreement with two amendments of Section 2(c), an amendment whose base agreement is not in
the library (ADMA), and three unrelated agreements. Files are copied under neutral names, so
linking can only use the text. Lexical-only library (no embedder)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clauselens.library import Library
from clauselens.library.catalogue import make_record
from clauselens.library.passages import ref_key
from clauselens.library.versions import (
    MAX_INSERTED,
    ancestors,
    apply_versions,
    clause_keys,
    links,
    norm_party,
    passage_keys,
    ref_pattern,
    same_party,
    split_base,
    version_index,
)
from clauselens.parsing.store import parse_file
from clauselens.retrieval.types import Passage

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
_GLU = "GluMobileInc_20070319_S-1A_EX-10.09_436630_EX-10.09_Content License Agreement{}.txt"
_FED = "FEDERATEDGOVERNMENTINCOMESECURITIESINC_04_28_2020-EX-99.SERV AGREE-SERVICES AGREEMENT{}.txt"
_BELL = "BellringBrandsInc_20190920_S-1_EX-10.12_11817081_EX-10.12_Manufacturing Agreement{}.txt"
FILES = {
    "glu1": _GLU.format(1), "glu2": _GLU.format(2), "glu3": _GLU.format(3), "glu4": _GLU.format(4),
    "fed": _FED.format(""), "fed_amd1": _FED.format("_AMENDMENT"), "fed_amd2": _FED.format("_SECONDAMENDMENT"),
    "fed_poa": _FED.format("_POWEROF"),
    "bell1": _BELL.format(1), "bell2": _BELL.format(2), "bell3": _BELL.format(3),
    "adma": "ADMA BioManufacturing, LLC -  Amendment #3 to Manufacturing Agreement .txt",
    "other1": "SCOUTCAMINC_05_12_2020-EX-10.22-SERVICES AGREEMENT.txt",
    "other2": "WatchitMediaInc_20061201_8-K_EX-10.1_4148672_EX-10.1_Content License Agreement.txt",
    "other3": "TRANSMONTAIGNEPARTNERSLLC_03_13_2020-EX-10.9-SERVICES AGREEMENT.txt",
}
pytestmark = pytest.mark.skipif(not all((CUAD / f).exists() for f in FILES.values()),
                                reason="needs the CUAD corpus in ../shared/data/legalbench-rag")

GLU4_SECTION_4 = ("operative text: AMENDMENT NO. 3 (dated February 19, 2007) amends Section 4 of "
                  "WIRELESS CONTENT LICENSE AGREEMENT")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    corpus = tmp_path_factory.mktemp("corpus")
    for key, src in FILES.items():
        shutil.copy(CUAD / src, corpus / f"{key}.txt")
    lib = Library.open(tmp_path_factory.mktemp("lib") / "lib", embedder_name="none")
    rep = lib.add([corpus])
    assert len(rep.added) == len(FILES) and not rep.failed
    return lib


@pytest.fixture(scope="module")
def ids(lib: Library) -> dict[str, str]:
    return {Path(r.path).stem: r.doc_id for r in lib.agreements()}


def _rows(lib: Library, doc: str, ref: str) -> list[Passage]:
    return [Passage.from_chunk(c, 1.0, "exact") for c in lib.catalogue.passages(lib.catalogue.rows_with_ref([doc], ref))]


# ------------------------------------------------------------------ what the parser gives
def test_parsed_records_of_the_sets() -> None:
    """The catalogue fields linking relies on, as the Archivist's parser produces them."""
    rec = {k: make_record(parse_file(CUAD / FILES[k])) for k in ("glu1", "glu4", "fed", "fed_amd1", "fed_poa", "bell2")}
    assert rec["glu1"].doc_type == "agreement" and rec["fed"].doc_type == "agreement"
    assert rec["glu4"].doc_type == "amendment" and rec["glu4"].amends == ["Section 4", "Section 17(a)"]
    assert rec["fed_amd1"].amends == ["Services Agreement dated January 1, 2004", "Exhibit A"]
    # the decoy: same date and one shared party as the Services Agreement
    assert rec["fed_poa"].date == rec["fed"].date and rec["fed_poa"].doc_type == "agreement"
    # the parser misses "remove Section 2(c) in its entirety": versions scans for it
    assert rec["bell2"].amends == ["Manufacturing Agreement"]


# ------------------------------------------------------------------ helpers
def test_clause_numbers_and_names() -> None:
    assert ancestors("2(o)(i)") == ["2(o)(i)", "2(o)", "2"]
    assert ancestors("5.3.1(a)") == ["5.3.1(a)", "5.3.1", "5.3", "5"]
    assert clause_keys("Section 8.02") == {"8.2"} and clause_keys("Section 2.3 (c)") == {"2.3(c)"}
    assert clause_keys("Exhibit A") == {"exhibita"} and clause_keys("Article IV") == {"articleiv", "iv"}
    _, pat = ref_pattern("Section 4")
    assert pat.search("The first paragraph of Section 4 of the Agreement")
    assert not pat.search("see Section 4.2 and Section 40")
    _, pat = ref_pattern("Exhibit A")
    assert pat.search("Exhibit A to the Services Agreement") and not pat.search("Exhibit B")
    assert norm_party("Stremick's Heritage Foods, LLC") == norm_party("Stremicks Heritage Foods, LLC") == "stremicks heritage foods"
    assert same_party(norm_party("Glu Mobile Inc."), norm_party("Glu Mobile, Inc."))
    assert same_party("columbia laboratories", "columbia laboratories bermuda")
    assert not same_party("fox", "fox mobile entertainment")
    assert split_base("Manufacturing Agreement dated September 30, 2011") == ("Manufacturing Agreement", "September 30, 2011")
    assert split_base("Section 4") == (None, None)


# ------------------------------------------------------------------ linking
def test_amendments_link_to_their_base_agreements(lib: Library, ids: dict[str, str]) -> None:
    got = {k: links(lib).get(d) for k, d in ids.items()}
    assert got["glu2"] == got["glu3"] == got["glu4"] == ids["glu1"]
    assert got["fed_amd1"] == got["fed_amd2"] == ids["fed"]  # not the same-date power of attorney
    assert got["bell2"] == got["bell3"] == ids["bell1"]
    # the ADMA amendment's base agreement is not in the library: left unlinked, with a reason
    assert got["adma"] is None and ids["adma"] in version_index(lib).unlinked
    # agreements are never linked as amendments
    assert all(got[k] is None for k in ("glu1", "fed", "fed_poa", "bell1", "other1", "other2", "other3"))


def test_amended_clauses_of_each_link(lib: Library, ids: dict[str, str]) -> None:
    idx = version_index(lib)
    clauses = {k: [w for w, _ in idx.links[ids[k]].clauses] for k in ("glu4", "fed_amd1", "fed_amd2", "bell2")}
    assert clauses["glu4"] == ["Section 4", "Section 17(a)"]
    assert clauses["fed_amd1"] == clauses["fed_amd2"] == ["Exhibit A"]
    assert clauses["bell2"] == ["Section 2(c)"]
    assert [lk.amendment for lk in idx.by_base[ids["glu1"]]] == [ids["glu4"], ids["glu3"], ids["glu2"]]  # latest first


def test_links_are_cached_per_catalogue_generation(lib: Library, ids: dict[str, str]) -> None:
    first = version_index(lib)
    assert version_index(lib) is first
    rec = next(r for r in lib.agreements() if r.doc_id == ids["other1"])
    lib.catalogue.update_record(rec)  # any catalogue change raises the generation
    try:
        again = version_index(lib)
        assert again is not first and again.generation > first.generation
        assert {a: lk.base for a, lk in again.links.items()} == {a: lk.base for a, lk in first.links.items()}
    finally:
        lib.rebuild_lexical()


# ------------------------------------------------------------------ search
def test_amended_clause_shows_operative_text_first(lib: Library, ids: dict[str, str]) -> None:
    res = lib.search("What is the term of the license under Section 4?", 5, doc_ids=[ids["glu1"]])
    assert not res.abstained
    base_i = next(i for i, p in enumerate(res.passages) if p.doc_id == ids["glu1"] and ref_key(p.clause_ref) == "4")
    before = res.passages[:base_i]
    ops = [p for p in before if p.doc_id == ids["glu4"]]
    assert ops and all(GLU4_SECTION_4 in p.notes for p in ops)
    joined = " ".join(" ".join(p.text.split()) for p in ops)
    assert "Section 4 of the Agreement is hereby deleted" in joined and "until March 31, 2008" in joined
    assert res.passages[base_i].notes == ["superseded in part: Section 4 was amended by AMENDMENT NO. 3 "
                                          "(dated February 19, 2007); see the amendment's text"]
    applied = res.trace["versions"]["applied"]
    assert any(a["amendment"] == ids["glu4"] and a["clause"] == "Section 4" and a["amendment_date"] == "February 19, 2007"
               for a in applied)
    assert {"amendment": ids["glu4"], "base": ids["glu1"]}.items() <= next(
        lk for lk in res.trace["versions"]["links"] if lk["amendment"] == ids["glu4"]).items()


def test_question_naming_the_parties(lib: Library, ids: dict[str, str]) -> None:
    res = lib.search("Under the Wireless Content License Agreement between Twentieth Century Fox and Sorrent, "
                     "what are the notice provisions of Section 17(a)?", 5)
    assert ids["glu1"] in res.trace["resolution"]["chosen"]
    base_i = next(i for i, p in enumerate(res.passages) if p.doc_id == ids["glu1"] and ref_key(p.clause_ref) == "17(a)")
    op = [p for p in res.passages[:base_i] if p.doc_id == ids["glu4"]]
    assert op and "Section 17(a) of the Agreement shall be amended" in " ".join(op[0].text.split())
    assert op[0].notes == ["operative text: AMENDMENT NO. 3 (dated February 19, 2007) amends Section 17(a) of "
                           "WIRELESS CONTENT LICENSE AGREEMENT"]
    assert any(n.startswith("superseded in part: Section 17(a) was amended by AMENDMENT NO. 3") for n in res.passages[base_i].notes)


def test_two_amendments_latest_first(lib: Library, ids: dict[str, str]) -> None:
    res = lib.search("What does Section 2(c) require?", 5, doc_ids=[ids["bell1"]])
    base_i = next(i for i, p in enumerate(res.passages) if p.doc_id == ids["bell1"] and ref_key(p.clause_ref) == "2(c)")
    docs = [p.doc_id for p in res.passages[:base_i]]
    assert ids["bell3"] in docs and ids["bell2"] in docs
    assert docs.index(ids["bell3"]) < docs.index(ids["bell2"])  # Amendment No. 2 (Oct 2018) before No. 1 (June 2018)
    amd1 = [p for p in res.passages[:base_i] if p.doc_id == ids["bell2"]]
    assert "remove Section 2(c) in its entirety" in " ".join(amd1[0].text.split())
    notes = res.passages[base_i].notes
    assert len(notes) == 2 and "October 1, 2018" in notes[0] and "June 11, 2018" in notes[1]


def test_exhibit_amended_twice(lib: Library, ids: dict[str, str]) -> None:
    base = _rows(lib, ids["fed"], "exhibita")
    assert base
    trace: dict = {}
    out = apply_versions(lib, base, trace)
    first_base = next(i for i, p in enumerate(out) if p.doc_id == ids["fed"])
    ops = out[:first_base]
    assert [p.doc_id for p in ops][:1] == [ids["fed_amd2"]] and ids["fed_amd1"] in [p.doc_id for p in ops]
    assert "shall be, and here by is, supplemented" in " ".join(ops[0].text.split())  # the operative clause, not a recital
    assert not any(p.text.lstrip().startswith("WHEREAS") for p in ops)
    assert out[first_base].notes[0].startswith("superseded in part: Exhibit A was amended by SECOND AMENDMENT TO SERVICES AGREEMENT (dated "
                                               "March 1, 2016)")
    assert "AMENDMENT TO SERVICES AGREEMENT (dated March 30, 2009)" in out[first_base].notes[1]


def test_untouched_clause_gets_no_notes(lib: Library, ids: dict[str, str]) -> None:
    res = lib.search("Which law governs under Section 7?", 5, doc_ids=[ids["fed"]])
    assert ref_key(res.passages[0].clause_ref) == "7" and res.passages[0].doc_id == ids["fed"]
    assert res.passages[0].notes == []
    res = lib.search("What advance does the licensee pay under Section 5?", 5, doc_ids=[ids["glu1"]])
    assert ref_key(res.passages[0].clause_ref) == "5" and res.passages[0].notes == []
    assert all(p.method != "version" for p in res.passages[:1])


def test_agreement_without_amendments_is_unchanged(lib: Library, ids: dict[str, str]) -> None:
    res = lib.search("What services are provided?", 5, doc_ids=[ids["other1"]])
    assert res.passages and "versions" not in res.trace
    assert all(not p.notes and p.doc_id == ids["other1"] for p in res.passages)


def test_apply_versions_keeps_and_does_not_mutate_the_callers_passages(lib: Library, ids: dict[str, str]) -> None:
    op = next(p for p in apply_versions(lib, _rows(lib, ids["glu1"], "4"), {}) if p.doc_id == ids["glu4"])
    caller = _rows(lib, ids["glu1"], "5") + _rows(lib, ids["glu1"], "4") + _rows(lib, ids["glu1"], "17(a)")
    caller.append(Passage.from_chunk(next(c for c in lib.catalogue.passages(lib.catalogue.rows_of([ids["glu4"]]))
                                          if c.id == op.chunk_id), 0.5, "rrf"))
    out = apply_versions(lib, caller, {})
    assert {p.chunk_id for p in caller} <= {p.chunk_id for p in out}
    assert len(out) <= len(caller) + MAX_INSERTED
    assert all(not p.notes for p in caller)  # copies were noted, not the caller's objects
    kept = [p.chunk_id for p in out if p.doc_id == ids["glu1"]]
    assert kept == [p.chunk_id for p in caller if p.doc_id == ids["glu1"]]  # base order unchanged
    pos = {p.chunk_id: i for i, p in enumerate(out)}
    first_4 = min(pos[p.chunk_id] for p in caller if ref_key(p.clause_ref) == "4")
    assert pos[op.chunk_id] < first_4  # the amendment passage moved up before the clause it amends
    moved = out[pos[op.chunk_id]]
    assert moved.method == "rrf" and GLU4_SECTION_4 in moved.notes  # moved, not duplicated
    assert sum(p.chunk_id == op.chunk_id for p in out) == 1


def test_passage_keys_cover_exhibit_headings(lib: Library, ids: dict[str, str]) -> None:
    p = _rows(lib, ids["fed"], "exhibita")[0]
    assert "exhibita" in passage_keys(p)
    q = _rows(lib, ids["bell1"], "2(o)(i)")[0]
    assert {"2(o)(i)", "2(o)", "2"} <= passage_keys(q)


def test_cli_search_prints_notes(lib: Library) -> None:
    from clauselens.interfaces.library_commands import library_app

    res = CliRunner().invoke(library_app, ["search", "What are the notice provisions of Section 17(a)?",
                                           "--library", str(lib.root), "--party", "Sorrent", "--k", "3"])
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())
    assert "operative text: AMENDMENT NO. 3 (dated February 19, 2007) amends Section 17(a)" in flat
    assert "superseded in part: Section 17(a) was amended by AMENDMENT NO. 3" in flat
