"""The event vocabulary: the ``"type"`` of every event dict a run or a chat turn produces.

Events stay plain JSON dicts (the checkpointer persists them, transcripts store them, the web UI
reads them as server-sent events named by their type); their ``"type"`` is one of
:data:`EventType`, written and matched through the constants below, never a bare string.
A leaf module (it imports nothing of the package), so every layer that writes events -- the
agents' node functions, the graph, the runner, the front ends -- shares this one vocabulary.

Run events (the agents' graph, ``state["events"]``, the transcript's ``events``):
``ingest`` (documents parsed and indexed, or skipped), ``llm_call`` (one model call: step,
usage, seconds), ``note`` (a recoverable problem), ``decompose`` (sub-questions), ``retrieval``
(one research round), ``draft``, ``decision`` (the stop decision and follow-ups), ``label``
(how an NLI label was decided), ``report`` (citations kept and quotes dropped).

Turn events (a chat session to its front end: terminal, SSE, MCP): ``status`` (what an agent is
doing), ``round`` (a graph node finished: one line of progress), ``draft_text`` (the answer of the
draft being written, so far: ``text``, and the draft ``field`` it comes from), ``clarify`` (a clarifying
question, with ``candidates`` for a library tie), ``resolution`` (the library agreements a
question names), ``request`` (the structured request), ``report`` (the finished report and its
files), ``error`` and ``done`` (the web UI's job stream).

Grid events (a clause grid started from the web UI or the MCP server,
:mod:`clauselens.interfaces.grids`): ``grid`` (its rows and questions), ``cell`` (one filled
cell and the progress) and ``grid_done``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, get_args

EventType = Literal[
    # run events
    "ingest", "llm_call", "note", "decompose", "retrieval", "draft", "decision", "label", "report",
    # turn events (``report`` is shared: the run's last event, and the turn's answer)
    "status", "round", "draft_text", "clarify", "resolution", "request", "error", "done",
    # grid events
    "grid", "cell", "grid_done",
]
EVENT_TYPES: Final[tuple[str, ...]] = get_args(EventType)

INGEST: Final = "ingest"
LLM_CALL: Final = "llm_call"
NOTE: Final = "note"
DECOMPOSE: Final = "decompose"
RETRIEVAL: Final = "retrieval"
DRAFT: Final = "draft"
DECISION: Final = "decision"
LABEL: Final = "label"
REPORT: Final = "report"
STATUS: Final = "status"
ROUND: Final = "round"
DRAFT_TEXT: Final = "draft_text"
CLARIFY: Final = "clarify"
RESOLUTION: Final = "resolution"
REQUEST: Final = "request"
ERROR: Final = "error"
DONE: Final = "done"
GRID: Final = "grid"
CELL: Final = "cell"
GRID_DONE: Final = "grid_done"

Event = dict[str, Any]


def of_type(events: Iterable[Mapping[str, Any]], kind: EventType) -> list[Mapping[str, Any]]:
    """The events of one type, in order."""
    return [e for e in events if e.get("type") == kind]


__all__ = ["EVENT_TYPES", "Event", "EventType", "of_type"]
