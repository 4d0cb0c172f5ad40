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

A lay phrase matches by its content words, not its exact string: question and phrase are
lower-cased, split into words, small function words dropped (articles, pronouns, auxiliaries and
a few prepositions: :data:`FUNCTION_WORDS`; "no", "not" and particles such as "out", "off",
"away", "back" are kept) and the rest Snowball-stemmed (Porter 1980; the stemmer the lexical
analyser uses), so "walked away" and "walks away" match "walk away" and "pulling the tablets off
the market" matches "pulled from the market". The phrase's words must come in order, with at
most :data:`MAX_GAP` other content words between two of them ("fall out over the campaign" is
"falling out"), as in proximity-operator phrase search (a "sloppy" phrase query: Lucene's
``PhraseQuery.slop``); the parts of a hyphenated compound stay adjacent ("each year, quarter and
month end" is no "year-end"). A one-word phrase matches by its stem ("merges" in "is merged"); a
phrase of several words but one content word ("for good"), or shaped as a question ("how long does
it last"), matches only as written. Pure functions over the bundled data.
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


#: Words a lay phrase and a question are compared without: articles, pronouns, auxiliaries and a
#: few prepositions -- the words phrasings vary in ("pull it from the market" / "pulled off the
#: market"). Lucene's English stopwords (bm25s' list) less "no" and "not", plus pronouns and
#: auxiliaries; verb particles ("out", "off", "away", "back", "up", "over") carry the meaning of a
#: phrasal verb and are kept.
FUNCTION_WORDS = frozenset(
    "a an and are as at be but by for if in into is it of on or such that the their then there these they this to was "
    "will with its it's his her hers our ours your yours my we you i he she him them us me who whom which what "
    "been being has have had do does did doing can could may might must shall should would from how when where why"
    .split())
#: At most this many other content words may stand between two consecutive words of a phrase.
MAX_GAP = 2
#: A phrase shaped as a question ("how long does it last", "who is on each side") means what its
#: small words say: it matches only as written.
_QUESTION_SHAPED = re.compile(r"(?i)(?:how|who|whom|what|when|where|which|why)\b")
_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer  # PyStemmer: a core dependency (the lexical analyser's stemmer)

    return Stemmer.Stemmer("english")


def content_stems(text: str) -> list[str]:
    """The stems of ``text``'s content words, in order (see the module docstring)."""
    words = [w for w in _WORDS.findall(text.lower()) if w not in FUNCTION_WORDS]
    return list(_stemmer().stemWords(words))


def _word(w: str) -> str:
    esc = re.escape(w)
    return esc + r"(?:s|es|ed|d|ing)?" if w.isalpha() else esc


def _strict(phrase: str) -> str:
    return r"\W+".join(_word(w) for w in phrase.lower().split())


class PhraseMatcher:
    """Matches any of some lay phrases in a text. A phrase of at least two content words matches by
    their stems, in order, with gaps of at most :data:`MAX_GAP` words (one regex over the
    space-joined stems of the text); a one-word phrase matches by its stem ("merges" in "merged"); a
    phrase reduced to one content word ("for good") or shaped as a question ("who signed", "how
    long is it for": its meaning is in its small words) matches only as written, whole words with a
    regular ending per word ("walked", "pulls")."""

    def __init__(self, *phrases: str) -> None:
        loose, strict = [], []
        gap = f"(?: \\S+){{0,{MAX_GAP}}} "
        for phrase in phrases:
            stems = content_stems(phrase)
            if len(stems) == 1 and len(phrase.split()) == 1:  # one word: by its stem ("merges" = "merged")
                loose.append(re.escape(stems[0]))
            elif len(stems) >= 2 and not _QUESTION_SHAPED.match(phrase):
                # the parts of a hyphenated compound ("year-end", "bad-mouth") stay adjacent
                words = [" ".join(re.escape(t) for t in content_stems(w)) for w in phrase.split()]
                loose.append(gap.join(w for w in words if w))
            else:
                strict.append(_strict(phrase))
        self.loose = re.compile(r"(?<!\S)(?:" + "|".join(loose) + r")(?!\S)") if loose else None
        self.strict = re.compile(r"(?<!\w)(?:" + "|".join(strict) + r")(?!\w)", re.IGNORECASE) if strict else None

    def search(self, text: str, stems: str | None = None) -> bool:
        """Whether ``text`` contains one of the phrases (``stems``: its content stems joined by
        spaces, when already computed)."""
        if self.strict is not None and self.strict.search(text):
            return True
        if self.loose is None:
            return False
        return self.loose.search(" ".join(content_stems(text)) if stems is None else stems) is not None


def phrase_matcher(*phrases: str) -> PhraseMatcher:
    """The matcher of ``phrases`` (see the module docstring); one per concept, so a question is
    scanned once per concept, not once per phrase."""
    return PhraseMatcher(*phrases)


@lru_cache(maxsize=1)
def concepts() -> tuple[LayConcept, ...]:
    """The bundled thesaurus, loaded once."""
    data = json.loads(resources.files("clauselens").joinpath(THESAURUS).read_text(encoding="utf-8"))
    return tuple(LayConcept(c["concept"], tuple(c["contract_terms"]), tuple(c["lay_phrases"])) for c in data["concepts"])


@lru_cache(maxsize=1)
def _matchers() -> tuple[tuple[LayConcept, PhraseMatcher], ...]:
    return tuple((c, phrase_matcher(*c.phrases)) for c in concepts())


#: Text in double quotation marks: the agreement's own words (a party's name, a defined term),
#: which hold no lay phrase (Parent "ELI LILLY AND COMPANY" is no "parent company").
_QUOTED = re.compile(r"[\"“][^\"”]{1,120}[\"”]")


def expand(question: str) -> Expansion:
    """The contract terms of every concept one of whose lay phrases ``question`` contains, outside
    text in double quotation marks."""
    names: list[str] = []
    terms: dict[str, None] = {}
    segments = [(seg, " ".join(content_stems(seg))) for seg in _QUOTED.split(question)]  # a phrase never spans a quote
    for concept, matcher in _matchers():
        if any(matcher.search(seg, stems) for seg, stems in segments):
            names.append(concept.name)
            terms.update(dict.fromkeys(concept.contract_terms))
    return Expansion(tuple(names), tuple(terms))
