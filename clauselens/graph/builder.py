"""The one LangGraph ``StateGraph``: Archivist -> Interrogator <-> Researcher -> report.

::

    START -> archivist -> interrogator --(route="research")--> researcher -> interrogator
                                     \\--(route="report")----> report -> END

* ``archivist`` (:func:`clauselens.agents.archivist.archivist_node`): parse ``paths`` and index
  the Researcher's tools (skipped when ``paths`` is empty: the caller indexed the tools).
* ``interrogator`` (:func:`clauselens.agents.interrogator.interrogator_node`): on the first visit
  decomposes the question into sub-questions; after each research round drafts the report, takes
  a structured :class:`~clauselens.agents.interrogator.StopDecision` and applies the stop rule
  (:func:`clauselens.agents.interrogator.next_questions`): follow-ups go back to the Researcher,
  otherwise on to ``report``. With no passages at all it writes the "documents do not address
  this question" draft without calling the model.
* ``researcher`` (:func:`clauselens.agents.researcher.researcher_node`): one research round for
  the pending questions.
* ``report`` (:func:`clauselens.agents.interrogator.report_node`): quote verification, support
  check and the final :class:`~clauselens.reports.model.Report`.

This module is the wiring only. The node functions are the agents'; heavy objects (chat models,
retrieval tools) are created on first use by :class:`~clauselens.agents.resources.AgentResources`
and passed to the nodes beside the state, never stored in it, so a checkpointer only persists
JSON-ready data (see :mod:`clauselens.agents.state`).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from clauselens.agents.archivist import archivist_node
from clauselens.agents.interrogator import interrogator_node, report_node
from clauselens.agents.researcher import researcher_node
from clauselens.agents.resources import AgentResources, ModelPool, ModelsArg, ToolsArg
from clauselens.agents.state import GraphState
from clauselens.config import Settings


def after_interrogator(state: GraphState) -> Literal["researcher", "report"]:
    """``researcher`` when the Interrogator asked follow-ups (``route == "research"``), else ``report``."""
    return "researcher" if state.get("route") == "research" else "report"


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
            or a :class:`~clauselens.agents.resources.ModelPool` shared with the caller; missing
            agents get ``clauselens.llm.get_chat_model(settings.model_for(agent), ...)`` on first use.
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
    res = AgentResources(settings, models, tools)

    g = StateGraph(GraphState)
    g.add_node("archivist", partial(archivist_node, res=res))
    g.add_node("interrogator", partial(interrogator_node, res=res))
    g.add_node("researcher", partial(researcher_node, res=res))
    g.add_node("report", partial(report_node, res=res))

    g.add_edge(START, "archivist")
    g.add_edge("archivist", "interrogator")
    g.add_conditional_edges("interrogator", after_interrogator, {"researcher": "researcher", "report": "report"})
    g.add_edge("researcher", "interrogator")
    g.add_edge("report", END)
    return g.compile(checkpointer=checkpointer)
