"""Lay words for contract terms: expand a plain-English question with the wording its clause uses.

A lawyer's client, or a lawyer in a hurry, asks "may the distributor just walk away from this
arrangement, and how much warning must it give?"; the clause says "Either party may terminate this
Agreement for convenience upon ninety (90) days' prior written notice". Neither BM25 nor a small
sentence embedder bridges "walk away" to "terminate": on the library benchmark's paraphrase
questions over agreements no dev question is about, the right clause sat at ranks 14--47 inside the
right agreement (README, "Contract library").

This is thesaurus-based query expansion (Voorhees 1994, "Query expansion using lexical-semantic
relations", SIGIR '94): when the question contains a lay phrase of a concept, the concept's
contract terms are appended to the *ranking* query (BM25 and the dense query), never to the text
that resolves which agreement is meant or decides abstention. The thesaurus is data
(``clauselens/data/lay_terms.json``): 90 concepts -- the 41 CUAD clause categories (Hendrycks et
al. 2021, "CUAD: An Expert-Annotated NLP Dataset for Legal Contract Review") and other common
topics -- each with the contract terms its clause typically contains and the plain-English
phrasings people use instead. It was written by a session that saw none of the project's
questions, labels or results, and was not edited after it was measured (its ``how_written``).

A lay phrase matches as whole words, case-insensitively, each word also with a regular ending
("walked away", "pulls out"); words are separated by any non-word characters ("bad-mouth" /
"bad mouth" are different phrases and listed as such). Pure functions over the bundled data.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

#: The bundled thesaurus (package data).
THESAURUS = "data/lay_terms.json"


@dataclass(frozen=True)
class LayConcept:
    """One contract concept: its ``contract_terms`` and the lay ``phrases`` that stand for it."""

    name: str
    contract_terms: tuple[str, ...]
    phrases: tuple[str, ...]


@dataclass(frozen=True)
class Expansion:
    """What a question's lay phrases add: the ``concepts`` matched (in thesaurus order) and their
    ``terms`` (each once)."""

    concepts: tuple[str, ...]
    terms: tuple[str, ...]

    def text(self) -> str:
        """The terms as one string to append to a query."""
        return " ".join(self.terms)


def _word(w: str) -> str:
    esc = re.escape(w)
    return esc + r"(?:s|es|ed|d|ing)?" if w.isalpha() else esc


def _phrase(phrase: str) -> str:
    return r"\W+".join(_word(w) for w in phrase.lower().split())


def phrase_pattern(*phrases: str) -> re.Pattern[str]:
    """The regex that matches any of ``phrases`` (see the module docstring); one per concept, so a
    question is scanned once per concept (about 1 ms for the 90 here), not once per phrase (6 ms)."""
    return re.compile(r"(?<!\w)(?:" + "|".join(_phrase(p) for p in phrases) + r")(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=1)
def concepts() -> tuple[LayConcept, ...]:
    """The bundled thesaurus, loaded once."""
    data = json.loads(resources.files("clauselens").joinpath(THESAURUS).read_text(encoding="utf-8"))
    return tuple(LayConcept(c["concept"], tuple(c["contract_terms"]), tuple(c["lay_phrases"])) for c in data["concepts"])


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[LayConcept, re.Pattern[str]], ...]:
    return tuple((c, phrase_pattern(*c.phrases)) for c in concepts())


def expand(question: str) -> Expansion:
    """The contract terms of every concept one of whose lay phrases ``question`` contains."""
    names: list[str] = []
    terms: dict[str, None] = {}
    for concept, pattern in _patterns():
        if pattern.search(question):
            names.append(concept.name)
            terms.update(dict.fromkeys(concept.contract_terms))
    return Expansion(tuple(names), tuple(terms))
