"""Category-absence abstention for files asked directly (issue #39): the bundled consulting agreement has
no insurance clause, so an everyday question about cover is declined with the reason; questions about what it
does say are searched as before; without the MiniLM embedder (lexical only) the check does not run."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.retrieval.hybrid import HybridRetriever, build_retriever

DEMO = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"
COVER = "Does the consultant have to carry insurance that covers us if someone gets hurt?"


@pytest.fixture(scope="module")
def retriever() -> HybridRetriever:
    r = build_retriever(Settings().retrieval)
    r.index([load_document(DEMO)])
    return r


def test_a_clause_kind_the_contract_lacks_is_declined_with_the_reason(retriever: HybridRetriever) -> None:
    assert "insur" not in load_document(DEMO).text.lower()  # the premise, checked on the file itself
    res = retriever.search(COVER)
    assert res.abstained and res.reason.startswith("no matching clause found: the question reads as one about insurance")
    assert res.trace["absent_category"]["category"] == "Insurance"


def test_what_the_contract_does_say_is_still_searched(retriever: HybridRetriever) -> None:
    res = retriever.search("Can either side end this early, and how much notice is needed?")
    assert not res.abstained and any(p.clause_ref == "7.2" for p in res.passages[:5])


def test_off_by_setting_and_without_the_minilm_embedder() -> None:
    doc = load_document(DEMO)
    off = build_retriever(Settings(retrieval={"category_absence": False}).retrieval)
    off.index([doc])
    assert not off.search(COVER).abstained
    lexical = HybridRetriever(None, category_absence=True)
    lexical.index([doc])
    res = lexical.search(COVER)  # no topic head reading without MiniLM; the word rule needs none ("insur…" is never used)
    assert "absent_category" not in res.trace and res.trace["absent_topic"] == {"word": "insur", "never_worded": True}


SCOUTCAM = Path(__file__).resolve().parents[3] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad" / (
    "SCOUTCAMINC_05_12_2020-EX-10.22-SERVICES AGREEMENT.txt")


@pytest.mark.skipif(not SCOUTCAM.exists(), reason="needs the CUAD corpus in ../shared/data")
def test_a_clause_kind_named_by_its_own_word_the_agreement_never_uses_is_declined() -> None:
    """Scoutcam's services agreement with Maimon never says "liab…" (a new user's tryout asked "Is Maimon's liability to
    Intellisense capped?" and got its headings and severability clauses; the topic head read the question as a covenant not
    to sue). A cap on liability is (almost) never written without the word (heads.category_words), so: declined."""
    doc = load_document(SCOUTCAM)
    assert "liab" not in doc.text.lower()
    r = build_retriever(Settings().retrieval)
    r.index([doc])
    res = r.search("Is Maimon's liability to Intellisense capped?")
    assert res.abstained and "never use the word 'liab…'" in res.reason and res.trace["absent_topic"]["never_worded"]
    assert not r.search("Can Maimon work for a competitor?").abstained  # clause 8 says "compete"
