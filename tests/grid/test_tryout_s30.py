"""Cells two keyed development sets read wrongly on their first read (issue #45; ``benchmarks/data/grid_user_questions_dev17``
and ``_dev18``, written by helpers blind to the code, over train_allowed CUAD agreements), each a rule with its test:

* business shorthand ("Can either party assign this w/o the other's consent? y/n pls", "T for C - can either side terminate
  early w/o cause on notice?") was read word by word: "w/o" is no "without", so four assignment cells were answered the
  opposite way round and a for-cause termination was a free exit;
* "Can either party assign ...?" was answered "No" from a bar on one party alone ("may not be assigned or delegated by
  Affiliate"), when the agreement lets the other party assign ("may be assigned or delegated, in whole or in part, by NETWORK 1
  without the prior written consent of the other party", "is fully assignable by El Pollo Loco");
* "is anyone bound to keep the other side's information quiet and not share it?" was read as non-disparagement and answered
  "No" for agreements with a confidentiality clause;
* a period or a ceiling found by the question's words alone, no reader of the kind of clause asked about confirming it, was
  answered: "Initial commitment pls - yrs/months before any auto-renew kicks in" read a bank rate "for 90 day loans", "if this
  one carries on past its first period, how much longer does each carry-on last?" a warrant's "ninety (90) days" (on the first
  reads of dev12-dev18 such periods were wrong 10 times in 24; such ceilings 4 in 4). They are now unverified, the value kept
  for a reviewer.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed). Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.cells import Cell
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import checks_category, cross_checked, rule_cell
from clauselens.grid.yes_no import asks_secrecy, bound_party, read_yes_no
from clauselens.parsing.types import Span
from clauselens.retrieval.shorthand import expand
from clauselens.retrieval.types import Passage

EITHER = "Can either party assign this w/o the other's consent? y/n pls"
# UsioInc_20040428_SB-2_EX-10.11 Affiliate Agreement 2, 8.04
USIO_FREE = ("8.04 BENEFITS AND ASSIGNMENTS. This agreement may be assigned or delegated, in whole or in part, by NETWORK 1 without the "
             "prior written consent of the other party herein.")
USIO_BAR = "This agreement may not be assigned or delegated by Affiliate without prior written consent from Network 1."
# ElPolloLocoHoldingsInc_20200306_10-K_EX-10.16 Development Agreement, 8.1 and 8.2
POLLO_FREE = ("8.1. This Agreement shall inure to the benefit of Franchisor and its successors and assigns, and is fully assignable by "
              "El Pollo Loco.")
POLLO_BAR = ("Therefore, the rights, privileges and interests of Developer under this Agreement shall not be assigned, sold, transferred, "
             "leased, divided or encumbered, voluntarily or involuntarily, in whole or in part, by operation of law or otherwise without the "
             "prior written consent of El Pollo Loco, which consent may be given or withheld as El Pollo Loco's sole and absolute right.")
# HealthcentralCom_19991108_S-1A_EX-10.27 Co-Branding Agreement, 24
BOTH_BARRED = ("Except as provided in this Section, neither Party may assign its rights or obligations under this Agreement without the "
               "prior written consent of the other Party, which shall not be unreasonably withheld.")


@pytest.mark.parametrize("typed, written", [
    (EITHER, "Can either party assign this without the other's consent? yes or no please"),
    ("T for C - can either side terminate early w/o cause on notice?",
     "termination for convenience - can either side terminate early without cause on notice?"),
    ("Initial commitment pls - yrs/months before any auto-renew kicks in",
     "Initial commitment please - years/months before any auto-renew kicks in"),
    ("AP asking: pmt terms on invoices, how many days?", "AP asking: payment terms on invoices, how many days?"),
    ("Liab cap - amount or formula pls", "liability cap - amount or formula please"),
    ("Go-live per the T&Cs - what date?", "Go-live per the terms and conditions - what date?"),
    ("Vendor entity (whoever's providing the goods/svcs/rights)", "Vendor entity (whoever's providing the goods/services/rights)"),
    ("assign w/consent only?", "assign with consent only?"),
])
def test_shorthand_is_written_out(typed: str, written: str) -> None:
    assert expand(typed) == written


@pytest.mark.parametrize("text", ["How long is the term?", "Is there a mosaic of yearly fees?", "Who pays the payments?",
                                  "Does the agreement say anything about Missouri?", "pmtx yrsa liability"])
def test_no_shorthand_leaves_the_question_as_it_is(text: str) -> None:
    assert expand(text) is text


def test_a_grid_question_reads_the_written_out_words_and_shows_the_typed_ones() -> None:
    q = GridQuestion(id="assign", question=EITHER, type="yes_no")
    assert q.question.startswith("Can either party assign this without") and q.shown == EITHER
    again = GridQuestion(**q.model_dump())  # a stored grid's questions load back unchanged
    assert again.question == q.question and again.shown == EITHER
    plain = GridQuestion(id="term", question="How long is the term?", type="duration")
    assert plain.written == "" and plain.shown == plain.question


@pytest.mark.parametrize("sentence, party", [(USIO_BAR, "affiliate"), (POLLO_BAR, "developer"), (BOTH_BARRED, None),
                                             ("This Agreement may not be assigned by Either Party without consent.", None)])
def test_the_party_a_bar_on_assigning_binds(sentence: str, party: str | None) -> None:
    assert bound_party(sentence, {"assign", "transfer"}) == party


def test_the_other_partys_right_answers_either_party_yes() -> None:
    q = expand(EITHER)
    for free, bar, shown in ((USIO_FREE, USIO_BAR, "by NETWORK 1 without"), (POLLO_FREE, POLLO_BAR, "assignable by El Pollo Loco")):
        text = free + " " + bar
        r = read_yes_no(q, [text])
        assert r.answer == "Yes", r.reason
        assert shown in text[r.start:r.end]


def test_a_bar_on_one_party_alone_is_no_no_for_either_party() -> None:
    r = read_yes_no(expand(EITHER), [USIO_BAR])
    assert r.answer == "" and "restricts only affiliate" in r.reason
    assert read_yes_no(expand(EITHER), [BOTH_BARRED]).answer == "No"


# GSVINC_05_15_1998-EX-10 Sponsorship Agreement; REGANHOLDINGCORP_03_31_2008-EX-10 License and Hosting Agreement
GSV_SECRET = ("c) Each party agrees (i) that it will not disclose to any third party or use any Confidential Information disclosed to it "
              "by the other except as expressly permitted in this Agreement")
REGAN_SECRET = ("TAG will treat the LMG Tools and Documentation with the same degree of care and confidentiality that TAG provides for "
                "similar information belonging to TAG which TAG does not wish disclosed to the public, but not less than reasonable care.")
QUIET = ("What about things I find out about their business along the way - is anyone bound to keep the other side's information quiet "
         "and not share it?")


def test_keeping_information_quiet_is_a_confidentiality_question() -> None:
    assert asks_secrecy(QUIET) and asks_secrecy("Must they not disclose our pricing to others?")
    assert not asks_secrecy("Can they say bad things about us in public?")
    assert not asks_secrecy("Can they keep working with competitors?")
    for sentence in (GSV_SECRET, REGAN_SECRET):
        assert read_yes_no(QUIET, [sentence]).answer == "Yes"


# TELEGLOBEINTERNATIONALHOLDINGSLTD_03_29_2004-EX-10.10 Construction and Maintenance Agreement, 7.8
TELEGLOBE_RATE = ("7.8 For purposes of this Agreement, financial charges shall be computed as applicable on a daily basis from the date "
                  "payment is incurred until the date payment is due, at a rate equal to the lowest publicly announced prime rate or minimum "
                  "commercial lending rate, however described, for 90 day loans in the currencies of the Initial Parties or the currency of "
                  "billing, as applicable, charged by established commercial banks in the countries concerned on the fifteenth day of the "
                  "month in which the costs were incurred by the invoicing Parties.")
# NakedBrandGroupInc_20150731_POS AM (on S-1)_EX-10.75 Endorsement Agreement
NAKED_WARRANT = ("In the event that the Agreement is terminated in accordance with Section 12A, than the [***] term of the Grant Warrant "
                 "[***] shall expire ninety (90) days thereafter.")
# WARNINGMANAGEMENTSERVICESINC_12_10_1999-EX-10 Endorsement Agreement
PEY_DIRT_AUDIT = ("Pey Dirt, or its representatives, shall, upon two weeks' written notice, have the right at all reasonable times (prior to "
                  "the expiration of two (2) years after the termination of the Contract Period) to inspect and make copies of the books and "
                  "records of Company insofar as they shall relate to the computation of royalties to be paid hereunder.")


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


def _cell(question: str, qtype: str, *texts: str, category: str = "") -> Cell:
    base = {"row_key": "a", "question_id": "q", "fingerprint": "", "model": "rule"}
    return rule_cell(base, GridQuestion(id="q", type=qtype, question=question, category=category), _passages(*texts))


@pytest.mark.parametrize("question, sentence, value", [
    ("Initial commitment pls - yrs/months before any auto-renew kicks in", TELEGLOBE_RATE, "90 days"),
    ("I've been caught before by contracts that quietly keep going - if this one carries on past its first period, how much longer "
     "does each carry-on last?", NAKED_WARRANT, "90 days"),
])
def test_a_period_only_the_questions_words_found_is_kept_for_a_reviewer(question: str, sentence: str, value: str) -> None:
    cell = _cell(question, "duration", sentence)
    assert (cell.status, cell.answer, cell.candidate) == ("unverified", "", value), cell
    assert cell.model_quote and not cell.quote and checks_category(cell)


def test_the_kind_of_clause_confirms_or_replaces_the_value() -> None:
    own = _cell("Initial commitment pls - yrs/months before any auto-renew kicks in", "duration", TELEGLOBE_RATE)
    same = own.model_copy(update={"status": "answered", "answer": "90 days", "reason": "the question reads as one about renewal term"})
    other = same.model_copy(update={"answer": "25 years"})
    nothing = same.model_copy(update={"status": "not found", "answer": ""})
    assert cross_checked(own, same) is same and cross_checked(own, other) is other
    assert cross_checked(own, nothing) is own and cross_checked(own, None) is own


def test_a_notice_about_something_else_answers_no_notice_question() -> None:
    """An inspection's "two weeks' written notice" is no notice to end the agreement (read as one on dev14's first read)."""
    cell = _cell("Is there an out - how much notice do we have to give to stop the re-up, or to just walk?", "duration", PEY_DIRT_AUDIT)
    assert cell.status != "answered" and not cell.answer


