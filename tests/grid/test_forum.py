"""Which law governs and where disputes go, read from the clauses that say so (issue #45): a question in everyday words
("which place's laws decide it?", "where would we have to go to fight it out?") picked up a director's university and a
stock exchange's city with its own words and showed no single value; a governing-law clause in capitals named no
jurisdiction at all. Also: a question of two parts with an everyday phrasal verb ("Is there a free exit - can either side
back out at any point without giving a why?") asks about ending the agreement at will, and an end "by agreement in writing
executed by the parties" is no one's free exit.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed) unless marked as made from one. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.evidence import question_claim
from clauselens.grid.extract import asks_convenience, candidates
from clauselens.grid.forum import asks_forum, asks_law, forum, governing_law
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import rule_cell
from clauselens.grid.whose import at_will
from clauselens.grid.yes_no import read_yes_no
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

HC2_LAW = ("THIS AGREEMENT WILL BE GOVERNED IN ALL RESPECTS, INCLUDING VALIDITY, INTERPRETATION AND EFFECT, BY THE LAWS OF THE STATE "
           "OF DELAWARE WITHOUT GIVING EFFECT TO THE CHOICE OF LAW PRINCIPLES OF SUCH STATE.")  # HC2HOLDINGS,INC_05_14_2020-EX-10.1
HC2_FORUM = ("(b) The Parties (a) irrevocably and unconditionally submit to the personal jurisdiction of the Delaware Court of "
             "Chancery (or, only if the Delaware Court of Chancery declines to accept jurisdiction over a particular matter, the "
             "federal or other state courts located in Wilmington, Delaware).")
DISTRACTORS = [  # the same agreement's: a director's biography, an exchange's rules, a party's home
    "In addition to his professional experience, Mr. Glazer received a business degree from Washington University in St. Louis "
    "and received a law degree from American University, Washington College of Law.",
    "The Board has determined that each member of the 2020 Director Slate would qualify as an \"independent director\" under the "
    "applicable rules of the New York Stock Exchange.",
    "This Cooperation Agreement is made by and among MG Capital Management Ltd., a Cayman Islands company, and HC2 Holdings, "
    "Inc., a Delaware corporation (the \"Company\").",
]
LAW_Q = "If we ever argue over what this says, which place's laws decide it?"
FORUM_Q = "Where would we have to go to fight it out - which courts or city?"


def test_questions_are_read_as_law_or_forum() -> None:
    assert asks_law(LAW_Q) and not asks_forum(LAW_Q)
    assert asks_forum(FORUM_Q) and not asks_law(FORUM_Q)
    assert asks_forum("Which courts hear a dispute?") and asks_law("Which state's law governs the agreement?")
    assert not asks_law("When does the agreement end?") and not asks_forum("How much is the fee?")


def test_a_governing_law_clause_in_capitals_is_read() -> None:
    cands, _ = candidates("jurisdiction", LAW_Q, [HC2_LAW])
    assert [c.value for c in cands] == ["Delaware"]
    assert governing_law([*DISTRACTORS, HC2_LAW, HC2_FORUM]).value == "Delaware"


def test_the_forum_clause_names_the_place() -> None:
    assert forum([*DISTRACTORS, HC2_LAW, HC2_FORUM]).value == "Delaware"
    # WESTERN COPPER - NON-COMPETITION AGREEMENT 4.8; WORLDWIDESTRATEGIESINC_11_02_2005 10.12(b)(iii)
    assert forum(["4.8 This Agreement will be governed exclusively by and construed in accordance with the laws of the Province of "
                  "British Columbia, and the parties attorn to the exclusive jurisdiction of the Courts of British Columbia."]).value \
        == "British Columbia"
    assert forum(["(iii) The arbitration shall be conducted in Denver, Colorado, United States."]).value == "Colorado"


@pytest.mark.parametrize("sentence", [
    # MOVADOGROUPINC_04_30_2003-EX-10.28 (the conflict-of-laws words name no forum; its end made from the usual wording)
    "Except to the extent preempted by ERISA, all rights hereunder shall be governed by and construed in accordance with the laws "
    "of the State of New York without regard to its rules governing conflicts of law of any other jurisdiction.",
    DISTRACTORS[2],
    "Either party may seek injunctive relief in any court of competent jurisdiction.",
])
def test_no_forum_is_read_from_a_law_or_a_home(sentence: str) -> None:
    assert forum([sentence]).candidate is None


def test_two_forums_leave_the_cell_for_a_reviewer() -> None:
    r = forum(["The parties submit to the exclusive jurisdiction of the courts of the State of New York.",
               "Any arbitration shall be held in London, England."])  # made from two CUAD clauses
    assert r.candidate is None and {c.value for c in r.choices} == {"New York", "England"}


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("question, answer, said", [(LAW_Q, "Delaware", "GOVERNED IN ALL RESPECTS"), (FORUM_Q, "Delaware", "Court of Chancery")])
def test_the_cell_quotes_the_clause_that_decides(question: str, answer: str, said: str) -> None:
    base = {"row_key": "a", "question_id": "j", "fingerprint": "", "model": "rule"}
    cell = rule_cell(base, GridQuestion(id="j", type="jurisdiction", question=question), _passages(*DISTRACTORS, HC2_LAW, HC2_FORUM))
    assert cell.status == "answered" and cell.answer == answer and said in cell.quote, cell


FREE_EXIT = "Is there a free exit - can either side back out at any point without giving a why?"


def test_a_two_part_question_with_a_phrasal_verb_asks_about_ending_at_will() -> None:
    claim = question_claim(FREE_EXIT)
    assert claim is not None and claim.startswith("either side may terminate")
    assert asks_convenience(FREE_EXIT)
    assert question_claim("Can the buyer walk away from the deal early?") == "the buyer may terminate or cancel the deal early"
    assert question_claim("Is there a free exit?") is None


def test_an_end_by_both_parties_written_agreement_is_no_free_exit() -> None:
    mutual = "4.10 This Agreement may be terminated at any time by agreement in writing executed by the parties."  # WESTERN COPPER
    assert not at_will(mutual)
    own = ("3.5 Western Copper may, at its option, terminate this Agreement by written notice to Glamis, effective immediately upon "
           "delivery of the notice, should Glamis cease to carry on business.")  # made from WESTERN COPPER 3.5 (OCR mended)
    r = read_yes_no(FREE_EXIT, [mutual, own])
    assert r.answer == "" and "left for a reviewer" in r.reason, r  # no "No": a free exit may be worded elsewhere (2026-12-07)
    notice = ("PROVIDED that TouchStar shall have the right to terminate this Agreement at any time after the Effective Date upon "
              "not less than fifteen (15) days' prior written notice to Reseller.")  # WORLDWIDESTRATEGIESINC_11_02_2005 8.1
    assert read_yes_no(FREE_EXIT, [mutual, own, notice]).answer == "Yes"


def test_a_par_value_or_a_securitys_coupon_is_no_fee() -> None:
    from clauselens.grid.values import amounts_at, named_amount

    # BLUEROCKRESIDENTIALGROWTHREIT,INC_06_01_2016-EX-1.1 (the Agent's fee, 3.15%, is the agreement's value)
    text = ("up to a total of 400,000 shares (the \"Offered Shares\") of its 8.250% Series A Cumulative Redeemable Preferred Stock, par "
            "value $0.01 per share, and any shares of common stock, $0.01 par value per share. The Agent's aggregate fee for its "
            "services hereunder will be an amount equal to 3.15% of the gross proceeds")
    kept = [str(a) for a, s, e in amounts_at(text) if not named_amount(text, s, e)]
    assert kept == ["3.15%"]
    assert not named_amount("a fee of $5,000 per month", 9, 15)


def test_a_question_naming_its_unit_takes_a_period_in_that_measure() -> None:
    from clauselens.grid.extract import read_typed

    # SECURIANFUNDSTRUST_05_01_2012-EX-99.28.H.9, 1.5 and 1.6 (made shorter)
    texts = ["The Expense Waiver may be recovered by the Investment Adviser only within three years of the payment.",
             "The Fund shall make such payment within 30 days after each month-end."]
    assert read_typed("duration", "What's the payment deadline on an invoice - net how many days?", texts).value == "30 days"
    assert read_typed("duration", "How many months does the Investment Adviser have to recover the payment?", texts).value == "3 years"


def test_walk_away_whenever_it_wants_is_read_by_the_at_will_rule() -> None:
    """A new user's tryout: "Can either side just walk away from the deal whenever it wants, with notice but no reason?" went
    to the model, which answered Yes from a termination-for-cause clause; the rule reads it ("the deal" is the agreement)."""
    q = "Can either side just walk away from the deal whenever it wants, with notice but no reason?"
    claim = question_claim(q)
    assert claim is not None and claim.startswith("either side may terminate") and asks_convenience(q)
    # LUCIDINC_04_15_2011-EX-10.9 16A and 16C (shortened)
    cause = "A) Either party may terminate this agreement by giving written Notice to the other party if: i) The other party fails to perform."
    notice = "C) Either party may terminate this agreement by providing Ninety days Written Notice."
    assert read_yes_no(q, [cause, notice]).answer == "Yes"
    assert read_yes_no(q, [cause]).answer == ""  # for a reviewer: a free exit may be worded elsewhere


def test_a_head_yes_may_quote_the_concepts_word_in_another_form() -> None:
    from clauselens.grid.rule import _uses_question_words

    q = "Is one side barred from working with competitors or selling rival products?"
    # SCOUTCAMINC_05_12_2020-EX-10.22 §8 (made shorter)
    assert _uses_question_words(q, "Maimon agrees not to compete with the Company during the term and for two years thereafter.")
    assert not _uses_question_words(q, "The Company shall pay Maimon a monthly fee of $1,000.")
