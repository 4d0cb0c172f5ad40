"""Which agreement(s) a question is about, from the words of the question alone.

A question names its agreement in ordinary words: parties or their short names ("Beta's
licence", "the MediWound / CBC supply agreement"), the type ("supply agreement"), a year,
a product ("Consensi tablets"). The resolver scores every agreement's *resolution profile*
(:func:`clauselens.library.catalogue.resolution_profile`: title, parties and short names
twice, type, year, preamble, and each capitalised name of the agreement once) with BM25
(Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond"; the
Lucene variant of :mod:`clauselens.retrieval.lexical`). Rare names carry the inverse
document frequency, generic words ("agreement", "section") almost none, so the profile of
the agreement whose parties and names the question repeats stands out.

Decision (:meth:`AgreementResolver.decide`): the top agreement is *chosen* when its score
is at least :data:`MIN_SCORE` and :data:`MARGIN` times the runner-up's; agreements within
that margin of the top are *ambiguous* (searched together, and listed so an interface can
ask which one was meant); a best score between :data:`LOW_SCORE` and :data:`MIN_SCORE` is
*uncertain* (the best :data:`UNCERTAIN_TOP` agreements are searched together, less those
scoring under 1/:data:`DOMINANT` of the top one's -- "the MediWound supply agreement" means
the two MediWound agreements, not three others at a quarter of their score) unless the
top one reaches :data:`DOMINANT_MIN` and :data:`DOMINANT` times the runner-up's (then it is
chosen alone); below
:data:`LOW_SCORE` the question names no agreement and the whole library is searched. Both constants were set on the
development questions' resolution scores (``benchmarks/clause_qa.py``), never per question.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from clauselens.retrieval.analyzer import LegalAnalyzer

#: At or above this score (and the margin) the top agreement is chosen alone. Scores are
#: BM25 divided by :func:`unit_idf` (the weight of a word found in one agreement only), so
#: the thresholds mean the same in a library of 10 agreements and of 10,000.
MIN_SCORE = 1.4
#: Below this score the question is taken to name no agreement (whole library).
LOW_SCORE = 0.5
#: Between LOW_SCORE and MIN_SCORE the top agreement is still chosen alone when it scores at
#: least this many times the runner-up: one rare name the question repeats ("MediWound") is
#: worth about one :func:`unit_idf`, below MIN_SCORE, and in a small library nothing else
#: comes near it (5 agreements: 3.3-4.3x; on the development set no uncertain question had a
#: ratio above 1.27, right or wrong -- ``benchmarks/clause_qa.py``, README) -- provided it
#: reaches :data:`DOMINANT_MIN`, a whole rare name's worth: a passing capitalised word
#: ("Records" in one profile, 0.53) is not a name.
DOMINANT = 2.0
DOMINANT_MIN = 1.0
#: Between LOW_SCORE and MIN_SCORE the best this many agreements are searched together.
UNCERTAIN_TOP = 5
#: The top agreement must score this many times the runner-up to be chosen alone.
MARGIN = 1.15
#: At most this many agreements are searched together when the top ones are tied.
MAX_AMBIGUOUS = 3
#: How many times a question's proper names (capitalised words, not its first word) count in
#: the resolution query. 1 (off) by default: weighting them 3x lifted "right agreement alone"
#: on the 100 development questions (83 -> 85-86, none wrong) but on LegalBench-RAG's 2,847
#: queries it chose a wrong agreement alone 25-37 times where 1 chose none
#: (``benchmarks/clause_qa_resolution_levers.py``; README, "Proper names in resolution").
NAME_WEIGHT = 1
_NAME = re.compile(r"(?<![.?!]\s)(?<!^)\b([A-Z][\w.&'-]*|[a-z]+[A-Z][\w.&'-]*)")
_QUOTED_SPAN = re.compile(r"[\"“'‘][^\"”'’]{1,80}[\"”'’]")
_PART_WORD = re.compile(r"(?i:section|sections|article|clause|paragraph|schedule|exhibit|annex|appendix|agreement)")
#: Words that describe what is asked, not which agreement: left out of the resolution query.
_QUESTION_WORDS = re.compile(
    r"\b(?:what|which|who|whom|how|when|where|why|does|do|did|is|are|was|were|can|could|may|might|must|shall|should"
    r"|would|will|under|defined|define|definition|mean|means|meaning|provide|provides|say|says|says?|happens?)\b",
    re.IGNORECASE)
#: Public name of the question-word pattern (the absent-topic check, :mod:`clauselens.library.topics`).
QUESTION_WORDS = _QUESTION_WORDS


def unit_idf(n_docs: int) -> float:
    """Lucene BM25's IDF of a term that occurs in exactly one of ``n_docs`` profiles,
    ``log(1 + (n - 1 + 0.5) / (1 + 0.5))`` (Kamphuis et al. 2020): the scale of a BM25 score
    in a library of that size."""
    return math.log(1.0 + (max(n_docs, 1) - 0.5) / 1.5)


@dataclass
class Resolution:
    """What the resolver decided for one question.

    ``ranked``: (doc id, score) best first (positive scores only, at most 10).
    ``chosen``: the agreements to search (empty: the whole library).
    ``status``: ``"resolved"`` (one agreement), ``"ambiguous"`` (several tied: ``chosen``
    holds them), ``"uncertain"`` (weak evidence: the best few), ``"unnamed"`` (no agreement named: search everything), ``"filtered"``
    (the caller fixed the agreements).
    """

    ranked: list[tuple[str, float]] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)
    status: str = "unnamed"

    def trace(self) -> dict:
        """JSON-ready summary for a search trace."""
        return {"status": self.status, "chosen": list(self.chosen),
                "ranked": [[d, round(s, 3)] for d, s in self.ranked[:5]]}


def resolution_tokens(question: str, analyzer: LegalAnalyzer, name_weight: int | None = None,
                      rare: Callable[[str], bool] | None = None) -> list[str]:
    """The analysed tokens of ``question`` that can name an agreement: clause numbers and
    question words left out; the tokens of proper names (capitalised words inside the
    question) counted :data:`NAME_WEIGHT` times -- only those ``rare`` accepts, when given
    (a capitalised word most agreements share, "Confidential", is no name)."""
    from clauselens.retrieval.analyzer import clause_refs_in

    weight = NAME_WEIGHT if name_weight is None else name_weight
    refs = set(clause_refs_in(question))
    q = _QUESTION_WORDS.sub(" ", question)
    unquoted = _QUOTED_SPAN.sub(" ", question)  # a quoted term is what is asked about, not a name
    names = {t for m in _NAME.finditer(unquoted) if not _PART_WORD.fullmatch(m.group(1))
             for t in analyzer.tokenize(m.group(1))} if weight > 1 else set()
    if rare is not None:
        names = {t for t in names if rare(t)}
    out: list[str] = []
    for t in analyzer.tokenize(q):
        if t in refs or (any(c.isdigit() for c in t) and not re.fullmatch(r"(?:19|20)\d\d", t)):
            continue  # clause numbers and amounts name no agreement; a year does
        out += [t] * (weight if t in names else 1)
    return out


class AgreementResolver:
    """Decides from profile scores (``doc id -> BM25``) which agreements a question names."""

    def __init__(self, min_score: float = MIN_SCORE, margin: float = MARGIN, max_ambiguous: int = MAX_AMBIGUOUS,
                 low_score: float = LOW_SCORE, uncertain_top: int = UNCERTAIN_TOP) -> None:
        self.min_score, self.margin, self.max_ambiguous = min_score, margin, max_ambiguous
        self.low_score, self.uncertain_top = low_score, uncertain_top

    def decide(self, scores: Mapping[str, float], allowed: Collection[str] | None = None, *,
               n_docs: int | None = None) -> Resolution:
        """A :class:`Resolution` from BM25 profile ``scores`` over a library of ``n_docs``
        agreements (default: ``len(scores)``), restricted to ``allowed`` doc ids if given."""
        unit = unit_idf(n_docs if n_docs is not None else len(scores))
        ranked = sorted(((d, s / unit) for d, s in scores.items() if s > 0 and (allowed is None or d in allowed)),
                        key=lambda x: (-x[1], x[0]))[:10]
        if not ranked or ranked[0][1] < self.low_score:
            return Resolution(ranked=ranked, chosen=[], status="unnamed")
        if ranked[0][1] < self.min_score:
            if ranked[0][1] >= DOMINANT_MIN and (len(ranked) == 1 or ranked[0][1] >= DOMINANT * ranked[1][1]):
                return Resolution(ranked=ranked, chosen=[ranked[0][0]], status="resolved")
            top = ranked[0][1]
            plausible = [d for d, s in ranked[: self.uncertain_top] if s * DOMINANT >= top]
            if len(plausible) < 2 and top < DOMINANT_MIN:  # one weak match is no evidence: keep the best few
                plausible = [d for d, _ in ranked[: self.uncertain_top]]
            return Resolution(ranked=ranked, chosen=plausible, status="uncertain")
        top = ranked[0][1]
        tied = [d for d, s in ranked if s * self.margin > top][: self.max_ambiguous]
        if len(tied) == 1:
            return Resolution(ranked=ranked, chosen=tied, status="resolved")
        return Resolution(ranked=ranked, chosen=tied, status="ambiguous")


__all__ = ["DOMINANT", "DOMINANT_MIN", "LOW_SCORE", "MARGIN", "MAX_AMBIGUOUS", "MIN_SCORE", "UNCERTAIN_TOP", "AgreementResolver",
           "Resolution", "resolution_tokens", "unit_idf"]
