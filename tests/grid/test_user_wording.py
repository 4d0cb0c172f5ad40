"""Typed grid cells on a user's everyday wording (issue #45, the third blind grid set's causes): a lay phrase made
of generic words only ("side deals", "date of the deal") names no topic; an insurance policy's limit or cancellation
notice answers no other question; "England and Wales" is one jurisdiction; a period after the agreement ends is not
how long it runs; "how long is this contract ..." asks how long the agreement lasts. The sentences are real CUAD
sentences (CC BY 4.0, quoted verbatim); the questions are fresh phrasings written for these tests."""

from __future__ import annotations

import pytest

from clauselens.grid.extract import preamble_date_kind, read_typed, topic_groups
from clauselens.grid.topic import telling_concepts
from clauselens.grid.whose import after_the_end, insurance_terms

#: VIOLINMEMORYINC_12_12_2012-EX-10.14-SPONSORSHIP AGREEMENT (insurance section).
POLICY = "policy or policies evidenced thereby shall not be canceled or modified without thirty (30) days advance written notice."
#: WPPPLC_04_30_2020-EX-4.28-SERVICE AGREEMENT, 22.2.
COURTS = ("22.2 The parties irrevocably agree that the courts of England and Wales shall have exclusive jurisdiction to settle any "
          "dispute or claim that arises out of or in connection with this Agreement or its subject matter or formation (including "
          "non-contractual disputes or claims).")
#: NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New (audits).
AUDIT_TAIL = ("During the term of this Agreement and the five (5) year period immediately following termination of this Agreement, "
              "Licensor will have the right, at its own expense, to audit and examine Licensees records.")
#: THERAVANCEBIOPHARMA,INC_05_08_2020-EX-10.2-SERVICE AGREEMENT, 21.
RESTRICTION_TAIL = ("21. Post Termination Restrictions During the term of employment and for one (1) year thereafter, the Executive "
                    "will not directly or indirectly, either themselves or through any other person, solicit any employee.")
#: INTRICONCORP_03_10_2009-EX-10.22-Strategic Alliance Agreement, 3.1.
INITIAL_TERM = ("3.1 The initial term of this Agreement shall be five (5) years from the date of execution and may be extended "
                "subject to satisfactory agreement on ongoing commercial terms, to be agreed two (2) months prior to the expiration "
                "of this Agreement.")


def test_a_lay_phrase_of_generic_words_names_no_topic() -> None:
    names = {c.name for c in telling_concepts("Could either side drop the deal whenever they feel like it, no reason given?")}
    assert "entire agreement" not in names and "parties" not in names  # "side deals", "sides to the deal": generic words only
    assert preamble_date_kind("What date does the deal wrap up?") == ""  # "date of the deal" is no agreement date here
    assert preamble_date_kind("When did everybody put pen to paper?") == "made"  # a telling phrase still counts


@pytest.mark.parametrize("question", ["How much warning has to be given to cancel for no reason at all?",
                                      "How long before cancelling must they tell the other side?"])
def test_an_insurance_policys_notice_answers_no_other_question(question: str) -> None:
    assert insurance_terms(POLICY)
    assert read_typed("duration", question, [POLICY]).value == ""


def test_an_insurance_question_keeps_the_policys_values() -> None:
    r = read_typed("duration", "How much notice before the insurance policy can be cancelled?", [POLICY])
    assert r.value == "30 days"


def test_england_and_wales_is_one_jurisdiction() -> None:
    assert read_typed("jurisdiction", "Where would a row between them end up being settled?", [COURTS]).value == "England"


@pytest.mark.parametrize("text,word", [(AUDIT_TAIL, "five"), (RESTRICTION_TAIL, "one")])
def test_a_period_after_the_agreement_ends_is_no_length_of_it(text: str, word: str) -> None:
    assert after_the_end(text, text.index(word))
    assert read_typed("duration", "How long is this agreement going to run?", [text]).value == ""


