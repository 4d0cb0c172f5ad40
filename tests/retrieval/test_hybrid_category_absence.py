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
    assert not lexical.search(COVER).abstained
