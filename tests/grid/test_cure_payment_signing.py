"""Periods and dates a user asks for in everyday words (issue #45): the time to cure a breach ("how much time do they have
to fix it?"), the time to pay an invoice ("how long after getting a bill does the payment have to go out?"), and the day an
agreement was signed when its preamble is dated "as of" another day.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed) unless marked as made from one. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.periods import asks_cure, asks_payment_term, cure_period, payment_term
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import read
from clauselens.grid.signing import last_signature
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

CURE = ("(b) Reseller breaches any of its other obligations under this Agreement and such breach remains unremedied for a period "
        "of thirty (30) days after written notice thereof from TouchStar.")  # WORLDWIDESTRATEGIESINC_11_02_2005-EX-10 8.2(b)
PAYMENT = ("Payment of the Fees shall be due and payable within ten (10) days of the date of the invoice.")  # the same, 6.1(b)
OTHERS = ["This Agreement shall continue in force for a term of twelve (12) months from the Effective Date.",
          "TouchStar shall have the right to terminate this Agreement upon not less than fifteen (15) days' prior written notice."]


@pytest.mark.parametrize("question", ["If one side breaks a promise, how much time do they have to fix it?",
                                      "If someone messes up, how long do they get to put it right before the other side can pull the "
                                      "plug?", "What is the cure period for a breach?"])
def test_cure_questions(question: str) -> None:
    assert asks_cure(question) and not asks_payment_term(question)


@pytest.mark.parametrize("question", ["How many days do we get to pay an invoice?",
                                      "How long after getting a bill does the payment have to go out?",
                                      "What's the payment deadline on an invoice - net how many days?"])
def test_payment_term_questions(question: str) -> None:
    assert asks_payment_term(question) and not asks_cure(question)


@pytest.mark.parametrize("question", ["How long does the agreement last?", "How long is the warranty?", "How much is the fee?",
                                      "How much notice do we owe them to end it?"])
def test_other_questions_are_neither(question: str) -> None:
    assert not asks_cure(question) and not asks_payment_term(question)


def test_the_cure_and_the_payment_periods_are_read_from_their_clauses() -> None:
    texts = [*OTHERS, CURE, PAYMENT]
    assert cure_period(texts).value == "30 days" and cure_period(texts).candidate.passage == 2  # type: ignore[union-attr]
    assert payment_term(texts).value == "10 days" and payment_term(texts).candidate.passage == 3  # type: ignore[union-attr]
    assert cure_period(OTHERS).candidate is None and payment_term(OTHERS).candidate is None
    # two cure periods (made from the same agreement's 8.2(a)): no single value
    two = cure_period([CURE, "(a) Reseller fails to pay any Fees when due and such failure remains unremedied for a period of ten "
                             "(10) days after written notice."])
    assert two.candidate is None and {c.value for c in two.choices} == {"30 days", "10 days"}


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


def test_a_grid_cell_reads_them() -> None:
    passages = _passages(*OTHERS, CURE, PAYMENT)
    fix = read(GridQuestion(id="fix", type="duration", question="If one side breaks a promise, how much time do they have to fix it?"),
               passages)
    assert fix.value == "30 days"
    pay = read(GridQuestion(id="pay", type="duration", question="How long after getting a bill does the payment have to go out?"),
               passages)
    assert pay.value == "10 days"


PREAMBLE = ("This Strategic Alliance Agreement (the \"Agreement\") is entered into as of October 1, 2008 (the \"Effective Date\") by "
            "and between IntriCon Corporation and Dynamic Hearing Pty Ltd.")  # made from INTRICONCORP_03_10_2009-EX-10.1
BLOCKS = ("DYNAMIC HEARING PTY LTD By: /s/ Elaine Saunders Dated: July 16, 2008 INTRICON CORPORATION By: /s/ Mark S. Gorder "
          "Dated: July 20, 2008")


def test_the_day_it_was_signed_is_the_last_signature_blocks() -> None:
    r = last_signature([PREAMBLE, BLOCKS])
    assert r.value == "2008-07-20" and "2008-07-16, 2008-07-20" in r.reason
    # a form's date field is no signature block (HOSPITALITYINVESTORSTRUST,INC_04_07_2014-EX-10.26's exhibit)
    assert last_signature(["EXHIBIT A - PRODUCT IMPROVEMENT PLAN Property Information Open Date: 2005-02-14",
                           "ADDENDUM TO FRANCHISE AGREEMENT Effective Date: March 21, 2014"]).candidate is None
    cell = read(GridQuestion(id="s", type="date", question="When did the two companies sign this?"), _passages(PREAMBLE, BLOCKS))
    assert cell.value == "2008-07-20"
    # the date the agreement bears, asked without signing words, is still left to a reviewer when the two differ
    dated = read(GridQuestion(id="d", type="date", question="What is the date of this agreement?"), _passages(PREAMBLE, BLOCKS))
    assert dated.value != "2008-07-20"


def test_a_violation_to_remedy_is_a_breach_to_cure() -> None:
    # FLOTEKINDUSTRIESINCCN_05_09_2019-EX-10.1 §18(a)(i) (made shorter; a new user's tryout missed it)
    text = ("(i) When the other Party materially violates one or more clause set forth herein and does not remedy such violation "
            "within 30 days from receiving the written notice (\"Cure Period\").")
    assert cure_period([text]).value == "30 days"
