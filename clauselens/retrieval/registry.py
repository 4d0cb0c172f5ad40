"""The Researcher's retrieval tools by name: one name -> factory registry.

Every front end (``ask``, chat, the web UI, the MCP server, the graph's own default) gets its
tools from :func:`make_tools`, so ``RetrievalSettings.tools`` means the same everywhere::

    tools = make_tools(settings, chat_model=lambda: researcher_model)   # {"hybrid": ..., ...}

A factory takes a :class:`ToolContext` (settings, the Researcher's chat model on demand, the
tools already made in this set) and returns an un-indexed
:class:`~clauselens.retrieval.types.RetrievalMethod`. The names are
:data:`clauselens.config.ToolName`; an unknown name raises
:class:`~clauselens.errors.ConfigError` listing the valid ones. Factories import their module
on first use, so asking for ``hybrid`` never imports LightRAG.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from clauselens.config import TOOL_NAMES, Settings, ToolName
from clauselens.errors import ConfigError
from clauselens.retrieval.types import RetrievalMethod


@dataclass
class ToolContext:
    """What a tool factory may use. ``chat_model()`` returns the Researcher's chat model
    (created on the first call; ``None`` when the caller has none); ``made`` holds the tools
    already built in this set, in the order of ``settings.retrieval.tools``."""

    settings: Settings
    chat_model: Callable[[], Any] = lambda: None
    made: dict[str, RetrievalMethod] = field(default_factory=dict)


ToolFactory = Callable[[ToolContext], RetrievalMethod]


def _hybrid(ctx: ToolContext) -> RetrievalMethod:
    from clauselens.retrieval.hybrid import build_retriever

    r = ctx.settings.retrieval
    return build_retriever(r, cache_dir=ctx.settings.cache_dir, chat_model=ctx.chat_model() if r.reranker == "llm" else None)


def _nav(name: str) -> ToolFactory:
    def make(ctx: ToolContext) -> RetrievalMethod:
        from clauselens.retrieval.navigate.tools import build_nav_tool

        # navembed needs the model only for an LLM reranker; navindex and inject always do
        needs = name != "navembed" or ctx.settings.retrieval.reranker == "llm"
        return build_nav_tool(name, ctx.settings, chat_model=ctx.chat_model() if needs else None)

    make.__name__ = f"_{name}"
    return make


def _lightrag(ctx: ToolContext) -> RetrievalMethod:
    from clauselens.extras import require_extra

    require_extra("lightrag", "the lightrag retrieval tool")
    from clauselens.retrieval.lightrag.tool import build_graph_tool

    # the hybrid retriever (when configured) answers while the graph is unavailable
    return build_graph_tool(ctx.settings, chat_model=ctx.chat_model(), fallback=ctx.made.get("hybrid"))


def _precedents(ctx: ToolContext) -> RetrievalMethod:
    from clauselens.retrieval.precedents import build_precedent_tool

    return build_precedent_tool(ctx.settings)


#: name -> factory; the keys are exactly :data:`clauselens.config.TOOL_NAMES`.
TOOL_FACTORIES: dict[str, ToolFactory] = {
    "hybrid": _hybrid,
    "navindex": _nav("navindex"),
    "navembed": _nav("navembed"),
    "inject": _nav("inject"),
    "lightrag": _lightrag,
    "precedents": _precedents,
}
assert set(TOOL_FACTORIES) == set(TOOL_NAMES), "registry and config.ToolName disagree"

#: Built after the others whatever their order in settings, because they use them (lightrag's fallback).
_BUILT_LAST = ("lightrag",)


def check_tool_names(names: Iterable[str]) -> list[ToolName]:
    """``names`` de-duplicated, in order (``["hybrid"]`` when empty); raises
    :class:`ConfigError` naming the unknown ones and listing the valid ones."""
    out = list(dict.fromkeys(n.strip() for n in names if n and n.strip())) or ["hybrid"]
    unknown = [n for n in out if n not in TOOL_FACTORIES]
    if unknown:
        raise ConfigError(f"unknown retrieval tool(s): {', '.join(unknown)}; valid tools: {', '.join(TOOL_FACTORIES)}")
    return out  # type: ignore[return-value]


def make_tool(name: str, ctx: ToolContext) -> RetrievalMethod:
    """One tool by name (see :data:`TOOL_FACTORIES`); raises :class:`ConfigError` for an
    unknown name, and whatever the factory raises (``ConfigError`` for a missing precedent
    bank or a tool that needs a chat model without one, ``ModelUnavailableError``)."""
    check_tool_names([name])
    return TOOL_FACTORIES[name](ctx)


def make_tools(settings: Settings, *, chat_model: Callable[[], Any] | None = None,
               names: Iterable[str] | None = None) -> dict[str, RetrievalMethod]:
    """The tools named in ``names`` (default ``settings.retrieval.tools``), un-indexed, keyed by
    name in that order. ``chat_model`` returns the Researcher's chat model; it is called only by
    the tools that need one (navindex, inject, lightrag, and hybrid with ``reranker="llm"``), so a
    model is never created for a set that does not use it."""
    wanted = check_tool_names(settings.retrieval.tools if names is None else names)
    ctx = ToolContext(settings=settings, chat_model=chat_model or (lambda: None))
    for name in sorted(wanted, key=lambda n: n in _BUILT_LAST):  # stable: otherwise in the given order
        ctx.made[name] = TOOL_FACTORIES[name](ctx)
    return {n: ctx.made[n] for n in wanted}


__all__ = ["TOOL_FACTORIES", "ToolContext", "ToolFactory", "check_tool_names", "make_tool", "make_tools"]
