"""A user's "when does this agreement end?" over an agreement that writes no end date: the term clause's period
(issue #45; :mod:`clauselens.grid.term`).

Sentences quoted verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0;
agreement named beside each), found by ``python -m benchmarks.term_period_census`` on the tune split and report[0:280],
and generated variants (subjects x verbs x periods x other durations). Pure rule tests: no model, no library.
"""

from __future__ import annotations

import itertools

import pytest

from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import rule_cell
from clauselens.grid.term import asks_end, asks_length, effective_date, read_term_period, term_end, term_periods
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

TERM_SENTENCES = [  # (agreement, sentence, the term's period)
    ("INTRICONCORP_03_10_2009-EX-10.22", "3.1 Term: The initial term of this Agreement shall be five (5) years from the date of "
     "execution and may be extended subject to satisfactory agreement on ongoing commercial terms, to be agreed two (2) months "
     "prior to the expiration of this Agreement.", "5 years"),
    ("MTITECHNOLOGYCORP_11_16_2004-EX-10.102", "The initial term of this Agreement shall be for a period of one (1) year from the "
     "Effective Date unless sooner terminated pursuant to the termination provisions herein.", "1 year"),
    ("ADIANUTRITION,INC_04_01_2005-EX-10.D2", "The term of this Agreement shall commence on the Effective Date and continue for "
     "six (6) months.", "6 months"),
    ("MIDDLEBROOKPHARMACEUTICALS,INC_03_18_2010-EX-10.1", "This Agreement shall commence as of the Effective Date and shall "
     "continue in full force and effect for an initial term of three (3) years from the Promotion Commencement Date, divided "
     "into three one-year periods.", "3 years"),
    ("LEGACYTECHNOLOGYHOLDINGS,INC_12_09_2005", "The term of this Agreement shall be two (2) years from the Effective Date with "
     "automatic annual renewals thereafter provided either party does not provide sixty (60) days notice of termination prior "
     "to the renewal date.", "2 years"),
]
NOT_THE_TERM = [  # (agreement, sentence): another duration, a date, a lower bound, a condition
    ("OPERALTD_04_30_2020-EX-4.14", "Such obligations will survive the expiration of this Agreement for a period of five (5) years."),
    ("VIOLINMEMORYINC_12_12_2012-EX-10.14", "Termination of this Agreement shall be effective thirty (30) days from the date of "
     "receipt of such notice, unless, within thirty (30) days after receipt of such notice, the defaulting Party has corrected "
     "the default."),
    ("MIDDLEBROOKPHARMACEUTICALS,INC_03_18_2010-EX-10.1", "3.9. All records maintained by DD pertaining to DD's services to MBRK "
     "pursuant to this Agreement shall be provided to MBRK within 48 hours of MBRK's request."),
    ("INTRICONCORP_03_10_2009-EX-10.22", "11.1 Notwithstanding any provision to the contrary in this Agreement, this Agreement may "
     "not be terminated by either party prior to two years from the commencement date."),
    ("FTENETWORKS,INC_02_18_2016-EX-99.4", "After the Initial Term, this Agreement shall continue on a month to month basis until "
     "terminated by either party upon thirty (30) days prior written notice to the other."),
    ("PapaJohnsInternationalInc_20190617", "If this Agreement is terminated by ABG for any of the reasons provided in Section 7.B. "
     "above, then any and all unpaid amounts under this Agreement for the eighteen (18) months following the effective date of "
     "termination shall become due."),
    ("UTEK strategic alliance (CUAD report split)", "This Strategic Alliance Agreement is made and entered into this 14 day of June "
     "2006, by and between UTEK Corporation and Manakoa Services Corporation."),
    ("GSV sponsorship (CUAD report split)", "Regardless of Excite's actual delivery of impressions and clickthroughs, the term of "
     "this Agreement will not be shorter than two (2) years after the display of the first of Client's advertising banners."),
    ("COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71", "This Agreement shall be effective as of the date first set forth above and, shall "
     "expire on the later of (i) five (5) years from the date hereof, or (ii) with respect to any projects identified in any "
     "contract for which VET TECH is billing, the completion of such projects."),
    ("PlayboyEnterprisesInc_20090220", "This Agreement shall commence as of the Effective Date and, unless earlier terminated as "
     "provided under this Agreement, shall terminate five (5) years following the date of launch of the first Website, but in no "
     "event later than February 28, 2013."),
]


@pytest.mark.parametrize("agreement,sentence,period", TERM_SENTENCES, ids=[a for a, _, _ in TERM_SENTENCES])
def test_a_term_clause_states_its_period(agreement, sentence, period):
    assert [p for p, _, _ in term_periods(sentence)] == [period], agreement


@pytest.mark.parametrize("agreement,sentence", NOT_THE_TERM, ids=[a for a, _ in NOT_THE_TERM])
def test_other_durations_are_not_the_term(agreement, sentence):
    assert term_periods(sentence) == [], agreement


