"""A sum stated as a rate keeps its unit (issue #45; a new user's tryout read "$2" for "$2.00 per pound" as a lump sum).

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each), the answers of ``python -m benchmarks.typed_census --probe all --split report --limit 280`` that gained their
unit; lump sums that must stay bare. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import read_typed
from clauselens.grid.values import Amount, amounts_at, check_value, rate_unit

RATES = [  # (agreement, sentence, answer)
    ("BNLFINANCIALCORP_03_30_2007-EX-10.8", "The minimum monthly fee shall not be less than five thousand dollars ($5,000) per month "
     "(as applicable, \"Minimum Fee\")", "$5,000 per month"),
    ("LOYALTYPOINTINC_11_16_2004-EX-10.2", "ii. Actual call volume minutes under 90% of the Card Sold Forecast will be charged at 90% of "
     "Locked Rolling Forecast at the standard rate of $0.50 per minute", "$0.50 per minute"),
    ("Apollo Endosurgery - Manufacturing and Supply Agreement", "ESTABLISHMENT, at its sole cost and expense, will maintain appropriate "
     "insurance including Commercial General Liability Insurance with limits of not less than $1,000,000 per occurrence",
     "$1,000,000 per occurrence"),
    ("PacificapEntertainmentHoldingsInc_20051115_8-KA_EX-1.01", "THE HENRY FILM AND ENTERTAINMENT CORPORATION agrees to share a minimum of "
     "$50,000.00 annually for each year of this Agreement", "$50,000 annually"),
    ("DYNAMEXINC_06_06_1996-EX-10.4", "liability for loss, damage or delay is limited to Four Dollars and Forty One Cents ($4.41) per "
     "kilogram or Two Dollars ($2.00) per pound unless a higher value has been declared", "$4.41 per kilogram"),
]
LUMP = ["The Company shall pay a fee of $1,000 and reimburse expenses.", "Licensee shall pay $500 a party may designate in writing.",
        "An aggregate amount of $250,000 shall be paid at Closing."]


@pytest.mark.parametrize("agreement, sentence, answer", RATES)
def test_a_rate_is_shown_with_its_unit_and_checked_against_its_quote(agreement: str, sentence: str, answer: str) -> None:
    money = [(a, e) for a, _s, e in amounts_at(sentence) if a.kind == "money"]
    shown = f"{money[0][0]} {rate_unit(sentence, money[0][1])}"
    assert shown == answer, agreement
    assert not check_value("amount", shown, sentence).reason


@pytest.mark.parametrize("sentence", LUMP)
def test_a_lump_sum_has_no_unit(sentence: str) -> None:
    a, _s, e = next(x for x in amounts_at(sentence) if x[0].kind == "money")
    assert rate_unit(sentence, e) == "", sentence


def test_the_typed_reading_answers_with_the_unit() -> None:
    r = read_typed("amount", "What is the smallest fee that must be paid each month?", [RATES[0][1]])
    assert r.value == "$5,000 per month", r


def test_cents_are_shown_as_written() -> None:
    assert [str(Amount(v, "money")) for v in (0.5, 4.047, 1234.5, 3.0)] == ["$0.50", "$4.047", "$1,234.50", "$3"]


def test_a_rate_written_before_the_sum_is_kept() -> None:
    """A new user's tryout: SCOUTCAMINC_05_12_2020-EX-10.22's "monthly fee of $1,000" was shown as "$1,000"."""
    text = "In consideration for the Services, the Company shall pay Maimon a monthly fee of $1,000."
    (a, s, e), = [x for x in amounts_at(text) if x[0].kind == "money"]
    assert rate_unit(text, e, s) == "monthly"
    lump = "an initial payment of $35,000"
    assert rate_unit(lump, len(lump), lump.index("$")) == ""
    assert not check_value("amount", "$1,000 monthly", text).reason
