"""The chat front ends' runner: the same :func:`clauselens.pipeline.ask` as ``clauselens ask``.

:class:`GraphInterrogate` implements :class:`clauselens.interfaces.session.Interrogate`: it
makes the Researcher's tools with the registry (:func:`clauselens.retrieval.registry.make_tools`,
so ``RetrievalSettings.tools`` and ``reranker`` mean what they mean for ``ask``), indexes the
session's parsed documents in them once per document set
(:func:`clauselens.agents.archivist.index_tools`) — or, for a library session, takes the
library's retriever pinned to the resolved agreements — and runs :func:`~clauselens.pipeline.ask`
with those tools. Each graph node's update becomes a short progress event for the user; the
run's :class:`~clauselens.pipeline.AskResult` (report, transcript, token ledger) goes back to
the session, which writes it beside the session's files.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from clauselens import events as ET
from clauselens.agents.archivist import document_summary, index_tools
from clauselens.agents.archivist_dialogue import ArchivistRequest
from clauselens.agents.resources import ModelPool
from clauselens.config import Settings
from clauselens.interfaces.progress import draft_preview, progress_lines, progress_text
from clauselens.parsing.types import Document
from clauselens.pipeline import AskResult
from clauselens.retrieval.types import RetrievalMethod

if TYPE_CHECKING:
    from clauselens.library import Library

Emit = Callable[[dict[str, Any]], None]
ToolsFactory = Callable[[], Mapping[str, RetrievalMethod]]


class GraphInterrogate:
    """Answer :class:`ArchivistRequest` s with :func:`clauselens.pipeline.ask` (see module docstring).

    Args:
        settings: project settings (``max_turns``, models, retrieval tools).
        models: one chat model, a per-agent dict, a :class:`~clauselens.agents.resources.ModelPool`,
            or None (each agent's model from settings, loaded on first use). One pool serves the
            tools and the graph, so an in-process model is loaded once.
        tools_factory: makes a fresh, empty set of retrieval tools (default: the registry's
            ``settings.retrieval.tools``).
    """

    def __init__(self, settings: Settings, *, models: Any = None, tools_factory: ToolsFactory | None = None) -> None:
        from clauselens.retrieval.registry import make_tools

        self.settings = settings
        self.models = models if isinstance(models, ModelPool) else ModelPool(settings, models)
        self.tools_factory = tools_factory or (lambda: make_tools(settings, chat_model=self.models.researcher))
        self._indexed: dict[tuple[str, ...], Mapping[str, RetrievalMethod]] = {}
        self._guard = threading.Lock()

    def tools_for(self, documents: Sequence[Document]) -> Mapping[str, RetrievalMethod]:
        """Retrieval tools indexed on exactly ``documents`` (cached per document set)."""
        key = tuple(sorted(d.sha256 for d in documents))
        with self._guard:
            if key not in self._indexed:
                tools = self.tools_factory()
                index_tools(tools, documents)
                self._indexed[key] = tools
            return self._indexed[key]

    def run(self, request: ArchivistRequest, tools: Mapping[str, RetrievalMethod],
            documents: Sequence[dict[str, Any]], emit: Emit, left_out: Sequence[str] = ()) -> AskResult:
        """:func:`clauselens.pipeline.ask` on pre-indexed ``tools``; ``emit`` gets
        ``{"type": ET.ROUND, "node", "text"}`` events as graph nodes finish (one per line of
        :func:`clauselens.interfaces.progress.progress_lines`), and
        ``{"type": ET.DRAFT_TEXT, "text", "field"}`` while a draft is written; ``left_out`` (the
        files the session could not read) go into the report as ``ask``'s do."""
        from clauselens.pipeline import ask

        def progress(node: str, update: dict[str, Any]) -> None:
            if node == ET.DRAFT_TEXT:  # the draft's answer as it is written (pipeline.DraftWatcher)
                emit({"type": ET.DRAFT_TEXT, "text": update["text"], "field": update.get("field")})
                return
            for line in progress_lines(node, update):
                emit({"type": ET.ROUND, "node": node, "text": line.plain()})

        return ask([], request.question, self.settings, context=request.context, progress=progress,
                   models=self.models, tools=tools, documents=documents, left_out=left_out)

    def __call__(self, request: ArchivistRequest, documents: Sequence[Document], emit: Emit,
                 left_out: Sequence[str] = ()) -> AskResult:
        """Index ``documents`` (once per set) in the configured tools and run the agents.

        Raises what :func:`clauselens.pipeline.ask` raises (``ModelUnavailableError``,
        ``ModelResponseError``, ``RetrievalError``, ``ConfigError`` for a tool that cannot be made)."""
        emit({"type": ET.STATUS, "agent": "researcher", "text": f"Researcher: indexing {len(documents)} document(s)"})
        tools = self.tools_for(documents)
        return self.run(request, tools, [document_summary(d) for d in documents], emit, left_out)

    def from_library(self, request: ArchivistRequest, library: Library, emit: Emit) -> AskResult:
        """Run the agents on ``library`` (already indexed), its retriever pinned to
        ``request.doc_ids`` (the whole library when empty)."""
        from clauselens.library.opening import pinned

        labels = {r.doc_id: r.label for r in library.agreements()}
        chosen = [d for d in request.doc_ids if d in labels]
        where = "; ".join(labels[d] for d in chosen) if chosen else f"all {len(labels)} agreements"
        emit({"type": ET.STATUS, "agent": "researcher", "text": f"Researcher: searching the library: {where}"})
        lib = pinned(library, chosen)
        return self.run(request, lib.tools(), [dict(d) for d in lib.documents()], emit)


__all__ = ["GraphInterrogate", "draft_preview", "progress_text"]
