"""The one LangGraph ``StateGraph``: Archivist -> Interrogator <-> Researcher -> report.

::

    START -> archivist -> interrogator --(route="research")--> researcher -> interrogator
                                     \\--(route="report")----> report -> END

* ``archivist``: parse ``paths`` and index the Researcher's tools (skipped when ``paths`` is empty:
  the caller indexed the tools).
* ``interrogator``: on the first visit decomposes the question into sub-questions; after each
  research round drafts the report, takes a structured :class:`StopDecision` and applies the
  stop rule (:func:`clauselens.agents.interrogator.next_questions`): follow-ups go back to the
  Researcher, otherwise on to ``report``. With no passages at all it writes the "documents do
  not address this question" draft without calling the model.
* ``researcher``: one research round for the pending questions.
* ``report``: quote verification and the final :class:`~clauselens.reports.model.Report`.

Heavy objects (chat models, retrieval tools) are created on first use inside
:func:`build_graph`'s closure, never stored in the state, so a checkpointer only persists
JSON-ready data (see :mod:`clauselens.agents.state`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal, Mapping

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import Runnable
from langgraph.graph import END, START, StateGraph

from clauselens import events as ET
from clauselens.agents import archivist as arch
from clauselens.agents import interrogator as inter
from clauselens.agents.definitions import definition_draft, definitions_supported
from clauselens.agents.researcher import research_round
from clauselens.agents.state import GraphState
from clauselens.config import Settings
from clauselens.errors import ModelResponseError
from clauselens.parsing.injection import is_suspicious
from clauselens.reports.build import build_report
from clauselens.reports.model import SILENT_ANSWER, LabelBasis, ReportDraft
from clauselens.retrieval.registry import make_tools
from clauselens.retrieval.types import Passage, RetrievalMethod

Agent = Literal["archivist", "researcher", "interrogator"]
ModelsArg = BaseChatModel | Runnable | Mapping[str, BaseChatModel | Runnable] | None
ToolsArg = Mapping[str, RetrievalMethod] | None

#: Tools searched once with the user's own question (not the Researcher's rewrites).
ANCHOR_TOOLS = ("precedents",)


class ModelPool:
    """The run's chat models per agent, created on first use (see :func:`build_graph`'s
    ``models``). Front ends that make their own tools share one pool with the graph, so an
    in-process model is loaded once."""

    def __init__(self, settings: Settings, models: ModelsArg = None) -> None:
        self.settings = settings
        self._models_arg = models
        self._models: dict[str, Any] = {}

    def model(self, agent: Agent) -> Any:
        """The chat model of ``agent`` ("archivist", "researcher" or "interrogator")."""
        m = self._models_arg
        if m is not None and not isinstance(m, Mapping):
            return m
        if isinstance(m, Mapping) and agent in m:
            return m[agent]
        if agent not in self._models:
            from clauselens.llm import get_chat_model

            self._models[agent] = get_chat_model(self.settings.model_for(agent), self.settings.models_dir)
        return self._models[agent]

    def supplied(self, agent: Agent) -> Any | None:
        """The model the caller passed in for ``agent``; ``None`` when it is built from the settings."""
        m = self._models_arg
        if m is not None and not isinstance(m, Mapping):
            return m
        return m.get(agent) if isinstance(m, Mapping) else None

    def researcher(self) -> Any:
        """The Researcher's model (the getter the tool registry takes)."""
        return self.model("researcher")


class _Resources:
    """Lazily created chat models (per agent) and retrieval tools (from the registry)."""

    def __init__(self, settings: Settings, models: ModelsArg | ModelPool, tools: ToolsArg) -> None:
        self.settings = settings
        self.pool = models if isinstance(models, ModelPool) else ModelPool(settings, models)
        self._tools: dict[str, RetrievalMethod] | None = dict(tools) if tools is not None else None

    def model(self, agent: Agent) -> Any:
        return self.pool.model(agent)

    def tools(self) -> dict[str, RetrievalMethod]:
        if self._tools is None:
            self._tools = make_tools(self.settings, chat_model=self.pool.researcher)
        return self._tools


