"""The LangGraph wiring: typed state, the one ``StateGraph``, routing and stop rules.

``from clauselens.graph import build_graph`` — see :func:`clauselens.graph.builder.build_graph`.
"""

from clauselens.agents.state import GraphInput, GraphState
from clauselens.graph.builder import build_graph

__all__ = ["GraphInput", "GraphState", "build_graph"]
