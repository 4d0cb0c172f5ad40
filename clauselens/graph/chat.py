"""The chat graph: one user message per run, on a persisted session (``thread_id`` = session id).

::

    START -> clarify --(request)--> answer -> END
                     \\-(clarifying question)--> END

* ``clarify``: reads the conversation and either asks the user ONE clarifying question (which
  party, which agreement, which version) or writes the structured ``request``.
* ``answer``: runs the agents on the request (:func:`clauselens.pipeline.ask`, through the
  front end's runner) and appends the report.

The node bodies are passed in by the front end (:class:`clauselens.interfaces.session.ChatSessions`),
which owns the session's documents, library and files; this module is the wiring only.

State (all JSON-serialisable, so sessions survive restarts): ``messages`` (the chat),
``documents`` (what was ingested, with source paths), ``left_out`` (one message per file
that could not be read; every report lists them, as ``ask``'s does), ``reports`` (every report of the
session, ``Report.model_dump``), ``request`` (the last structured request).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages


class ChatState(TypedDict, total=False):
    """The persisted state of one chat session (see module docstring)."""

    messages: Annotated[list[AnyMessage], add_messages]
    documents: list[dict]
    left_out: list[str]
    reports: Annotated[list[dict], operator.add]
    request: dict | None


Node = Callable[..., dict[str, Any]]


def after_clarify(state: ChatState) -> Literal["answer", "__end__"]:
    """``answer`` when ``clarify`` wrote a request, else the turn ends on its question."""
    return "answer" if state.get("request") else "__end__"  # END


def build_chat_graph(clarify: Node, answer: Node) -> StateGraph:
    """The chat :class:`StateGraph`, not compiled (the caller brings its checkpointer;
    ``langgraph.json`` compiles it without one, since LangGraph's server has its own)."""
    g = StateGraph(ChatState)
    g.add_node("clarify", clarify)
    g.add_node("answer", answer)
    g.add_edge(START, "clarify")
    g.add_conditional_edges("clarify", after_clarify, {"answer": "answer", END: END})
    g.add_edge("answer", END)
    return g


__all__ = ["ChatState", "after_clarify", "build_chat_graph"]
