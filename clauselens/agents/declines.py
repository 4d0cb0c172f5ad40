"""Declined reports of the Interrogator's rule step (issue #38): the question's own search found nothing, no clause
passes the relevance bar, or -- with ``Settings.reading_declines`` -- the model's reading judged that none of
retrieval's best clauses answers. The report then says the documents do not address the question, in the library's
words, and why; a decline after a reading keeps retrieval's clauses visible as the nearest ones (``RuleQuote.kind ==
"nearest"``), never as facts. Split from :mod:`clauselens.agents.delivery`, which decides when to decline.
"""

from __future__ import annotations

from typing import Any, Sequence

from clauselens import events as ET
from clauselens.reports.model import SILENT_ANSWER, ReportDraft, RuleQuote
from clauselens.retrieval.types import Passage

#: The first knowledge gap of a question declined before any reading: why nothing is quoted.
NO_CLAUSE_GAP = "No clause passed the relevance bar for the question as asked."


def declined_draft(question: str, reason: str, gaps: Sequence[str] = (), why: str = NO_CLAUSE_GAP) -> ReportDraft:
    """The draft of a declined question: the documents do not address it, and why (``reason`` in the answer, ``why``
    as the first knowledge gap)."""
    return ReportDraft(title=question[:100], topic_summary=question[:300], answer=f"Declined: {reason}."[:480],
                       addressed=False, conclusion=SILENT_ANSWER, knowledge_gaps=[why, *gaps])


#: The reason a quick-depth report declines when the reading judged that none of retrieval's best clauses answers
#: (issue #38: decline in the library's words, the nearest clauses still shown, as not answering).
READING_DECLINE = ("the agreement does not appear to address it; the nearest clauses retrieval found are shown below as "
                   "not answering it")
#: ... and the knowledge gap that says who judged so.
READING_DECLINE_GAP = ("The model's reading judged that none of the clauses retrieval ranked best for the question "
                       "answers it, so the report declines; the clauses are shown as the nearest, not as facts.")


def nearest_quotes(quotes: Sequence[RuleQuote]) -> list[RuleQuote]:
    """``quotes`` (retrieval's best clauses) as a declined report's nearest clauses (``kind == "nearest"``): the same
    characters, a statement saying they do not answer."""
    return [q.model_copy(update={"kind": "nearest", "statement": q.statement.rstrip(". ") + "; the model's reading "
                                                                 "judged that it does not answer the question."})
            for q in quotes]


def declined_after_reading(question: str, quotes: Sequence[RuleQuote], reading: str | None, gaps: Sequence[str],
                            turn: int, out: list[dict[str, Any]]) -> dict[str, Any]:
    """The state update of a quick-depth question declined after its reading (:data:`READING_DECLINE`): retrieval's
    best clauses kept as the nearest (:func:`nearest_quotes`), the reading (``None``: none to show) kept under
    knowledge gaps."""
    said = [f"The model's reading of them: {reading}"] if reading else []
    draft = declined_draft(question, READING_DECLINE, [*said, *gaps], why=READING_DECLINE_GAP)
    near = nearest_quotes(quotes)
    out.append({"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": [],
                "note": "retrieval's best clauses quoted as the nearest; declined: the model's reading judged that none "
                        "of them answers the question"})
    return {"draft": draft.model_dump(mode="json"), "rule_quotes": [q.model_dump() for q in near], "rule_decided": True,
            "route": "report", "complete": True, "events": out, "stop_reason": "the reading found no clause that answers"}


def declined_state(question: str, reason: str, turn: int, note: str, out: list[dict[str, Any]],
                   gaps: Sequence[str] = (), nearest: Sequence[Passage] = ()) -> dict[str, Any]:
    """The state update of a question declined without a model call (``reason`` said in its answer)."""
    draft = declined_draft(question, reason, gaps)
    out.append({"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": [], "note": note,
                "nearest": [{"doc_id": p.doc_id, "clause_ref": p.clause_ref, "spans": [[s.start, s.end] for s in p.spans]}
                            for p in nearest]})
    return {"draft": draft.model_dump(mode="json"), "rule_decided": True, "route": "report", "complete": True,
            "events": out, "stop_reason": "no clause passes the relevance bar"}


__all__ = ["NO_CLAUSE_GAP", "READING_DECLINE", "READING_DECLINE_GAP", "declined_after_reading", "declined_draft",
           "declined_state", "nearest_quotes"]
