"""Whose value a sentence states (issue #45): another agreement's date, a period of something other than
the agreement's term, a renewal only by a new agreement, and preamble names that are no party.

Sentences quoted verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``,
CC BY 4.0; agreement named beside each) -- the wrong typed cells of the CUAD preset's tune split and its
inspected report[0:120] part (``python -m benchmarks.grid_user_questions --cuad-preset``) that these rules
fix, and correct cells they must keep. Pure rule tests: no model, no library.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import read_front_date, read_parties, read_typed, topic_groups
from clauselens.grid.whose import about_own_term, after_the_end, asks_about_term, mutual_only, other_agreements


def at(text: str, value: str) -> int:
    return text.index(value)


ANOTHER_AGREEMENTS_DATE = [  # (agreement, sentence, the date as written)
    ("GpaqAcquisitionHoldingsInc_20200123_S-4A_EX-10.6",
     "In connection with a Master Transaction Agreement dated December 11, 2018, as amended of even date herewith",
     "December 11, 2018"),
    ("Columbia Laboratories - AMEND NO. 2",
     '2 (this "Amendment") to the Manufacturing and Supply Agreement dated as of December 8, 2009 (as amended by an amendment '
     'agreement dated 31 December 2013) (the "Existing Agreement")', "31 December 2013"),
    ("Columbia Laboratories - AMEND NO. 2", '2 (this "Amendment") to the Manufacturing and Supply Agreement dated as of December 8, 2009',
     "December 8, 2009"),
]
OWN_DATE = [
    ("ADMA BioManufacturing - Amendment #3",
     'This Amendment #3 to the Manufacturing Agreement (this "Amendment #3") is made effective as of December 21, 2017',
     "December 21, 2017"),
    ("ADUROBIOTECH,INC_06_02_2020-EX-10.7",
     'agree to all terms and conditions of this Consulting Agreement ("Agreement") dated June 1, 2020, effective as of July 1, 2020',
     "June 1, 2020"),
    ("AMERICASSHOPPINGMALLINC_12_10_1999-EX-10.2",
     'This SITE DEVELOPMENT AND HOSTING AGREEMENT (the "Agreement") dated as of August 9, 1999 is made between Hanover Direct, Inc.',
     "August 9, 1999"),
]


@pytest.mark.parametrize("agreement,sentence,date", ANOTHER_AGREEMENTS_DATE, ids=[a for a, _, _ in ANOTHER_AGREEMENTS_DATE])
def test_a_date_right_after_another_agreement_is_that_agreements(agreement, sentence, date):
    assert other_agreements(sentence, at(sentence, date))


@pytest.mark.parametrize("agreement,sentence,date", OWN_DATE, ids=[a for a, _, _ in OWN_DATE])
def test_the_documents_own_date_is_kept(agreement, sentence, date):
    assert not other_agreements(sentence, at(sentence, date))


NOT_THE_TERM = [  # a period or date in a sentence on the topic's words, not about the agreement's term
    ("AURASYSTEMSINC_06_16_2010-EX-10.25", "Additionally, Zanotti shall offer to end-users the option to purchase extended warranty "
     "coverage for an additional twenty-four (24) months - making the total warranty period sixty (60) months.", "twenty-four"),
    ("ABILITYINC_06_15_2020-EX-4.25", "(c) Provider shall allow the Recipient to use [ * * * ] at no cost, until December 31, 2021.",
     "December 31, 2021"),
    ("BEYONDCOMCORP_08_03_2000-EX-10.2", "(vii) upon ninety (90) days prior notice in writing by Co-Host at any time after June 30, "
     "2000, if the term of the Web Site Services Agreement has not been renewed for an additional term of one (1) year or more "
     "pursuant to its terms or (viii) if the party terminates the Web Site Services Agreement by reason of the other party's "
     "material default thereunder.", "ninety"),
    ("DIVERSINETCORP_03_01_2012-EX-4", "During the Term, and subject to Reseller's payment of the annual Support Fees, Diversinet will "
     "provide support for the Products in accordance with the terms set out in Schedule 5. Furthermore, Diversinet will support "
     "the existing Reseller trial including Apple App Store submission until December 31, 2010.", "December 31, 2010"),
]
THE_TERM = [
    ("GpaqAcquisitionHoldingsInc_20200123_S-4A_EX-10.6", "Thereafter, the agreement shall automatically renew for successive five "
     "(5)-year terms, unless either Party gives written notice to the other Party of intent not to renew at least six (6) months "
     "prior to the expiration of the then-current Term.", "five"),
    ("AMERICASSHOPPINGMALLINC_12_10_1999-EX-10.2", "This Agreement shall be automatically renewed for an additional one year period "
     "on each anniversary of the Effective Date, unless terminated by either Party hereto upon ninety (90) days written notice to "
     "the other.", "ninety"),
    ("ELANDIAINTERNATIONALINC_04_25_2007", "The BSP then have the option to renew the agreement for another 5 years subject to any "
     "restructuring of the agreement as required by the parties.", "5 years"),
    ("DovaPharmaceuticalsInc_20181108_10-Q_EX-10.2", "This Agreement shall become effective as of the Effective Date and, unless "
     "earlier terminated as provided in this ARTICLE 12, shall extend until the four (4) year anniversary of the Effective Date "
     '(the "Term").', "four"),
]


@pytest.mark.parametrize("agreement,sentence,value", NOT_THE_TERM, ids=[a for a, _, _ in NOT_THE_TERM])
def test_a_value_of_something_else_is_not_the_agreements_term(agreement, sentence, value):
    assert not about_own_term(sentence, at(sentence, value))


@pytest.mark.parametrize("agreement,sentence,value", THE_TERM, ids=[a for a, _, _ in THE_TERM])
def test_a_value_of_the_agreements_term_is_kept(agreement, sentence, value):
    assert about_own_term(sentence, at(sentence, value))


def test_a_renewal_only_by_both_parties_fresh_agreement_is_no_renewal_term():
    mutual = [
        "After the Initial Term, the term of the Agreement may be extended by a further period of five (5) years by mutual "
        "written agreement by the parties in the form of an amendment to this Agreement.",  # AIRSPANNETWORKSINC_04_11_2000
        'Thereafter, this Agreement can be renewed by mutual written agreement of the parties for successive one (1) year '
        'periods (each, a "Renewal Term" and together with the Initial Term, the "Term").',  # BIOCEPTINC_08_19_2013
        "By mutual agreement of the Parties, the Initial Term may be extended by successive periods of three (3) years.",  # NlsPharma
    ]
    for s in mutual:
        assert mutual_only(s), s
        assert read_typed("duration", "Renewal Term", [s], everyday=False).value == ""
    auto = THE_TERM[0][1]
    assert not mutual_only(auto)
    assert read_typed("duration", "Renewal Term", [auto], everyday=False).value == "5 years"


def test_the_renewal_cell_skips_the_warranty_extension_and_reads_the_agreements_renewal():
    texts = [NOT_THE_TERM[0][1], THE_TERM[0][1]]
    assert read_typed("duration", "Renewal Term", texts, everyday=False).value == "5 years"
    assert read_typed("duration", "Renewal Term", texts[:1], everyday=False).value == ""  # nothing, rather than 24 months


def test_term_questions_are_told_from_others():
    assert asks_about_term([], "Renewal Term") and asks_about_term([], "Expiration Date")
    assert not asks_about_term([], "Agreement Date") and not asks_about_term([], "Effective Date")
    assert asks_about_term([g.name for g in topic_groups("How long does the agreement last?")])
    assert asks_about_term([g.name for g in topic_groups("If the agreement renews by itself, for how long each time?")])
    assert not asks_about_term([g.name for g in topic_groups("How long does a party have to fix a breach?")])
    assert asks_about_term([g.name for g in topic_groups("When does the contract end?")])
    assert not asks_about_term([g.name for g in topic_groups("How long can a default go unremedied before the deal can be ended?")])


def test_the_agreements_date_skips_another_agreements_and_prefers_this_agreements_dated():
    aduro = ('Aduro Biotech, Inc., with a place of business at 740 Heinz Avenue, Berkeley, CA 94710 ("Aduro") and IREYA B.V having '
             'an address at Staalwijkstraat 16, 2313 XR Leiden, the Netherlands, represented by Andrea van Elsas, ("Consultant") '
             'agree to all terms and conditions of this Consulting Agreement ("Agreement") dated June 1, 2020, effective as of July '
             '1, 2020 ("Effective Date").')
    assert read_front_date([aduro]).value == "2020-06-01"
    assert read_front_date([aduro], prefer="effective").value == "2020-07-01"
    columbia = ('AMENDMENT NO. 2 This Amendment No. 2 (this "Amendment") to the Manufacturing and Supply Agreement dated as of '
                'December 8, 2009 (as amended by an amendment agreement dated 31 December 2013) (the "Existing Agreement"), by and '
                'between Columbia Laboratories, (Bermuda) Ltd. and Fleet Laboratories Limited, is made as of ____, 2018.')
    assert read_front_date([columbia]).value == ""  # the amendment's own date is blank; the others are not its date


def test_a_description_or_deed_boilerplate_is_no_party():
    hdi = ('This SITE DEVELOPMENT AND HOSTING AGREEMENT (the "Agreement") dated as of August 9, 1999 is made between Hanover Direct, '
           'Inc. ("HDI"), a New Jersey Corporation, located at 1500 Harbor Boulevard, Weehawken, New Jersey 07087 and The Deerskin '
           'Companies, Inc. ("Company"), a Delaware corporation.')
    names = read_parties([hdi]).value.split("; ")
    assert "Jersey Corporation" not in names and any("Hanover" in n for n in names) and any("Deerskin" in n for n in names)
    deed = ('KNOW ALL MEN BY THESE PRESENTS, dated as of January 1, 2004, that FEDERATED INVESTMENT MANAGEMENT COMPANY, a statutory '
            'trust duly organized under the laws of the State of Delaware (the "Adviser"), does hereby nominate, constitute and '
            'appoint FEDERATED ADVISORY SERVICES COMPANY (the "FASC")')
    assert "KNOW ALL MEN" not in read_parties([deed]).value


TAILS = [  # a period that runs after the agreement ends (verbatim CUAD sentences of agreements neither grid question set uses)
    ("GopageCorp_20140221_10-K_EX-10.1", "As a condition to being furnished with Confidential Information, the Recipient agrees, "
     "during the Term and for five (5) years thereafter.", "five"),
    ("STAMPSCOMINC_06_24_1999-EX-10.18", "The audit rights set forth herein shall continue for one (1) year following the termination "
     "of this Agreement for any reason.", "one"),
    ("TomOnlineInc_20060501_20-F_EX-4.46", "pondence, banking and financial and other records pertaining to the determination of "
     "Gross Revenue, Direct Expenses and Adjusted Net Revenue, during the term of this Agreement and for a period of two (2) years "
     "following the expiration or termination hereof.", "two"),
    ("GSVINC_05_15_1998-EX-10", "i) Client will not use User Data to directly or indirectly solicit any Excite users either "
     "individually or in the aggregate during the term of this Agreement and for a period of twelve (12) months following the "
     "expiration or termination of this Agreement.", "twelve"),
]
TERM_THEN = ("ChinaRealEstateInformationCorp_20090929_F-1_EX-10.32", 'The initial term of this Agreement (the "Initial Term") shall '
             "commence on the Effective Date and shall continue for a period of ten (10) years thereafter.", "ten")


@pytest.mark.parametrize("agreement,sentence,value", TAILS, ids=[a for a, _, _ in TAILS])
def test_a_period_after_the_agreement_ends_is_not_how_long_it_lasts(agreement, sentence, value):
    assert after_the_end(sentence, at(sentence, value))
    for ask in ("How long does the agreement last?", "How long does this contract continue?", "For how long is the contract in force?"):
        got = read_typed("duration", ask, [sentence, TERM_THEN[1]]).value
        assert got == "10 years", (ask, got)  # the term -- never the tail period, nor both (unverified)


def test_thereafter_after_the_start_is_the_term_itself_and_a_renewal_keeps_its_thereafter():
    assert not after_the_end(TERM_THEN[1], at(TERM_THEN[1], TERM_THEN[2]))
    assert read_typed("duration", "How long does the agreement last?", [TAILS[0][1], TERM_THEN[1]]).value == "10 years"
    renew = "This Agreement shall automatically renew for successive one (1) year periods thereafter."
    assert read_typed("duration", "Renewal Term", [renew], everyday=False).value == "1 year"
