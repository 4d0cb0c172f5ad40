"""Cells a developer's tryout on eight train_allowed CUAD agreements read wrongly (issue #45), each a rule with its test:

* "Can we get out of this early?" was answered "No" for all eight: a right "to cancel this agreement at any time within a
  7-day notice period" ("has the unilateral right", lower-case "agreement"), one "at any time prior to December 31, 2010 to
  terminate this Agreement", and one listed beside a breach ("(i) ... in the event of any failure ..., or (ii) at any other
  time upon ninety (90) days' prior written notice") were not read as rights to end it at will, while a covenant that
  "QIWI may terminate its obligation under this Clause 4.1 at any time" was quoted as the "No";
* "Are they allowed to assign it?": "it" is the agreement (a work-for-hire IP assignment was quoted as the "No", an
  assignment of distributor contracts as the "Yes"), "assign any of its rights or obligations hereunder" assigns it, and
  "none of the Parties may assign" after a lead-in is a prohibition;
* "When does it all end?" was answered with a fee's last instalment date, not the term clause's end date;
* "RMB200 million" was shown as "$200,000,000" (the code runs into its figure).

A second tryout on eight more (its own seeded pick, twenty everyday questions):

* "What day was the deal struck?" and "How long are we locked in for?" were not found for all eight, "Who are the two sides?"
  asked for one party by role for all eight;
* "Does it renew by itself?" was left to the model where the term "shall be automatically renewed";
* "Can they terminate without a reason?" was answered "No" quoting a term clause's "unless sooner terminated" and a licence
  granted "unless the license is earlier terminated", and "No" where the term runs "until terminated ... by either party on not
  less than 60 days' written notice";
* "How much are we paying them?" read a ceiling on what a party may pay others ("higher referral fees than the lowest tier of the
  public offer ($55.00)") and a blank "$0.00";
* a definition ('"Transfer" as a noun means any such sale, assignment, etc.') was quoted as the anti-assignment clause.

A third tryout on eight more:

* "When's the contract up?" was not found for all eight;
* "Are we the only ones they can sell to?" was answered "Yes" quoting "a non-exclusive ... license to ... sell such Item";
* "Can they poach our people?" was answered "No" quoting "NPC does not generally solicit customers ...";
* "Do we have to buy a minimum amount?" was answered "Yes" quoting "In digital formats, the minimum width is 100 pixels";
* "Who are the two sides?" read a title line's "AGREEMENT BETWEEN LG&E AND TENNESSEE GAS PIPELINE COMPANY" as one party.

A fourth tryout, in a checklist's terse words:

* "Termination for convenience allowed?" (no modal to read a claim from) was answered "No" for nothing on topic where "This
  Agreement may be terminated without the payment of any penalty by either party upon sixty (60) days' written notice";
* "Assignment requires consent?" was answered "Yes" quoting "... successors, heirs and assigns" and an automatic termination
  "in the event the Management Agreement is assigned";
* "How long does someone have to cure a breach?" was answered with the term ("remain in effect for a period of 1 year;
  provided, that ... shall terminate promptly upon ... breach").

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed). Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import preamble_date_kind
from clauselens.grid.heads import states_clause
from clauselens.grid.periods import about_period_asked
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import asks_all_parties, read
from clauselens.grid.term import asks_end, asks_length
from clauselens.grid.topic import plain_idioms
from clauselens.grid.values import amounts_in, check_value
from clauselens.grid.whose import at_will, split_joined
from clauselens.grid.yes_no import claim_object, read_yes_no
from clauselens.parsing.types import Span
from clauselens.reports.support import assertions
from clauselens.retrieval.types import Passage

# ClickstreamCorp_20200330_1-A_EX1A-6 MAT CTRCT_12089935_EX1A-6 MAT CTRCT_Development Agreement
CLICKSTREAM_CANCEL = "Client has the unilateral right to cancel this agreement at any time within a 7-day notice period."
CLICKSTREAM_IP = ('To the extent such work may not be deemed a "work for hire" under applicable law, the Developer hereby assigns to '
                  'the Client all of its right, title, and interest in and to such work.')
# GAINSCOINC_01_21_2010-EX-10.41-SPONSORSHIP AGREEMENT
GAINSCO_RIGHT = ("Notwithstanding the provisions of Section 1 hereof, the Sponsor shall have the right at any time prior to December 31, "
                 "2010 to terminate this Agreement by giving written notice of such termination to Racing.")
GAINSCO_TERM = ("1. Term. Subject to the provisions of Section 14 hereof, the term of this Agreement and the sponsorship described "
                "herein shall commence on January 1, 2010 and extend through December 31, 2010.")
GAINSCO_FEE = ("The Sponsor shall pay to Racing a sponsorship fee in the amount of $750,000.00 for the term of this Agreement, payable "
               "in an initial installment payable on or before February 1, 2010 in the amount of $350,000.00 and ten installments of "
               "$40,000.00 on or before the first day of each month commencing March 1, 2010 and ending with the installment due on "
               "December 1, 2010 (unless this Agreement is sooner terminated pursuant to Section 14 hereof, in which case Sponsor "
               "shall have no obligation to make any payments after the date of termination).")
GAINSCO_ASSIGN = "Neither party shall assign any of its rights or obligations hereunder without the prior written consent of the other party."
# RitterPharmaceuticalsInc_20200313_S-4A_EX-10.54_12055220_EX-10.54_Development Agreement
RITTER_END = ("Sekisui may terminate this Agreement upon prior written notice (i) in the event of any failure of Qualigen to meet a "
              "milestone set forth in the Development Plan (as it may be amended by the Parties from time to time), or (ii) at any "
              "other time upon ninety (90) days' prior written notice of impending termination.")
RITTER_DISTRIBUTORS = ("Qualigen shall assign to Sekisui Qualigen's agreements with Qualigen's current distributors (such that such "
                       "current Qualigen distributors shall become Sekisui subdistributors), each of which is set forth on Schedule 2.")
# QIWI_06_16_2017-EX-99.(D)(2)-COOPERATION AGREEMENT
QIWI_OBLIGATION = ("4.1 For two (2) years following the Effective Time, QIWI covenants that at least one half of the total transactions "
                   "processed by the Contact money transfer system during such two-year period shall be settled through PJSC "
                   "Khanty-Mansiysk Bank Otkritie, provided that QIWI may terminate its obligation under this Clause 4.1 at any time, "
                   "in which case it shall pay to Otkritie a fee equal to the demonstrated costs incurred by Otkritie for such period "
                   "starting from 1 September 2014.")
# BNLFINANCIALCORP_03_30_2007-EX-10.8-OUTSOURCING AGREEMENT
BNL_BREACH = ("This Agreement may be terminated by the non- breaching party upon any of the following events: A. In the event that "
              "BNL fails to pay any sums of money due to VIP hereunder and does not cure such default within thirty (30) days after "
              "receipt of written notice of such nonpayment from VIP.")
# LEJUHOLDINGSLTD_03_12_2014-EX-10.34-INTERNET CHANNEL COOPERATION AGREEMENT
LEJU_ASSIGN = ("11.1 Without prior written consent of the other Parties, none of the Parties may assign any or all of its rights and "
               "obligations under this Agreement to any third party.")
LEJU_FEE = ("The cooperation fee under this Agreement will be RMB200 million, of which RMB160 million will be channel cooperation fee "
            "and RMB40 million will be promotion fee for the Cooperation Channel.")
EARLY = "Can we get out of this early?"
ASSIGN_IT = "Are they allowed to assign it?"


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("right", [CLICKSTREAM_CANCEL, GAINSCO_RIGHT, RITTER_END])
def test_a_right_to_end_it_whenever_answers_yes_beside_a_breach_clause(right: str) -> None:
    r = read_yes_no(EARLY, [BNL_BREACH, right])
    assert (r.answer, r.passage) == ("Yes", 1)


def test_a_listed_way_to_end_it_on_no_condition_is_at_will() -> None:
    assert at_will(RITTER_END)
    # every listed way on a condition stays conditional
    assert not at_will(RITTER_END.replace("at any other time upon ninety (90) days' prior written notice of impending termination",
                                          "upon a Change of Control of Qualigen"))


def test_only_a_breach_clause_answers_no_and_ending_an_obligation_is_not_quoted_for_it() -> None:
    r = read_yes_no(EARLY, [BNL_BREACH])  # no "Yes"; since 2026-12-07 no "No" either (a free exit may be worded elsewhere)
    assert r.answer == "" and "only on a condition" in r.reason
    assert read_yes_no(EARLY, [QIWI_OBLIGATION]).answer != "No"  # its obligation, not the agreement, ends at any time


def test_it_is_the_agreement_asked_about() -> None:
    assert claim_object("they is allowed to assign it") == "agreement"
    assert claim_object("they may terminate or cancel this") == "agreement"
    assert claim_object("they may terminate or cancel this early") == ""


@pytest.mark.parametrize("other", [CLICKSTREAM_IP, RITTER_DISTRIBUTORS])
def test_assigning_something_else_does_not_answer_assigning_it(other: str) -> None:
    assert read_yes_no(ASSIGN_IT, [other]).answer != "Yes"
    r = read_yes_no(ASSIGN_IT, [other, GAINSCO_ASSIGN])
    assert (r.answer, r.passage) == ("No", 1)


def test_none_of_the_parties_after_a_lead_in_is_a_prohibition() -> None:
    assert [a.negated for a in assertions(LEJU_ASSIGN)] == [True]
    assert [a.negated for a in assertions("Each of the Parties may assign this Agreement to an Affiliate.")] == [False]
    assert read_yes_no(ASSIGN_IT, [LEJU_ASSIGN]).answer == "No"


def test_when_it_all_ends_is_the_term_clauses_end_date_not_a_fees_last_instalment() -> None:
    assert asks_end("When does it all end?")
    assert not asks_end("When does the confidentiality duty end?")
    r = read(GridQuestion(id="q", question="When does it all end?", type="date"), _passages(GAINSCO_TERM, GAINSCO_FEE))
    assert (r.value, r.candidate and r.candidate.passage) == ("2010-12-31", 0)


def test_a_currency_code_that_runs_into_its_figure_is_kept() -> None:
    assert [str(a) for a in amounts_in(LEJU_FEE)] == ["RMB 200,000,000", "RMB 160,000,000", "RMB 40,000,000"]
    assert check_value("amount", "$200,000,000", LEJU_FEE).reason  # dollars are not what the clause states
    assert not check_value("amount", "RMB 200,000,000", LEJU_FEE).reason
    assert [str(a) for a in amounts_in("a fee of EUR5,000 and £740,000")] == ["€5,000", "£740,000"]


# LegacyEducationAllianceInc_20200330_10-K_EX-10.18_12090678_EX-10.18_Development Agreement
LEGACY_TERM = ('1.12 The term "Term" shall mean an initial term of five years, automatically renewable thereafter for successive 5-year '
               'terms unless either party provides prior written notice of termination not less than 90 days prior to the end of such '
               'five-year term.')
LEGACY_GRANT = ("2.1 T&B hereby grants to LEA, and LEA hereby accepts from T&B, during the Term, the sole and exclusive worldwide right and "
                "license in and to the Licensed Intellectual Property, which right and license shall be limited to that which is necessary "
                "for LEA to (i) develop and create Educational Materials and (ii) develop, promote and conduct the Business worldwide , "
                "unless the license is earlier terminated as provided herein.")
# XACCT Technologies, Inc. SUPPORT AND MAINTENANCE AGREEMENT
XACCT_RENEWAL = ("The Agreement will be automatically renewed for additional one (1) year terms (subject to applicable fee adjustments) "
                 "unless thirty (30) days prior to the anniversary of the Effective Date Licensee gives written notice to XACCT of its "
                 "intention not to renew.")
# CURAEGISTECHNOLOGIES,INC_05_26_2010-EX-1-CORPORATE SPONSORSHIP AGREEMENT
CURAEGIS_TERM = ('1. Term The term of this Agreement (the "Term") shall commence on the Effective Date and conclude on October 31, 2010, '
                 'unless renewed by agreement or sooner terminated in accordance with this Agreement.')
# FEDERATEDGOVERNMENTINCOMESECURITIESINC_04_28_2020-EX-99.SERV AGREE-SERVICES AGREEMENT
FEDERATED_TERM = ("(a) Subject to the remaining provisions of this Section, the term of this Agreement shall begin on the effective date "
                  "first above written and shall continue until terminated by mutual agreement of the parties hereto or by either party "
                  "on not less than 60 days' written notice to the other party hereto.")
# CreditcardscomInc_20070810_S-1_EX-10.33_362297_EX-10.33_Affiliate Agreement
CREDITCARDS_CEILING = ("If Affiliate manages a sub-affiliate network, the Affiliate may not pay sub-affiliates or other partners higher "
                       "referral fees than the lowest tier of the public offer ($55.00).")
# PfHospitalityGroupInc_20150923_10-12G_EX-10.1_9266710_EX-10.1_Franchise Agreement1
PF_DEFINITION = '"Transfer" as a noun means any such sale, assignment, etc.'
PF_VERB = ('In this Agreement, "Transfer" as a verb means to sell, assign, give away, pledge, or encumber, either voluntarily or by '
           'operation of law.')
PF_CONSENT = ("Neither you nor any of the Owners may make any Transfer or permit any Transfer to occur without obtaining our prior written "
              "consent.")
NO_REASON = "Can they terminate without a reason?"


@pytest.mark.parametrize("question", ["What day was the deal struck?", "When was the contract inked?"])
def test_striking_a_deal_is_making_it(question: str) -> None:
    assert preamble_date_kind(question) == "made"


def test_locked_in_asks_how_long_it_runs() -> None:
    assert asks_length("How long are we locked in for?")
    assert asks_length("How long are we tied into this?")
    assert not asks_length("How long are we bound by confidentiality?")


def test_the_two_sides_are_the_parties() -> None:
    assert asks_all_parties("Who are the two sides?")
    assert not asks_all_parties("Which side supplies the goods?")


@pytest.mark.parametrize("renewal", [LEGACY_TERM, XACCT_RENEWAL])
def test_a_term_that_renews_of_itself_answers_yes(renewal: str) -> None:
    r = read_yes_no("Does it renew by itself?", [CURAEGIS_TERM, renewal])
    assert (r.answer, r.passage) == ("Yes", 1)
    assert read_yes_no("Does it auto-renew?", [renewal]).answer == "Yes"


def test_a_term_that_does_not_renew_of_itself_answers_no_and_a_licence_renewing_decides_nothing() -> None:
    assert read_yes_no("Does it renew by itself?", ["This Agreement shall not be automatically renewed."]).answer == "No"
    assert read_yes_no("Does it renew by itself?", ["The license shall renew automatically each year."]).answer != "Yes"


@pytest.mark.parametrize("no_right", [CURAEGIS_TERM, LEGACY_GRANT])
def test_a_term_clause_or_a_licence_ending_sooner_is_no_ones_right(no_right: str) -> None:
    assert read_yes_no(NO_REASON, [no_right]).answer != "No"
    r = read_yes_no(NO_REASON, [no_right, BNL_BREACH])  # a right only for a breach: for a reviewer (2026-12-07), never "Yes"
    assert r.answer == "" and "only on a condition" in r.reason


def test_a_term_until_either_party_ends_it_on_notice_is_an_end_at_will() -> None:
    assert read_yes_no(NO_REASON, [FEDERATED_TERM]).answer == "Yes"


def test_a_ceiling_on_what_others_are_paid_and_a_blank_sum_are_no_price() -> None:
    how_much = GridQuestion(id="q", question="How much are we paying them?", type="amount")
    assert read(how_much, _passages(CREDITCARDS_CEILING)).value != "$55"
    assert read(how_much, _passages("The Shipper shall pay a buyout payment of $0.00 for the period.")).value != "$0"
    assert read(how_much, _passages("The Shipper shall pay a buyout payment of $5,000 for the period.")).value == "$5,000"


def test_a_definition_is_no_clause_to_quote() -> None:
    assert not states_clause("Anti-Assignment", PF_DEFINITION)
    assert not states_clause("Anti-Assignment", PF_VERB)
    assert states_clause("Anti-Assignment", PF_CONSENT)


# KIROMICBIOPHARMA,INC_05_11_2020-EX-10.23-CONSULTING AGREEMENT
KIROMIC_ITEM = ("Consultant will inform Company in writing thereof, and Company is hereby granted and shall have a non-exclusive, "
                "royalty-free, perpetual, irrevocable, worldwide license to make, have made, modify, reproduce, display, use and sell such "
                "Item as part of or in connection with the exploitation of such Invention.")
# NATIONALPROCESSINGINC_07_18_1996-EX-10.4-SPONSORSHIP AGREEMENT
NPC_CUSTOMERS = ("NPC does not generally solicit customers engaged in any of the following businesses, but in special circumstances it "
                 "sometimes accepts customers engaged in one of these businesses.")
# MANAKOASERVICESCORP_11_21_2007-EX-7.5-STRATEGIC ALLIANCE AGREEMENT
MKOS_STAFF = ("MKOS agrees that for a twenty four months (24) following the execution of this Agreement, MKOS shall not, without UTEK's "
              "prior written consent, directly or indirectly solicit for employment any present employee of UTEK, or request, induce or "
              "advise any employee of UTEK to leave the employ of UTEK.")
# ArmstrongFlooringInc_20190107_8-K_EX-10.2_11471795_EX-10.2_Intellectual Property Agreement
ARMSTRONG_WIDTH = "In digital formats, the minimum width is 100 pixels at 72 dpi."
# EtonPharmaceuticalsInc_20191114_10-Q_EX-10.1_11893941_EX-10.1_Development Agreement
ETON_INSURANCE = ("The Parties will maintain general liability insurance in amounts that are reasonable and customary in the "
                  "pharmaceutical industry, provided in no event shall the general liability insurance amounts be less than five million "
                  "dollars ($5,000,000) per occurrence.")


def test_when_the_contract_is_up_asks_when_it_ends() -> None:
    assert asks_end("When's the contract up?") and asks_end("When is it up?")
    assert not asks_end("When is the contract up and running?")
    assert plain_idioms("When is it up?") == "When is it end?"


def test_a_non_exclusive_licence_is_no_exclusivity() -> None:
    assert read_yes_no("Are we the only ones they can sell to?", [KIROMIC_ITEM]).answer != "Yes"


def test_poaching_people_is_about_staff_not_customers() -> None:
    assert claim_object("they may solicit our people") == "peopl"
    assert read_yes_no("Can they poach our people?", [NPC_CUSTOMERS]).answer != "No"
    r = read_yes_no("Can they poach our people?", [NPC_CUSTOMERS, MKOS_STAFF])
    assert (r.answer, r.passage) == ("No", 1)


def test_a_minimum_commitment_is_a_minimum_bought_or_paid() -> None:
    assert not states_clause("Minimum Commitment", ARMSTRONG_WIDTH)
    assert states_clause("Minimum Commitment", "Distributor shall purchase a minimum of 1,000 Units in each Contract Year.")


def test_a_minimum_insurance_amount_is_not_a_threshold() -> None:
    r = read(GridQuestion(id="q", question="How much liability insurance must be carried?", type="amount"), _passages(ETON_INSURANCE))
    assert r.value.startswith("$5,000,000")


# PFSFUNDS_06_26_2020-EX-99.H OTH MAT CONT-SERVICES AGREEMENT
PFS_END = ("This Agreement may be terminated without the payment of any penalty by either party upon sixty (60) days' written notice "
           "to the other party.")
PFS_ASSIGNED = "This Agreement shall automatically terminate in the event the Management Agreement is assigned or otherwise terminated."
# VnueInc_20150914_8-K_EX-10.1_9259571_EX-10.1_Promotion Agreement
VNUE_ASSIGNS = "This Agreement shall inure to the benefit of the parties hereto and their respective successors, heirs and assigns."
# LinkPlusCorp_20050802_8-K_EX-10_3240252_EX-10_Affiliate Agreement
LINKPLUS_ASSIGN = "7.1 This Agreement may not be assigned in whole or in part by either party without prior written consent of the other."
# BNCMORTGAGEINC_05_17_1999-EX-10.4-LICENSING AND WEB SITE HOSTING AGREEMENT
BNC_TERM = ("This Agreement will take effect on the Effective Date and remain in effect for a period of 1 year; provided, that Sections "
            "2 and 3 level shall terminate promptly upon (a) any action or omission by Client or any of its customers which constitutes a "
            "breach of or default by TrueLink under any System Agreement or Credit Repository Agreement, which breach or default has "
            "either not been cured or cannot be cured within the applicable cure period.")


def test_a_terse_convenience_question_reads_a_right_to_end_on_notice() -> None:
    r = read_yes_no("Termination for convenience allowed?", [PFS_END])
    assert r.answer == "Yes"


@pytest.mark.parametrize("sentence", [VNUE_ASSIGNS, PFS_ASSIGNED])
def test_an_anti_assignment_clause_restricts_assigning(sentence: str) -> None:
    assert not states_clause("Anti-Assignment", sentence)
    assert states_clause("Anti-Assignment", LINKPLUS_ASSIGN)


def test_the_term_is_not_the_time_to_cure() -> None:
    assert not about_period_asked("How long does someone have to cure a breach?", BNC_TERM)
    assert about_period_asked("How long does someone have to cure a breach?", BNL_BREACH)


def test_two_parties_run_together_are_cut_at_their_and() -> None:
    assert split_joined(["LG&E AND TENNESSEE GAS PIPELINE COMPANY", "TENNESSEE GAS PIPELINE COMPANY"]) == [
        "LG&E", "TENNESSEE GAS PIPELINE COMPANY"]
    assert split_joined(["Johnson & Johnson", "Acme Inc."]) == ["Johnson & Johnson", "Acme Inc."]  # no second name read alone


# HYPERIONSOFTWARECORP_09_28_1994-EX-10.47-EXCLUSIVE DISTRIBUTOR AGREEMENT
HYPERION_NON_RENEWAL = ("Either party may cancel this Agreement effective on the last day of the Initial Term, or any Renewal Term, by "
                        "serving written notice of such termination on the other party at least ninety (90) days prior to the end of the "
                        "Initial Term or any Renewal Term as the case may be.")


def test_an_end_on_the_last_day_of_a_term_is_no_end_at_will() -> None:
    assert not at_will(HYPERION_NON_RENEWAL)
    assert read_yes_no(NO_REASON, [HYPERION_NON_RENEWAL]).answer != "Yes"


# BELLICUMPHARMACEUTICALS,INC_05_07_2019-EX-10.1-Supply Agreement
BELLICUM_TERM = ('The Agreement shall have an initial term of ten (10) years commencing from the Effective Date and ending on the tenth '
                 '(10th) anniversary thereof (the "Initial Term"), unless earlier terminated by either Party in accordance with the '
                 'provisions of Section 15.2 or Section 15.3. Thereafter, Bellicum shall have consecutive separate options to extend the '
                 'Term for successive renewal terms of five (5) years each.')
BELLICUM_NOT_EXCLUSIVE = ("Notwithstanding anything to the contrary in this Agreement, nothing herein is intended nor shall be construed as "
                          "creating any exclusive arrangement between Miltenyi and Bellicum with respect to the supply, purchase and/or use "
                          "of the Miltenyi Products.")
BELLICUM_AFFILIATE = ("In addition, either Party shall have the right to assign or otherwise transfer this Agreement to an Affiliate upon "
                      "written notice to the non-assigning Party.")
# LiquidmetalTechnologiesInc_20200205_8-K_EX-10.1_11968198_EX-10.1_Development Agreement
LIQUIDMETAL_NET = ("Payment terms are net 30 days after the date of the invoice, or the date of receipt by Liquidmetal of the invoice if the "
                   "invoice is received more than 10 days after the date of the invoice.")
# GluMobileInc_20070319_S-1A_EX-10.09_436630_EX-10.09_Content License Agreement1
GLU_LATE = ("(f) Late Payments: If a party does not receive the applicable royalty payment as specified on or before the thirtieth day "
            "after the close of any calendar quarter, the party owing such royalty shall pay interest with respect to any royalties owed "
            "from day to day until the date of payment at a rate of 5% above U.S. Prime Rate on an annual basis.")


def test_each_renewal_is_the_renewals_period_not_the_initial_terms() -> None:
    r = read(GridQuestion(id="q", question="How long does each renewal last?", type="duration"), _passages(BELLICUM_TERM))
    assert r.value == "5 years"


@pytest.mark.parametrize("sentence", [
    BELLICUM_NOT_EXCLUSIVE,
    "(c) All sums payable by Bellicum under this Agreement are stated exclusive of sales tax and VAT.",
    "(i) rights associated with works of authorship, including exclusive exploitation rights, copyrights, moral rights, and mask works;",
    "Each Purchase Order submitted by Bellicum to Miltenyi shall be governed exclusively by the terms and conditions of this Agreement.",
    "This Agreement constitutes and contains the complete, final, and exclusive understanding and agreement of the Parties.",
])
def test_exclusive_in_another_sense_or_denied_is_no_exclusivity(sentence: str) -> None:
    assert not states_clause("Exclusivity", sentence)


def test_a_carve_out_asked_for_is_the_answer() -> None:
    q = "Can they pass the agreement to an affiliate or buyer without asking us?"
    assert read_yes_no(q, [BELLICUM_AFFILIATE]).answer == "Yes"
    assert read_yes_no("Can they assign the agreement without asking us?", [BELLICUM_AFFILIATE]).answer != "Yes"


def test_a_threshold_period_is_not_the_payment_term() -> None:
    r = read(GridQuestion(id="q", question="How soon must invoices be settled?", type="duration"), _passages(LIQUIDMETAL_NET))
    assert r.value == "30 days"


def test_a_royalty_question_is_not_answered_with_a_late_payment_interest_rate() -> None:
    q = GridQuestion(id="q", question="What percentage commission or royalty applies?", type="amount")
    assert read(q, _passages(GLU_LATE)).value != "5%"


# ASHWORTHINC_01_29_1999-EX-10.(D)-PROMOTION AGREEMENT AND NANTZ COMMUNICATIONS, INC.
ASHWORTH_BENEFITS = "Nothing herein shall prevent Nantz Communications from assigning the monetary benefits of this Agreement as it may so desire."
ASHWORTH_MERGER = ("In the event of the merger or consolidation of the Company with any other entity, Nantz Communications shall have the "
                   "right to terminate the Agreement by so notifying the Company in writing on or before sixty (60) days.")
ASHWORTH_OPTION = ("15. The first Option to purchase 40,000 Shares shall become exercisable on June 1, 1999, unless this Agreement is "
                   "terminated as provided herein prior to such date, in which case this Option shall be canceled.")
BAIL = "Can either side bail out just by giving notice, with nothing having gone wrong?"


def test_nothing_preventing_it_is_a_permission() -> None:
    assert [a.negated for a in assertions(ASHWORTH_BENEFITS)] == [False]
    assert [a.negated for a in assertions("Licensor shall prevent Licensee from selling outside the Territory.")] == [True]
    both = "Nothing herein shall prevent X from assigning its rights, and X shall not sell the Products."
    assert [(a.action, a.negated) for a in assertions(both)] == [("assign", False), ("sell", True)]  # only the permission flips


def test_assigning_the_monetary_benefits_is_not_handing_the_deal_off() -> None:
    assert read_yes_no("Could we hand this deal off to some other company without them signing off?", [ASHWORTH_BENEFITS]).answer == ""


def test_bailing_out_on_notice_is_an_end_at_will_and_a_merger_or_an_option_is_no_answer() -> None:
    assert read_yes_no(BAIL, [PFS_END]).answer == "Yes"
    assert read_yes_no(BAIL, [ASHWORTH_MERGER, PFS_END]).answer == "Yes"
    assert read_yes_no(BAIL, [ASHWORTH_OPTION]).answer != "No"  # "unless this Agreement is terminated": a condition of the option


def test_a_signing_date_is_not_read_as_an_expiration_date() -> None:
    assert preamble_date_kind("When did both sides sign off on this thing?") == "made"


def test_a_signature_block_padded_with_spaces_dates_the_signing() -> None:
    from clauselens.grid.signing import last_signature

    block = ("IN WITNESS WHEREOF, the parties hereto have executed this Agreement on the date indicated below, effective the date first "
             "above mentioned.\n\nTHE COMPANY:\n\nASHWORTH, INC.                                 a Delaware corporation\n\nDate:  "
             "December 16, 1998        By: /s/ RANDALL L. HERRAL, SR.                                     ------------------------------"
             "                                     Randall L. Herrel, Sr.                                     President & Chief Executive "
             "Officer\n\nNANTZ COMMUNICATIONS, INC.\n\nDate:  December 16, 1998        By: /s/ JAMES W. NANTZ III")
    r = last_signature([block])
    assert r.value == "1998-12-16"
    assert r.candidate is not None and "December 16, 1998" in block[r.candidate.start:r.candidate.end]
    assert last_signature(["No block here."]).reason


# A keyed development set written by a helper over six more train_allowed agreements (benchmarks/data/grid_user_questions_dev9):
# Loop Industries, Inc. - Marketing Agreement; IntegrityFunds_20200121_485BPOS_EX-99.E UNDR CONTR_11948727_EX-99.E UNDR
# CONTR_Service Agreement
LOOP_SECRET = ("Each Party shall treat as confidential (as set forth herein) all Confidential Information of the other Party, and shall "
               "not use such Confidential Information except as contemplated in this Agreement or as otherwise authorized in writing.")
INTEGRITY_TERM = ("Section 7.1 This Agreement shall continue until January 18, 2022, and thereafter shall continue automatically for "
                  "successive annual periods ending on January 18th of each year, provided such continuance is specifically approved at "
                  "least annually by the Board.")
HUSH = "Any NDA-type stuff in here about keeping things hush-hush?"


def test_a_side_named_several_ways_is_not_declined_for_one_name() -> None:
    from clauselens.grid.roles import unworded_role

    text = ["The Reseller shall purchase the Products from Todos."]
    assert unworded_role("Which side is footing the bill - the buyer, licensee, whoever gets the goods?", text) == ""
    assert unworded_role("Who is the licensee?", text) == "licensee"


def test_the_end_if_nobody_renews_it_and_a_term_that_continues_until_a_date() -> None:
    from clauselens.grid.term import term_end

    assert asks_end("On what date does the deal run out if nobody renews it?")
    assert term_end([INTEGRITY_TERM], []).value == "2022-01-18"
    r = read(GridQuestion(id="q", question="On what date does the deal run out if nobody renews it?", type="date"),
             _passages(INTEGRITY_TERM))
    assert r.value == "2022-01-18"


def test_keeping_things_confidential_is_read_from_the_duty_of_confidence() -> None:
    from clauselens.grid.yes_no import asks_secrecy

    assert asks_secrecy(HUSH) and asks_secrecy("Is there a duty to keep each other's info under wraps?")
    assert not asks_secrecy("How long do the secrecy obligations last?")
    assert read_yes_no(HUSH, [INTEGRITY_TERM, LOOP_SECRET]).answer == "Yes"
    assert read_yes_no(HUSH, [INTEGRITY_TERM]).answer == "No"  # the agreement never speaks of confidentiality
    assert read_yes_no(HUSH, ["The receiving party may disclose Confidential Information to its advisers."]).answer == ""


def test_a_term_that_commences_on_the_effective_date_and_terminates_on_a_date_ends_then() -> None:
    from clauselens.grid.term import term_end

    # VNUE,INC_07_10_2015-EX-10.1-SPONSORSHIP AGREEMENT (dev9)
    vnue = ("3. Term and Termination: This term of this Agreement commences on the Effective Date and terminates on August 2nd, 2015 "
            "upon completion of event.")
    assert term_end([vnue], []).value == "2015-08-02"
    assert term_end(["This Agreement may terminate on December 31, 2021 if the Licensee fails to pay."], []).value != "2021-12-31"


def test_a_letters_date_and_a_sales_anniversary_are_not_the_agreements() -> None:
    from clauselens.grid.term import term_periods
    from clauselens.grid.whose import other_agreements

    # HEALTHGATEDATACORP_11_24_1999-EX-10.1-HOSTING AND MANAGEMENT AGREEMENT - Escrow Agreement (dev10)
    letter = ("those set out in the annexed letter from NCC Escrow International, the escrow agent, of 12 March 1998 by way of variation "
              "of NCC document STD001Y2K")
    assert other_agreements(letter, letter.index("12 March 1998"))
    # SEPARATEACCOUNTIIOFAGL_05_02_2011-EX-99.(J)(4)-UNCONDITIONAL CAPITAL MAINTENANCE AGREEMENT (dev10), made from its paragraph 8
    sale = "This Agreement shall terminate automatically one year after the closing of any sale of the Company by AIG."
    assert term_periods(sale) == []
    assert term_periods("This Agreement shall continue for one year after the Effective Date.") != []


def test_a_notice_effective_as_of_a_date_is_this_agreements() -> None:
    from clauselens.grid.whose import other_agreements

    t = "This Agreement may be terminated by written notice to the other party effective as of December 31, 2020."
    assert not other_agreements(t, t.index("December"))
