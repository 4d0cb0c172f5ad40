"""Playbook review outcomes on real CUAD contracts (issue #44), LLM-free.

Contracts of the CUAD report split (not in ``train_allowed.txt``), from ``../shared/data/legalbench-rag/corpus/cuad``.
Their CUAD labels: CCA's outsourcing agreement has an anti-assignment clause (9.04: assignment only with
consent), audit rights and insurance, no cap on liability and no non-compete, New Jersey law and a renewal
notice of six months; Cool Technologies' alliance agreement has Missouri law."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.playbook.model import parse_playbook
from clauselens.playbook.review import Reviewer, check_invariants
from clauselens.playbook.rules import evaluate, governing_law, near_period
from clauselens.playbook.sources import load_file

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
CCA = CUAD / "CCAINDUSTRIESINC_04_14_2014-EX-10.1-OUTSOURCING AGREEMENT.txt"
COOL = CUAD / "COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71-Strategic Alliance Agreement.txt"
needs_cuad = pytest.mark.skipif(not (CCA.exists() and COOL.exists()), reason="needs the CUAD corpus in ../shared/data")

PLAYBOOK = """
name: test positions
positions:
  - id: assignment
    topic: "Can a party assign without consent?"
    category: Anti-Assignment
    terms: [assign, transfer]
    require: consent_required
  - id: cap
    topic: "Is liability capped?"
    category: Cap On Liability
    require: present
    preferred: "Each party's liability is capped at the fees paid in the twelve (12) months before the claim."
  - id: insurance
    topic: "Must a party carry insurance?"
    category: Insurance
    require: present
  - id: no_non_compete
    topic: "Is there a non-compete?"
    category: Non-Compete
    require: absent
  - id: law
    topic: "Which law governs?"
    category: Governing Law
    require: {governing_law_in: [New York, Delaware]}
    preferred: "This Agreement is governed by the laws of the State of New York."
  - id: renewal_notice
    topic: "What notice stops the renewal?"
    category: Notice Period To Terminate Renewal
    value_near: [notice, prior, written]
    require: {period_at_most: 90 days}
  - id: confidentiality
    topic: "Must the parties keep information confidential?"
    terms: [confidential, proprietary, disclose]
    require: present
  - id: residuals
    topic: "Is there a residuals clause?"
    terms: [residual]
    require: absent
