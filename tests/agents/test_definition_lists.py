"""Issue #19: a definition whose body is a list in the sub-clauses that follow (``c) "Force
Majeure" means`` / ``i) An Act of God;`` / ``ii) A strike ...``) is answered with the list, on
the real CUAD agreements of the end-to-end benchmark: a small library (the project's own parser
and exact fields, no embedder) retrieves the defining passage and its list, and the final report
(definition_draft -> build_report -> definitions_supported, no model) cites every item verbatim."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clauselens.agents.definitions import definition_draft, definitions_supported
from clauselens.config import Settings
from clauselens.library import Library
from clauselens.library.passages import definition_list, library_passages
from clauselens.parsing.store import parse_file
from clauselens.reports import build_report
from clauselens.reports.model import Report
from clauselens.reports.verify import normalize
from clauselens.retrieval.types import Passage

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
DYNAMEX = "DYNAMEXINC_06_06_1996-EX-10.4-TRANSPORTATION SERVICES AGREEMENT.txt"
BICYCLE = "BICYCLETHERAPEUTICSPLC_03_10_2020-EX-10.11-SERVICE AGREEMENT.txt"
OASYS = "OASYSMOBILE,INC_07_05_2001-EX-10.17-OUTSOURCING AGREEMENT.txt"
DEXCEL = "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
pytestmark = pytest.mark.skipif(not all((CUAD / f).exists() for f in (DYNAMEX, BICYCLE, OASYS, DEXCEL)),
                                reason="../shared CUAD corpus not present")

FORCE_MAJEURE = "How is 'Force Majeure' defined in the Purolator / Dynamex transportation services agreement?"
GOOD_REASON = "How is 'Good Reason' defined in the Bicycle Therapeutics service agreement?"
OUTSOURCING = "How is 'Outsourcing Services' defined in the E.piphany / HSNS outsourcing agreement?"
WORKING_DAY = "How is 'Working Day' defined in the Dexcel manufacturing agreement?"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    corpus = tmp_path_factory.mktemp("corpus")
    for f in (DYNAMEX, BICYCLE, OASYS, DEXCEL):
        shutil.copy(CUAD / f, corpus / f)
    lib = Library.open(tmp_path_factory.mktemp("lib") / "lib", embedder_name="none")
    assert len(lib.add([corpus]).added) == 4
    return lib


def _retrieved(lib: Library, question: str) -> dict[str, Passage]:
    """The passages the Researcher's ``hybrid`` tool (the library) gives for the question, as the run numbers them."""
    res = lib.search(question, Settings().retrieval.top_k)
    assert not res.abstained, res.reason
    return {f"P{i}": p for i, p in enumerate(res.passages, start=1)}


def _report(question: str, passages: dict[str, Passage]) -> Report:
    draft = definition_draft(question, passages)
    assert draft is not None
    r = build_report(draft, passages, question=question)
    return definitions_supported(r, passages)[0]


def _source_text(report: Report, file: str) -> list[str]:
    """Each citation's text read from the file at its spans (a citation is the file's own characters)."""
    text = (CUAD / file).read_text(encoding="utf-8")
    return ["\n".join(text[s.start:s.end] for s in c.spans) for c in report.citations]


def _has(items: list[str], want: str) -> bool:
    return any(normalize(want) in normalize(x) for x in items)


def test_the_force_majeure_list_is_retrieved_after_its_definition(lib: Library) -> None:
    """The library's exact field puts the sub-clauses of 1.1 right after the passage that ends
    'c) "Force Majeure" means', in document order, and stops before clause 1.2."""
    ps = list(_retrieved(lib, FORCE_MAJEURE).values())
    exact = [p for p in ps if p.method == "exact"]
    assert [p.clause_ref for p in exact] == ["1.1", "1.1(i)", "1.1(ii)", "1.1(iii)", "1.1(iii)"]
    assert exact[0].text.rstrip().endswith('"Force Majeure" means')
    assert exact[1].text.startswith("i)      An Act of God;") and exact[-1].text.startswith("vii)")


def test_force_majeure_report_quotes_the_list_item_by_item(lib: Library) -> None:
    r = _report(FORCE_MAJEURE, _retrieved(lib, FORCE_MAJEURE))
    cited = _source_text(r, DYNAMEX)
    assert [c.quote for c in r.citations] == cited  # verbatim: the file's own characters at the cited spans
    for item in ("c) \"Force Majeure\" means", "i) An Act of God;", "ii) A strike, lock out or other labour disturbance;",
                 "iv) A storm, fire, flood, explosion, lightening or other hazardous weather condition;",
                 "vii) Any loss, hijacking, government seizure or diversion."):
        assert _has(cited, item), item
    assert len(r.citations) == 8  # the definition and its seven items, each its own citation
    assert [c.clause_ref for c in r.citations[1:3]] == ["1.1(i)", "1.1(ii)"]
    assert all(f.cited_fact and f.support == "supported" for f in r.key_findings)
    assert 'continues the definition of "Force Majeure" in the sub-clauses of clause 1.1' in r.key_findings[1].statement
    assert "An Act of God" in r.answer and "A strike, lock out or other labour disturbance" in r.answer
    assert not any("goes on" in g for g in r.knowledge_gaps) and not r.dropped_quotes


