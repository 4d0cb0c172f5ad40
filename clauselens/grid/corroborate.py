"""A period or sum found by the question's own words, corroborated by retrieval (issue #45).

A typed grid cell whose value no reader of its kind of clause chose -- the sentence was picked only because it shares the
question's words ("read by rule from the clause on pay") -- is the grid's least reliable answer: on the first reads of the
keyed development sets dev9-dev30 (written blind to the code, 22 x 6 train_allowed agreements) such periods and sums were
right 44 times and wrong 25. A second, independent selector is the library's own hybrid ranking of the whole question (BM25
and the dense embedder fused by RRF, :meth:`clauselens.library.library.Library.search`, restricted to the agreement): on
those cells, the value's passage was among the first :data:`TOP` passages for 32 of the 44 right values and 6 of the 25
wrong ones. When the two selectors disagree the value stays with a reviewer (``candidate``), as any uncorroborated read does.
Two views agreeing is the co-training intuition (Blum & Mitchell 1998, "Combining labeled and unlabeled data with
co-training"): each selector's errors are largely independent of the other's.
"""

from __future__ import annotations

from typing import Any, Sequence

from clauselens.grid.cells import Cell
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import QUESTION_WORDS_READ

#: How many of retrieval's passages for the question the value's passage must be among (3: chosen on the dev9-dev30 first
#: reads above; 1 kept 26 right / 4 wrong, 5 kept 35 / 9).
TOP = 3
#: The reason a typed cell read from the question's own words carries (:func:`clauselens.grid.rule.rule_cell`).
BY_QUESTION_WORDS = QUESTION_WORDS_READ
#: The answer types whose question-word reads are checked (dates and jurisdictions read so were right 16 times in 18).
CHECKED_TYPES = frozenset({"duration", "amount"})


def needs_corroboration(q: GridQuestion, cell: Cell) -> bool:
    """Is ``cell`` an answered period or sum read only by the question's words (no CUAD category, no reader of its kind)?"""
    return (not q.category and q.type in CHECKED_TYPES and cell.status == "answered" and cell.reason.startswith(BY_QUESTION_WORDS)
            and bool(cell.quote_spans))


def _overlaps(quote_spans: Sequence[Sequence[int]], spans: Sequence[Any]) -> bool:
    """Does any ``[start, end)`` of the quote overlap any of a passage's spans (objects with ``start`` / ``end``)?"""
    return any(qs < sp.end and sp.start < qe for qs, qe in quote_spans for sp in spans)


def corroborated(cell: Cell, ranked: Sequence[Any]) -> Cell:
    """``cell`` when its quote lies in one of retrieval's ``ranked`` passages (the first :data:`TOP` for the question), else the
    same value kept for a reviewer, unverified."""
    if any(_overlaps(cell.quote_spans, p.spans) for p in ranked[:TOP]):
        return cell
    return cell.model_copy(update={
        "status": "unverified", "answer": "", "candidate": cell.answer, "model_quote": cell.quote, "quote": "", "quote_spans": [],
        "reason": cell.reason.replace(" (no model)", "") + f" -- {cell.answer}, but retrieval does not rank that clause among its first "
                  f"{TOP} for the question, so no reader confirms it; left for a reviewer (no model)"})


def check(library: Any, doc_id: str, q: GridQuestion, cell: Cell) -> Cell:
    """The cell after the retrieval check (:func:`corroborated`) when it needs one (:func:`needs_corroboration`)."""
    if not needs_corroboration(q, cell) or not doc_id:
        return cell
    result = library.search(q.question, k=TOP, doc_ids=[doc_id], absent_topics=False)
    return corroborated(cell, [] if result.abstained else result.passages)


__all__ = ["BY_QUESTION_WORDS", "CHECKED_TYPES", "TOP", "check", "corroborated", "needs_corroboration"]