"""


@pytest.fixture(scope="module")
def cca():  # type: ignore[no-untyped-def]
    pb = parse_playbook(PLAYBOOK, "test.yaml")
    a = load_file(CCA)
    return pb, a, {r.position_id: r for r in Reviewer(pb).review(a.passages, agreement=a.label).results}


@needs_cuad
def test_each_outcome_on_a_real_contract(cca) -> None:  # type: ignore[no-untyped-def]
    pb, a, res = cca
    text = a.document.text
    assert res["assignment"].outcome == "compliant" and res["assignment"].value == "consent required"
    q = res["assignment"].quotes[0]  # a value's quote is the sentence holding it; the clause heading beside it
    assert "consent" in q.text and "Assignment" in q.heading and res["assignment"].decided_by == "value rule"
    assert q.text.startswith("This Agreement may not be assigned")
    assert res["insurance"].outcome == "compliant" and res["insurance"].decided_by == "presence head"
    assert res["cap"].outcome == "missing" and not res["cap"].quotes
    assert res["no_non_compete"].outcome == "compliant" and "no such clause" in res["no_non_compete"].why
    assert res["law"].outcome == "deviation" and res["law"].value == "New Jersey"
    assert res["renewal_notice"].outcome == "deviation" and res["renewal_notice"].value == "6 months"
    assert res["confidentiality"].outcome == "compliant" and res["confidentiality"].decided_by == "topic search"
    assert res["residuals"].outcome == "compliant" and "none found" in res["residuals"].why
    for r in res.values():  # every quote is the document's text, word for word, at its offsets
        for q in r.quotes:
            assert text[q.start:q.end] == q.text and q.text.strip()
    assert res["law"].quotes[0].clause  # clause reference shown with the quote


@needs_cuad
def test_unclear_is_first_class() -> None:
    pb = parse_playbook(PLAYBOOK, "test.yaml")
    a = load_file(COOL)
    res = {r.position_id: r for r in Reviewer(pb, calibration={}).review(a.passages, agreement=a.label).results}
    near = res["renewal_notice"]  # the head scores 0.99 against its own 0.99 threshold: not decided, the clause shown
    assert near.outcome == "unclear" and "too close to the threshold" in near.why and near.quotes
    assert near.threshold == pytest.approx(0.9934, abs=1e-3)
    wide = parse_playbook(PLAYBOOK.replace("name: test positions", "name: t\nunclear_margin: 4"), "test.yaml")
    res2 = {r.position_id: r for r in Reviewer(wide, calibration={}).review(a.passages, agreement=a.label).results}
    assert sum(r.outcome == "unclear" for r in res2.values()) > sum(r.outcome == "unclear" for r in res.values())
    check_invariants(wide, list(res2.values()))  # a rule that needs a clause is never compliant without one
    cal = {"Notice Period To Terminate Renewal": {"threshold": 0.5, "margin": 0.0}}  # a calibrated band moves the line
    res3 = {r.position_id: r for r in Reviewer(pb, calibration=cal).review(a.passages, agreement=a.label).results}
    assert res3["renewal_notice"].outcome != "unclear" and res3["renewal_notice"].threshold == 0.5


class _P:
    def __init__(self, text: str, start: int, ref: str) -> None:
        from clauselens.parsing.types import Span

        self.text, self.spans, self.clause_ref, self.heading_path, self.page_start = text, [Span(start=start, end=start + len(text))], ref, [], 1


def test_conflicting_clauses_are_unclear() -> None:
    law = ("{n}. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the "
           "State of {s}, without regard to its conflict of laws principles.")
    filler = "The Supplier shall deliver the Products to the Customer at the delivery point set out in the order."
    texts = [filler, law.format(n=12, s="New York"), filler, law.format(n=18, s="Texas")]
    passages, off = [], 0
    for i, t in enumerate(texts):
        passages.append(_P(t, off, str(i + 1)))
        off += len(t) + 1
    pb = parse_playbook(PLAYBOOK, "t")
    res = {r.position_id: r for r in Reviewer(pb).review(passages, agreement="synthetic").results}
    assert res["law"].outcome == "unclear" and res["law"].why.startswith("conflicting clauses")
    assert {q.clause for q in res["law"].quotes} == {"2", "4"}


@needs_cuad
def test_never_compliant_without_a_quote(cca) -> None:  # type: ignore[no-untyped-def]
    pb, _, res = cca
    results = list(res.values())
    check_invariants(pb, results)
    broken = results[0].__class__(**{**results[0].to_dict(), "quotes": [], "outcome": "compliant"})
    with pytest.raises(AssertionError, match="compliant without a quoted clause"):
        check_invariants(pb, [broken])


def test_value_rules_read_the_clause() -> None:
    law = parse_playbook(PLAYBOOK, "t").positions[4].require
    clause = ("This Agreement shall be governed by the laws of the State of Delaware, United States. Any action shall be "
              "brought in the courts of New York.")
    assert governing_law(clause) == {"Delaware"}
    assert evaluate(law, clause, []).outcome == "compliant"
    assert evaluate(law, "governed by the laws of England and Wales", []).outcome == "deviation"
    assert evaluate(law, "This clause names no place.", []).outcome == "unclear"
    assert governing_law("THIS AGREEMENT IS GOVERNED BY THE LAWS OF THE STATE OF GEORGIA.") == {"Georgia"}  # capitals
    assert governing_law("This Agreement is governed by English law and the English courts.") == {"England"}
    assert governing_law("The parties met in Georgia. It is governed by the laws of Texas.") == {"Texas"}
    notice = parse_playbook(PLAYBOOK, "t").positions[5].require
    renew = ("This Agreement renews for successive one (1) year terms unless either party gives written notice at least "
             "one hundred twenty (120) days prior to the end of the term.")
    from clauselens.grid.values import durations_at

    assert [(str(p), renew[a:b]) for p, a, b in durations_at(renew)] == [("1 year", "one (1) year"),
                                                                         ("120 days", "one hundred twenty (120) days")]
    got = near_period(renew, ["notice", "prior"])
    assert isinstance(got, tuple) and str(got[0]) == "120 days"
    assert evaluate(notice, renew, ["notice", "prior"]).outcome == "deviation"
    consent = parse_playbook(PLAYBOOK, "t").positions[0].require
    assert evaluate(consent, "Neither party may assign this Agreement without the prior written consent of the other.",
                    []).outcome == "compliant"
    assert evaluate(consent, "Either party may assign this Agreement without the consent of the other party.", []).outcome == "deviation"
    assert evaluate(consent, "This Agreement is not assignable.", []).outcome == "unclear"
    cap_yaml = "name: c\npositions:\n  - {id: c, topic: cap on liability, require: {cap_months_of_fees_at_least: 12}}\n"
    cap = parse_playbook(cap_yaml).positions[0].require
    assert evaluate(cap, "Liability shall not exceed the fees paid in the six (6) months preceding the claim.", []).outcome == "deviation"
    assert evaluate(cap, "Liability shall not exceed the fees paid in the twelve (12) months preceding the claim.", []).outcome == "compliant"
    assert evaluate(cap, "Liability shall not exceed $50,000.", []).outcome == "unclear"


@needs_cuad
def test_model_reading_is_labelled_and_changes_no_outcome(tmp_path: Path) -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from clauselens.playbook.reading import make_reader
    from clauselens.playbook.report import to_markdown

    pb = parse_playbook(PLAYBOOK, "test.yaml")
    a = load_file(CCA)
    plain = Reviewer(pb).review(a.passages, agreement=a.label)
    fake = FakeListChatModel(responses=["The clause picks New Jersey law."] * 20)
    read = Reviewer(pb).review(a.passages, agreement=a.label, reading=make_reader(fake))
    assert [r.outcome for r in read.results] == [r.outcome for r in plain.results]
    assert all(r.reading == "The clause picks New Jersey law." for r in read.results if r.quotes)
    assert all(not r.reading for r in read.results if not r.quotes)  # nothing to read: no model call
    md = to_markdown(pb, [read])
    assert "**Model's reading (not a quote):** The clause picks New Jersey law." in md
    assert "> The clause picks" not in md  # never shown as a quote


def test_a_long_clause_is_quoted_around_its_value() -> None:
    from clauselens.playbook.review import quote_of

    filler = "The parties shall cooperate in good faith on every matter under this Agreement. " * 30
    text = filler + "Either party may give ninety (90) days notice of non-renewal. " + filler
    p = _P(text, 1000, "7.2")
    i = text.index("ninety")
    q = quote_of(p, (i, i + 20))
    assert "ninety (90) days" in q.text and len(q.text) <= 900
    assert text[q.start - 1000:q.end - 1000] == q.text  # still the document's words, at its offsets
    assert q.text.startswith("The parties") and q.clause == "7.2"
    short = quote_of(_P("A short clause.", 5, "1"))
    assert (short.text, short.start, short.end) == ("A short clause.", 5, 20)


def test_a_close_call_on_a_clause_kind_the_agreement_never_words_is_decided() -> None:
    # every presence reading too close to call (a wide band); the agreement (made from CUAD sentences) never says "compet..."
    # nor "insur...": those positions are decided from the word census (grid.heads.NEVER_WORDED), the others stay unclear
    wide = parse_playbook(PLAYBOOK.replace("name: test positions", "name: t\nunclear_margin: 10"), "test.yaml")
    texts = ["This Agreement shall be governed by the laws of the State of New York.",
             "Neither party may assign this Agreement without the prior written consent of the other party.",
             "In no event shall either party's aggregate liability exceed the fees paid in the twelve (12) months before the claim."]
    passages = [_P(t, 1000 * i, str(i + 1)) for i, t in enumerate(texts)]
    res = {r.position_id: r for r in Reviewer(wide, calibration={}).review(passages, agreement="made").results}
    assert res["no_non_compete"].outcome == "compliant" and "never uses the word" in res["no_non_compete"].why
    assert res["insurance"].outcome == "missing" and "never uses the word" in res["insurance"].why
    assert res["cap"].outcome != "missing"  # "liability" is there: the census decides nothing
    check_invariants(wide, list(res.values()))
