"""Graph factories for LangGraph's own tooling (``langgraph.json``: ``langgraph dev``,
LangGraph Studio). Each takes the run config LangGraph passes and returns a compiled graph
without a checkpointer (the LangGraph server persists threads itself). Settings come from
the environment (``CLAUSELENS_*``), as everywhere else.

* ``chat_graph`` — the chat session (:mod:`clauselens.graph.chat`): ``clarify`` -> ``answer``
  (input ``{"messages": [{"role": "user", "content": ...}], "documents": [...]}``; add
  documents first with :meth:`ChatSessions.ingest` or by writing ``documents`` entries
  with ``source_path``).
* ``contract_graph`` — the one-question graph of :func:`clauselens.graph.build_graph`
  (input ``{"question": ..., "paths": [...]}``).
"""

from __future__ import annotations

from typing import Any

from clauselens.config import Settings


def chat_graph(config: Any = None) -> Any:
    """The chat-session graph (see :mod:`clauselens.interfaces.session`)."""
    from clauselens.interfaces.commands import build_service

    return build_service(Settings()).state_graph().compile()


def contract_graph(config: Any = None) -> Any:
    """``clauselens.graph.build_graph(Settings())``."""
    from clauselens.graph import build_graph

    return build_graph(Settings())