def _passages(state: Mapping[str, Any]) -> dict[str, Passage]:
    return {pid: Passage.model_validate(d) for pid, d in (state.get("passages") or {}).items()}


def _silent_draft(question: str, nli: bool) -> ReportDraft:
    return ReportDraft(
        title=question, topic_summary=question, answer=SILENT_ANSWER, addressed=False,
        knowledge_gaps=["No passage in the documents matched the question."], conclusion=SILENT_ANSWER,
        label="not_mentioned" if nli else None,
    )


def retrieval_warnings(events: list[dict[str, Any]]) -> list[str]:
    """Distinct "graph retrieval unavailable ..." messages from the run's retrieval events (a
    tool's ``reason``, or the ``graph`` entry of a fused tool's trace), for the report."""
    out: list[str] = []
    for ev in events:
        if ev.get("type") != ET.RETRIEVAL:
            continue
        for res in ev.get("results") or []:
            graph = (res.get("trace") or {}).get("graph")
            for msg in (res.get("reason"), graph if isinstance(graph, str) else None):
                if isinstance(msg, str) and msg.startswith("graph retrieval unavailable") and msg not in out:
                    out.append(msg)
    return out


def build_graph(
    settings: Settings,
    *,
    models: ModelsArg | ModelPool = None,
    tools: ToolsArg = None,
    checkpointer: Any | None = None,
):
    """Compile the clauselens graph.

    Args:
        settings: the run's :class:`~clauselens.config.Settings` (models per agent, retrieval,
            ``max_turns`` default, OCR/password for ingest).
        models: one chat model for all agents, or ``{"researcher": m1, "interrogator": m2}``,
            or a :class:`ModelPool` shared with the caller; missing agents get
            ``clauselens.llm.get_chat_model(settings.model_for(agent), ...)`` on first use.
        tools: ``{name: RetrievalMethod}`` for the Researcher; default builds
            ``settings.retrieval.tools`` with :func:`clauselens.retrieval.registry.make_tools`
            on first use. Pre-indexed tools can be
            passed with an empty ``paths`` input (benchmarks ingest a contract once).
        checkpointer: any LangGraph checkpointer (e.g. ``SqliteSaver``); then invoke with
            ``config={"configurable": {"thread_id": ...}}``.

    Returns:
        A compiled LangGraph graph. Input: :class:`~clauselens.agents.state.GraphInput`; the
        final state has ``report`` (a ``Report`` dump) and ``events`` (the transcript).

    Raises (at invoke time): ``IngestError`` (bad file), ``ConfigError`` (unknown tool),
    ``ModelUnavailableError``, ``ModelResponseError`` (no usable draft), ``RetrievalError``.
    """
    res = _Resources(settings, models, tools)

    def archivist(state: GraphState) -> dict[str, Any]:
        paths = list(state.get("paths") or [])
        if not paths:
            return {"events": [{"type": ET.INGEST, "skipped": True, "reason": "no paths: tools indexed by the caller",
                                "left_out": list(state.get("left_out") or [])}]}
        t0 = time.perf_counter()
        docs, failed = arch.ingest_all(paths, settings)  # a bad file is left out (and named in the report), not fatal
        left_out = [str(e) for e in failed]
        repair_events: list[dict[str, Any]] = []
        if settings.archivist_llm_repair:  # optional: the model may re-parent flagged nodes, never edit text
            records: list = []
            docs = [arch.repair_tree(d, res.model("archivist"), settings=settings, records=records) for d in docs]
            repair_events = [{"type": ET.LLM_CALL, **r.as_dict()} for r in records]
        t1 = time.perf_counter()
        arch.index_tools(res.tools(), docs)
        summaries = [arch.document_summary(d) for d in docs]
        return {"documents": summaries, "left_out": left_out, "events": repair_events + [{
            "type": ET.INGEST, "documents": summaries, "left_out": left_out, "parse_seconds": round(t1 - t0, 3),
            "index_seconds": round(time.perf_counter() - t1, 3), "tools": list(res.tools()),
        }]}

    def interrogator(state: GraphState) -> dict[str, Any]:
        question, context = state["question"], state.get("context")
        nli = state.get("mode") == "nli"
        max_turns = int(state.get("max_turns") or settings.max_turns)
        ms = settings.model_for("interrogator")
        turn = int(state.get("turn") or 0)
        if turn == 0:
            try:
                subs, rec = inter.decompose(question, model=res.model("interrogator"), context=context, model_settings=ms)
                ev = [{"type": ET.LLM_CALL, **rec.as_dict()}]
            except ModelResponseError as e:
                subs, ev = [question], [{"type": ET.NOTE, "text": f"decomposition failed, researching the question as asked: {e}"}]
            return {"sub_questions": subs, "pending": subs, "route": "research", "follow_ups_asked": 0,
                    "events": ev + [{"type": ET.DECOMPOSE, "sub_questions": subs}]}

        passages = _passages(state)
        asked = list(state.get("asked") or [])
        previous = ReportDraft.model_validate(state["draft"]) if state.get("draft") else None
        events: list[dict[str, Any]] = []
        if not passages:
            draft = _silent_draft(question, nli)
            events.append({"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": [],
                           "note": "no passages retrieved; no model call"})
            return {"draft": draft.model_dump(mode="json"), "route": "report", "complete": True,
                    "stop_reason": "nothing relevant found", "events": events}
        if not nli and settings.extractive_definitions:
            ddraft = definition_draft(question, passages, sub_questions=state.get("sub_questions") or [],
                                      documents=state.get("documents"))
            if ddraft is not None:  # a definition is quoted, not paraphrased: no model call
                events.append({"type": ET.DRAFT, "turn": turn, "draft": ddraft.model_dump(mode="json"),
                               "shown": [pid for f in ddraft.findings for pid in f.passage_ids],
                               "note": "definition quoted from the passages (extractive); no model call"})
                return {"draft": ddraft.model_dump(mode="json"), "route": "report", "complete": True, "extractive": True,
                        "stop_reason": "definition found in the documents", "events": events}
        try:
            draft, rec, shown = inter.draft_report(
                question, passages, model=res.model("interrogator"), recent=state.get("last_new_ids") or [],
                context=context, asked=asked, previous=previous, nli=nli, model_settings=ms,
                precedents=state.get("precedents"), documents=state.get("documents"))
        except ModelResponseError as e:
            if previous is None:
                raise
            events.append({"type": ET.NOTE, "text": f"draft {turn} failed, keeping the previous draft: {e}"})
            return {"route": "report", "complete": False, "stop_reason": "draft failed", "events": events}
        events += [{"type": ET.LLM_CALL, **rec.as_dict()},
                   {"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": shown}]
        try:
            decision, drec = inter.decide(question, draft, model=res.model("interrogator"), asked=asked,
                                          context=context, model_settings=ms)
            events.append({"type": ET.LLM_CALL, **drec.as_dict()})
        except ModelResponseError as e:
            decision = inter.StopDecision(complete=False, reason=f"decision failed: {e}")
        follow_ups, why = inter.next_questions(draft, decision, turn=turn, max_turns=max_turns, asked=asked,
                                               follow_ups_asked=int(state.get("follow_ups_asked") or 0))
        events.append({"type": ET.DECISION, "turn": turn, "decision": decision.model_dump(mode="json"),
                       "follow_up_questions": follow_ups, "reason": why})
        upd: dict[str, Any] = {"draft": draft.model_dump(mode="json"), "complete": decision.complete, "events": events}
        if nli:
            basis = inter.decide_label(draft.label, state.get("precedents"), settings.retrieval.precedent_vote_weight)
            upd["label_basis"] = basis.model_dump(mode="json")
            events.append({"type": ET.LABEL, "turn": turn, **basis.model_dump(mode="json", exclude={"precedents"})})
        if follow_ups:
            upd.update(pending=follow_ups, route="research", follow_ups_asked=int(state.get("follow_ups_asked") or 0) + 1)
        else:
            upd.update(route="report", stop_reason=why)
        return upd

    def researcher(state: GraphState) -> dict[str, Any]:
        pending = list(state.get("pending") or [state["question"]])
        known = _passages(state)
        all_tools = res.tools()
        anchors = {n: t for n, t in all_tools.items() if n in ANCHOR_TOOLS}
        tools_ = {n: t for n, t in all_tools.items() if n not in ANCHOR_TOOLS}
        first = not int(state.get("turn") or 0)
        rr = research_round(
            pending, model=res.model("researcher") if tools_ else None, tools=tools_, known=known,
            k=settings.retrieval.top_k, context=state.get("context"), model_settings=settings.model_for("researcher"),
            multi_doc=len(state.get("documents") or []) > 1,
            anchor_query=state["question"] if first else None, anchor_tools=anchors,
        )
        turn = int(state.get("turn") or 0) + 1
        events: list[dict[str, Any]] = []
        if rr.call is not None:
            events.append({"type": ET.LLM_CALL, **rr.call.as_dict()})
        events += [{"type": ET.NOTE, "text": n} for n in rr.notes]
        events.append({"type": ET.RETRIEVAL, "turn": turn, "questions": pending, "plan": rr.plan.model_dump(mode="json"),
                       "results": rr.results, "new_passage_ids": rr.new_ids})
        upd = {"passages": {pid: p.model_dump(mode="json") for pid, p in rr.passages.items()},
               "last_new_ids": rr.new_ids, "asked": pending, "turn": turn, "pending": [], "events": events}
        if rr.precedents is not None:
            upd["precedents"] = rr.precedents
        return upd

    def report(state: GraphState) -> dict[str, Any]:
        nli = state.get("mode") == "nli"
        draft = ReportDraft.model_validate(state["draft"]) if state.get("draft") else _silent_draft(state["question"], nli)
        basis = LabelBasis.model_validate(state["label_basis"]) if state.get("label_basis") else None
        passages, docs = _passages(state), state.get("documents") or None
        r = build_report(draft, passages, question=state["question"], context=state.get("context"),
                         turns=int(state.get("turn") or 0), complete=bool(state.get("complete")), nli=nli,
                         label_basis=basis, documents=docs)
        calls: list[Any] = []  # issue #19: the model's verdict on each finding's (claim, quote) pair
        support: list[dict[str, Any]] = []  # issue #19: the model's verdict on each finding's (claim, quote) pair
        if state.get("extractive"):  # quoted definitions: the claim only names where the quote is
            r, support = definitions_supported(r, passages, docs)
        elif settings.support_check:  # a silent report's findings have no verified quote: logged, never asked
            r, calls, support = inter.check_support(r, passages, model=res.model("interrogator"), context=state.get("context"),
                                                    model_settings=settings.model_for("interrogator"), documents=docs)
        r.left_out = list(state.get("left_out") or [])
        r.retrieval_warnings = retrieval_warnings(state.get("events") or [])
        r.suspicious = [f"{Path(d.get('source_path') or '').name or d.get('title')}: {w}"
                        for d in state.get("documents") or [] for w in d.get("warnings") or [] if is_suspicious(w)]
        return {"report": r.model_dump(mode="json"), "events": [{"type": ET.LLM_CALL, **c.as_dict()} for c in calls] + [{
            "type": ET.REPORT, "citations": len(r.citations), "dropped_quotes": [d.model_dump() for d in r.dropped_quotes],
            "documents_silent": r.documents_silent, "stop_reason": state.get("stop_reason"),
            "verification": r.verification, "support": support, "unaddressed_documents": r.unaddressed_documents,
        }]}

    def route(state: GraphState) -> str:
        return "researcher" if state.get("route") == "research" else "report"

    g = StateGraph(GraphState)
    g.add_node("archivist", archivist)
    g.add_node("interrogator", interrogator)
    g.add_node("researcher", researcher)
    g.add_node("report", report)
    g.add_edge(START, "archivist")
    g.add_edge("archivist", "interrogator")
    g.add_conditional_edges("interrogator", route, {"researcher": "researcher", "report": "report"})
    g.add_edge("researcher", "interrogator")
    g.add_edge("report", END)
    return g.compile(checkpointer=checkpointer)

