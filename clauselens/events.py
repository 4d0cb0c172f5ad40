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

Each kind's payload is a :class:`~typing.TypedDict` below (one per kind, as LangGraph's
``types.py`` types its stream parts; :data:`PAYLOADS` maps a kind to its type): the events stay
plain dicts at run time, and a reader casts one it has matched by ``"type"`` (``of_type`` does
not check shapes) to read its keys under mypy. ``report`` has two shapes: the run's last event
(:class:`RunReportEvent`) and a chat turn's answer (:class:`TurnReportEvent`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, TypedDict, get_args

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


# ----------------------------------------------------------------- run events
class IngestEvent(TypedDict, total=False):
    """Documents parsed and indexed (``documents``: their summaries; ``left_out``: messages of the
    files that could not be read), or ``skipped`` with its ``reason`` (tools indexed by the caller)."""

    type: Literal["ingest"]
    documents: list[dict[str, Any]]
    left_out: list[str]
    parse_seconds: float
    index_seconds: float
    tools: list[str]
    skipped: bool
    reason: str


class LlmCallEvent(TypedDict, total=False):
    """One model call (``agents.common.CallRecord.as_dict``)."""

    type: Literal["llm_call"]
    agent: str
    step: str
    seconds: float
    usage: dict[str, int]
    output_tokens_per_s: float | None
    output: dict[str, Any]


class NoteEvent(TypedDict):
    """A recoverable problem, said in one sentence."""

    type: Literal["note"]
    text: str


class DecomposeEvent(TypedDict):
    """The sub-questions the Interrogator researches."""

    type: Literal["decompose"]
    sub_questions: list[str]


class RetrievalEvent(TypedDict, total=False):
    """One research round: the ``questions`` searched, the Researcher's ``plan``, each search's
    ``results`` (query, tool, passage ids and scores) and the passages new in this round."""

    type: Literal["retrieval"]
    turn: int
    questions: list[str]
    plan: dict[str, Any]
    results: list[dict[str, Any]]
    new_passage_ids: list[str]


class DraftEvent(TypedDict, total=False):
    """A draft of the report (``draft``: the model's ``ReportDraft``; ``shown``: passage ids it saw;
    ``note``: why it was written by rule; ``nearest``: the passages closest to a declined question,
    ``{"doc_id", "clause_ref", "spans"}``)."""

    type: Literal["draft"]
    turn: int
    draft: dict[str, Any]
    shown: list[str]
    note: str
    nearest: list[dict[str, Any]]


class DecisionEvent(TypedDict, total=False):
    """The stop decision after a draft, and the follow-up questions of the next round."""

    type: Literal["decision"]
    turn: int
    decision: dict[str, Any]
    follow_up_questions: list[str]
    reason: str


class LabelEvent(TypedDict, total=False):
    """How an NLI label was decided (``reports.model.LabelBasis`` without its precedents)."""

    type: Literal["label"]
    turn: int
    decided: str | None
    llm_label: str | None
    vote: dict[str, float]
    vote_weight: float
    source: str
    hypothesis_id: str | None
    max_relevance: float | None


class RunReportEvent(TypedDict, total=False):
    """The run's last event: citations kept, quotes dropped, the support check of each finding
    (``support``: ``{"part", "support", ...}``; ``part == "answer"`` is the answer's) and the
    report's ``verification``."""

    type: Literal["report"]
    citations: int
    dropped_quotes: list[dict[str, Any]]
    documents_silent: bool
    stop_reason: str | None
    verification: str
    support: list[dict[str, Any]]
    unaddressed_documents: list[str]


# ----------------------------------------------------------------- turn events
class StatusEvent(TypedDict):
    """What an agent is doing now."""

    type: Literal["status"]
    agent: str
    text: str


class RoundEvent(TypedDict):
    """A graph node finished: one line of progress (:mod:`clauselens.interfaces.progress`)."""

    type: Literal["round"]
    node: str
    text: str


class DraftTextEvent(TypedDict):
    """The answer of the draft being written, so far, and the draft field it comes from."""

    type: Literal["draft_text"]
    text: str
    field: str | None


class ClarifyEvent(TypedDict):
    """A clarifying question (``candidates``: the agreements of a library tie)."""

    type: Literal["clarify"]
    text: str
    ambiguity: str | None
    candidates: list[dict[str, Any]]


class ResolutionEvent(TypedDict):
    """The library agreements a question names."""

    type: Literal["resolution"]
    status: str
    chosen: list[str]
    labels: list[str]
    #: Names of two or more capitalised words no agreement of the library holds (when none is chosen): "Acme Widgets".
    unknown_names: list[str]


class RequestEvent(TypedDict):
    """The structured request the chat Archivist made of the user's message."""

    type: Literal["request"]
    request: dict[str, Any]


class TurnReportEvent(TypedDict):
    """A chat turn's answer: the finished report (its JSON) and the files written."""

    type: Literal["report"]
    index: int
    report: dict[str, Any]
    files: dict[str, str]


class ErrorEvent(TypedDict):
    """A failure a front end shows (``retry``: whether trying again may help)."""

    type: Literal["error"]
    kind: str
    retry: bool
    message: str


class DoneEvent(TypedDict):
    """The end of a web job's event stream."""

    type: Literal["done"]


# ----------------------------------------------------------------- grid events
class GridEvent(TypedDict):
    """A grid's rows and questions (its snapshot without cells)."""

    type: Literal["grid"]
    grid: dict[str, Any]


class CellEvent(TypedDict):
    """One filled cell and the grid's progress (done / total, ETA, cells per minute)."""

    type: Literal["cell"]
    cell: dict[str, Any]
    progress: dict[str, Any]


class GridDoneEvent(TypedDict):
    """A grid finished (or failed: its snapshot's ``state`` says which)."""

    type: Literal["grid_done"]
    grid: dict[str, Any]


#: Each kind's payload type(s).
PAYLOADS: Final[dict[str, tuple[type, ...]]] = {
    INGEST: (IngestEvent,), LLM_CALL: (LlmCallEvent,), NOTE: (NoteEvent,), DECOMPOSE: (DecomposeEvent,),
    RETRIEVAL: (RetrievalEvent,), DRAFT: (DraftEvent,), DECISION: (DecisionEvent,), LABEL: (LabelEvent,),
    REPORT: (RunReportEvent, TurnReportEvent), STATUS: (StatusEvent,), ROUND: (RoundEvent,), DRAFT_TEXT: (DraftTextEvent,),
    CLARIFY: (ClarifyEvent,), RESOLUTION: (ResolutionEvent,), REQUEST: (RequestEvent,), ERROR: (ErrorEvent,),
    DONE: (DoneEvent,), GRID: (GridEvent,), CELL: (CellEvent,), GRID_DONE: (GridDoneEvent,),
}


def of_type(events: Iterable[Mapping[str, Any]], kind: EventType) -> list[Mapping[str, Any]]:
    """The events of one type, in order."""
    return [e for e in events if e.get("type") == kind]


__all__ = ["EVENT_TYPES", "PAYLOADS", "CellEvent", "ClarifyEvent", "DecisionEvent", "DecomposeEvent", "DoneEvent", "DraftEvent",
           "DraftTextEvent", "ErrorEvent", "Event", "EventType", "GridDoneEvent", "GridEvent", "IngestEvent", "LabelEvent",
           "LlmCallEvent", "NoteEvent", "RequestEvent", "ResolutionEvent", "RetrievalEvent", "RoundEvent", "RunReportEvent",
           "StatusEvent", "TurnReportEvent", "of_type"]
