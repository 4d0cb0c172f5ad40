"""Token ledger: what each query cost, per retrieval mode.

For every LLM call it records input tokens (split into a cacheable prefix — the static
system prompt + corpus or index that a provider prompt cache would serve — and the
uncached rest), output tokens and wall time; per query it adds the answering-context
tokens (what the answering call was given to read) and total wall time.

Dollar costs use a :class:`PriceCard` (defaults from the "Inject or Navigate?" study:
$3.00/M input, $3.75/M cache write, $0.30/M cache read, $15/M output). The caching
crossover follows the study: with a warm cache, re-reading a corpus of C tokens costs
C·p_r per query, while a retrieval payload of R tokens costs R·p_in, so inject is
cheaper only while ``C < R · p_in / p_r`` (≈ 10 R with the default prices).

Recording works for any LangChain chat model: :meth:`Ledger.recording` installs a callback
handler through LangChain's context-variable hook, so calls made inside helpers (e.g.
``invoke_structured``) are seen too. Usage comes from ``AIMessage.usage_metadata``.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from langchain_core.tracers.context import register_configure_hook
from pydantic import BaseModel, Field


class PriceCard(BaseModel):
    """USD per million tokens. Defaults: the study's price card (issue #4)."""

    input_per_m: float = 3.00
    cache_write_per_m: float = 3.75
    cache_read_per_m: float = 0.30
    output_per_m: float = 15.00


class CallUsage(BaseModel):
    """One LLM call. ``input_tokens`` counts all prompt tokens; ``cacheable_tokens`` is
    the part of them that is a static prefix (a warm prompt cache would serve it);
    ``observed_cache_read`` is what the backend itself reported as cache reads, if any."""

    stage: str
    input_tokens: int = 0
    cacheable_tokens: int = 0
    observed_cache_read: int = 0
    output_tokens: int = 0
    wall_s: float = 0.0


class LedgerEntry(BaseModel):
    """One query in one mode. ``answering_context_tokens``: tokens of the text the answer
    call read (corpus for inject, provisions block for navindex, passages for navembed)."""

    query_id: str
    mode: str
    calls: list[CallUsage] = Field(default_factory=list)
    answering_context_tokens: int = 0
    wall_s: float = 0.0
    invented_ids: int = 0
    extra: dict[str, Any] = Field(default_factory=dict)

    @property
    def input_tokens(self) -> int:
        """All input tokens attended over the query's calls."""
        return sum(c.input_tokens for c in self.calls)

    @property
    def cacheable_tokens(self) -> int:
        """Input tokens that a warm prompt cache would serve (static prefixes)."""
        return sum(min(c.cacheable_tokens, c.input_tokens) for c in self.calls)

    @property
    def uncached_tokens(self) -> int:
        """Input tokens that are never cacheable (question, retrieved text, ...)."""
        return self.input_tokens - self.cacheable_tokens

    @property
    def output_tokens(self) -> int:
        """Output tokens over the query's calls."""
        return sum(c.output_tokens for c in self.calls)

    @property
    def llm_calls(self) -> int:
        """Number of LLM calls."""
        return len(self.calls)

    def cost(self, price: PriceCard, cache: str = "none") -> float:
        """USD cost of this query.

        ``cache="none"``: every input token at ``input_per_m``. ``cache="warm"``: cacheable
        tokens at ``cache_read_per_m`` (steady state: the prefix is already cached), the
        rest at ``input_per_m``. ``cache="cold"``: cacheable tokens at ``cache_write_per_m``
        (first query writes the cache). Output always at ``output_per_m``.
        """
        if cache not in ("none", "warm", "cold"):
            raise ValueError(f"cache must be none, warm or cold, not {cache!r}")
        cached = self.cacheable_tokens if cache != "none" else 0
        rate = {"none": 0.0, "warm": price.cache_read_per_m, "cold": price.cache_write_per_m}[cache]
        usd = (self.input_tokens - cached) * price.input_per_m + cached * rate + self.output_tokens * price.output_per_m
        return usd / 1e6

    def summary(self, price: PriceCard | None = None) -> dict[str, Any]:
        """Flat dict for JSON output (totals plus costs under the three cache regimes)."""
        price = price or PriceCard()
        return {
            "query_id": self.query_id, "mode": self.mode, "input_tokens": self.input_tokens,
            "cacheable_tokens": self.cacheable_tokens, "uncached_tokens": self.uncached_tokens,
            "output_tokens": self.output_tokens, "answering_context_tokens": self.answering_context_tokens,
            "llm_calls": self.llm_calls, "wall_s": round(self.wall_s, 3), "invented_ids": self.invented_ids,
            "cost_usd": {k: self.cost(price, k) for k in ("none", "warm", "cold")},
            "calls": [c.model_dump() for c in self.calls], **({"extra": self.extra} if self.extra else {}),
        }


