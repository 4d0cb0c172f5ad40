"""A presence head's "Yes" is shown only when its clause says one of the question's contract words (issue #45; a new
user's tryout: "does a party need the other's consent to hand the agreement over?" was read by the topic head as
exclusivity, P 0.57, and answered "Yes" quoting "The Distributor is appointed as an exclusive Distributor ...").
Sentences verbatim from the tryout's CUAD agreements (LUCIDINC_04_15_2011-EX-10.9, HertzGroupRealtyTrustInc_20190920
EX-10.8). Pure rule tests."""

from __future__ import annotations

from clauselens.grid.rule import _uses_question_words

ASSIGN = "Does a party need the other's consent to hand the agreement over to someone else?"


def test_a_clause_of_another_kind_does_not_answer_the_question() -> None:
    assert not _uses_question_words(ASSIGN, "The Distributor is appointed as an exclusive Distributor of the Products in the Territory.")


def test_a_clause_with_the_question_s_words_does() -> None:
    assert _uses_question_words(ASSIGN, "Licensed Users may not assign this Agreement without the prior written consent of Licensor.")


def test_a_question_of_everyday_words_only_is_not_checked() -> None:
    assert _uses_question_words("Can they walk away whenever they like?", "Either party may terminate this Agreement.")
