"""A thing the question names that the agreement holds verbatim (issue #39, a new user's tryout): "Sarbanes-Oxley",
asked of an agreement that cites the Act only in a recital, was declined by the topic head ("reads as one about
non-disparagement ... no such clause") and the recital was ranked below every clause. The meaning-based absence checks
do not decline such a question, the recital keeps its place, and the name is not taken for one naming the agreement.
Real CUAD agreements, the committed heads, MiniLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.library import Library
from clauselens.library.catalogue import strip_naming_words
from clauselens.retrieval.concept_absence import named_in, named_terms

CORPUS = Path("/work/shared/data/legalbench-rag/corpus/cuad")
MOVADO = CORPUS / "MOVADOGROUPINC_04_30_2003-EX-10.28-ENDORSEMENT AGREEMENT.txt"  # WHEREAS, Section 402 of the Sarbanes-Oxley Act ...
HOSTING = CORPUS / "CENTRACKINTERNATIONALINC_10_29_1999-EX-10.3-WEB SITE HOSTING AGREEMENT.txt"  # no such name


def test_what_a_question_names() -> None:
    assert named_terms("Is there anything on HIPAA or the Foreign Corrupt Practices Act?") == ["HIPAA", "Foreign Corrupt Practices Act"]
    assert named_terms('What does "Net Sales" mean under the Sarbanes-Oxley rules?') == ["Net Sales", "Sarbanes-Oxley"]
    assert named_terms("Can they walk away early?") == [] and named_terms("Can the Distributor sell outside the Territory?") == []
    text = "WHEREAS, Section 402 of the Sarbanes-Oxley Act of the 2002 prohibits certain loans"
    assert named_in("Does it mention sarbanes-oxley?", [text]) is None  # lower case names nothing
    assert named_in("Does it mention Sarbanes-Oxley?", ["no such act", text]) == "Sarbanes-Oxley"
    assert named_in("Does it mention the FCPA?", [text]) is None


def test_a_question_frame_alone_is_not_left_after_naming_words() -> None:
    q = "What does the Movado agreement say about Sarbanes-Oxley?"
    assert strip_naming_words(q, {"movado", "sarbanes", "oxley"}) == q  # "what does the agreement say about" asks nothing
    assert strip_naming_words("What does the Movado agreement say about termination?", {"movado"}) == \
        "What does the agreement say about termination?"



@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    if not (MOVADO.is_file() and HOSTING.is_file()):
        pytest.skip("CUAD texts not in ../shared/data/legalbench-rag (data absent)")
    lib = Library.open(tmp_path_factory.mktemp("named") / "lib", embedder_name="minilm")
    assert len(lib.add([MOVADO, HOSTING]).added) == 2
    return lib


def _doc(lib: Library, needle: str) -> str:
    return next(r.doc_id for r in lib.agreements() if needle in r.path)


@pytest.mark.parametrize("question", ["Sarbanes-Oxley", "What does the Movado agreement say about Sarbanes-Oxley?"])
def test_a_name_the_agreement_holds_is_answered_with_its_passage(lib: Library, question: str) -> None:
    res = lib.search(question, doc_ids=[_doc(lib, "MOVADO")], k=3)
    assert not res.abstained and res.trace.get("named_in_agreement") == "Sarbanes-Oxley"
    assert "Sarbanes-Oxley" in res.passages[0].text  # the recital, not demoted below the clauses


def test_a_name_the_agreement_lacks_changes_nothing(lib: Library) -> None:
    res = lib.search("Does the hosting agreement mention Sarbanes-Oxley?", doc_ids=[_doc(lib, "HOSTING")], k=3)
    assert "named_in_agreement" not in res.trace


def test_a_file_asked_directly_is_not_declined_for_a_name_it_holds() -> None:
    """The same for a file asked directly (``clauselens ask FILE``: the hybrid retriever's own checks)."""
    from clauselens.config import Settings
    from clauselens.parsing import load_document
    from clauselens.retrieval.hybrid import build_retriever

    if not MOVADO.is_file():
        pytest.skip("CUAD texts not in ../shared/data/legalbench-rag (data absent)")
    r = build_retriever(Settings().retrieval)
    r.index([load_document(MOVADO)])
    res = r.search("What does the agreement say about Sarbanes-Oxley?")
    assert not res.abstained and res.trace.get("named_in_agreement") == "Sarbanes-Oxley"
    assert "absent_category" not in res.trace
