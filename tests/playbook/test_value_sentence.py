"""A playbook value comes from a sentence about the position's topic, and the quote holds it (issue #44).

Generated inputs: the value in different wordings, placed before or after distractor sentences that
state another period (the definition of "Year", a payment term, a notice period for something else);
then real CUAD renewal sentences (verbatim).
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from clauselens.playbook.model import parse_playbook, parse_requirement
from clauselens.playbook.review import Reviewer
from clauselens.playbook.rules import days, evaluate, near_period, topic_words

WORDINGS = [  # (how the period is written, days)
    ("three (3) years", 3 * 365.25), ("3 years", 3 * 365.25), ("a period of three years", 3 * 365.25),
    ("thirty-six (36) months", 36 * 30.4375), ("two (2) years", 2 * 365.25), ("seven (7) years", 7 * 365.25),
]
TOPIC_SENTENCES = [
    "The Receiving Party's obligations of confidentiality shall survive for {p} after the date of disclosure.",
    "The non-use and confidentiality obligations under this Section shall continue in effect for {p} following termination.",
    "Confidential Information shall be held in confidence for {p} from the Effective Date.",
]
DISTRACTORS = [
    '"Year" means a period of twelve (12) months commencing on the Effective Date.',
    "Invoices are payable within sixty (60) days of receipt.",
    "This Agreement shall have an initial term of ten (10) years.",
    '"Business Day" shall mean any day other than a Saturday, Sunday or public holiday, and "Month" means a calendar month.',
]
POSITION = dict(terms=["confidential", "term", "period", "surviv", "year"], value_near=["period", "surviv", "term", "expir", "year"])
AT_MOST_5 = parse_requirement({"period_at_most": "5 years"})


@pytest.mark.parametrize("wording,topic,distractor,after", [
    (w, t, d, a) for (w, t), d, a in itertools.product(itertools.product(WORDINGS, TOPIC_SENTENCES), DISTRACTORS, (True, False))
])
def test_period_is_read_from_the_topic_sentence(wording, topic, distractor, after):
    written, want_days = wording
    sentence = topic.format(p=written)
    text = f"{distractor} {sentence}" if after else f"{sentence} {distractor}"
    got = near_period(text, POSITION["value_near"], topic_words(POSITION["terms"]))
    assert isinstance(got, tuple), got
    period, (a, b) = got
    assert abs(days(period) - want_days) < 1e-6
    start = text.index(sentence)
    assert start <= a < b <= start + len(sentence), "the value stands in the sentence about the topic"
    r = evaluate(AT_MOST_5, text, POSITION["value_near"], POSITION["terms"])
    assert r.outcome == ("compliant" if want_days <= 5 * 365.25 else "deviation")


@pytest.mark.parametrize("distractor", DISTRACTORS)
def test_no_topic_sentence_means_no_value(distractor):
    # tryout finding: the confidentiality period was read from the definition of "Year"
    r = evaluate(AT_MOST_5, distractor, POSITION["value_near"], POSITION["terms"])
    assert r.outcome == "unclear" and r.value == ""


RENEWAL = [  # real CUAD sentences (master_clauses.csv, Renewal Term): renewal term / notice to stop it
    ("The Agreement shall automatically renew for successive one year additional terms unless terminated by either party at least "
     "six months prior to the expiration of the then-current term.", 365.25, 6 * 30.4375),
    ("This Agreement will renew automatically thereafter for successive one-year terms unless and until one Party gives notification "
     "of termination with at least sixty (60) days written notice.", 365.25, 60.0),
]
TERM = dict(value_near=["renew", "successive", "additional", "extend", "extension"])
NOTICE = dict(value_near=["notice", "prior", "written", "before"], terms=["renew", "renewal", "non-renewal", "expir", "extend"])


@pytest.mark.parametrize("sentence,term_days,notice_days", RENEWAL)
def test_real_renewal_sentences_give_term_and_notice(sentence, term_days, notice_days):
    preamble = '"Year" means each period of twelve months. Payment is due within forty-five (45) days of invoice. '
    text = preamble + sentence
    t = near_period(text, TERM["value_near"], topic_words(TERM["value_near"]))
    n = near_period(text, NOTICE["value_near"], topic_words(NOTICE["terms"]))
    assert isinstance(t, tuple) and isinstance(n, tuple)
    assert abs(days(t[0]) - term_days) < 1e-6 and abs(days(n[0]) - notice_days) < 1e-6
    assert t[1][0] >= len(preamble) and n[1][0] >= len(preamble)


def test_review_quotes_the_sentence_holding_the_value():
    pb = parse_playbook("""
name: nda
positions:
  - id: confidentiality_period
    topic: How long do the confidentiality obligations last?
    terms: [confidential, term, period, surviv, year]
    value_near: [period, surviv, term, expir, year]
    require: {period_at_most: 5 years}
