"""The notice to end an agreement at will (issue #45): a question about ending the agreement without a reason takes only
the notice of a termination for convenience, never a renewal's, a cure's or a licence's.

Sentences quoted verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0;
agreement named beside each), found by ``python -m benchmarks.convenience_notice_census`` on the tune split and
report[0:280] (before the rule, 63 and 208 of the answered cells had a period CUAD's Termination For Convenience clauses
do not state), and generated variants. Pure rule tests: no model, no library.
"""

from __future__ import annotations

import itertools

import pytest

from clauselens.grid.extract import asks_convenience, read_typed
from clauselens.grid.whose import at_will

AT_WILL = [  # (agreement, sentence)
    ("COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71", "Notwithstanding the foregoing, this Agreement shall be earlier terminated (x) by "
     "mutual agreement of the parties, or (y) at any time upon sixty (60) days advance written notice to the other party."),
    ("ADIANUTRITION,INC_04_01_2005-EX-10.D2", "PivX may terminate this Agreement for convenience by giving at least thirty (30) "
     "days written notice of termination to Detto."),
    ("MTITECHNOLOGYCORP_11_16_2004-EX-10.102", "Either party may terminate this Agreement without cause upon sixty (60) days "
     "prior written notice to the other party."),
    ("WPPPLC_04_30_2020-EX-4.28", "15.1 The Appointment may be terminated by either party giving the other at least 12 months' "
     "notice in writing."),
    ("CUAD tune split", "2. Client has the unilateral right to cancel this agreement at any time within a 7-day notice period."),
]
NOT_AT_WILL = [  # (agreement, sentence): a renewal, a breach and cure, force majeure, a claim, a licence, a policy, an address
    ("COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71", "This Agreement shall be automatically renewed for successive one year periods "
     "unless either party gives written notice of termination to the other party at least thirty (30) days prior to the date "
     "of expiration."),
    ("MIDDLEBROOKPHARMACEUTICALS,INC_03_18_2010-EX-10.1", "(a) Either party hereto shall have the right to terminate this "
     "Agreement after thirty (30) days written notice to the other in the event the other is in breach of this Agreement unless "
     "the breaching party cures the breach before the expiration of such period of time."),
    ("CUAD report split", "13.2 Either party may terminate this Agreement at any time during the term of this Agreement if either "
     "party fails materially to comply with any covenant, term, or provision of this Agreement, by written notice given to the "
     "other party not less than thirty (30) days prior to the effective date of such termination."),
    ("CUAD report split", "Company will not modify or terminate any coverage without giving at least thirty (30) days' prior "
     "written notice to ACSI."),
    ("CUAD report split", "10.2.3. The Publishers shall have the right to terminate the licence referred to in Clause 10.2.1 by "
     "giving three months' notice in writing to HealthGate."),
    ("CUAD report split", "The address for notice set out above may be changed at any time by giving thirty (30) days prior "
     "written notice in the manner above."),
    ("CUAD tune split", "or other cause beyond such party's control, and such condition continues for a period of two (2) months "
     "or more, either party hereto shall have the right to terminate this Agreement effective at any time during the "
     "continuation of such condition by giving thirty (30) days written notice."),
    ("CUAD report split", "Either Party may terminate the Agreement at any time in the event of a material breach by the other "
     "party that remains uncured after thirty (30) days written notice of the breach."),
]


@pytest.mark.parametrize("agreement,sentence", AT_WILL, ids=[f"{a}-{i}" for i, (a, _) in enumerate(AT_WILL)])
def test_a_termination_at_will(agreement, sentence):
    assert at_will(sentence), agreement


@pytest.mark.parametrize("agreement,sentence", NOT_AT_WILL, ids=[f"{a}-{i}" for i, (a, _) in enumerate(NOT_AT_WILL)])
def test_a_termination_on_a_condition_or_of_something_else(agreement, sentence):
    assert not at_will(sentence), agreement


@pytest.mark.parametrize("question,asks", [
    ("How much warning must a party give to end the agreement early without a reason?", True),
    ("How much advance warning is needed to cancel for no particular reason?", True),
    ("If one side simply wants to end the deal without any reason, how much notice must it give?", True),
    ("How much notice to terminate for convenience?", True),
    ("If someone messes up, how long do they get to put it right before the other side can pull the plug?", False),
    ("How much notice is needed before the agreement renews?", False),
])
def test_a_question_about_ending_at_will(question, asks):
    assert asks_convenience(question) is asks


QUESTION = "How much warning must a party give to end the agreement early without a reason?"


def test_the_at_will_notice_is_read_and_the_renewal_notice_is_not():
    renewal, at_any_time = NOT_AT_WILL[0][1], AT_WILL[0][1]  # COOLTECHNOLOGIES: 30 days to stop renewal, 60 days at will
    r = read_typed("duration", QUESTION, [renewal, at_any_time])
    assert r.value == "60 days" and r.candidate is not None and r.candidate.passage == 1, r
    alone = read_typed("duration", QUESTION, [renewal, NOT_AT_WILL[1][1]])  # MIDDLEBROOK: a renewal and a cure period only
    assert alone.value == "" and alone.candidate is None and "at will" in alone.reason, alone


def test_generated_conditions_never_answer_the_at_will_question():
    conditions = ["if the other party materially breaches this Agreement", "in the event of a Force Majeure event lasting "
                  "ninety days", "unless the Agreement is renewed", "if the other party becomes insolvent"]
    for cond, days in itertools.product(conditions, ("thirty (30) days", "sixty (60) days")):
        sentence = f"Either party may terminate this Agreement upon {days} written notice {cond}."
        assert not at_will(sentence), sentence
        assert read_typed("duration", QUESTION, [sentence]).value == "", sentence
        plain = f"Either party may terminate this Agreement upon {days} written notice to the other party."
        assert at_will(plain) and read_typed("duration", QUESTION, [plain]).value in ("30 days", "60 days"), plain
