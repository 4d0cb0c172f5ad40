"""Heading-topic absence for files asked directly (issue #39): the bundled consulting agreement has no force
majeure clause (no heading, no such words), so an everyday question about disasters excusing performance is
declined with the reason; topics it does have (confidentiality, taxes, termination) are searched as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.retrieval.hybrid import HybridRetriever, build_retriever

DEMO = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"
DISASTER = "If a hurricane or an earthquake makes it impossible to perform, is anyone let off?"


@pytest.fixture(scope="module")
def retriever() -> HybridRetriever:
    r = build_retriever(Settings().retrieval)
    r.index([load_document(DEMO)])
    return r


def test_a_topic_the_contract_lacks_is_declined_with_the_reason(retriever: HybridRetriever) -> None:
    text = load_document(DEMO).text.lower()
    assert "majeure" not in text and "act of god" not in text  # the premise, checked on the file itself
    res = retriever.search(DISASTER)
    assert res.abstained and "the question reads as one about force majeure" in res.reason
    assert res.trace["absent_category"]["heading_topic"] == "Force Majeure"


@pytest.mark.parametrize("question", ["Do they have to keep our business information secret?",
                                      "Who pays the taxes on the consultant's fees?"])
def test_topics_the_contract_has_are_searched(retriever: HybridRetriever, question: str) -> None:
    assert not retriever.search(question).abstained


def test_off_with_the_category_absence_setting() -> None:
    off = build_retriever(Settings(retrieval={"category_absence": False, "concept_absence": False}).retrieval)
    off.index([load_document(DEMO)])
    assert not off.search(DISASTER).abstained
    # the thesaurus concept check alone (clauselens.retrieval.concept_absence) declines it too
    concept = build_retriever(Settings(retrieval={"category_absence": False}).retrieval)
    concept.index([load_document(DEMO)])
    res = concept.search(DISASTER)
    assert res.abstained and res.trace["absent_concepts"] == ["force majeure"]
