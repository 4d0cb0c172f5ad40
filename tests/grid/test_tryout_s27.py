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
* "How far in advance must someone say they don't want to renew?" required the words "far", "don't" and "want" (and
  "how far in advance" asks how much notice);
* "an automatic 2 year term extensions": a renewal period written before its word.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed) unless marked as made from one. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import Reading, preamble_date_kind, read_front_date, topic_groups
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


def _reading(question: str, qtype: str, *texts: str) -> Reading:
    """The rule's reading of a user's ``question`` of ``qtype`` over ``texts`` (one passage each)."""
    return read(GridQuestion(id="q", question=question, type=qtype), _passages(*texts))


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
    assert {g.name for g in topic_groups(q)} == {"notic", "renew"}  # "how far in advance": how much notice
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
    assert _reading("What notice period applies if a party wants out?", "duration", text).candidate is None


def test_a_threshold_percentage_in_a_definition_is_no_royalty() -> None:
    # ElPolloLocoHoldingsInc_20200306 Franchise Development Agreement, 20.1
    text = ("For purposes of this Section 20.1, a Competitive Business shall mean a self-service restaurant or fast-food business which "
            "sells chicken and/or Mexican food products, which products individually or collectively represent more than twenty "
            "percent (20%) of the revenues from such self-service restaurant or fast-food business.")
    assert _reading("What royalty or commission rate applies?", "amount", text).candidate is None


# --- a third tryout, ten more train_allowed agreements

def test_can_they_assign_is_answered_by_the_consent_rule_not_by_the_anti_assignment_kind() -> None:
    from clauselens.grid.heads import asks_permission

    q = "Can they assign the contract to someone else?"
    assert asks_permission(q, "Anti-Assignment") and not asks_permission("Is assignment restricted?", "Anti-Assignment")
    assert not asks_permission("Does anyone get exclusive rights?", "Exclusivity")
    # AMERICANPHYSICIANSCAPITALINC_03_31_2003-EX-10.26 Agency Agreement
    r = read_yes_no(q, ["Agency may not assign this Agreement without the written permission of MICOA or its successors or assigns."])
    assert r.answer == "No"


def test_until_what_date_asks_for_the_end() -> None:
    # MusclepharmCorp_20170208_10-KA_EX-10.38 Endorsement Licensing and Co-Branding Agreement
    preamble = ('ENDORSEMENT LICENSING AND CO-BRANDING AGREEMENT This ENDORSEMENT LICENSING AND CO-BRANDING AGREEMENT is entered into '
                'on July 26, 2013 (the "Effective Date") by and between MusclePharm Corporation and Endorser.')
    term = ("The Term shall commence on July 23, 2013 and shall expire on July 22, 2016, unless otherwise terminated earlier pursuant "
            "to Section 9 of this Agreement.")
    q = GridQuestion(id="end", question="Until what date does the agreement run?", type="date")
    assert read(q, _passages(preamble, term)).value == "2016-07-22"


@pytest.mark.parametrize("category,text", [
    # WASTE2ENERGYHOLDINGS,INC_06_03_2010-EX-10.2 Strategic Alliance Agreement, 21.13.1
    ("Non-Compete", "21.13.1 If any Clause, or part of a Clause, of this Agreement, is found by any court or administrative body of "
                    "competent jurisdiction to be illegal, invalid or unenforceable, that provision shall be severed."),
    # RUBIOSRESTAURANTSINC_03_31_2008-EX-10.75 Sponsorship Agreement (made from its General Provisions)
    ("Exclusivity", "No marketing exclusivity in any category or with respect to any competitors of Sponsor is conferred or implied by "
                    "this Agreement."),
    ("Exclusivity", "Licensor grants Licensee a non-exclusive licence to use the Marks in the Territory."),
    # RangeResourcesLouisianaInc_20150417_8-K_EX-10.5 Transportation Services Agreement
    ("Exclusivity", "Any Dispute shall be resolved pursuant to the provisions of this ARTICLE XII, which shall be the sole and exclusive "
                    "procedures for the resolution of any Dispute."),
    ("Exclusivity", '"AMI/MEA Agreement" shall mean that certain Amended and Restated Area of Mutual Interest and Midstream Exclusivity '
                    'Agreement dated April 14, 2015.'),
])
def test_a_heads_yes_does_not_quote_a_word_that_says_something_else(category: str, text: str) -> None:
    assert not states_clause(category, text)