def test_good_reason_report_quotes_its_events_and_stops_at_the_next_definition(lib: Library) -> None:
    """Bicycle 11.4: '"Good Reason" shall mean ... any of the following events:', then (i)-(iv) in
    three sub-clauses, the third running on into '"Good Reason Process" shall mean ...', which is
    another definition and is not quoted."""
    r = _report(GOOD_REASON, _retrieved(lib, GOOD_REASON))
    cited = _source_text(r, BICYCLE)
    assert [c.quote for c in r.citations] == cited
    for item in ("(i) a material diminution in your responsibilities, authority or duties;",
                 "(ii) a material diminution in your Salary;",
                 "(iii) a material change in the geographic location at which you provides services to the Company;",
                 "or (iv) the material breach of this Agreement by the Company."):
        assert _has(cited, item), item
    assert not _has(cited, '"Good Reason Process" shall mean')
    assert "a material diminution in your Salary" in r.answer and "Good Reason Process\" shall mean" not in r.answer
    assert all(f.cited_fact for f in r.key_findings) and not any("goes on" in g for g in r.knowledge_gaps)


def test_outsourcing_services_report_quotes_the_where_clause(lib: Library) -> None:
    r = _report(OUTSOURCING, _retrieved(lib, OUTSOURCING))
    cited = _source_text(r, OASYS)
    assert _has(cited, "where:") and _has(cited, "(i) Concurrent Users' use of the Application solely for the purpose")
    assert _has(cited, "(ii) where the Application constitutes no more than ten percent (10%) of such Outsourcing Services.")
    assert not _has(cited, '"REMOTE ACCESS" means')
    assert "no more than ten percent (10%)" in r.answer and not any("goes on" in g for g in r.knowledge_gaps)


@pytest.mark.parametrize(("question", "ref", "quote"), [
    (WORKING_DAY, "1.40", '1.40 "Working Day" shall mean a day excluding Friday and Saturday'),
    # closed, in the passage that ends open for "Force Majeure", right before its list
    ("How is 'Freight' defined in the Purolator / Dynamex transportation services agreement?", "1.1",
     'b)     "Freight" means any goods directed to one Party by the other'),
])
def test_a_closed_definition_gets_no_list(lib: Library, question: str, ref: str, quote: str) -> None:
    ps = _retrieved(lib, question)
    assert [p.clause_ref for p in ps.values() if p.method == "exact"] == [ref]
    r = _report(question, ps)
    assert len(r.key_findings) == 1 and len(r.citations) == 1 and not r.knowledge_gaps
    assert r.citations[0].quote.startswith(quote)


def test_a_list_with_an_item_missing_is_quoted_up_to_the_gap_and_says_it_goes_on(lib: Library) -> None:
    """Retrieved without 1.1(ii): the draft cannot know what the missing item says, so it quotes
    only i), which ends with ';', and the report says the list goes on."""
    ps = {pid: p for pid, p in _retrieved(lib, FORCE_MAJEURE).items() if p.clause_ref != "1.1(ii)"}
    r = _report(FORCE_MAJEURE, ps)
    assert _has([c.quote for c in r.citations], "i) An Act of God;")
    assert not _has([c.quote for c in r.citations], "iii) A war, revolution")
    assert any('the list that defines "Force Majeure" goes on after the items quoted here' in g for g in r.knowledge_gaps)


def test_definition_list_over_the_whole_agreement() -> None:
    """On the parsed agreement's own passages (what the library stores): the list's passages and
    where each one's part ends; nothing for a closed definition."""
    doc = parse_file(CUAD / BICYCLE)
    ps = library_passages(doc)
    at = next(i for i, c in enumerate(ps) if '"Good Reason" shall mean' in c.text)
    got = definition_list(ps, at, "Good Reason")
    assert [ps[i].clause_ref for i, _ in got] == ["11.4(i)", "11.4(ii)", "11.4(iii)"]
    assert ps[got[-1][0]].text[:got[-1][1]].endswith("the material breach of this Agreement by the Company.")
    kitov = library_passages(parse_file(CUAD / DEXCEL))
    wd = next(i for i, c in enumerate(kitov) if '"Working Day" shall mean' in c.text)
    assert definition_list(kitov, wd, "Working Day") == []