def caching_crossover(retrieval_payload_tokens: float, price: PriceCard | None = None) -> float:
    """Corpus size C* (tokens) below which warm-cache inject is cheaper than navigating.

    ``C* = R · p_in / p_r`` (issue #4, after the study's cost analysis): inject at warm
    steady state pays ``C·p_r`` per query for the corpus, navigation pays ``R·p_in`` for its
    uncached retrieval payload of ``R`` tokens. Raises ``ValueError`` if ``p_r`` is 0.
    """
    price = price or PriceCard()
    if price.cache_read_per_m <= 0:
        raise ValueError("cache_read_per_m must be > 0 to compute a crossover")
    return retrieval_payload_tokens * price.input_per_m / price.cache_read_per_m


#: ``Ledger.recording(entry, stage=GRAPH_NODE_STAGE)`` names each call after the LangGraph
#: node that made it (``metadata["langgraph_node"]``: ``interrogator``, ``researcher``, ...).
GRAPH_NODE_STAGE = "<graph node>"


class _UsageHandler(BaseCallbackHandler):
    """Collects per-call usage from chat-model ends (``AIMessage.usage_metadata``)."""

    def __init__(self, ledger: "Ledger", parent: "_UsageHandler | None" = None) -> None:
        self.ledger = ledger
        self.parent = parent  # an enclosing recording (e.g. the whole run's ledger) also sees each call
        self._starts: dict[UUID, float] = {}
        self._nodes: dict[UUID, str] = {}

    def _encloses(self, other: "_UsageHandler | None") -> bool:
        while other is not None:
            if other.parent is self:
                return True
            other = other.parent
        return False

    def _start(self, run_id: UUID, kw: dict[str, Any]) -> None:
        self._starts[run_id] = time.perf_counter()
        node = (kw.get("metadata") or {}).get("langgraph_node")
        if node:
            self._nodes[run_id] = str(node)

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID, **kw: Any) -> None:
        self._start(run_id, kw)

    def on_llm_start(self, serialized: Any, prompts: Any, *, run_id: UUID, **kw: Any) -> None:
        self._start(run_id, kw)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kw: Any) -> None:
        wall = time.perf_counter() - self._starts.pop(run_id, time.perf_counter())
        node = self._nodes.pop(run_id, "")
        if _ACTIVE.get() is not self and self._encloses(_ACTIVE.get()):
            return  # an inner recording is active: it records the call and forwards it here (once)
        usage: dict = {}
        for gens in response.generations:
            for g in gens:
                msg = getattr(g, "message", None)
                if msg is not None and getattr(msg, "usage_metadata", None):
                    usage = dict(msg.usage_metadata)
        if not usage and response.llm_output:
            tu = response.llm_output.get("token_usage") or {}
            usage = {"input_tokens": tu.get("prompt_tokens", 0), "output_tokens": tu.get("completion_tokens", 0)}
        details = usage.get("input_token_details") or {}
        stage, cacheable = self.ledger._stage, self.ledger._cacheable
        if stage == GRAPH_NODE_STAGE:  # name the call after the LangGraph node that made it
            stage = node or stage
        args = (int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0),
                int(details.get("cache_read", 0) or 0), wall)
        self.ledger._on_call(*args, stage=stage)
        parent = self.parent
        seen = {id(self.ledger)}
        while parent is not None:  # nested recordings: the outer ledgers see the call under the inner stage
            if id(parent.ledger) not in seen:  # a ledger nested in itself records the call once
                seen.add(id(parent.ledger))
                parent.ledger._on_call(*args, stage=f"{self.ledger.label}:{stage}" if self.ledger.label else stage,
                                       cacheable=cacheable)
            parent = parent.parent