def test_insolvency_laws_are_no_governing_law_and_the_governing_law_clause_comes_first() -> None:
    # MusclepharmCorp_20170208 Endorsement Agreement, 9 and 21
    default = ("(C) commences or becomes the subject of any case or proceeding under the bankruptcy, insolvency or equivalent laws of "
               "the United States or any other jurisdiction in the Territory which is not dismissed within 45 days;")
    law = ("21. Governing Law: This Agreement has been executed and delivered in Los Angeles County in the State of California, and "
           "its interpretation, validity and performance shall be construed and enforced in accordance with the laws of the State of "
           "California.")
    q = GridQuestion(id="law", question="What's the governing law?", type="jurisdiction")
    assert read(q, _passages(default, law)).value == "California"
    assert read(q, _passages(default)).candidate is None
    forum_q = GridQuestion(id="forum", question="Which courts have jurisdiction?", type="jurisdiction")
    assert read(forum_q, _passages(default)).candidate is None


def test_england_and_wales_is_england() -> None:
    # SMITHELECTRICVEHICLESCORP_04_04_2012-EX-10.26 Fleet Maintenance Agreement, 28
    text = ("28. Law and jurisdiction This Agreement shall be governed by and construed in all respects in accordance with the law of "
            "England and Wales and both parties submit to the exclusive jurisdiction of the English Courts.")
    q = GridQuestion(id="forum", question="Which courts have jurisdiction?", type="jurisdiction")
    assert read(q, _passages(text)).value == "England"


@pytest.mark.parametrize("text", [
    # RangeResourcesLouisianaInc_20150417 Transportation Services Agreement (Tariff J): a cure
    "J. If Shipper fails to pay an invoice by the due date, Carrier will notify Shipper of the failure, and if Shipper has not remedied "
    "the failure within thirty (30) days following receipt of notice from Carrier, Carrier shall have the right to suspend Services.",
    # MusclepharmCorp_20170208 (royalty statements): a time to question a statement
    "(vii) Receipt or acceptance by Lender of a royalty statement or of any accompanying royalty payment shall not prevent Lender from at "
    "any time within three years after the Term of this Agreement questioning the validity or accuracy of such royalty statement.",
    # RUBIOSRESTAURANTSINC_03_31_2008 Sponsorship Agreement: a termination's trigger
    "At its sole option, SDBF may terminate this Agreement in the event that a payment required hereunder is not made within fifteen "
    "(15) days of the date such payment is due.",
])
def test_no_payment_deadline_from_another_events_period(text: str) -> None:
    assert _reading("What are the payment terms on invoices?", "duration", text).candidate is None


def test_a_conditions_period_is_not_the_term() -> None:
    # RangeResourcesLouisianaInc_20150417 Transportation Services Agreement (force majeure)
    text = ("If as a result of an event of Carrier Force Majeure, Carrier provides no Services to Shipper for a period of at least twelve "
            "(12) consecutive Months, either Party shall be entitled to terminate this Agreement by written notice to the other Party.")
    assert _reading("What's the length of the contract term?", "duration", text).candidate is None


def test_federal_law_and_a_states_law_name_the_state() -> None:
    # NATIONALPROCESSINGINC_07_18_1996-EX-10.4 (CUAD report split; the preset's Governing Law was read right before the
    # governing-law clause was read first)
    text = ("This Agreement and its interpretation shall be governed by the laws of the United States and, to the extent not "
            "inconsistent therewith, by the laws of the Commonwealth of Kentucky without regard to conflicts of law principles.")
    q = GridQuestion(id="law", question="What's the governing law?", type="jurisdiction")
    assert read(q, _passages(text)).value == "Kentucky"


# --- a fourth tryout, ten more train_allowed agreements, questions typed in a hurry

def test_whens_it_done_is_never_read_as_the_start() -> None:
    from clauselens.grid.term import asks_end

    assert asks_end("when's it done?")
    # DUOSTECHNOLOGIESGROUP,INC_04_21_2009-EX-10.1 Strategic Alliance Agreement (preamble and term, shortened)
    preamble = ('STRATEGIC ALLIANCE AGREEMENT This Strategic Alliance Agreement (this "Agreement"), effective as of 15 April, 2009 '
                '(the "Effective Date"), is made by and between Rubicon and ISA.')
    term = ('Unless terminated sooner, the term of this Agreement shall begin on the Effective Date and continue for three (3) years '
            'thereafter (the "Initial Term").')
    r = read(GridQuestion(id="end", question="when's it done?", type="date"), _passages(preamble, term))
    assert r.value != "2009-04-15"


def test_how_long_to_pay_asks_for_the_payment_term() -> None:
    # MARTINMIDSTREAMPARTNERSLP_01_23_2004-EX-10.3 Marine Transportation Agreement
    text = ("Owner will invoice such fees to Charterer on a monthly basis and Charterer will pay such invoiced amounts within 30 days of "
            "invoice date.")
    q = GridQuestion(id="pay", question="how long do they have to pay us?", type="duration")
    assert read(q, _passages(text)).value == "30 days"


