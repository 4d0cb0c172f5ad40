"""Wrong cells left on the keyed development sets (issue #45; dev9-dev24, written by helpers blind to the code over train_allowed
CUAD agreements), each mended by a general rule:

* "where does it get decided?" was answered "China" from "China International Economic and Trade Commission for arbitration in
  Beijing" (two sets): a body named after its country is not the seat; the city the arbitration sits in is;
* a change-of-control "Yes" quoted "Each party shall have the right to assign ... in connection with any merger" (a free
  assignment): a change-of-control clause says what follows a change of ownership (consent, approval, notice, an end);
* a quality "Yes" quoted a franchisee's duty to keep its franchisor's standards: the receiving side's own standard promises
  nothing about what it gets;
* a start date was read from the preamble where "the start of the Term will be from the Launch Date" and another clause dates
  the launch;
* "Can they raise the price on us partway through?" required "partway" and "through" and so found no sentence on topic ("No");
* "will perform its obligations ... in a commercially reasonable manner" is a promise about the work's standard;
* a free exit was read from "... Site by end of the additional four-month period, Client may terminate", the tail of a sentence
  a page break cut from its "if": a deadline is a condition.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed, some cut short). Pure rule tests.
"""

from __future__ import annotations

from clauselens.grid.extract import topic_groups
from clauselens.grid.forum import forum
from clauselens.grid.heads import states_clause
from clauselens.grid.signing import OTHER_START, event_start
from clauselens.grid.yes_no import quality_warranty

# TUNIUCORP_03_06_2014-EX-10-COOPERATION AGREEMENT, 11.2
TUNIU_ARBITRATION = ("11.2 If the dispute cannot be resolved through negotiation within thirty (30) days after a Party sends the written "
                     "notice to the other Party stating its opinions on this dispute, either Party may submit the dispute to China "
                     "International Economic and Trade Commission for arbitration in Beijing according to its arbitration rules then in "
                     "effect.")
# JINGWEIINTERNATIONALLTD_10_04_2007-EX-10 (intellectual property licence)
JINGWEI_ARBITRATION = ("In case no settlement can be reached through consultation within 30 days after one party ask for consultation, each "
                       "party can submit such matter to China International Economic and Trade Arbitration Commission (the \"CIETAC\") in "
                       "accordance with its rules, and the arbitration proceedings shall be conducted in Chinese and shall take place in "
                       "Beijing.")


def test_the_seat_not_the_bodys_country() -> None:
    for text in (TUNIU_ARBITRATION, JINGWEI_ARBITRATION):
        assert forum([text], "If we end up fighting, where does it get decided?").value == "Beijing"
    # a body whose country is its seat keeps it; a seat that is a jurisdiction is read as before
    assert forum(["Any dispute shall be submitted to the Hong Kong International Arbitration Centre for arbitration in Hong Kong."],
                 "Where are disputes settled?").value == "Hong Kong"
    assert forum(["The arbitration shall be conducted in Denver, Colorado."], "Where is arbitration held?").value == "Colorado"


# StampscomInc_20001114_10-Q_EX-10.47 (co-branding and marketing agreement)
STAMPS_ASSIGN = ("Each party shall have the right to assign its rights, obligations and privileges hereunder to an assignee in connection "
                 "with any merger, acquisition or sale of all or substantially all of the business to which this Agreement relates.")


def test_a_free_assignment_on_merger_is_no_change_of_control_clause() -> None:
    assert not states_clause("Change Of Control", STAMPS_ASSIGN)
    # worded after Change of Control clauses annotated in train_allowed agreements (master_clauses.csv; the first with its item number dropped)
    assert states_clause("Change Of Control", "This Agreement and all rights and licenses granted under this Agreement shall terminate as "
                         "soon as practicable, but no longer than thirty (30) days, after Licensee is acquired by a third party.")
    assert states_clause("Change Of Control", "Either party may terminate this Agreement upon written notice if the other party undergoes "
                         "a change of control.")