def test_how_long_the_contract_runs_reads_its_term() -> None:
    assert "last" in {g.name for g in topic_groups("How long is this agreement going to run?")}
    assert read_typed("duration", "How long is this agreement going to run?", [AUDIT_TAIL, INITIAL_TERM]).value == "5 years"
    # the agreement as the object of another verb is not what the question measures
    assert "last" not in {g.name for g in topic_groups("How long to put things right before the contract can be torn up?")}
    assert "last" not in {g.name for g in topic_groups("How long does the contract give us to sort out a complaint?")}


#: AFSALABANCORPINC_08_01_1996-EX-1.1-AGENCY AGREEMENT (representations), two sentences cut at their clause ends.
LICENCES = ("all such licenses, permits and governmental authorizations are in full force and effect, and the Company and the "
            "Association are in all material respects complying with all laws, rules, regulations and orders applicable to the "
            "operation of their businesses; and the Association is in good standing under the laws of the United States.")
INCORPORATED = ("(g) The Company has been duly incorporated and is validly existing as a corporation in good standing under the laws "
                "of the State of Delaware with corporate power and authority to own, lease and operate its properties.")
#: BONTONSTORESINC_04_20_2018 (a store list).
ADDRESS = "314 New Ulm 110 N Minnesota Street New Ulm MN 56073 47,277 315 Watertown 1300 9th Avenue SE Watertown SD 57201"
#: A governing-law sentence in CUAD's usual wording.
GOVERNED = "This Agreement shall be governed by and construed in accordance with the laws of the State of New York."


@pytest.mark.parametrize("text", [LICENCES, INCORPORATED, ADDRESS])
def test_a_place_that_is_no_law_of_the_agreement_is_not_read(text: str) -> None:
    """Laws a party complies with, where a party is incorporated ("validly existing ... under the laws of"), a street."""
    for question in ("What laws does this deal follow?", "Under which state's laws is this read?"):
        assert read_typed("jurisdiction", question, [text, GOVERNED]).value == "New York"


def test_a_place_the_question_names_is_no_answer() -> None:
    text = ["The Parties retain their rights under the United States Bankruptcy Code.", GOVERNED]
    assert read_typed("jurisdiction", "Which part of the United States has its law apply here?", text).value != "United States"


@pytest.mark.parametrize("question,all_parties", [("Which businesses are on either side of this?", True),
                                                   ("Name the firms that are bound by it.", True),
                                                   ("Who sits on both sides of the table here?", True),
                                                   ("Which side supplies the software?", False),
                                                   ("Who is the customer?", False)])
def test_a_question_for_all_the_parties_in_everyday_words(question: str, all_parties: bool) -> None:
    from clauselens.grid.rule import asks_all_parties

    assert asks_all_parties(question) is all_parties


def test_a_sum_keeps_its_currency() -> None:
    """WPPPLC_04_30_2020 (7.1) and THERAVANCEBIOPHARMA,INC_05_08_2020 (7.1): pounds are shown as pounds, never as dollars."""
    from clauselens.grid.values import amounts_at, check_value

    wpp = "7.1 The Company will pay the Executive a salary of £740,000 and a fixed benefits allowance of £30,000 per annum"
    assert [str(a) for a, _, _ in amounts_at(wpp)] == ["£740,000", "£30,000"]
    salary = "7.1 The Executive shall be paid a basic salary of £448,903 per annum."
    assert read_typed("amount", "How much is the yearly pay?", [salary]).value == "£448,903 per annum"
    assert check_value("amount", "$448,903", salary).reason  # a sum in the wrong currency is not what the quote states
    assert [a.currency for a, _, _ in amounts_at("a fee of EUR 1,000,000 or US$ 3 million")] == ["EUR", "USD"]