def test_selling_the_contract_is_assigning_it() -> None:
    # NETGEAR,INC_04_21_2003-EX-10.16 Distributor Agreement
    text = ("H. This Agreement may not be assigned by either party without prior written permission from the other party, which "
            "permission shall not be unreasonably withheld.")
    assert read_yes_no("can they sell the contract to another company?", [text]).answer == "No"


def test_prices_exclusive_of_tax_are_no_exclusivity() -> None:
    # NETGEAR,INC_04_21_2003-EX-10.16 Distributor Agreement
    text = ("Prices are exclusive of any tax, value-added tax, fee, duty or governmental charge, however designated (except for "
            "NETGEAR's franchise taxes or for taxes imposed on NETGEAR's income).")
    assert not states_clause("Exclusivity", text)


def test_in_effect_until_terminated_on_notice_is_a_free_exit() -> None:
    # ENERGYXXILTD_05_08_2015-EX-10.13 Transportation Agreement, 8.1
    text = ("Subject to the other provisions of this Agreement, the term of this Agreement shall commence on the Effective Date and "
            "shall remain in effect until terminated by either Party upon thirty (30) days' prior written notice.")
    assert read_yes_no("can we walk away whenever?", [text]).answer == "Yes"


# --- a fifth tryout, ten more train_allowed agreements

def test_a_cap_yes_quotes_a_limit_not_a_heading_or_an_exclusion() -> None:
    assert not states_clause("Cap On Liability", "§ 6 Limitation of liability (1) The parties exclude mutual liability for slightly "
                                                 "negligent violation of obligations in connection with this agreement.")
    # WebmdHealthCorp_20050908_S-1A_EX-10.7 Content License Agreement (shortened)
    assert not states_clause("Cap On Liability", "IN NO EVENT WILL WEBMD OR ITS SUPPLIERS OR LICENSORS BE LIABLE UNDER ANY THEORY OF "
                                                 "LIABILITY FOR ANY COSTS OF COVER OR FOR INDIRECT, SPECIAL OR CONSEQUENTIAL DAMAGES.")
    assert states_clause("Cap On Liability", "WEBMD'S AGGREGATE LIABILITY FOR ALL DAMAGES, LOSSES AND CAUSES OF ACTION RELATED TO THIS "
                                             "AGREEMENT SHALL NOT EXCEED THE FEES PAID HEREUNDER.")


def test_remain_in_effect_asks_the_term_and_a_cure_time_is_not_it() -> None:
    # ABILITYINC_06_15_2020-EX-4.25 Services Agreement, 3.3 (shortened)
    text = ('Any Party (the "Non-Breaching Party") may terminate this Agreement with respect to any Service at any time upon prior '
            'written notice to the other Party, if the Breaching Party has failed to perform any of its material obligations under this '
            'Agreement, and such failure shall have continued without cure for a period of 30 days after receipt of a written notice.')
    assert _reading("How long will the agreement remain in effect?", "duration", text).candidate is None


def test_terminated_at_any_time_asks_for_an_at_will_right() -> None:
    q = "Can the contract be terminated at any time on notice?"
    # ABILITYINC_06_15_2020-EX-4.25 Services Agreement, 3.2 (shortened) beside a term that ends on a date
    at_will = ("3.2 Each of the Recipient and the Provider may, in their sole discretion, terminate this Agreement in whole or in part, "
               "at any time without cause, by providing at least 90 (ninety) days' prior written notice.")
    ends = "This Agreement shall terminate on December 31, 2021 unless extended by the Parties."
    r = read_yes_no(q, [ends, at_will])
    assert r.answer == "Yes" and r.passage == 1
    # PhoenixNewMediaLtd_20110421 Program Content License Agreement, 8.2.4 (shortened): an end on a condition
    cond = ("8.2.4 one Party's performance of its obligations hereunder is adversely affected by the occurrence of any event, then the "
            "unaffected Party may terminate this Agreement upon notice.")
    assert read_yes_no(q, [cond]).answer != "Yes"


def test_an_interest_rate_is_said_of_interest() -> None:
    q = GridQuestion(id="int", question="What interest rate applies to late payments?", type="amount")
    # SENMIAOTECHNOLOGYLTD_02_19_2019-EX-10.5 Collaboration Agreement, 3.2.13.4
    damages = ('3.2.13.4 In case that the Driver User unilaterally terminates the Financial Leasing Agreement in advance, Party B shall '
               'collect the liquidated damages from the Driver User within 30% of the "down payment + total monthly rent + last payment".')
    assert read(q, _passages(damages)).candidate is None
    late = ("(c) Late payments are subject to an interest charge, at the lower rate of (i) one and one-half percent (1.5%) per month, or "
            "(ii) the maximum legal rate.")  # WebmdHealthCorp_20050908 Content License Agreement
    assert read(q, _passages(late)).value == "1.5%"