# TELEGLOBEINTERNATIONALHOLDINGSLTD_03_29_2004-EX-10.10 Construction and Maintenance Agreement, 12.4
TELEGLOBE_CIRCUITS = ("12.4 For each MIU of its Allocated Capacity, a Party is allowed to assign two (2) half STM-l circuits on any Path within "
                      "the APCN 2.")
# ... 22.2
TELEGLOBE_CONSENT = ("22.2 A Party may at any time, with the prior written consent of the Management Committee, assign, sell or transfer the "
                     "whole of its rights and obligations under this Agreement")


def test_assigning_this_is_assigning_the_agreement_not_circuits() -> None:
    r = read_yes_no(expand(EITHER), [TELEGLOBE_CIRCUITS])
    assert r.answer != "Yes", r
    assert read_yes_no(expand(EITHER), [TELEGLOBE_CIRCUITS, BOTH_BARRED]).answer == "No"


def test_a_right_to_assign_with_consent_is_no_right_without() -> None:
    r = read_yes_no(expand(EITHER), [TELEGLOBE_CIRCUITS, TELEGLOBE_CONSENT])
    assert r.answer == "No" and r.passage == 1, r
    assert read_yes_no(expand(EITHER), [USIO_FREE]).answer == "Yes"


# SimplicityEsportsGamingCompany master franchise agreement (a new user's tryout, 2026-12-07)
SMAAASH_CAUSE = ('This Agreement may be terminated by either party for "Cause" without the need of providing a notice period prior to such '
                 'termination becoming effective.')