def test_the_parties_after_a_split_title_page() -> None:
    """WPPPLC_04_30_2020-EX-4.28-SERVICE AGREEMENT as the library chunks it: a title page and a contents list in short
    passages, then "BETWEEN:" alone and "(1) ... (2) ..." in the next passage; the parties rule reads on to it (the grid's
    first two passages did not) and reads the cue with the passage after it."""
    from clauselens.grid.extract import read_parties
    from clauselens.grid.rule import front_texts

    texts = ["Table of Contents\n\nExhibit 4.28\n\nSERVICE AGREEMENT", "1 OCTOBER 2019", "WPP 2005 LIMITED\n\nand",
             "JOHN ROGERS\n\n\n\n\n\nTable of Contents\n\nCONTENTS Clause Page",
             "1. Interpretation 3 2. Commencement of Appointment 4 3. Executive's Duties 4 4. Place of Work 5 5. Working Hours 5",
             "1. Power of Attorney 17 2. Incentive Plans 18\n\nTable of Contents\n\nTHIS AGREEMENT is made on 1 October 2019",
             "BETWEEN:",
             "(1) WPP 2005 LIMITED (registered number 01003653) whose registered office is at Sea Containers, 19 Upper Ground, "
             "London SE1 9GL (the Company) (2) JOHN ROGERS (the Executive).\n\nIT IS AGREED as follows:",
             "1. INTERPRETATION 1.1 In this Agreement:" + " Board means the board." * 200,
             "2. COMMENCEMENT 2.1 The Appointment commenced on 27 January 2020 between the Company and the Executive."]
    assert read_parties(texts[:2]).value == ""
    got = read_parties(front_texts(texts))
    assert got.value == "WPP 2005 LIMITED; JOHN ROGERS" and got.candidate is not None and got.candidate.passage == 7
    assert len(front_texts(texts)) < len(texts)  # the reach ends: a later passage is not read as the preamble


#: MIDDLEBROOKPHARMACEUTICALS,INC_03_18_2010-EX-10.1-PROMOTION AGREEMENT, 15.2(a): the notice period is the cure period.
CURE_IN_NOTICE = ("(a) Either party hereto shall have the right to terminate this Agreement after thirty (30) days written notice to "
                  "the other in  the event the other is in breach of this Agreement unless the breaching party cures the breach "
                  "before the expiration of  such period of time.")


def test_a_notice_period_that_is_also_the_cure_period() -> None:
    for question in ("If they mess something up, how long have they got to put it right?", "What is the cure period for a breach?"):
        assert read_typed("duration", question, [CURE_IN_NOTICE]).value == "30 days", question
    assert read_typed("duration", "How long does this agreement last?", [CURE_IN_NOTICE]).value == ""  # no term of the agreement
    other = "Either party may terminate this Agreement upon thirty (30) days written notice for any reason."
    assert read_typed("duration", "What is the cure period for a breach?", [other]).value == ""  # a notice period and no cure


def test_a_threshold_period_is_no_term() -> None:
    """VIOLINMEMORYINC_12_12_2012 (force majeure): "extends beyond ... (180) days" is when the suspension lets a party end the
    agreement, not how long each extension or the agreement runs."""
    suspension = ("In the event of a suspension or any obligation by reason of this Section 13(h) which extends beyond "
                  "one-hundred-and-eighty (180) days, this Agreement shall be terminable by either party.")
    renews = "This Agreement shall automatically renew for successive periods of one (1) year each."
    assert read_typed("duration", "When it gets extended, for how long each time?", [suspension]).value == ""
    assert read_typed("duration", "When it gets extended, for how long each time?", [suspension, renews]).value == "1 year"


#: ADMA BioManufacturing, LLC - Amendment #3 to Manufacturing Agreement, 5 (cut after the sum).
FEE_PAID = ("5. In consideration for certain quantities of Product that ADMA would have been contractually obligated to supply, "
            "and that Sanofi Pasteur would have been contractually obligated to purchase, under the Agreement, but that will now "
            "not be supplied and purchased as a result of the Parties' agreement in Section 2 above, Sanofi Pasteur agrees to pay "
            "ADMA an amount of seven million (7,000,000 USD) (the \"Compensation Fee\") in five installments.")
#: MTITECHNOLOGYCORP_11_16_2004-EX-10.9, 10.2.
CAP = ("10.2 Notwithstanding any provision herein to the contrary, McDATA's entire liability in any given instance from any cause "
       "whatsoever, and regardless of the form of action, whether in contract, warranty or tort (including negligence) or any other "
       "theory of liability in law or in equity, will in no event exceed the lease, of (i) the purchase price for the specific "
       "Product that is the subject matter of or is directly relative the cause of action; or (ii) Five Hundred Thousand Dollars "
       "($500,000).")


