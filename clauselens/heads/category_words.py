"""Clause kinds written with their own word (issues #45, #39): an agreement that never uses a kind's word family has no such
clause. Chosen by ``benchmarks/category_words_census.py`` on the train_allowed agreements; used by the grid's rules
(:mod:`clauselens.grid.heads`), playbook review and the library's category-absence check
(:mod:`clauselens.library.category_absence`)."""

from __future__ import annotations

import re
from typing import Sequence

#: Clause kinds that are (almost) never written without their own word family: an agreement that never uses it has no such
#: clause. Chosen by ``benchmarks/category_words_census.py`` on the train_allowed agreements (results/category_words_census.json):
#: at most 3 % of the agreements with such a clause lack the words (non-compete 1 of 71, exclusivity 3 of 120, insurance 0 of
#: 109, hiring staff away 0 of 35, cap on liability 0 of 176, change of control 0 of 74, assignment 0 of 251, joint IP 0 of 26).
NEVER_WORDED: dict[str, tuple[str, str]] = {  # category -> (the word a reason names, the word family's pattern)
    "Non-Compete": ("compet", r"compet"), "Exclusivity": ("exclusiv", r"exclusiv"), "Insurance": ("insur", r"insur"),
    "No-Solicit Of Employees": ("solicit", r"solicit|hire|employ"), "Cap On Liability": ("liab", r"liab"),
    "Uncapped Liability": ("liab", r"liab"), "Change Of Control": ("change of control", r"change\s+(?:of|in)\s+control|merge|acqui|control"),
    "Anti-Assignment": ("assign", r"assign|transfer"), "Joint Ip Ownership": ("joint", r"joint")}


def never_worded(category: str, texts: Sequence[str]) -> str:
    """The word of ``category`` (:data:`NEVER_WORDED`) when none of ``texts`` uses its word family (then the agreement has
    no such clause), else ``""``."""
    word, pat = NEVER_WORDED.get(category, ("", ""))
    if not pat or any(re.search(pat, t, re.IGNORECASE) for t in texts):
        return ""
    return word


#: Kinds whose word a question itself may use ("Is Maimon's liability capped?", "Do they have to carry insurance?"): the word
#: family a question names, and the pattern of it in an agreement (the kinds of :data:`NEVER_WORDED` whose family is one word).
ASKED_WORDS: dict[str, str] = {"liab": r"liab", "insur": r"insur", "exclusiv": r"exclusiv", "compet": r"compet(?!en)",
                               "solicit": r"solicit"}  # a question's "competent" asks no non-compete; an agreement's counts (census)


def asked_unworded(question: str, texts: Sequence[str]) -> str:
    """The word family of :data:`ASKED_WORDS` the ``question`` uses ("liability", "capped liability", "insured") when none of the
    agreements' ``texts`` uses it, else ``""``: such a clause is (almost) never written without its word, so the agreement has
    none -- whatever the size of the library (the library's share-based absent-topic rule needs 50 agreements)."""
    low = question.lower()
    for word, pat in ASKED_WORDS.items():
        if re.search(rf"\b{pat}", low) and texts and not any(re.search(word, t, re.IGNORECASE) for t in texts):
            return word
    return ""


#: The topic head's least probability for the category a question reads as, for :func:`unworded_reading` to use it.
MIN_PROBABILITY = 0.5


def unworded_reading(categories: Sequence[tuple[str, float]], texts: Sequence[str]) -> tuple[str, str, float] | None:
    """``(category, word, probability)`` when the topic head's first reading (``categories``: every label with its probability,
    most probable first; :meth:`clauselens.heads.topic.TopicHead.ranked`) is a kind of
    :data:`NEVER_WORDED` with probability at least :data:`MIN_PROBABILITY` and none of the agreements' ``texts`` uses its word;
    else ``None`` (the library's and the single-document retriever's category-absence checks)."""
    if not unworded_candidate(categories) or not texts:
        return None
    cat, p = categories[0]
    word = never_worded(cat, texts)
    return (cat, word, float(p)) if word else None


def unworded_candidate(categories: Sequence[tuple[str, float]]) -> bool:
    """Is the topic head's first reading a :data:`NEVER_WORDED` kind with probability at least :data:`MIN_PROBABILITY` (the
    cheap test before any agreement's text is read)?"""
    return bool(categories) and categories[0][0] in NEVER_WORDED and categories[0][1] >= MIN_PROBABILITY


def unworded_reason(category: str, word: str, probability: float, names: str, n_docs: int) -> str:
    """The user's words for that abstention (after "no matching clause found: ")."""
    return (f"the question reads as one about {category.lower()} (the topic head: P {probability:.2f}), and {names} never "
            f"{'uses' if n_docs == 1 else 'use'} the word such clauses are written with ('{word}…')")


__all__ = ["ASKED_WORDS", "MIN_PROBABILITY", "NEVER_WORDED", "asked_unworded", "never_worded", "unworded_candidate", "unworded_reading",
           "unworded_reason"]