def test_an_end_for_cause_is_no_free_exit() -> None:
    q = "Can either side get out of it without a reason, just by giving notice?"
    assert read_yes_no(q, [SMAAASH_CAUSE]).answer != "Yes"
    assert read_yes_no(q, ["Either party may terminate this Agreement without cause upon thirty (30) days written notice."]).answer == "Yes"


def test_a_question_about_competence_names_no_non_compete() -> None:
    """The agreement-side word family stays the census's ("compet": 1 of 71 train_allowed non-competes lack it; without
    "competen…" 5 do, so an agreement's "competent" still counts); a question's "competent" asks about no non-compete."""
    from clauselens.heads.category_words import asked_unworded

    texts = ["The Company shall pay the Consultant a fee."]
    assert asked_unworded("Is the consultant competent to do the work?", texts) == ""
    assert asked_unworded("Are they barred from competing?", texts) == "compet"
    assert asked_unworded("Are they barred from competing?", ["a competent manner"]) == ""


# UsioInc_20040428_SB-2_EX-10.11 Affiliate Agreement 2, 5.01
USIO_RENEWS = ("This Agreement will automatically renew for successive one-year terms unless terminated by either party by providing the "
               "other with 30 days written notice that this Agreement will not be renewed.")


# VIRTUALSCOPICS,INC Master Services Agreement (dev16)
VSCI_RENEWS = ("Upon expiration of the Initial Term, unless written notice to the contrary is provided by one party to the other party at "
               "least 30 days prior to the expiration of the then-current term, this Agreement shall be renewed for additional, successive "
               'periods of one (1) year each (each a "Renewal" and together with the Initial Term, collectively, the "Term").')


