"""Heading-topic absence (issue #39): a question in everyday words about a clause topic outside CUAD's
categories (force majeure) that the agreement has no clause on gets "no matching clause found"; the
same question about an agreement with such a clause gets it. Real CUAD agreements (of the clause-QA dev
sets), the committed heading-topic, topic and presence heads, MiniLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.library import Library

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"  # ../shared
LACKING = CORPUS / "ANIXABIOSCIENCESINC_06_09_2020-EX-10.1-COLLABORATION AGREEMENT.txt"  # no force majeure clause
HAVING = CORPUS / "MARTINMIDSTREAMPARTNERSLP_01_23_2004-EX-10.3-TRANSPORTATION SERVICES AGREEMENT.txt"  # 12. FORCE MAJEURE
FLOOD = "If a hurricane or an earthquake makes it impossible to perform, is anyone let off?"

pytestmark = [
    pytest.mark.skipif(not (LACKING.is_file() and HAVING.is_file()),
                       reason="CUAD texts not in ../shared/data/legalbench-rag (data absent)"),
]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    lib = Library.open(tmp_path_factory.mktemp("head") / "lib", embedder_name="minilm")
    assert len(lib.add([LACKING, HAVING]).added) == 2
    return lib


def _doc(lib: Library, needle: str) -> str:
    return next(r.doc_id for r in lib.agreements() if needle in r.path)


def test_a_topic_the_agreement_lacks_is_declined_and_says_why(lib: Library) -> None:
    res = lib.search(FLOOD, doc_ids=[_doc(lib, "ANIXA")])
    assert res.abstained and res.reason.startswith("no matching clause found")
    assert res.trace["absent_category"]["heading_topic"] == "Force Majeure"
    assert "force majeure" in res.reason and "heading-topic head" in res.reason


def test_a_topic_the_agreement_has_is_kept(lib: Library) -> None:
    res = lib.search(FLOOD, doc_ids=[_doc(lib, "MARTIN")])
    assert not res.abstained
    assert any("force majeure" in p.text.lower() or "act of god" in p.text.lower() for p in res.passages[:5])


def test_a_question_on_a_topic_every_agreement_states_is_answered(lib: Library) -> None:
    res = lib.search("How long does the arrangement last, and can either side end it early?",
                     doc_ids=[_doc(lib, "ANIXA")])
    assert not res.abstained


def test_switched_off_it_does_not_decline(lib: Library) -> None:
    lib.heading_head = False
    try:
        res = lib.search(FLOOD, doc_ids=[_doc(lib, "ANIXA")])
    finally:
        lib.heading_head = None
    assert not res.abstained or "heading_topic" not in res.trace.get("absent_category", {})


def test_without_the_head_search_works_and_says_so_once(lib: Library, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import clauselens.heads.base as base
    import clauselens.heads.heading_topic as heading_topic
    from clauselens.heads.base import HeadMissingError

    def missing() -> None:
        raise HeadMissingError("heading-topic head not installed: model.safetensors missing under /nowhere")

    monkeypatch.setattr(heading_topic, "load", missing)
    monkeypatch.setattr(base, "_NOTICED", set())
    lib.heading_head = None
    lib.concept_absence = False  # the thesaurus check (test_concept_absence.py) declines it without the head
    try:
        first = lib.search(FLOOD, doc_ids=[_doc(lib, "ANIXA")])
        second = lib.search(FLOOD, doc_ids=[_doc(lib, "ANIXA")])
    finally:
        lib.heading_head = None
        lib.concept_absence = True
    assert "heading_topic" not in first.trace.get("absent_category", {}) and not second.abstained
    err = capsys.readouterr().err
    assert err.count("heading-topic absence abstention off") == 1 and "heading-topic head not installed" in err
