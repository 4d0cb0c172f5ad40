"""Turn a model's :class:`ReportDraft` into a grounded :class:`Report`.

Every finding's quote is verified with :func:`clauselens.reports.verify.verify_quote`; a
quote that is not verbatim as a whole is checked sentence by sentence
(:func:`~clauselens.reports.verify.verify_pieces`) and its verbatim sentences are kept.
Verified quotes become :class:`Citation` s with exact document spans, the others are
recorded in ``dropped_quotes`` and listed under ``knowledge_gaps``. Passage ids a finding
names that were never retrieved are removed. When nothing was retrieved, or the model says
nothing addresses the question and no quote could be verified, the report is marked
``documents_silent`` and says so plainly. Pure function.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from clauselens.reports.model import (
    SILENT_ANSWER,
    Citation,
    DroppedQuote,
    Finding,
    LabelBasis,
    Report,
    ReportDraft,
)
from clauselens.reports.verify import QuoteMatch, clean_model_quote, verify_pieces, verify_quote
from clauselens.retrieval.types import Passage

#: Shown when the model's draft has no answer, conclusion or finding (never an empty answer).
NO_ANSWER = "The model did not state an answer; read the cited passages and knowledge gaps."


def _dedup(items: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for it in items:
        key = " ".join(it.split()).lower()
        if key and key not in seen:
            seen.add(key)
            out.append(it.strip())
    return out


def build_report(
    draft: ReportDraft,
    passages: Mapping[str, Passage],
    *,
    question: str,
    context: str | None = None,
    turns: int = 0,
    complete: bool = False,
    nli: bool = False,
    label_basis: LabelBasis | None = None,
) -> Report:
    """Verify ``draft`` against the retrieved ``passages`` (run-local id -> Passage).

    Returns a :class:`Report`; never raises on bad quotes (they are dropped and recorded).
    ``nli`` keeps the draft's ``label`` (ContractNLI mode), or ``label_basis``'s decided label when
    given (precedent vote or abstention, see :class:`LabelBasis`); otherwise ``label`` is None.
    """
    citations: list[Citation] = []
    dropped: list[DroppedQuote] = []
    findings: list[Finding] = []
    by_span: dict[tuple, str] = {}
    for f in draft.findings:
        pids = [p for p in f.passage_ids if p in passages]
        cids: list[str] = []
        grounded = False
        quote = clean_model_quote(f.quote or "")
        if quote:
            m = verify_quote(quote, passages, prefer=pids)
            matches: list[QuoteMatch] = [m] if m is not None else []
            if m is None:
                matches, missing = verify_pieces(quote, passages, prefer=pids)
                if not matches:
                    dropped.append(DroppedQuote(quote=quote, passage_id=pids[0] if pids else None,
                                                reason="not found verbatim in any retrieved passage"))
                else:
                    for piece in missing:
                        dropped.append(DroppedQuote(
                            quote=piece, passage_id=pids[0] if pids else None,
                            reason="part of a longer quote; not found verbatim (or too short to cite on its own)",
                        ))
            for m in matches:
                p = passages[m.passage_id]
                key = (p.chunk_id, m.start, m.end)
                if key in by_span:
                    cid = by_span[key]
                else:
                    cid = f"C{len(citations) + 1}"
                    by_span[key] = cid
                    citations.append(Citation(
                        id=cid, passage_id=m.passage_id, chunk_id=p.chunk_id, doc_id=p.doc_id,
                        node_id=p.node_id, doc_title=p.doc_title, source_path=p.source_path,
                        clause_ref=p.clause_ref, heading_path=p.heading_path,
                        page_start=p.page_start, page_end=p.page_end, spans=m.doc_spans, quote=m.text,
                    ))
                if cid not in cids:
                    cids.append(cid)
                grounded = True
                if m.passage_id not in pids:
                    pids.append(m.passage_id)
        if f.statement.strip():
            findings.append(Finding(statement=f.statement.strip(), passage_ids=pids,
                                    citation_ids=cids, grounded=grounded))

    gaps = list(draft.knowledge_gaps)
    for d in dropped:
        gaps.append(f'Quote removed ({d.reason}): "{d.quote}"')

    silent = not passages or (not draft.addressed and not citations)
    answer = draft.answer.strip()
    conclusion = draft.conclusion.strip()
    if not silent and not answer:  # never a silent empty answer: fall back, and say so
        answer = conclusion or next((f.statement for f in findings), "")
        gaps.append("The model's draft gave no direct answer" + ("; the answer shown is its conclusion or first finding."
                                                                  if answer else "."))
        answer = answer or NO_ANSWER
    if silent:
        answer = SILENT_ANSWER + (f" {answer}" if answer and passages else "")
        conclusion = SILENT_ANSWER
        if not passages:
            findings = []
    label = draft.label if nli else None
    if nli and silent and label is None:
        label = "not_mentioned"
    if nli and label_basis is not None and label_basis.decided:
        label = label_basis.decided
    title = draft.title.strip() or question
    documents = _dedup([p.doc_title or p.source_path or p.doc_id for p in passages.values()])
    return Report(
        title=title, question=question, context=context,
        topic_summary=draft.topic_summary.strip(), legal_reasoning=draft.legal_reasoning.strip(),
        key_findings=findings, answer=answer,
        research_directions=_dedup(draft.research_directions), knowledge_gaps=_dedup(gaps),
        follow_up_questions=_dedup(draft.follow_up_questions), citations=citations,
        conclusion=conclusion or answer, documents_silent=silent, dropped_quotes=dropped,
        label=label, label_basis=label_basis if nli else None, turns=turns, complete=complete, documents=documents,
    )
