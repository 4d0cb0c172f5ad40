""""Can a party end the agreement early without giving a reason?" read from the agreement's sentences (issue #45; a new
user's tryout: four of five such cells were wrong, three plain notice-only exits read as "No").

A termination right on notice alone is the at-will right, whatever words it uses (:func:`clauselens.grid.whose.at_will`);
a right only for a breach or an insolvency answers "No"; an end on an event that is no one's right ("this Agreement shall
terminate upon ...") and both parties' mutual consent decide nothing. Sentences verbatim from CUAD v1 TXT agreements
(``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside each). Census over CUAD's Termination For
Convenience annotations: ``python -m benchmarks.typed_census --probe at_will``. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.yes_no import read_yes_no

ASKED = ("Can a party end the agreement early without giving a reason?", "Is a party allowed to terminate without cause?")
AT_WILL = [  # (agreement, sentence)
    ("HertzGroupRealtyTrustInc_20190920_S-11A_EX-10.8", "3.1 Either Party may terminate this Agreement by giving the other Party thirty (30) "
     "days' prior written notice."),
    ("KIROMICBIOPHARMA,INC_05_11_2020-EX-10.23", "Either Consultant or Company may terminate this Agreement upon prior written notice "
     "thereof to the other party."),
    ("LUCIDINC_04_15_2011-EX-10.9", "C) Either party may terminate this agreement by providing Ninety days Written Notice."),
    ("Anixa / OntoChem collaboration (CUAD Termination For Convenience annotation)", "This Agreement may be terminated by Anixa, "
     "without cause, upon at least thirty (30) days written notice to OntoChem."),
    ("BizzingoInc_20120322_8-K_EX-10.17 (CUAD annotation)", "Theismann shall have the right to terminate this Agreement at any time "
     "upon thirty (30) days' written notice to Bizzingo, such termination to become effective at the conclusion of such 30-day period."),
]
#: MOSSIMOINC_04_14_2000-EX-10.14: a termination only on a default.
ON_DEFAULT = ("(a) If either party at any time during the Contract Period shall (i) fail to make any payment of any sum of money herein "
              "specified to be made, or (ii) fail to observe or perform any of the covenants, agreements or obligations hereunder (other "
              "than the payment of money), the nondefaulting party may terminate this Agreement as follows: as to (i) if such payment is "
              "not made within ten (10) days after notice.")
NO_ONES_RIGHT = [
    "Notwithstanding any provisions of this Agreement to the contrary, this Agreement shall terminate upon the Trust's payment to the "
    "Company of the sum of the aggregate amount of the premiums paid under the Policy.",  # MOVADOGROUPINC_04_30_2003 (an event)
    "15.5 The parties may terminate this Agreement at any time by mutual consent.",
    "(a) Either party to this Agreement may terminate this Agreement:",
]


@pytest.mark.parametrize("question", ASKED)
@pytest.mark.parametrize("agreement, sentence", AT_WILL)
def test_a_termination_on_notice_alone_is_a_yes_beside_one_for_default(question: str, agreement: str, sentence: str) -> None:
    r = read_yes_no(question, [ON_DEFAULT, sentence])
    assert r.answer == "Yes" and r.passage == 1, (agreement, r)


@pytest.mark.parametrize("question", ASKED)
def test_a_termination_only_for_default_is_not_read_as_a_no(question: str) -> None:
    # a free exit may be worded where no reader looks (keyed dev sets, 2026-12-07 fourth session: 7 of 27 such "No"s wrong): the
    # cell goes to a reviewer with the reason, never "Yes"
    r = read_yes_no(question, [ON_DEFAULT])
    assert r.answer == "" and r.on_topic and "left for a reviewer" in r.reason, r


@pytest.mark.parametrize("sentence", NO_ONES_RIGHT)
def test_an_event_or_mutual_consent_is_no_one_s_right_to_walk_away(sentence: str) -> None:
    assert read_yes_no(ASKED[0], [sentence]).answer != "Yes"