def test_a_renewal_asked_as_such_keeps_the_renewal_sentences_length() -> None:
    """A renewal's length read from a sentence that renews for further periods is kept when the question asks about the
    renewal itself; a question that only excludes renewals ("before any renewal could even come up") asks the first term."""
    asked = _cell("I want to know how long each extension lasts if it gets renewed.", "duration", VSCI_RENEWS)
    assert (asked.status, asked.answer) == ("answered", "1 year"), asked
    first = _cell("If I sign, how long does the first stretch hold me before any renewal could even come up?", "duration", USIO_RENEWS)
    assert first.status != "answered" and first.answer == ""


def test_a_renewal_named_only_as_what_comes_after_asks_the_first_term() -> None:
    """"Initial commitment pls - yrs/months before any auto-renew kicks in" asks the first term, so a renewal sentence's "one-year
    terms" is no answer to it (a tryout of the shorthand set's question over Usio's affiliate agreement answered "1 year")."""
    from clauselens.grid.term import asks_renewal

    assert not asks_renewal(expand("Initial commitment pls - yrs/months before any auto-renew kicks in"))
    assert asks_renewal(expand("auto-renew period = ? (length of each renewal)"))
    cell = _cell("Initial commitment pls - yrs/months before any auto-renew kicks in", "duration", USIO_RENEWS)
    assert cell.status != "answered" and cell.answer == ""
    from clauselens.grid.term import renewal_only_after

    assert renewal_only_after(expand("Initial commitment pls - yrs/months before any auto-renew kicks in"))
    assert not renewal_only_after("How long does each extension last?") and not renewal_only_after("How long is each extra stretch?")
