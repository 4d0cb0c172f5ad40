"""Presence stacked with the agreement's wording (issue #44; :mod:`clauselens.playbook.stack`), LLM-free.

The wording patterns on sentences of CUAD agreements, the shipped stacker's direction, and one report-split agreement
(not in ``train_allowed.txt``; CUAD labels an Exclusivity clause in it) that the head alone passed as "no exclusivity"."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clauselens.playbook.model import parse_playbook
from clauselens.playbook.review import Reviewer
from clauselens.playbook.sources import load_file
from clauselens.playbook.stack import FEATURES, STACK, first_match, load_stack, stacked_score, wording

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
ADIA = CUAD / "ADIANUTRITION,INC_04_01_2005-EX-10.D2-RESELLER AGREEMENT.txt"
NAMES = [n for n, _ in FEATURES["Exclusivity"]]


def counts(text: str) -> dict[str, int]:
    return {n: int(round(np.expm1(v))) for n, v in zip(NAMES, wording("Exclusivity", text))}


@pytest.mark.parametrize("text", [
    "The Fund hereby appoints [●] as the exclusive Remarketing Agent of the VRRM-MFP Shares",
    "PivX hereby grants to Detto a non-transferable, exclusive license to distribute PivX's Qwik-Fix Pro",
    "Licensor grants to Licensee an exclusive, worldwide, royalty-free right to sell the Products",
])
def test_grants_and_appointments_count(text: str) -> None:
    assert counts(text)["exclusive grant"] == 1


@pytest.mark.parametrize("text", [
    "Galaxy grants a non-exclusive, non-transferable license to use the Software",
    "Reseller accepts the appointment as a non\u2010 exclusive reseller of the Products",
    "each party submits to the exclusive jurisdiction of the courts of New York",
    "all Work Product shall be the sole and exclusive property of the Company",
    "Ginkgo shall have the sole and exclusive right, but not the obligation, to prosecute the patents",
    "Licensor owns the sole and exclusive right, title and interest in the Marks",
])
def test_negations_ownership_and_forum_are_no_grant(text: str) -> None:
    assert counts(text)["exclusive grant"] == 0


def test_negated_wording_is_its_own_feature() -> None:
    c = counts("This Agreement does not create an exclusive arrangement. The license is non-exclusive.")
    assert c["negated"] == 2  # the stacker weighs it against the grant wording ("an exclusive arrangement")


def test_shipped_stacker_matches_its_patterns_and_reads_the_wording() -> None:
    data = json.loads(STACK.read_text())
    assert set(load_stack()) == set(data["categories"]) == {"Exclusivity"}
    grant = "Supplier hereby appoints Distributor as its exclusive distributor of the Products in the Territory."
    plain = "Distributor shall purchase the Products at the prices in Exhibit A."
    assert stacked_score("Exclusivity", 0.3, grant) > stacked_score("Exclusivity", 0.3, plain)  # type: ignore[operator]
    assert stacked_score("Exclusivity", 0.9, plain) > stacked_score("Exclusivity", 0.1, plain)  # type: ignore[operator]
    assert stacked_score("Non-Compete", 0.3, grant) is None


def test_first_match_skips_the_negated_pattern() -> None:
    texts = ["The license is non-exclusive.", "Supplier appoints Distributor as its exclusive distributor."]
    i, (a, b) = first_match("Exclusivity", texts)  # type: ignore[misc]
    assert i == 1 and texts[1][a:b] == "exclusive distributor"
    assert first_match("Exclusivity", texts[:1]) is None


@pytest.mark.skipif(not ADIA.exists(), reason="needs the CUAD corpus in ../shared/data")
def test_an_exclusive_licence_the_head_missed_is_a_deviation_with_its_quote() -> None:
    pb = parse_playbook("name: t\npositions:\n  - id: excl\n    topic: \"Is anyone bound to deal exclusively?\"\n"
                        "    category: Exclusivity\n    require: absent\n")
    doc = load_file(ADIA)
    alone = Reviewer(pb, stack=False).review(doc.passages, agreement="adia").results[0]
    stacked = Reviewer(pb).review(doc.passages, agreement="adia").results[0]
    assert alone.outcome == "compliant"
    assert stacked.outcome == "deviation" and "agreement's wording" in stacked.why
    assert "exclusive license to distribute" in stacked.quotes[0].text
    assert doc.document.text[stacked.quotes[0].start:stacked.quotes[0].end] == stacked.quotes[0].text