@pytest.mark.parametrize("question", ["What's the biggest dollar sum anyone would ever have to pay out for losses?",
                                      "What's the maximum dollar figure a side could end up paying out in damages?"])
def test_a_ceiling_question_needs_a_stated_ceiling(question: str) -> None:
    """A sum agreed to be paid is no answer to a question about the most anyone would pay (blind3 grid set: ADMA's
    compensation fee was read as its damages cap, which is redacted); a cap that says "in no event exceed" still is."""
    assert read_typed("amount", question, [FEE_PAID]).value == ""
    assert read_typed("amount", question, [FEE_PAID, CAP]).value == "$500,000"
    assert read_typed("amount", "How much is the fee paid for the product not supplied?", [FEE_PAID]).value == "$7,000,000"  # no ceiling asked


#: OFGBANCORP_03_28_2007-EX-10.23-OUTSOURCING AGREEMENT (renewal).
RENEWAL_WINDOW = ("Unless Customer notifies Metavante of its intent not to renew this Agreement in writing within a period of three (3) "
                  "months following the Renewal Notice, this Agreement shall automatically renew at the end of the Initial Term on the "
                  "same terms (including pricing terms) for one (1) twelve-month period.")
#: MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT, title line and preamble.
AMENDED_TITLE = ("Exhibit 10.6   MediWound Ltd.   and   Challenge Bioproducts Corporation Ltd.            "
                 "Supply Agreement — As amended on February 28, 2010")
MEDIWOUND_PREAMBLE = ('SUPPLY AGREEMENT   This Supply Agreement ("Agreement") was made and entered into as of the 11 day of January, 2001 by '
                      'and between MediWound Ltd., a corporation organized and existing under the laws of Israel')
#: RUBIOSRESTAURANTSINC_03_31_2008-EX-10.75-SPONSORSHIP AGREEMENT (a schedule of benefits before any preamble).
DEADLINE = ("Signage benefits oOne Terrace Level fascia sign. The sign is approximately 3' x 16'. SDBF to pay production costs for "
            "installation of new signage. SDBF shall install this sign on or before March 28, 2008.")
#: MERITLIFEINSURANCECO_06_19_2020-EX-10.(XIV)-MASTER SERVICES AGREEMENT, title page and preamble.
TWICE_NAMED = ("Exhibit 10(xiv)\n\nMASTER SERVICES AGREEMENT Between RadialSpark, LLC and Clear Capital Page 1 of 10\n\n"
               'THIS MASTER SERVICES AGREEMENT ("Agreement"), dated as of 09/24/2018 (the "Effective Date"), is between Clear Capital '
               '(the "Company") and RadialSpark, LLC (the "Contractor").')


def test_a_window_to_act_is_no_renewal_term() -> None:
    """Held-back report[180:280] of the CUAD preset (inspected from 2026-12-06): "within a period of three (3) months
    following the Renewal Notice" was read as the renewal term; the renewal is the twelve-month period (which the period
    reader does not read: the cell is left empty, not wrong)."""
    assert read_typed("duration", "Renewal Term", [RENEWAL_WINDOW], everyday=False).value == ""
    assert read_typed("duration", "How long does each renewal last?", [RENEWAL_WINDOW]).value != "3 months"


def test_an_amendments_date_or_a_deadline_is_not_the_agreements_date() -> None:
    from clauselens.grid.extract import read_front_date

    assert read_front_date([AMENDED_TITLE, MEDIWOUND_PREAMBLE]).value == "2001-01-11"  # not the amendment's 2010-02-28
    assert read_front_date([DEADLINE]).value == ""  # an installation deadline dates nothing
    kept = "This Amended and Restated Supply Agreement is amended and restated as of March 1, 2012 by and between A Corp. and B Ltd."
    assert read_front_date([kept]).value == "2012-03-01"  # an amended and restated agreement's own date stays


def test_one_party_read_twice_is_named_once() -> None:
    from clauselens.grid.extract import read_parties

    assert read_parties([TWICE_NAMED]).value == "Clear Capital; RadialSpark, LLC"
