"""The bridge from a chat session to the project's Researcher/Interrogator graph.

:class:`GraphInterrogate` implements :class:`clauselens.interfaces.session.Interrogate`: it
indexes the session's parsed documents in the Researcher's tools once per document set
(:func:`clauselens.agents.archivist.index_tools`), runs
:func:`clauselens.graph.build_graph` with those pre-indexed tools (empty ``paths``), streams
the graph's node updates (``stream_mode="updates"``) and turns each into a short progress
event for the user, then returns the final :class:`~clauselens.reports.model.Report`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from clauselens.agents.archivist import document_summary, index_tools
from clauselens.agents.archivist_dialogue import ArchivistRequest
from clauselens.config import Settings
from clauselens.errors import ClauselensError
from clauselens.parsing.types import Document
from clauselens.reports.model import Report
from clauselens.retrieval.types import RetrievalMethod

Emit = Callable[[dict[str, Any]], None]
ToolsFactory = Callable[[], Mapping[str, RetrievalMethod]]


def default_tools_factory(settings: Settings) -> ToolsFactory:
    """Builds the Researcher's ``hybrid`` retriever from ``settings.retrieval``."""

    def make() -> dict[str, RetrievalMethod]:
        from clauselens.retrieval.hybrid import build_retriever

        return {"hybrid": build_retriever(settings.retrieval, cache_dir=settings.cache_dir)}

    return make


def progress_text(node: str, update: Mapping[str, Any]) -> str | None:
    """One line for the user about one graph node's update, or None to show nothing. Pure."""
    if node == "interrogator":
        if "sub_questions" in update:
            subs = update["sub_questions"]
            return f"Interrogator: {len(subs)} sub-question(s): " + " | ".join(subs)
        decisions = [e for e in update.get("events", []) if e.get("type") == "decision"]
        if decisions:
            d = decisions[-1]
            fu = d.get("follow_up_questions") or []
            verdict = "complete" if d.get("decision", {}).get("complete") else "incomplete"
            tail = f"; follow-up: {' | '.join(fu)}" if fu else f"; {d.get('reason', '')}"
            return f"Round {d.get('turn')}: Interrogator drafted an answer ({verdict}){tail}"
        notes = [e.get("text") for e in update.get("events", []) if e.get("type") == "note"]
        return f"Interrogator: {notes[-1]}" if notes else None
    if node == "researcher":
        rets = [e for e in update.get("events", []) if e.get("type") == "retrieval"]
        if rets:
            r = rets[-1]
            return (f"Round {r.get('turn')}: Researcher searched {len(r.get('questions', []))} question(s), "
                    f"{len(r.get('new_passage_ids', []))} new passage(s)")
        return None
    if node == "report":
        rep = update.get("report") or {}
        return f"Report: {len(rep.get('citations', []))} verified citation(s)"
    return None


class GraphInterrogate:
    """Answer :class:`ArchivistRequest` s with the project graph (see module docstring).

    Args:
        settings: project settings (``max_turns``, models, retrieval).
        models: passed to :func:`clauselens.graph.build_graph` (one model or per-agent dict;
            None: each agent's model from settings, loaded on first use).
        tools_factory: makes a fresh, empty set of retrieval tools (default: the hybrid
            retriever from settings).
    """

    def __init__(self, settings: Settings, *, models: Any = None, tools_factory: ToolsFactory | None = None) -> None:
        self.settings = settings
        self.models = models
        self.tools_factory = tools_factory or default_tools_factory(settings)
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

    def __call__(self, request: ArchivistRequest, documents: Sequence[Document], emit: Emit) -> Report:
        """Run the graph; ``emit`` gets ``{"type": "round", "node", "text"}`` events.

        Raises the graph's errors (``ModelUnavailableError``, ``ModelResponseError``,
        ``RetrievalError``) and :class:`ClauselensError` if it produced no report."""
        from clauselens.graph import build_graph

        emit({"type": "status", "agent": "researcher", "text": f"Researcher: indexing {len(documents)} document(s)"})
        tools = self.tools_for(documents)
        graph = build_graph(self.settings, models=self.models, tools=tools)
        inp = {"question": request.question, "context": request.context, "paths": [],
               "documents": [document_summary(d) for d in documents]}
        report: dict | None = None
        for update in graph.stream(inp, stream_mode="updates"):
            for node, upd in update.items():
                if not isinstance(upd, Mapping):
                    continue
                text = progress_text(node, upd)
                if text:
                    emit({"type": "round", "node": node, "text": text})
                if upd.get("report"):
                    report = upd["report"]
        if report is None:
            raise ClauselensError("the Interrogator finished without a report")
        return Report.model_validate(report)
