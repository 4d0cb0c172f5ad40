"""A free-text cell's value must be something its quote states (issue #45: a governing-law cell
answered "the country").

Real CUAD governing-law sentences (quoted verbatim from ``legalbench-rag/corpus/cuad``; none from the
grid's dev / blind question files) with everyday free-text answers: a place the quote names is
kept; a place it does not name, or an answer that only refers back ("the country", "that state",
"such party") is not a value.
"""

from __future__ import annotations

import pytest

from clauselens.grid.answer import check_answer
from clauselens.grid.questions import GridQuestion
from clauselens.grid.values import check_value

LAW = [  # (quote, a place it names, a place it does not)
    ("The Parties agree that this Agreement shall be governed by and construed in accordance with the laws of the State of "
     "Arizona without regard to conflicts of law provisions thereof", "Arizona", "California"),
    ("This Agreement shall be governed by and construed in accordance with the laws of the State of  Minnesota, without "
     "regard to conflict of law principles", "the State of Minnesota", "Wisconsin"),
    ("Governing Law This Letter of Authorization will be governed by and construed in accordance with the laws of "
     "California, excluding its conflict of laws provisions", "California", "New York"),
    ("This Agreement shall be governed by and construed in accordance with the laws of the State of Nevada, USA in force "
     "therein without regard to its conflict of law rules", "Nevada", "Utah"),
    ("This Agreement will be governed by the laws of the State of Delaware without regard to its conflicts of law "
     "principles", "Delaware law", "Maryland"),
    ("This Amendment shall be governed by and construed in accordance with the laws of the Commonwealth of Pennsylvania",
     "Commonwealth of Pennsylvania", "New Jersey"),
    ("The validity, construction and performance of this Agreement shall be governed by the laws of the State of Texas, not "
     "including any of its conflicts of law rules", "Texas", "Oklahoma"),
    ("This Agreement shall be governed by, and construed in accordance with, the laws of the Federal Republic of Germany "
     "excluding the United Nations Convention on Contracts of International Sale of Goods", "Germany", "Switzerland"),
    ("This Agreement shall be governed by and construed in accordance with the internal laws of the State of California "
     "applicable to agreements made and to be performed entirely within such state", "the laws of California", "Oregon"),
    ("This Agreement shall be governed by and construed in accordance with the laws of the State of New York without regard "
     "to principles of conflicts of law", "New York", "New Jersey"),
]

REFERS_BACK = ["the country", "The State", "that state", "such state", "the laws", "the applicable laws", "the governing country",
               "its jurisdiction", "the Party", "this Agreement", "it", "there"]


@pytest.mark.parametrize("quote,named,other", LAW)
def test_a_free_text_place_must_be_the_quotes(quote, named, other):
    assert check_value("text", named, quote).reason == ""
    assert "not a place the quote names" in check_value("text", other, quote).reason
    for vague in REFERS_BACK:
        assert "refers back" in check_value("text", vague, quote).reason, vague


def test_ordinary_free_text_answers_still_pass():
    q = "Either party may terminate this Agreement upon thirty (30) days written notice. The Company shall pay all fees."
    for ok in ("Either party", "the Company", "thirty (30) days written notice", "upon thirty days written notice"):
        assert check_value("text", ok, q).reason == "", ok


def test_the_grid_never_answers_the_country():
    q = GridQuestion(id="law", question="Which country's or state's law applies to this deal?", type="text")
    value, reason = check_answer(q, "the country", LAW[7][0])
    assert reason and "refers back" in reason
    value, reason = check_answer(q, "Germany", LAW[7][0])
    assert reason == "" and value == "Germany"