def test_a_notice_to_stop_a_renewal_is_said_of_the_renewal() -> None:
    q = GridQuestion(id="nr", question="How much notice is needed to stop it renewing?", type="duration")
    # XinhuaSportsEntertainmentLtd_20070221 Content License Agreement, 8.1
    assert read(q, _passages("8.1 XFN may terminate this Agreement by giving thirty (30) days written notice to the CEIS.")).candidate is None


# --- a sixth tryout, ten more train_allowed agreements

def test_a_named_role_the_agreement_never_names_has_no_party() -> None:
    from clauselens.grid.roles import unworded_role

    # SYKESHEALTHPLANSERVICESINC_04_24_1998-EX-10.14 Outsourcing Agreement (its preamble, shortened)
    text = ('This Outsourcing Agreement (the "Agreement") is made and entered into as of January 1, 1998, by and between Sykes '
            'HealthPlan Services, Inc., a Florida corporation ("SHPS"), and HealthPlan Services, Inc. ("HPS"). SHPS shall provide the '
            'Services to HPS.')
    assert unworded_role("Who is the distributor?", [text]) == "distributor"
    assert unworded_role("Who is the licensee?", [text]) == "licensee"
    assert unworded_role("Who is the customer?", [text]) == ""  # a generic side is read from conduct
    q = GridQuestion(id="d", question="Who is the distributor?", type="party")
    from clauselens.grid.rule import rule_cell

    cell = rule_cell({"row_key": "r", "question_id": "d", "fingerprint": "", "agreement": "a", "doc_id": "d", "source_path": "",
                      "model": "rule"}, q, _passages(text))
    assert cell.status == "not found" and cell.answer == ""


def test_ending_another_instrument_is_no_evidence_about_this_agreement() -> None:
    from clauselens.grid.whose import ends_agreement

    # PHREESIA,INC_05_28_2019-EX-10.18 Strategic Alliance Agreement; BABCOCK_WILCOX Intellectual Property Agreement
    assert not at_will("Company may terminate any Merchant Agreement pursuant to the terms of such Merchant Agreement.")
    assert not ends_agreement("SpinCo agrees not to oppose, petition to cancel, or otherwise challenge the use or registration of the "
                              "RemainCo Marks.")
    q = "Can a party terminate without cause?"
    r = read_yes_no(q, ["SpinCo agrees not to oppose, petition to cancel, or otherwise challenge the use or registration of the "
                        "RemainCo Marks."])
    assert r.passage == -1  # not quoted as the evidence of a "No"


def test_remedies_not_deemed_exclusive_are_no_exclusivity() -> None:
    # PHREESIA,INC_05_28_2019-EX-10.18 Strategic Alliance Agreement
    assert not states_clause("Exclusivity", "Such remedies will not be deemed to be exclusive but will be in addition to all other "
                                            "remedies available under this Agreement, at law or in equity.")


def test_any_services_term_of_this_agreement_is_this_agreement() -> None:
    # EmeraldHealthBioceuticalsInc_20200218 (train_allowed; the at-will census's tune split)
    assert at_will("6.2 Termination EHS or EHN, on the one hand, and Dr. Murray, on the other, may terminate any Services Term of this "
                   "Agreement by delivering 60 days written notice to the other party.")


# --- a seventh tryout, ten more train_allowed agreements

def test_leaving_early_is_ending_it() -> None:
    # JINGWEIINTERNATIONALLTD_10_04_2007-EX-10.7 Intellectual Property Agreement
    text = ("During the term of this Agreement, Party A may terminate this Agreement at any time with a written notice to Party B 30 "
            "days before such termination.")
    r = read_yes_no("Can either of us leave early without a reason?", [text])
    assert r.answer == "Yes" and r.passage == 0


def test_a_freedom_nothing_restricts_gets_no_no() -> None:
    from clauselens.grid.yes_no import asks_freedom

    assert asks_freedom("Can they work with our competitors?") and asks_freedom("Can they hire our staff?")
    assert not asks_freedom("Can a party audit the other's books?") and not asks_freedom("Can either side end it without a reason?")
    r = read_yes_no("Can they hire our staff?", ["The Supplier shall deliver the Products to the Buyer's warehouse."])
    assert r.answer == "" and not r.on_topic