# SimplicityEsportsGamingCompany_20181130 (franchise agreement)
SIMPLICITY_STANDARDS = ("Franchisee shall comply with, and ensure that the third party sub-franchisees comply with the standards prescribed by "
                        "Franchisor (as provided in the operating manuals which shall be shared by Franchisor with Franchisee) with respect "
                        "to the services, products and operations of the Smaaash Centres and shall operate the Smaaash Centres in strict "
                        "conformity with such standards and specifications as Franchisor may from time to time prescribe.")


def test_the_buyers_own_standard_is_no_quality_promise() -> None:
    got = quality_warranty([SIMPLICITY_STANDARDS])
    assert got is not None and got.answer == "" and got.on_topic  # on topic (no "nothing on topic" No), left for a reviewer
    supplier = "Supplier warrants that the Products shall conform to the Specifications and be free from defects in material and workmanship."
    got = quality_warranty([SIMPLICITY_STANDARDS, supplier])
    assert got is not None and got.answer == "Yes" and got.passage == 1


# VNUE,INC_07_10_2015-EX-10.1-SPONSORSHIP AGREEMENT, 9(b)
VNUE_WARRANTY = "(iii) ANTHEMIC will perform its obligations under this Agreement in a commercially reasonable manner."


def test_a_commercially_reasonable_manner_is_a_standard_of_work() -> None:
    got = quality_warranty([VNUE_WARRANTY])
    assert got is not None and got.answer == "Yes"
    assert quality_warranty(["Licensee shall use commercially reasonable efforts to market the Products."]) is None
    # VertexEnergyInc_20200113_8-K (joint sales and marketing agreement): a definition's way of valuing, no promise
    assert quality_warranty(['"Hedge Position Value" means the then current settlement value of any and all open hedge transactions '
                             "entered into by Bunker One as determined by Bunker One on a mark-to-market basis in a commercially "
                             "reasonable manner."]) is None


# HealthcentralCom_19991108_S-1A_EX-10.27 (co-branding agreement)
HEALTHCENTRAL = ["b) The Parties have agreed that they will mutually approve the design of the Co-Branded Site and that the launch date of "
                 "the Co-Branded Site shall be September 1st, 1999 unless mutually extended by the Parties as agreed to in writing.",
                 'The term of this Agreement shall be for a period of two (2) years (the "Term"). The effective date of the start of the '
                 "Term will be from the Launch Date."]


def test_a_term_run_from_a_dated_event_starts_on_its_date() -> None:
    assert OTHER_START.search(HEALTHCENTRAL[1])  # the preamble's date is not its start
    got = event_start(HEALTHCENTRAL)
    assert got is not None and got.value == "1999-09-01" and got.candidate is not None and got.candidate.passage == 0
    assert event_start(HEALTHCENTRAL[1:]) is None  # an undated launch: no start date


def test_when_words_are_not_the_topic() -> None:
    names = [g.name for g in topic_groups("Can they raise the price on us partway through?")]
    assert names == ["concept:price restrictions"]


# GSVINC_05_15_1998-EX-10-SPONSORSHIP AGREEMENT: a page break cut the sentence's "In the event that Excite has not delivered ..."
GSV_FRAGMENT = ("Site by end of the additional four-month period, Client may terminate this Agreement immediately upon delivery of "
                "written notice to Excite.")


def test_a_missed_deadline_is_no_free_exit() -> None:
    from clauselens.grid.whose import at_will

    assert not at_will(GSV_FRAGMENT)
    assert at_will("Either party may terminate this Agreement upon thirty (30) days written notice.")


def test_the_scorer_takes_a_seat_the_key_names() -> None:
    from benchmarks.grid_user_questions import correct

    key = {"answerable": True, "accept": ["Beijing", "Beijing, China", "CIETAC"]}
    assert correct("jurisdiction", "Beijing", key)
    assert not correct("jurisdiction", "Shanghai", key)
    assert not correct("jurisdiction", "China", key)  # the key does not take the country alone