""")
    filler = " ".join(f"The Supplier shall deliver item {i} to the Customer's premises." for i in range(40))
    texts = ['1. Definitions. "Year" means a period of twelve (12) months. ' + filler,
             "9. Confidentiality. " + filler + " The obligations of confidentiality shall survive for seven (7) years after "
             "termination. " + filler]
    ps, at = [], 0
    for t in texts:
        ps.append(SimpleNamespace(text=t, spans=[SimpleNamespace(start=at, end=at + len(t))], clause_ref=t.split(".")[0],
                                  heading_path=[], page_start=1))
        at += len(t) + 2
    r = Reviewer(pb, head=SimpleNamespace(categories=[]), calibration={}).review(ps, agreement="a").results[0]
    assert r.outcome == "deviation" and r.value == "7 years"
    assert r.quotes[0].clause == "9" and "seven (7) years" in r.quotes[0].text


def test_digits_before_words_are_read():
    # real CUAD wording (MediWound supply agreement, 8.3): "5 (five) years" -- the value reader reads "five (5) years" only
    text = ("The confidentiality and non-use obligations contained in this Agreement shall continue for the duration of this "
            "Agreement and for a period of 5 (five) years after termination or expiry of this Agreement.")
    r = evaluate(AT_MOST_5, text, POSITION["value_near"], POSITION["terms"])
    assert r.outcome == "compliant" and r.value == "5 years" and text[r.span[0]:r.span[1]].startswith("5")


def test_a_value_quote_is_its_sentence_without_page_furniture():
    # real shape (Kitov manufacturing agreement in the five-agreement library): an EDGAR banner, another clause, then the law
    text = ("Source: KITOV PHARMA LTD., 20-F, 3/26/2019\n\n\n\n\n\n9.3 All of the Kitov Product IP shall be retained by Kitov at all "
            "times. 10 Governing Law; Venue 10.1 This Agreement shall be interpreted and enforced exclusively under the laws of the "
            "State of Israel, without regard to the conflict of laws provisions thereof. 10.2 The Parties submit to the exclusive "
            "jurisdiction of the competent courts of Tel-Aviv.")
    pb = parse_playbook("""
name: law
positions:
  - id: law
    topic: Which law governs?
    terms: [govern, laws of]
    require: {governing_law_in: [New York]}
""")
    p = SimpleNamespace(text=text, spans=[SimpleNamespace(start=100, end=100 + len(text))], clause_ref="9.3", heading_path=[],
                        page_start=1)
    r = Reviewer(pb, head=SimpleNamespace(categories=[]), calibration={}).review([p], agreement="a").results[0]
    assert r.outcome == "deviation" and r.value == "Israel"
    q = r.quotes[0]
    assert "Source:" not in q.text and "Kitov Product IP" not in q.text and "State of Israel" in q.text
    assert text[q.start - 100:q.end - 100] == q.text  # still the document's words at their offsets


@pytest.mark.parametrize("text,where", [
    # real CUAD shapes: the jurisdiction named first in an address or a courts sentence, the law after it
    ("In the case of University, Notice should be sent to: The University of Iowa, Iowa City, IA 52242. 9.4 Governing Law. "
     "This Agreement shall be governed by the laws of the State of Iowa.", "This Agreement shall be governed"),
    ("All disputes may be submitted to the Courts of the      Province of British Columbia. This  Agreement  shall be  governed  "
     "by and  construed  in accordance  with the laws of the  Province  of  British  Columbia.", "This  Agreement  shall be  governed"),
])
def test_the_law_is_quoted_where_it_governs(text, where):
    r = evaluate(parse_requirement({"governing_law_in": ["New York"]}), text, ["govern"])
    assert r.outcome == "deviation" and r.span[0] > text.index(where)


def test_topic_is_judged_on_the_whole_sentence():
    # real CUAD sentence (SteelVault affiliate agreement, Renewal Term): the period before the ';', "renew" after it
    text = ("7.1.   This Agreement shall be for the term of one year; thereafter, the Agreement shall renew automatically under "
            "these same  terms and agreements unless superceded by future agreements.")
    got = near_period(text, TERM["value_near"], topic_words(TERM["value_near"]))
    assert isinstance(got, tuple) and abs(days(got[0]) - 365.25) < 1e-6


def test_a_clause_quote_loses_furniture_at_its_ends_only():
    from clauselens.playbook.review import quote_of

    # real shape (BIOPURECORP agency agreement, 5.2): the clause goes on after a page number
    text = ("Source: BIOPURE CORP, 10-Q, 6/30/1999\n\n5.2. Assignment. This Agreement will be binding upon the parties and their "
            "permitted assigns.    14\n\n                                   -13-\n\nNeither party will not assign or otherwise transfer "
            "any of its rights without the express prior written consent of the other party.\n\n 15\n")
    p = SimpleNamespace(text=text, spans=[SimpleNamespace(start=0, end=len(text))], clause_ref="5.2", heading_path=[], page_start=1)
    q = quote_of(p, (0, len(text)))
    assert q.text.startswith("5.2. Assignment") and q.text.endswith("consent of the other party.")
    assert text[q.start:q.end] == q.text
