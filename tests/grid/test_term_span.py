"""A term clause written as two dates (issue #45; a new user's tryout): '"Contract Period" shall mean that period of time
commencing on January 1, 2000 and concluding December 31, 2003' answers "when does it end?" with its end date and "how long
does it run?" with the whole years between them, quoted and read by rule; "will continue until termination as provided
below" is a term with no end.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed), and distractors (verbatim or made from CUAD sentences, as marked) whose two dates are a
payment schedule's, a renewal's or a phase's. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import rule_cell
from clauselens.grid.term import open_ended, span_period, term_end, term_reading, term_span
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

SPANS = [  # (agreement, sentence, start, end, whole period)
    ("MOSSIMOINC_04_14_2000-EX-10.14", "(a) \"Contract Period\" shall mean that period of time commencing on January 1, 2000 and "
     "concluding December 31, 2003, unless terminated sooner as provided herein.", "2000-01-01", "2003-12-31", "4 years"),
    ("FreezeTagInc_20180411_8-K_EX-10.1", "Term: This Agreement shall commence on March 15, 2018 and will expire on March 14, 2020.",
     "2018-03-15", "2020-03-14", "2 years"),
    ("GAINSCOINC_01_21_2010-EX-10.41", "1. Term. Subject to the provisions of Section 14 hereof, the term of this Agreement and the "
     "sponsorship described herein shall commence on January 1, 2010 and extend through December 31, 2010.", "2010-01-01",
     "2010-12-31", "1 year"),
    ("RUBIOSRESTAURANTSINC_03_31_2008-EX-10.75", "TERM: The term (the \"Term\") shall commence on November 1, 2007 and end on "
     "October 31, 2008 (unless terminated earlier in accordance with the General Provisions).", "2007-11-01", "2008-10-31", "1 year"),
    ("EcoScienceSolutionsInc_20180406_8-K_EX-10.1", "Terms and Termination: The term of this agreement will begin on April 1, 2018 "
     "and continue until April 30, 2018.", "2018-04-01", "2018-04-30", "1 month"),
]
NOT_SPANS = [
    # a payment schedule (made from NETGROCERINC_07_31_1998-EX-10.15's, an end date added)
    "NetGrocer shall pay to Excite sponsorship and advertising fees for the first year of the term of the Agreement in the total "
    "amount of [*] payable in nine equal monthly installments of [*], commencing on March 15, 1998 and ending on November 15, 1998.",
    # a renewal's period (made from a CUAD renewal clause)
    "Either party may renew this Agreement on the same terms and conditions for one (1) additional five year period that shall "
    "begin on January 1, 2005 and end on December 31, 2009.",
    # a phase's (LEJUHOLDINGSLTD_03_12_2014-EX-10.34)
    "Phase II will commence on August 1, 2011 and end on July 31, 2012.",
    # the end is the later of two events (made from a CUAD term clause, its second event shortened)
    "a) The term of this Agreement will begin on December 15, 1997 and will end the later of (i) December 15, 1999 or (ii) the "
    "date on which the last Order is completed.",
]


@pytest.mark.parametrize("agreement, sentence, start, end, period", SPANS)
def test_the_term_clause_runs_from_one_date_to_another(agreement: str, sentence: str, start: str, end: str, period: str) -> None:
    texts = ["Either party may terminate this Agreement for breach on thirty (30) days notice.", sentence]
    got = term_span(texts)
    assert got is not None and got[1:] == (start, end) and got[0].passage == 1, agreement
    assert span_period(start, end) == period
    assert term_end(texts, texts[:1]).value == end
    assert term_reading(texts).value == period


@pytest.mark.parametrize("sentence", NOT_SPANS)
def test_other_spans_are_not_the_term(sentence: str) -> None:
    assert term_span([sentence]) is None


def test_a_span_of_no_whole_period_gives_no_length() -> None:
    assert span_period("2018-03-15", "2018-07-02") == ""
    assert span_period("2020-03-01", "2025-02-28") == "5 years"  # the day before the anniversary: the end day counted in


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("qtype, question, answer", [("date", "When does this agreement end?", "2003-12-31"),
                                                     ("date", "On what day does the deal wrap up?", "2003-12-31"),
                                                     ("duration", "How long does the agreement run?", "4 years")])
def test_the_cell_quotes_the_two_dates(qtype: str, question: str, answer: str) -> None:
    passages = _passages("ENDORSEMENT AGREEMENT between Mossimo, Inc. and David Duval Enterprises.",
                         "All additional remuneration will be due within thirty (30) days of each such accomplishment.", SPANS[0][1])
    base = {"row_key": "a", "question_id": "end", "fingerprint": "", "model": "rule"}
    cell = rule_cell(base, GridQuestion(id="end", type=qtype, question=question), passages)
    assert cell.status == "answered" and cell.answer == answer, cell
    assert "concluding December 31, 2003" in cell.quote and "2000-01-01 to 2003-12-31" in cell.reason
    other = rule_cell(base, GridQuestion(id="pay", type="date", question="When is the additional remuneration due?"), passages)
    assert other.answer != "2003-12-31", other


def test_until_termination_is_a_term_with_no_end() -> None:
    # KIROMICBIOPHARMA,INC_05_11_2020-EX-10.23; "until termination of" something else is not (a CUAD outsourcing agreement)
    r = open_ended(["This Agreement will commence on the Effective Date and will continue until termination as provided below."])
    assert r.value == "until terminated"
    assert open_ended(["The services shall begin upon execution of the Outsourcing Agreement and shall continue until termination of "
                       "Contractor's activities to administer the Notes."]).candidate is None


def test_a_whole_arrangement_wrapping_up_asks_for_its_end() -> None:
    from clauselens.grid.term import asks_end, term_periods

    assert asks_end("On what day does this whole arrangement wrap up?")
    assert asks_end("When does the entire agreement end?")
    assert not asks_end("When does the whole confidentiality duty end?")
    # WORLDWIDESTRATEGIESINC_11_02_2005: the preamble's "this 14 day of SEPTEMBER" is a date's day, not a 14-day term
    assert term_periods('This Reseller Agreement is made and entered into as of this 14 day of SEPTEMBER, 200_ (the "Effective '
                        'Date"), by and between TOUCHSTAR SOFTWARE CORPORATION and WORLDWIDE STRATEGIES.') == []
