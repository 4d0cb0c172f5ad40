"""Definition questions in the phrasings lawyers use, quoted or not: read as asking for the
definition (the exact defined-term field), and the definition comes first."""

from __future__ import annotations

from typing import Callable

import pytest

from clauselens.library import Library
from clauselens.library.library import defined_term_candidates as cands


@pytest.mark.parametrize("q, term", [
    ("What qualifies as a Force Majeure Event under the Acme deal?", "Force Majeure Event"),
    ("What does Effective Date refer to in the Acme agreement?", "Effective Date"),
    ("Who is a Competitor under the Acme agreement?", "Competitor"),
    ("In the Acme agreement, what are Net Sales?", "Net Sales"),
    ("What counts as Confidential Information under the NDA?", "Confidential Information"),
])
def test_phrasings_name_the_term(q: str, term: str) -> None:
    assert term in cands(q)


@pytest.mark.parametrize("q", [
    "What is the term of the Acme agreement?",
    "Who pays for shipping under the Acme agreement?",
    "What happens if the Buyer is late?",
])
def test_questions_that_ask_no_definition(q: str) -> None:
    assert cands(q) == []


def test_the_definition_comes_first(library_of: Callable[[str, str], Library]) -> None:
    lib = library_of("supply.txt", """\
        SUPPLY AGREEMENT

        This Supply Agreement is made between Corvale Mills Ltd ("Supplier") and Dunmere Bakeries plc ("Buyer").

        1. Definitions
        1.1 "Force Majeure Event" means flood, fire, strike or any event beyond a party's reasonable control.
        1.2 "Net Sales" means the gross amount invoiced less returns and rebates.

        2. Supply
        2.1 The Supplier delivers flour weekly. A Force Majeure Event suspends delivery for its duration.
        2.2 Net Sales are reported to the Supplier each quarter.

        3. Price
        3.1 The Buyer pays the list price within thirty days.
        """)
    for q, start in [("What qualifies as a Force Majeure Event under the Corvale supply agreement?", '1.1 "Force Majeure'),
                     ("In the Corvale supply agreement, what are Net Sales?", '1.2 "Net Sales"')]:
        res = lib.search(q, 3)
        assert res.trace.get("defined_term") and res.passages[0].method == "exact", res.trace
        assert res.passages[0].text.startswith(start), res.passages[0].text


def test_library_search_shows_the_definition_not_the_passage_start() -> None:
    from clauselens.interfaces.library_commands import snippet

    text = "1. Definitions. " + "\"Affiliate\" means any entity controlling a party. " * 12 + "\"Territory\" means Israel and Cyprus."
    assert snippet(text, "Territory").startswith("… ") and "\"Territory\" means Israel" in snippet(text, "Territory")
    assert snippet(text).startswith("1. Definitions.") and snippet(text, "Affiliate").startswith("1. Definitions.")


def test_library_search_snippet_cuts_between_words_and_says_so() -> None:
    from clauselens.interfaces.library_commands import snippet

    text = "Either party may terminate this Agreement for convenience upon ninety days' prior written notice. " * 8
    shown = snippet(text, width=120)
    assert shown.endswith(" …") and len(shown) <= 122
    assert text.startswith(shown[:-2]) and text[len(shown) - 2] == " "  # the cut falls on a space
    assert snippet("Short clause.") == "Short clause."
    long_term = "1. Definitions. " + "\"Affiliate\" means any entity controlling a party. " * 12 + "\"Territory\" means Israel."
    lead = snippet(long_term, "Territory")
    assert lead.startswith("… ") and lead[2:].split(" ")[0] in long_term.split(" ")  # starts on a whole word


def test_library_search_snippet_leaves_out_edgar_page_banners() -> None:
    from clauselens.interfaces.library_commands import snippet

    text = "Source: KITOV PHARMA LTD., 20-F, 3/26/2019      2.2 Kitov shall be responsible for obtaining approvals."
    assert snippet(text) == "2.2 Kitov shall be responsible for obtaining approvals."
    assert snippet("The Source: of the goods, see 3.1.") == "The Source: of the goods, see 3.1."  # no filing date: kept
