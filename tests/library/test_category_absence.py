"""Category-absence abstention (issue #39): a question in everyday words about a clause kind the
agreement lacks gets "no matching clause found"; the same question about an agreement that has it
gets its clause. Real CUAD agreements, the committed topic and presence heads, MiniLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.library import Library

CORPUS = Path("/work/shared/data/legalbench-rag/corpus/cuad")
HOSTING = CORPUS / "CENTRACKINTERNATIONALINC_10_29_1999-EX-10.3-WEB SITE HOSTING AGREEMENT.txt"  # no insurance clause
SHIPPING = CORPUS / "MARTINMIDSTREAMPARTNERSLP_01_23_2004-EX-10.3-TRANSPORTATION SERVICES AGREEMENT.txt"  # 5. ... INSURANCE
COVER = "Does the other side have to keep an insurance policy in place to cover accidents and claims?"

pytestmark = pytest.mark.skipif(not (HOSTING.is_file() and SHIPPING.is_file()),
                                reason="CUAD texts not in ../shared/data/legalbench-rag (data absent)")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    lib = Library.open(tmp_path_factory.mktemp("cat") / "lib", embedder_name="minilm")
    assert len(lib.add([HOSTING, SHIPPING]).added) == 2
    return lib


def _doc(lib: Library, needle: str) -> str:
    return next(r.doc_id for r in lib.agreements() if needle in r.path)


def test_lacking_the_clause_kind_abstains_and_says_why(lib: Library) -> None:
    res = lib.search(COVER, doc_ids=[_doc(lib, "HOSTING")])
    assert res.abstained and res.reason.startswith("no matching clause found")
    assert "insurance" in res.reason and "presence" in res.reason
    assert res.trace["absent_category"]["category"] == "Insurance"


def test_having_the_clause_kind_finds_it(lib: Library) -> None:
    res = lib.search(COVER, doc_ids=[_doc(lib, "TRANSPORTATION")])
    assert not res.abstained
    assert any("insurance coverage" in p.text for p in res.passages[:3])


def test_other_questions_about_the_same_agreement_are_answered(lib: Library) -> None:
    res = lib.search("How much does the customer pay each month, and by when?", doc_ids=[_doc(lib, "HOSTING")])
    assert not res.abstained and "absent_category" not in res.trace
    assert any("$450" in p.text for p in res.passages[:3])


def test_switched_off_the_check_does_not_abstain(lib: Library) -> None:
    lib.topic_head = False
    try:
        res = lib.search(COVER, doc_ids=[_doc(lib, "HOSTING")])
    finally:
        lib.topic_head = None
    assert not res.abstained


def test_without_the_topic_head_search_works_and_says_so_once(lib: Library, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import clauselens.heads.base as base
    import clauselens.heads.topic as topic
    from clauselens.heads.base import HeadMissingError

    def missing() -> None:
        raise HeadMissingError("topic head not installed: model.safetensors missing under /nowhere")

    monkeypatch.setattr(topic, "load", missing)
    monkeypatch.setattr(base, "_NOTICED", set())
    lib.topic_head = None
    try:
        first = lib.search(COVER, doc_ids=[_doc(lib, "HOSTING")])
        second = lib.search(COVER, doc_ids=[_doc(lib, "HOSTING")])
    finally:
        lib.topic_head = None
    assert not first.abstained and not second.abstained
    err = capsys.readouterr().err
    assert err.count("category-absence abstention off") == 1 and "topic head not installed" in err
