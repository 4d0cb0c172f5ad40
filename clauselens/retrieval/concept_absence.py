"""Concept-absence abstention (issue #39): a question about a contract concept ("force majeure", "car
allowance", "non-compete") whose wording the resolved agreement never uses gets "no matching clause
found" instead of the nearest clause.

The absent-topic rule (:mod:`clauselens.library.topics`) needs the question to use a heading word
("insurance"), and the trained heads (:mod:`clauselens.library.category_absence`) know CUAD's 41
categories and the headings of ``train_allowed`` agreements. A question in everyday words about a topic
outside both ("if a lockdown stops them from doing the work, are they let off the hook?" to an agreement
without a force majeure clause) passed all three and got a neighbouring clause.

Here the bundled lay-term thesaurus (:mod:`clauselens.retrieval.lay_terms`: 90 concepts, each with the
contract terms its clause typically contains and the everyday phrasings people use instead; written by a
session that saw no question, and not edited after it was measured) reads the question's concepts in
both registers: its lay phrases, and contract terms of at least two content words ("car allowance",
"company car"; one contract word -- "split", "minimum", "payment" -- is too common to say what a
question asks). An agreement **uses** a concept when its text contains one of the concept's contract
terms, matched as the thesaurus matches phrases (content-word stems, in order, small gaps). The search
abstains only when **every** concept the question reads as is used by **none** of the resolved
agreements: absence of a concept's whole vocabulary, not a missing word, decides (cf. the lexical
"no-answer" evidence of query-performance prediction, Cronen-Townsend et al. 2002, "Predicting query
performance", SIGIR '02: a query whose terms a collection does not hold retrieves nothing relevant).
The pure reading; the library's check is :mod:`clauselens.library.concept_absence`, the hybrid
retriever's ``HybridRetriever._absent_concept``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from clauselens.retrieval.lay_terms import PhraseMatcher, concepts, content_stems, expand, phrase_matcher

#: The check runs for at most this many resolved agreements (as the other absence checks).
MAX_AGREEMENTS = 3
#: A contract term names its concept in a question only with at least this many content words.
MIN_TERM_WORDS = 2


@dataclass(frozen=True)
class AbsentConcepts:
    """The concepts a question reads as, all of whose contract terms the agreements never use."""

    concepts: tuple[str, ...]
    #: A few of the first concept's contract terms (for the reason shown to the user).
    terms: tuple[str, ...]

    def reason(self, names: str, n_agreements: int) -> str:
        what = " / ".join(f"'{c}'" for c in self.concepts)
        verb = "uses" if n_agreements == 1 else "use"
        whose = "its" if len(self.concepts) == 1 else "their"
        return (f"the question asks about {what}, and {names} {verb} none of {whose} usual wording "
                f"({', '.join(self.terms)}, ...)")


@lru_cache(maxsize=1)
def _matchers() -> tuple[tuple[str, PhraseMatcher, PhraseMatcher | None, tuple[str, ...]], ...]:
    """Per concept: its name, the matcher of all its contract terms (the agreement side), the matcher of
    its terms of :data:`MIN_TERM_WORDS`+ content words (the question side; ``None`` when it has none),
    and its terms."""
    out = []
    for c in concepts():
        long_terms = [t for t in c.contract_terms if len(content_stems(t)) >= MIN_TERM_WORDS]
        out.append((c.name, phrase_matcher(*c.contract_terms), phrase_matcher(*long_terms) if long_terms else None,
                    c.contract_terms))
    return tuple(out)


def question_concepts(question: str) -> list[str]:
    """The thesaurus concepts ``question`` asks about: those of its lay phrases
    (:func:`clauselens.retrieval.lay_terms.expand`) and of the contract terms of two or more content
    words it contains, in thesaurus order, each once."""
    by_lay = set(expand(question).concepts)
    stems = " ".join(content_stems(question))
    return [name for name, _, asked, _ in _matchers()
            if name in by_lay or (asked is not None and asked.search(question, stems))]


@lru_cache(maxsize=1)
def _by_name() -> dict[str, tuple[PhraseMatcher, tuple[str, ...]]]:
    """Concept name -> (the matcher of all its contract terms, its terms)."""
    return {name: (used, terms) for name, used, _, terms in _matchers()}


def agreement_words(text: str) -> tuple[str, str]:
    """An agreement's text and its content stems joined by spaces: what :func:`unused_concepts` matches
    against (computed once per agreement by callers that cache it)."""
    return text, " ".join(content_stems(text))


#: What a question names as a thing rather than describes: a hyphenated capitalised compound and the capitalised words
#: after it ("Sarbanes-Oxley", "Hart-Scott-Rodino Act"), an all-capitals acronym of three or more letters ("HIPAA", "FCPA"), a run of two or more
#: capitalised words after the question's first word ("Foreign Corrupt Practices Act"), or a quoted phrase.
_NAMED = re.compile(r"[A-Z][A-Za-z0-9]*(?:[-–][A-Z][A-Za-z0-9]*)+(?:\s+[A-Z][a-z]+)*|\b[A-Z]{3,}[0-9]*s?\b"
                    r"|(?<=\s)[A-Z][a-z]+(?:\s+(?:of\s+|and\s+)?[A-Z][a-z]+)+|[\"“]([^\"”]{3,60})[\"”]")


#: The stems of a question's frame, which ask about nothing by themselves ("What does the agreement say about ...?",
#: "Is there a clause on ...?").
FRAME_STEMS = frozenset(content_stems("agreement contract deal document say says mention mentions about anything here provide provides "
                                      "state states tell cover covers address addresses discuss refer reference clause section "
                                      "provision term terms"))


def named_terms(question: str) -> list[str]:
    """The things ``question`` names (:data:`_NAMED`), in order, each once."""
    out = [m.group(1) or m.group(0) for m in _NAMED.finditer(question)]
    return list(dict.fromkeys(t.strip() for t in out if t.strip()))


def named_in(question: str, texts: Sequence[str]) -> str | None:
    """A thing ``question`` names (:func:`named_terms`) that one of ``texts`` (the agreements' texts) contains verbatim
    (case and spacing aside), when the question asks about nothing else (its content words beyond the names and its
    capitalised words are :data:`FRAME_STEMS`), else ``None``. The absence checks read a question's meaning; an agreement that holds the very
    name a question asks about ("Sarbanes-Oxley", in its recitals: a new user's one-word query declined by the topic
    head) is not one that lacks its topic. A question that asks more ("does Acme have to carry insurance?") is left to
    them."""
    terms = named_terms(question)
    # a capitalised word after the first names something too ("the Movado agreement"): not what else is asked
    asked = " ".join(w for i, w in enumerate(question.split()) if i == 0 or not w[:1].isupper())
    if not terms or set(content_stems(asked)) - FRAME_STEMS - set(content_stems(" ".join(terms))):
        return None  # it asks about something besides the names: the meaning-based checks read that
    return next((term for term in terms if holds(term, texts)), None)


@lru_cache(maxsize=256)
def _term_pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9])" + r"\s+".join(re.escape(w) for w in term.split()) + r"(?![A-Za-z0-9])", re.IGNORECASE)


def holds(term: str, texts: Sequence[str]) -> bool:
    """Whether one of ``texts`` contains ``term`` as words (case and spacing aside)."""
    pat = _term_pattern(term)
    return any(pat.search(t) for t in texts)


def unused_concepts(asked: Sequence[str], agreements: Sequence[tuple[str, str]]) -> AbsentConcepts | None:
    """``asked`` (concepts, :func:`question_concepts`) when none of ``agreements``
    (:func:`agreement_words` of each) uses any of them; ``None`` when ``asked`` is empty or one is used."""
    if not asked:
        return None
    by_name = _by_name()
    for name in asked:
        used = by_name[name][0]
        if any(used.search(t, s) for t, s in agreements):
            return None
    return AbsentConcepts(tuple(asked), tuple(by_name[asked[0]][1][:3]))


def absent_concepts(question: str, texts: Sequence[str]) -> AbsentConcepts | None:
    """The question's concepts when none of ``texts`` (the agreements' texts) uses any of them (module
    docstring); ``None`` when the question reads as no concept or one of them is used."""
    asked = question_concepts(question)
    return unused_concepts(asked, [agreement_words(t) for t in texts]) if asked else None


__all__ = ["FRAME_STEMS", "MAX_AGREEMENTS", "MIN_TERM_WORDS", "AbsentConcepts", "absent_concepts", "agreement_words", "holds", "named_in",
           "named_terms", "question_concepts", "unused_concepts"]