SUBJECTS = ["This Agreement", "The term of this Agreement", "The initial term of this Supply Agreement", "The Term",
            "This Agreement, unless earlier terminated as provided below,"]
VERBS = ["shall continue for", "shall remain in effect for a period of", "will be", "shall expire", "shall run for"]
PERIODS = [("three (3) years", "3 years"), ("eighteen (18) months", "18 months"), ("one year", "1 year")]


def test_generated_term_sentences_and_their_distractors():
    for subject, verb, (written, period) in itertools.product(SUBJECTS, VERBS, PERIODS):
        sentence = f"{subject} {verb} {written} from the Effective Date."
        assert [p for p, _, _ in term_periods(sentence)] == [period], sentence
        for other in (f"The confidentiality obligations of {subject[0].lower() + subject[1:]} shall survive for {written}.",
                      f"If {subject[0].lower() + subject[1:]} is terminated, Licensee shall pay within {written}.",
                      f"{subject} may be renewed for {written}.",
                      f"Either party may terminate {subject[0].lower() + subject[1:]} on {written} prior written notice."):
            assert term_periods(other) == [], other


def test_several_term_periods_are_left_for_a_reviewer():
    one = read_term_period(["The term of this Agreement shall be two (2) years from the Effective Date.", "Payment is due."])
    assert one.value == "2 years" and one.candidate is not None
    two = read_term_period(["The term of this Agreement shall be two (2) years.", "This Agreement shall continue for five years."])
    assert two.candidate is None and len(two.choices) == 2 and "different periods" in two.reason


@pytest.mark.parametrize("question,asks", [
    ("On what date does this deal finish?", True), ("What's the last day this contract is in force?", True),
    ("When does the contract's first term end?", True), ("What date does the deal wrap up?", True),
    ("When does the confidentiality duty end?", False), ("When does the first payment period end?", False),
    ("When was this agreement signed?", False), ("From what date does the deal actually take effect?", False),
    ("When does the exclusivity period end?", False), ("When can the buyer terminate?", False),
])
def test_a_question_about_when_the_agreement_ends(question, asks):
    assert asks_end(question) is asks


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


def test_the_end_date_cell_quotes_the_term_clause_and_says_how_it_was_read():
    term = TERM_SENTENCES[1][1]
    passages = _passages("RESELLER AGREEMENT between MTI Technology Corp. and McDATA Corporation.",
                         "Either party may terminate this Agreement on thirty (30) days written notice.", term)
    base = {"row_key": "a", "question_id": "end", "fingerprint": "", "model": "rule"}
    cell = rule_cell(base, GridQuestion(id="end", type="date", question="On what date does this deal finish?"), passages)
    assert cell.status == "answered" and cell.answer == "1 year", cell
    assert cell.quote in " ".join(term.split()) and "period" in cell.reason
    other = rule_cell(base, GridQuestion(id="conf", type="date", question="When does the confidentiality duty end?"), passages)
    assert other.status != "answered", other


# ------------------------------------------------------------------ the end date computed from the term clause
PREAMBLE = ("CONSULTING AGREEMENT This Consulting Agreement (\"Agreement\") is made and entered into as of May 1, 2019 "
            "(\"Effective Date\") by and between Driven Deliveries, Inc. (\"Company\") and TruckThat LLC (\"Consultant\").")
# DRIVENDELIVERIES,INC_05_22_2020-EX-10.4 (preamble above, verbatim), and generated term clauses in its place
COMPUTED = [
    ("The term of this Agreement shall commence on the Effective Date and continue for six (6) months.", "2019-11-01"),
    ("This Agreement will be in effect for three (3) years from the Effective Date (\"Initial Term\").", "2022-05-01"),
    ("The initial term of this Agreement shall be twelve (12) months from the date hereof.", "2020-05-01"),
    ("This Agreement shall be for a period of five (5) years commencing upon the Effective Date.", "2024-05-01"),
    ("The Term shall commence upon the Effective Date and shall continue for an initial term of two (2) years.", "2021-05-01"),
]
NOT_COMPUTED = [  # the period, shown as written: another start, a conditional end, no start
    ("The initial term of this Agreement shall be the sooner of six (6) months from the Effective Date, or replacement of this "
     "Agreement with a subsequent agreement between the Parties.", "6 months"),  # DRIVENDELIVERIES, verbatim
    ("The term of this Agreement shall continue for one (1) year following the Launch Date, unless earlier terminated.", "1 year"),
    ("The initial term of this Agreement will begin on the Effective Date and end twelve (12) months after the Launch.", "12 months"),
    ("The term of this Agreement shall be for a period of two (2) years (the \"Term\").", "2 years"),
]


@pytest.mark.parametrize("term,end", COMPUTED)
def test_the_end_date_is_the_term_from_the_preamble_date(term, end):
    r = term_end([PREAMBLE, "Services. Consultant shall perform the services.", term], [PREAMBLE])
    assert r.value == end and "computed" in r.reason and "2019-05-01" in r.reason, (term, r)


