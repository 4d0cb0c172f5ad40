"""A plain-English question reaches the clause in contract words (issue #19's library case):
the library appends the contract terms of the question's lay phrases to its ranking query only
(``Library.expand_lay_terms``; ``clauselens.retrieval.lay_terms``)."""

from __future__ import annotations

from typing import Callable

from clauselens.library import Library

AGREEMENT = """\
    DISTRIBUTION AGREEMENT

    This Distribution Agreement is made between Ardent Enzymes Ltd ("Supplier") and Corvale Trading Ltd ("Distributor").

    1. Orders
    1.1 The Distributor may just place orders under this arrangement; the Supplier shall give the Distributor
    written confirmation of each order and how much of it can ship.

    2. Warranty
    2.1 The Supplier warrants that each delivery to the Distributor meets the specification, and will give a
    warning to the Distributor of any deviation from this arrangement.

    3. Term and Termination
    3.1 Either party may terminate this Agreement for convenience upon ninety (90) days' prior written notice.
    """
QUESTION = "May the distributor just walk away from this arrangement, and how much warning must it give?"


def test_a_lay_question_ranks_the_clause_in_contract_words_first(library_of: Callable[[str, str], Library]) -> None:
    lib = library_of("distribution.txt", AGREEMENT)
    res = lib.search(QUESTION, k=3)
    assert not res.abstained
    assert res.passages[0].clause_ref == "3.1"
    assert res.trace["lay_terms"] == ["termination for convenience"]
    assert "terminate" in res.trace["ranking_query"] and res.query == QUESTION


def test_without_the_expansion_the_question_words_pick_other_clauses(library_of: Callable[[str, str], Library]) -> None:
    lib = library_of("distribution.txt", AGREEMENT)
    lib.expand_lay_terms = False
    res = lib.search(QUESTION, k=3)
    assert res.passages[0].clause_ref != "3.1"
    assert "lay_terms" not in res.trace


def test_a_caller_can_turn_the_expansion_off_per_search(library_of: Callable[[str, str], Library]) -> None:
    """The clause grid searches with contract wording already and passes ``lay_terms=False``."""
    lib = library_of("distribution.txt", AGREEMENT)
    res = lib.search(QUESTION, k=3, lay_terms=False)
    assert "lay_terms" not in res.trace and "terminate" not in res.trace["ranking_query"]


def test_words_that_name_the_agreement_are_no_lay_phrase(library_of: Callable[[str, str], Library]) -> None:
    """"Outsource" is a lay phrase of subcontracting, but in "the Ardent / Corvale outsourcing
    agreement" it names the agreement (its title): it adds no terms. Said of the work, it does."""
    lib = library_of("outsourcing.txt", AGREEMENT.replace("DISTRIBUTION AGREEMENT", "OUTSOURCING AGREEMENT")
                     .replace("This Distribution Agreement", "This Outsourcing Agreement"))
    named = lib.search("How much warning must Corvale give to end the Ardent / Corvale outsourcing agreement?", k=3)
    assert "subcontracting and personnel" not in named.trace.get("lay_terms", [])
    ask = "May Corvale outsource its ordering under the Ardent / Corvale agreement?"
    # the agreement has no subcontracting wording at all: the concept check declines (test_concept_absence.py) ...
    assert lib.search(ask, k=3).trace.get("absent_concepts") == ["subcontracting and personnel"]
    lib.concept_absence = False  # ... and without it the search ranks with the concept's terms
    work = lib.search(ask, k=3)
    assert "subcontracting and personnel" in work.trace.get("lay_terms", [])
