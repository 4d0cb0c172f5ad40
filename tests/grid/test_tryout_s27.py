"""Cells a developer's tryout on eight more train_allowed CUAD agreements read wrongly (issue #45), each a rule with its test:

* "From what date is the agreement in force?" was read as a question about the end ("in force" -> "lasts"), and a start
  question read "shall commence effective as of the date hereof and shall expire on December 31, 2028" as a start on
  December 31, 2028;
* a preamble dated "the 19t h day of December, 2018" (a text layer's split "th"), and one whose title page states the date
  before the preamble that says it is the Effective Date;
* "How quickly do invoices have to be paid?" answered with "The Compensation Options will be exercisable for a period of
  24 months" (no payment in it), and "Net 30 days from date of ... invoice" not read as a payment term;
* "What's the price or fee?" answered with a threshold ("does not increase the value ... by more than $ 50M");
* "hand the contract over to another company": the asker's "contract" is the agreement ("Neither party may assign this
  Agreement ..."), not "all contracts for the sale ... provided SCIEN pays the associated Transfer Price";
* "can either side cancel whenever it wants?": an end "by unanimous written agreement of the Parties" is no one's right;
  "the Bank may terminate its engagement" ends something else; "in writing by the Trust Advisors in their sole discretion"
  beside a mutual end is a party's own choice; "may terminate its participation in this Agreement" ends it;
* "does anyone need to carry insurance coverage?": a clause that allows insuring ("may at its own expense insure") or
  supposes it ("Should the Managing Group agree to jointly insure") imposes no duty;
* "How far in advance must someone say they don't want to renew?" required the words "far", "don't" and "want";
* "an automatic 2 year term extensions": a renewal period written before its word.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed) unless marked as made from one. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import preamble_date_kind, read_front_date, topic_groups
from clauselens.grid.heads import clause_sentence, states_clause
from clauselens.grid.periods import about_period_asked, payment_term
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import read
from clauselens.grid.whose import at_will, ends_on, only_by_consent
from clauselens.grid.yes_no import claim_object, read_yes_no
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

# GpaqAcquisitionHoldingsInc_20200123_S-4A_EX-10.8 Sponsorship and Services Agreement: preamble and term
GPAQ_PREAMBLE = ('SPONSORSHIP AND SERVICES AGREEMENT This SPONSORSHIP AND SERVICES AGREEMENT (the "Agreement") is made and entered '
                 'into as of the 19t h day of December, 2018, by and among HOF Village, LLC, a Delaware limited liability company '
                 '("HOFV"), and Constellation NewEnergy, Inc., a Delaware corporation ("Constellation").')
GPAQ_TERM = ('The term of this Agreement (the "Term"), unless mutually extended by written agreement of the Parties or unless sooner '
             'terminated as provided herein, shall commence effective as of the date hereof and shall expire on December 31, 2028.')
IN_FORCE_Q = "From what date is the agreement in force?"


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("question", [IN_FORCE_Q, "Since when does the contract apply?", "As of which day is the deal binding?"])
def test_from_what_date_asks_for_the_start(question: str) -> None:
    assert preamble_date_kind(question) == "effective"


def test_a_start_is_not_the_day_the_term_expires() -> None:
    assert ends_on(GPAQ_TERM, GPAQ_TERM.index("December 31"))
    r = read(GridQuestion(id="start", question=IN_FORCE_Q, type="date"), _passages(GPAQ_PREAMBLE, GPAQ_TERM))
    assert r.value == "2018-12-19"  # it commences "as of the date hereof": the preamble's "19t h day of December, 2018"


def test_the_end_date_question_still_reads_the_expiry() -> None:
    r = read(GridQuestion(id="end", question="When does the agreement expire?", type="date"), _passages(GPAQ_PREAMBLE, GPAQ_TERM))
    assert r.value == "2028-12-31"


def test_the_preamble_date_after_a_title_page_date() -> None:
    # GWG HOLDINGS, INC. - ORDERLY MARKETING AGREEMENT: title page and preamble in one passage
    text = ('Exhibit 10.3 Execution Version GWG HOLDINGS, INC., AND THE TRUST ADVISORS TO THE SELLER TRUSTS LISTED ON SCHEDULE A '
            'HERETO ORDERLY MARKETING AGREEMENT December 27, 2018\n\nORDERLY MARKETING AGREEMENT THIS ORDERLY MARKETING AGREEMENT (the '
            '"OMA") is entered into on December 27, 2018 (the "Effective Date") by and among GWG Holdings, Inc., a Delaware '
            'corporation ("GWG"), and the Trust Advisors to the Seller Trusts listed on Schedule A hereto (the "Trust Advisors").')
    r = read_front_date([text], prefer="effective")
    assert r.value == "2018-12-27" and r.candidate is not None
    assert "Effective Date" in text[r.candidate.start:r.candidate.end]


# OLDAPIWIND-DOWNLTD_01_08_2016-EX-1.3 Agency Agreement; CORIOINC_07_20_2000-EX-10.5 License and Hosting Agreement, Exhibit
OPTIONS = "The Compensation Options will be exercisable for a period of 24 months at the Offering Price."
NET_30 = ("Implementation or Professional Service Fees: Net 30 days from date of Commerce One invoice, which shall be issued only "
          "after successful completion of each agreed upon milestone.")
PAY_Q = "How quickly do invoices have to be paid?"


def test_a_period_of_something_other_than_a_payment_does_not_answer_when_to_pay() -> None:
    assert not about_period_asked(PAY_Q, OPTIONS)
    r = read(GridQuestion(id="pay", question=PAY_Q, type="duration"), _passages("The Agents shall be paid a fee.", OPTIONS))
    assert r.candidate is None


def test_net_30_from_an_invoice_is_a_payment_term() -> None:
    assert payment_term([NET_30]).value == "30 days"
    assert read(GridQuestion(id="pay", question=PAY_Q, type="duration"), _passages(NET_30)).value == "30 days"


def test_a_threshold_is_not_a_price() -> None:
    # STARTECGLOBALCOMMUNICATIONSCORP_11_16_1998-EX-10.30 Construction and Maintenance Agreement, 8.7
    text = ("8.7 The Managing Group shall authorize the Procurement Group to implement contract variations provided that the "
            "cumulative total of all such changes to the Supply Contract does not increase the value of the Supply Contract by "
            "more than $ 50M.")
    assert read(GridQuestion(id="price", question="What's the price or fee?", type="amount"), _passages(text)).candidate is None


# HEMISPHERX - Sales, Marketing, Distribution, and Supply Agreement, VI.E and VII
TRANSFER_PRICE = ("In the event of termination of this Agreement, SCIEN will have the right to complete all contracts for the sale or "
                  "disposition of Product) under which SCIEN is obligated on the date of termination, provided SCIEN pays the associated "
                  "Transfer Price and provided all such sales or dispositions are completed within six (6) months after the date of "
                  "termination.")
NO_ASSIGN = ("Neither party may assign this Agreement or any rights or obligations hereunder, whether by operation of law or otherwise, "
             "without the prior written consent of the other party.")  # CORIO's licence, 14.3
HAND_OVER_Q = "Could one side hand the contract over to another company without asking?"


def test_the_askers_contract_is_the_agreement() -> None:
    assert claim_object("one side may transfer or assign the contract over to another company") == "agreement"
    r = read_yes_no(HAND_OVER_Q, [TRANSFER_PRICE, NO_ASSIGN])
    assert r.answer == "No" and r.passage == 1
    assert read_yes_no(HAND_OVER_Q, [TRANSFER_PRICE]).answer != "No"  # the Transfer Price says nothing of handing it over


QUIT_Q = "Can either side cancel whenever it wants?"
# STARTECGLOBALCOMMUNICATIONSCORP_11_16_1998-EX-10.30, 25.2 and 25.1
UNANIMOUS = "25.2 This Agreement may be terminated at any time during the Initial Period by unanimous written agreement of the Parties."
PARTICIPATION = ("However, any Party may terminate its participation in this Agreement at the end of the Initial Period or at any time "
                 "thereafter by giving at least one year's prior notice, in writing, to the other remaining Parties.")
# GWG HOLDINGS, INC. - ORDERLY MARKETING AGREEMENT, 2(a) and (b)
BANK = ("(b) The Engagement Letter shall provide that the Bank may terminate its engagement at any time upon not less than 45 days' "
        "prior written notice to the other Parties.")
TRUST_ADVISORS = ("Notwithstanding the foregoing, this OMA may be terminated with or without cause at any time after the Effective Date "
                  "and without liability or continuing obligation by any of the Parties hereto (i) by mutual written agreement of all of "
                  "the Parties; and (ii) in writing by the Trust Advisors in their sole discretion.")


def test_an_end_all_parties_must_agree_to_is_no_right_to_quit() -> None:
    assert only_by_consent(UNANIMOUS) and not at_will(UNANIMOUS)
    assert read_yes_no(QUIT_Q, [UNANIMOUS]).answer != "Yes"


def test_a_party_ending_something_else_is_no_right_to_quit() -> None:
    assert not at_will(BANK)
    assert read_yes_no(QUIT_Q, [BANK]).answer != "Yes"


def test_a_partys_own_choice_beside_a_mutual_end_is_a_right_to_quit() -> None:
    assert not only_by_consent(TRUST_ADVISORS) and at_will(TRUST_ADVISORS)
    r = read_yes_no(QUIT_Q, [BANK, TRUST_ADVISORS])
    assert r.answer == "Yes" and r.passage == 1


def test_ending_ones_participation_in_this_agreement_ends_it() -> None:
    r = read_yes_no(QUIT_Q, [UNANIMOUS, PARTICIPATION])
    assert r.answer == "Yes" and r.passage == 1


@pytest.mark.parametrize("text,duty", [
    # STARTECGLOBALCOMMUNICATIONSCORP_11_16_1998-EX-10.30, 13
    ("Any of the Parties may at its own expense insure against such risks so far as its own share of costs is concerned.", False),
    ("Should the Managing Group agree to jointly insure against such risks, the cost of such insurance will form part of the "
     "capital costs referred to in Subparagraph 13.1.", False),
    # made from common CUAD wording
    ("Licensee shall maintain, at its own cost, comprehensive general liability insurance of at least $1,000,000 per occurrence.", True),
    ("Distributor shall obtain and keep in force product liability insurance naming Supplier as an additional insured.", True),
])
def test_an_insurance_yes_needs_a_partys_duty(text: str, duty: bool) -> None:
    assert states_clause("Insurance", text) is duty
    assert states_clause("Audit Rights", text)  # a kind with no wording check
    assert (clause_sentence("Insurance", ["The parties met.", text]) is not None) is duty


def test_a_non_compete_yes_quotes_a_sentence_about_competing() -> None:
    # HealthcentralCom_19991108_S-1A_EX-10.27 Co-Branding Agreement (the presence head's best sentence for Non-Compete)
    data = ("During the Term of this Agreement and for a period of six (6) months thereafter, MediaLinx shall not use or publicly "
            "disclose the data collected from the Co-Branded Site.")
    compete = "MediaLinx shall not operate a health site that competes with the Co-Branded Site."  # made for the test
    assert not states_clause("Non-Compete", data) and states_clause("Non-Compete", compete)
    assert clause_sentence("Non-Compete", [data, compete], order=[1, 0])[0] == 1


def test_a_termination_for_convenience_yes_ends_the_agreement_at_will() -> None:
    # ElPolloLocoHoldingsInc_20200306_10-K_EX-10.16 Franchise Development Agreement
    rights = ("a. Franchisor may terminate or modify any rights that Developer may have with respect to protected exclusive rights in "
              "the Territory, as granted under this Agreement.")
    assert not states_clause("Termination For Convenience", rights)
    assert states_clause("Termination For Convenience", "Either party may terminate this Agreement for convenience on 90 days notice.")


# CORIOINC_07_20_2000-EX-10.5, 11.1; HEMISPHERX, VI.A
CORIO_RENEWS = ("Thereafter, this Agreement shall automatically renew for subsequent one (1) year periods unless either party provides "
                "the other party with written notification at least thirty (30) days prior to the expiration of the initial five (5) "
                "year term or any one (1) year renewal thereof of its intention to terminate this Agreement.")
HEMISPHERX_TERM = ("A. The Term will be 3 years from Effective Date with an automatic 2 year term extensions unless otherwise advised by "
                   "one of the Parties.")


def test_far_in_advance_asks_for_a_notice_and_wants_no_word() -> None:
    q = "How far in advance must someone say they don't want to renew?"
    assert {g.name for g in topic_groups(q)} == {"advanc", "renew"}
    assert read(GridQuestion(id="notice", question=q, type="duration"), _passages(CORIO_RENEWS)).value == "30 days"


def test_a_renewal_period_written_before_its_word() -> None:
    q = GridQuestion(id="renew", question="If it rolls over, for how long each time?", type="duration")
    assert read(q, _passages(HEMISPHERX_TERM)).value == "2 years"
    assert read(q, _passages(CORIO_RENEWS)).value == "1 year"


# --- a second tryout, eight more train_allowed agreements

def test_the_laws_and_decisions_of_a_state_govern() -> None:
    # EcoScienceSolutionsInc_20171117_8-K_EX-10.1 Endorsement Agreement
    text = ("Regardless of the place of execution hereof, this Agreement, all amendments hereto, and any and all issues or "
            "controversies arising here from or related hereto, shall be governed by and construed exclusively in accordance with "
            "the laws and decisions of the State of Michigan.")
    q = GridQuestion(id="law", question="Under which jurisdiction's law is the agreement interpreted?", type="jurisdiction")
    assert read(q, _passages(text)).value == "Michigan"


def test_a_payment_deadline_asked_without_an_invoice() -> None:
    q = GridQuestion(id="due", question="Within how many days must payments be made?", type="duration")
    # ArcGroupInc_20171211_8-K_EX-10.1 Sponsorship Agreement (made shorter)
    playoff = "Sponsor shall pay the Playoff Payments not later than 30 days following Sponsor's receipt of an invoice."
    assert read(q, _passages(playoff)).value == "30 days"
    # LejuHoldingsLtd_20140121 Content License Agreement (force majeure): "due to" is no payment due
    excused = "In no event shall such nonperformance by Licensee be excused due to any such event for longer than ninety (90) days."
    assert read(q, _passages(excused)).candidate is None


def test_an_assignment_on_notice_alone_needs_no_permission() -> None:
    # UAGHINC_04_14_2004-EX-10.18 Maintenance Agreement, 5.5
    text = "This Agreement and the rights and obligations hereunder may be assigned by the Provider upon written notice to the Company."
    r = read_yes_no("May a party assign the agreement without the other's permission?", [text])
    assert r.answer == "Yes"


@pytest.mark.parametrize("text", [
    # ElPolloLocoHoldingsInc_20200306 Franchise Development Agreement, 7 (insurance)
    "All policies shall provide Franchisor with at least thirty (30) days' notice of cancellation or termination of coverage.",
    # LejuHoldingsLtd_20140121 Content License Agreement, 6.1 (page footer removed)
    "Beginning twelve (12) months prior to the expiration of the Initial Term, the Parties shall use good faith efforts to "
    "negotiate an extension of the term of this Agreement.",
])
def test_no_notice_to_end_the_agreement(text: str) -> None:
    q = GridQuestion(id="notice", question="What notice period applies if a party wants out?", type="duration")
    assert read(q, _passages(text)).candidate is None


def test_a_threshold_percentage_in_a_definition_is_no_royalty() -> None:
    # ElPolloLocoHoldingsInc_20200306 Franchise Development Agreement, 20.1
    text = ("For purposes of this Section 20.1, a Competitive Business shall mean a self-service restaurant or fast-food business which "
            "sells chicken and/or Mexican food products, which products individually or collectively represent more than twenty "
            "percent (20%) of the revenues from such self-service restaurant or fast-food business.")
    q = GridQuestion(id="rate", question="What royalty or commission rate applies?", type="amount")
    assert read(q, _passages(text)).candidate is None