@pytest.mark.parametrize("term,period", NOT_COMPUTED)
def test_a_term_from_another_event_or_with_an_alternative_end_stays_a_period(term, period):
    r = term_end([PREAMBLE, term], [PREAMBLE])
    assert r.value == period, (term, r)
    preset = term_end([PREAMBLE, term], [PREAMBLE], dates_only=True)  # the preset's Expiration Date column: dates only
    assert preset.candidate is None and period in preset.reason


@pytest.mark.parametrize("definition,expected", [
    ('"Effective Date" means October 31, 2019.', "2019-10-31"),  # FuelcellEnergyInc_20191106_8-K, verbatim
    ('1.5"Effective Date" shall mean December 5, 2014.', "2014-12-05"),  # Apollo Endosurgery manufacturing agreement
    ('"Effective Date" means the date first written above;', "2018-03-01"),  # ASIANDRAGONGROUPINC, verbatim
    ('"Effective Date" means the Closing Date as set forth in the Share Purchase Agreement.', ""),  # LejuHoldings, verbatim
    ('(e) "Effective Date" is the date of the most recent final signature on this Agreement.', ""),  # NOVOINTEGRATED
])
def test_the_effective_date_from_its_definition(definition, expected):
    front = ["SUPPLY AGREEMENT This Supply Agreement is made as of March 1, 2018 by and between A Corp. and B LLC."]
    assert effective_date([*front, "1. Definitions. " + definition], front) == expected


def test_the_effective_date_named_beside_the_preamble_date_and_defined_nowhere():
    made = ["COLLABORATION AGREEMENT THIS AGREEMENT is made this 1st day of April, 2007 (\"Effective Date\"), by and between "
            "INSTITUTE OF GRASSLAND AND ENVIRONMENTAL RESEARCH and CERES, INC."]  # CERES,INC_01_25_2012-EX-10.20, verbatim
    assert effective_date(made, made) == "2007-04-01"
    nowhere = ["This Consulting Agreement is made this 27th day of March, 2017 by Immunotolerance, Inc. and Alan Crane."]
    assert effective_date(nowhere, nowhere) == "2017-03-27"  # "Effective Date" used but never defined: the agreement's date
    blank = ["This Reseller Agreement is entered as of this ___ day of _________, 2004 (\"Effective Date\") by and between "
             "PivX Corporation and Detto Technologies."]  # ADIANUTRITION,INC_04_01_2005-EX-10.D2, verbatim
    assert effective_date(blank, blank) == ""


@pytest.mark.parametrize("question,asks", [
    ("How long does the agreement last?", True), ("How long is this contract set to run for?", True),
    ("What is the duration of the agreement?", True), ("What is the length of the initial term?", True),
    ("For how long must confidential information be kept secret?", False), ("How long is the notice period?", False),
    ("How long does the warranty last?", False), ("How long do we get to pay an invoice?", False),
])
def test_a_question_about_how_long_the_agreement_runs(question, asks):
    assert asks_length(question) is asks


def test_how_long_the_agreement_runs_is_its_term_clauses_period():
    term = ("This Agreement shall be effective until the earlier of (a) its termination in accordance with the provisions of "
            "this Article 14 or (b) the date that is two (2) years after the date of this Agreement.")  # NEONSYSTEMSINC, verbatim
    passages = _passages("DISTRIBUTOR AGREEMENT by and between PEREGRINE/BRIDGE TRANSFER CORPORATION and NEON SYSTEMS, INC.",
                         "Distributor shall pay each invoice within thirty (30) days.", term)
    base = {"row_key": "a", "question_id": "len", "fingerprint": "", "model": "rule"}
    cell = rule_cell(base, GridQuestion(id="len", type="duration", question="How long is this contract set to run for?"), passages)
    assert cell.status == "answered" and cell.answer == "2 years", cell
    other = rule_cell(base, GridQuestion(id="pay", type="duration", question="How long does the warranty last?"), passages)
    assert other.answer != "2 years", other


def test_a_cells_reason_names_its_topic_as_the_quote_writes_it():
    """A new user's tryout read "read by rule from the clause on notic" as a typo: the stem is shown as written."""
    from clauselens.grid.rule import _as_written

    assert _as_written("notic", "upon thirty (30) days prior written Notice") == "notice"
    assert _as_written("warranti", "Supplier warrants the Products") == "warranti"  # not written so: the stem stays


def test_the_term_clause_is_read_only_when_the_question_may_use_it():
    """The topic head's category reading of a user question ("When does it begin?" read as Expiration Date) passes
    ``term_clause=False``: the end date computed from the term clause answers only a question about when it ends."""
    passages = _passages(PREAMBLE, COMPUTED[1][0])
    base = {"row_key": "a", "question_id": "exp", "fingerprint": "", "model": "rule"}
    q = GridQuestion(id="exp", type="date", question="On what date does the agreement expire?", category="Expiration Date")
    assert rule_cell(base, q, passages).answer == "2022-05-01"
    assert rule_cell(base, q, passages, term_clause=False).status != "answered"
