"""Helpers shared by the agents: one structured LLM call with its token usage and timing,
passage formatting and token budgeting for small context windows."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal, Sequence, TypeVar

from langchain_core.callbacks import get_usage_metadata_callback
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel

from clauselens.config import ModelSettings
from clauselens.llm import count_tokens
from clauselens.parsing.numbering import clause_label
from clauselens.retrieval.types import Passage

T = TypeVar("T", bound=BaseModel)

#: Characters of one passage shown to the model at most (a long clause is cut, with a marker).
MAX_PASSAGE_CHARS = 2400


@dataclass
class CallRecord:
    """One LLM call for the transcript: which agent/step, seconds, token usage
    (``input_tokens``/``output_tokens``/``total_tokens`` from the messages' ``usage_metadata``;
    zeros when the backend reports none), and the validated output."""

    agent: str
    step: str
    seconds: float
    usage: dict[str, int] = field(default_factory=dict)
    output: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out_tok = self.usage.get("output_tokens", 0)
        return {
            "agent": self.agent, "step": self.step, "seconds": round(self.seconds, 3), "usage": self.usage,
            "output_tokens_per_s": round(out_tok / self.seconds, 2) if self.seconds > 0 and out_tok else None,
            "output": self.output,
        }


#: The token counts of a langchain ``UsageMetadata`` that a CallRecord sums.
_USAGE_KEYS: tuple[Literal["input_tokens", "output_tokens", "total_tokens"], ...] = ("input_tokens", "output_tokens", "total_tokens")


def call_structured(
    model: BaseChatModel, system: str, user: str, schema: type[T], *, agent: str, step: str,
    model_settings: ModelSettings | None = None, max_tokens: int | None = None,
) -> tuple[T, CallRecord]:
    """Ask ``model`` for a ``schema`` instance (``clauselens.llm.invoke_structured``).

    ``max_tokens`` caps this reply (bound on the model; never above the model's own setting)
    so a short structured answer cannot run on for the whole default budget.

    Returns ``(instance, CallRecord)``. Raises ``ModelResponseError`` /
    ``ModelUnavailableError`` from the model layer unchanged.
    """
    from clauselens.llm import invoke_structured

    ms = model_settings or ModelSettings()
    bound: BaseChatModel | Runnable = model
    if max_tokens is not None:
        bound = model.bind(max_tokens=min(max_tokens, ms.max_tokens))
    t0 = time.perf_counter()
    with get_usage_metadata_callback() as cb:
        result = invoke_structured(
            bound, [SystemMessage(content=system), HumanMessage(content=user)], schema,
            method=ms.structured_method, max_retries=ms.max_retries,
        )
    usage: dict[str, int] = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    for u in cb.usage_metadata.values():
        for k in _USAGE_KEYS:
            usage[k] += int(u.get(k, 0) or 0)
    rec = CallRecord(agent=agent, step=step, seconds=time.perf_counter() - t0, usage=usage,
                     output=result.model_dump(mode="json"))
    return result, rec


def passage_header(pid: str, p: Passage) -> str:
    """``[P3] Consulting Agreement | clause 7.2 | Term and Termination | p. 3``."""
    parts = [f"[{pid}] " + (p.doc_title or (p.source_path or p.doc_id).rsplit("/", 1)[-1])]
    if p.clause_ref:
        parts.append(clause_label(p.clause_ref))
    if p.heading_path:
        parts.append(" > ".join(p.heading_path[-2:]))
    if p.page_start is not None:
        parts.append(f"p. {p.page_start}" + (f"-{p.page_end}" if p.page_end and p.page_end != p.page_start else ""))
    return " | ".join(parts)


def format_passage(pid: str, p: Passage, max_chars: int = MAX_PASSAGE_CHARS) -> str:
    """Header line + passage text (cut at ``max_chars`` with ``" [...]"``)."""
    text = p.text if len(p.text) <= max_chars else p.text[:max_chars] + " [...]"
    return f"{passage_header(pid, p)}\n{text}"


def budget_passages(
    items: Sequence[tuple[str, Passage]], budget_tokens: int, model: BaseChatModel | None = None,
    max_chars: int = MAX_PASSAGE_CHARS,
) -> tuple[str, list[str]]:
    """Format passages in the given order until ``budget_tokens`` would be exceeded.

    Returns ``(block, shown_ids)``. At least one passage is shown if any is given (cut to fit).
    """
    blocks: list[str] = []
    shown: list[str] = []
    used = 0
    for pid, p in items:
        block = format_passage(pid, p, max_chars)
        n = count_tokens(model, block)
        if used + n > budget_tokens:
            if not blocks:
                block = format_passage(pid, p, max(200, budget_tokens * 3))
                blocks.append(block)
                shown.append(pid)
            break
        blocks.append(block)
        shown.append(pid)
        used += n
    return "\n\n".join(blocks), shown