_ACTIVE: ContextVar[_UsageHandler | None] = ContextVar("clauselens_token_ledger", default=None)
register_configure_hook(_ACTIVE, inheritable=True)


class Ledger:
    """Accumulates :class:`LedgerEntry` s for a run and writes them as JSON.

    Usage::

        ledger = Ledger(run_info={"command": ...})
        entry = ledger.start("q1", "navindex")
        with ledger.recording(entry, stage="scan", cacheable_tokens=1200):
            model.invoke(...)
        ledger.write(path)
    """

    def __init__(self, price: PriceCard | None = None, run_info: dict[str, Any] | None = None,
                 label: str = "") -> None:
        self.price = price or PriceCard()
        self.label = label  # prefixes this ledger's stages when an enclosing ledger records them
        self.run_info = dict(run_info or {})
        self.entries: list[LedgerEntry] = []
        self._entry: LedgerEntry | None = None
        self._stage = ""
        self._cacheable = 0

    def start(self, query_id: str, mode: str) -> LedgerEntry:
        """Begin (and return) the entry of one query in one mode."""
        entry = LedgerEntry(query_id=query_id, mode=mode)
        self.entries.append(entry)
        return entry

    @contextmanager
    def recording(self, entry: LedgerEntry, stage: str, cacheable_tokens: int = 0) -> Iterator[LedgerEntry]:
        """Record every LLM call made inside the block into ``entry`` under ``stage``;
        ``cacheable_tokens`` is the static-prefix size of those calls. Wall time of the
        block is added to ``entry.wall_s``."""
        prev = (self._entry, self._stage, self._cacheable)
        self._entry, self._stage, self._cacheable = entry, stage, cacheable_tokens
        token = _ACTIVE.set(_UsageHandler(self, parent=_ACTIVE.get()))
        t0 = time.perf_counter()
        try:
            yield entry
        finally:
            entry.wall_s += time.perf_counter() - t0
            _ACTIVE.reset(token)
            self._entry, self._stage, self._cacheable = prev

    def _on_call(self, input_tokens: int, output_tokens: int, cache_read: int, wall_s: float,
                 stage: str | None = None, cacheable: int | None = None) -> None:
        if self._entry is None:
            return
        self._entry.calls.append(CallUsage(
            stage=self._stage if stage is None else stage, input_tokens=input_tokens,
            cacheable_tokens=self._cacheable if cacheable is None else cacheable,
            observed_cache_read=cache_read, output_tokens=output_tokens, wall_s=round(wall_s, 3)))

    def totals(self, mode: str | None = None) -> dict[str, Any]:
        """Sums over entries (optionally one mode): tokens, calls, wall time, costs."""
        es = [e for e in self.entries if mode is None or e.mode == mode]
        return {
            "queries": len(es),
            "input_tokens": sum(e.input_tokens for e in es),
            "cacheable_tokens": sum(e.cacheable_tokens for e in es),
            "uncached_tokens": sum(e.uncached_tokens for e in es),
            "output_tokens": sum(e.output_tokens for e in es),
            "answering_context_tokens": sum(e.answering_context_tokens for e in es),
            "llm_calls": sum(e.llm_calls for e in es),
            "invented_ids": sum(e.invented_ids for e in es),
            "wall_s": round(sum(e.wall_s for e in es), 3),
            "cost_usd": {k: sum(e.cost(self.price, k) for e in es) for k in ("none", "warm", "cold")},
        }

    def to_json(self) -> dict[str, Any]:
        """The whole ledger: run info, price card, per-mode totals and per-query entries."""
        modes = sorted({e.mode for e in self.entries})
        return {
            "written_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "run": self.run_info, "price_card": self.price.model_dump(),
            "totals": {m: self.totals(m) for m in modes},
            "entries": [e.summary(self.price) for e in self.entries],
        }

    def write(self, path: Path) -> Path:
        """Write :meth:`to_json` to ``path`` (parents created, temp file + rename)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")
        tmp.replace(path)
        return path
