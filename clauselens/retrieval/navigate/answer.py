"""navindex S3 -- answer: :func:`answer_from_passages` answers only from the ``<provisions>``
block, with amendment precedence, defined-term origin, ``[doc] Clause X`` citations and the exact
refusal string :data:`~clauselens.retrieval.navigate.prompts.REFUSAL`. navembed answers with it
too, and inject with the same rules (:func:`clauselens.retrieval.navigate.inject.answer_inject`).
After the "Inject or Navigate?" study (issue #4); see :mod:`clauselens.retrieval.navigate`.
"""

from __future__ import annotations

import re
from typing import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

from clauselens.llm import count_tokens
from clauselens.retrieval.ledger import Ledger, LedgerEntry
from clauselens.retrieval.navigate import prompts as P
from clauselens.retrieval.navigate.llm import invoke_text
from clauselens.retrieval.types import Passage


def _clause_label(p: Passage) -> str:
    if p.clause_ref:
        return p.clause_ref if re.match(r"(?i)(article|section|schedule|exhibit|annex|clause)\b", p.clause_ref) \
            else f"Clause {p.clause_ref}"
    return (p.heading_path[-1] if p.heading_path else "") or f"node {p.node_id}"


def provisions_block(passages: Sequence[Passage]) -> str:
    """The ``<provisions>`` block of S3: one ``<provision doc=... clause=... node=...>``
    element per passage, verbatim text inside."""
    parts = ["<provisions>"]
    for p in passages:
        parts.append(f'<provision doc="{p.doc_title or p.doc_id}" clause="{_clause_label(p)}" node="{p.node_id}">')
        parts.append(p.text.strip())
        parts.append("</provision>")
    parts.append("</provisions>")
    return "\n".join(parts)


class Answer(BaseModel):
    """An answer from S3 / inject. ``refused``: the model said :data:`REFUSAL` (or there
    was nothing to answer from); ``context_tokens``: tokens of the context it read."""

    text: str
    refused: bool = False
    context_tokens: int = 0


def is_refusal(text: str) -> bool:
    """True if ``text`` contains the refusal string (case/space-insensitive)."""
    norm = lambda s: " ".join(s.lower().split()).rstrip(".")  # noqa: E731
    return norm(P.REFUSAL) in norm(text)


def answer_from_passages(model: BaseChatModel, question: str, passages: Sequence[Passage],
                         ledger: Ledger | None = None, entry: LedgerEntry | None = None) -> Answer:
    """S3: answer ``question`` only from ``passages`` (rendered by :func:`provisions_block`).

    With no passages the refusal string is returned without calling the model (an empty
    provisions block cannot support an answer). The answering-context tokens are added to
    ``entry`` when given.
    """
    if not passages:
        return Answer(text=P.REFUSAL, refused=True, context_tokens=0)
    block = provisions_block(passages)
    ctx = count_tokens(model, block)
    msgs = [SystemMessage(P.ANSWER_SYSTEM), HumanMessage(P.ANSWER_USER.format(provisions=block, question=question))]
    if ledger is not None and entry is not None:
        entry.answering_context_tokens += ctx
        with ledger.recording(entry, "answer", cacheable_tokens=count_tokens(model, P.ANSWER_SYSTEM)):
            text = invoke_text(model, msgs)
    else:
        text = invoke_text(model, msgs)
    return Answer(text=text, refused=is_refusal(text), context_tokens=ctx)
