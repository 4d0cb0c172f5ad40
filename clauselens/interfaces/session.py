"""Chat sessions with memory: one small LangGraph ``StateGraph`` per service, persisted by a
SQLite checkpointer, shared by the terminal chat, the MCP server and the web UI.

Graph (``thread_id`` = session id)::

    START -> archivist --(clarifying question)--> END
                       \\-(request)--> interrogator -> END

* ``archivist`` runs :func:`clauselens.agents.archivist_dialogue.archivist_dialogue` on the
  whole conversation, with the session's documents and earlier findings, and either asks
  ONE clarifying question (an ``AIMessage`` marked ``clarify``) or writes the structured
  request into the state.
* ``interrogator`` hands the request and the session's parsed documents to an
  :class:`Interrogate` callable (the project's Researcher/Interrogator graph, see
  :mod:`clauselens.interfaces.engine`) and streams its rounds as custom stream events
  (LangGraph ``get_stream_writer``).

State (all JSON-serialisable, so sessions survive restarts): ``messages`` (the chat),
``documents`` (what was ingested, with source paths), ``reports`` (every report of the
session, ``Report.model_dump``), ``request`` (the last structured request).

Checkpointer: ``langgraph.checkpoint.sqlite.SqliteSaver`` on
``<cache_dir>/sessions.sqlite`` by default.
"""

from __future__ import annotations

import operator
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Protocol, TypedDict

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from clauselens.agents.archivist_dialogue import (
    ArchivistRequest,
    DocumentInfo,
    archivist_dialogue,
    last_ai_was_clarification,
)
from clauselens.config import Settings
from clauselens.errors import ClauselensError
from clauselens.interfaces.store import SessionStore, check_session_id, new_session_id
from clauselens.parsing.types import Document
from clauselens.reports.model import Report

Event = dict[str, Any]
Emit = Callable[[Event], None]


class Interrogate(Protocol):
    """Answer one structured request over parsed documents; call ``emit`` with progress
    events (``{"type": "round", "round": n, "node": name, "text": ...}``) as rounds finish."""

    def __call__(self, request: ArchivistRequest, documents: Sequence[Document], emit: Emit) -> Report: ...


class SessionState(TypedDict, total=False):
    """The persisted state of one chat session (see module docstring)."""

    messages: Annotated[list[AnyMessage], add_messages]
    documents: list[dict]
    reports: Annotated[list[dict], operator.add]
    request: dict | None


def default_sessions_db(settings: Settings) -> Path:
    """``<cache_dir>/sessions.sqlite``."""
    return settings.cache_dir / "sessions.sqlite"


def open_checkpointer(path: Path) -> SqliteSaver:
    """A ``SqliteSaver`` on ``path`` (parent created), usable from several threads
    (the saver serialises access with its own lock)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    saver = SqliteSaver(conn)
    saver.setup()
    return saver


def document_info(doc: Document) -> dict:
    """The JSON kept in the session state for one ingested document."""
    return {
        "doc_id": doc.id, "title": doc.title, "file_name": Path(doc.source_path).name,
        "source_path": doc.source_path, "parties": list(doc.parties), "doc_type": doc.doc_type,
        "amends": list(doc.amends), "sha256": doc.sha256, "chars": len(doc.text),
        "warnings": list(doc.warnings),
    }


@dataclass
class TurnResult:
    """What one user message produced: a clarifying question or a report."""

    kind: str  # "clarify" | "report"
    text: str
    report: Report | None = None
    report_index: int | None = None
    events: list[Event] = field(default_factory=list)


def answer_text(report: Report) -> str:
    """The chat reply for a report: the answer, then the verified citations' locations."""
    lines = [report.answer or report.conclusion or "(no answer)"]
    if report.citations:
        lines.append("Sources: " + "; ".join(f"[{c.id}] {c.location}" for c in report.citations))
    return "\n".join(lines)


class ChatSessions:
    """The chat-session service.

    Args:
        settings: project settings (the Archivist's model settings pick the structured-output
            method and retries).
        archivist_model: the Archivist's chat model (a fake model in tests).
        interrogate: answers a request (see :class:`Interrogate`).
        load_document: ``path -> Document`` (``clauselens.parsing.load_document`` bound to
            settings); raises :class:`~clauselens.errors.IngestError` subclasses.
        db_path: SQLite file for the checkpointer (default :func:`default_sessions_db`).
        store: where uploads live (default ``<cache_dir>/sessions``).

    Thread safety: turns and ingests of one session are serialised with a per-session lock,
    so two browser tabs on one session cannot interleave their writes.
    """

    def __init__(self, settings: Settings, *, archivist_model: BaseChatModel, interrogate: Interrogate,
                 load_document: Callable[[Path], Document], db_path: Path | None = None,
                 store: SessionStore | None = None) -> None:
        self.settings = settings
        self.archivist_model = archivist_model
        self.interrogate = interrogate
        self.load_document = load_document
        self.db_path = db_path or default_sessions_db(settings)
        self.store = store or SessionStore(settings.cache_dir / "sessions")
        self.checkpointer = open_checkpointer(self.db_path)
        self.graph = self.state_graph().compile(checkpointer=self.checkpointer)
        self._docs: dict[tuple[str, str], Document] = {}  # (session, doc_id) -> parsed
        self._locks: dict[str, threading.RLock] = {}
        self._locks_guard = threading.Lock()

    # ------------------------------------------------------------------ graph
    def state_graph(self) -> StateGraph:
        """The session graph, not compiled (``langgraph.json`` compiles it without our
        checkpointer, since LangGraph's server brings its own persistence)."""
        g = StateGraph(SessionState)
        g.add_node("archivist", self._archivist_node)
        g.add_node("interrogator", self._interrogator_node)
        g.add_edge(START, "archivist")
        g.add_conditional_edges("archivist", lambda s: "interrogator" if s.get("request") else END,
                                {"interrogator": "interrogator", END: END})
        g.add_edge("interrogator", END)
        return g

    def _archivist_node(self, state: SessionState) -> dict:
        writer = get_stream_writer()
        writer({"type": "status", "agent": "archivist", "text": "Archivist: reading your request"})
        docs = [DocumentInfo(**{k: v for k, v in d.items() if k in DocumentInfo.model_fields}) for d in state.get("documents", [])]
        findings = [(r["question"], r.get("answer") or r.get("conclusion") or "") for r in state.get("reports", [])]
        ms = self.settings.archivist_model
        method = "auto" if ms.structured_method == "auto" else ms.structured_method
        outcome = archivist_dialogue(self.archivist_model, state["messages"], docs, findings=findings,
                                     clarified=last_ai_was_clarification(state["messages"]),
                                     method=method, max_retries=ms.max_retries)
        if outcome.clarifying_question:
            writer({"type": "clarify", "text": outcome.clarifying_question, "ambiguity": outcome.ambiguity})
            return {"messages": [AIMessage(content=outcome.clarifying_question,
                                           additional_kwargs={"clarify": True, "ambiguity": outcome.ambiguity})],
                    "request": None}
        req = outcome.request
        assert req is not None
        writer({"type": "request", "request": req.model_dump()})
        return {"request": req.model_dump()}

    def _interrogator_node(self, state: SessionState, config: RunnableConfig) -> dict:
        writer = get_stream_writer()
        sid = config["configurable"]["thread_id"]
        req = ArchivistRequest(**state["request"])
        docs = self._parsed_documents(sid, state.get("documents", []))
        if req.doc_ids:
            docs = [d for d in docs if d.id in req.doc_ids] or docs
        if not docs:
            raise ClauselensError("no documents in this session yet: add a contract first (upload, or `chat FILE`)")
        report = self.interrogate(req, docs, writer)
        n = len(state.get("reports", []))
        writer({"type": "report", "index": n, "report": report.model_dump(mode="json")})
        return {"reports": [report.model_dump(mode="json")],
                "messages": [AIMessage(content=answer_text(report), additional_kwargs={"report_index": n})],
                "request": None}

    # --------------------------------------------------------------- helpers
    def _lock(self, session_id: str) -> threading.RLock:
        with self._locks_guard:
            return self._locks.setdefault(session_id, threading.RLock())

    @staticmethod
    def config(session_id: str) -> dict:
        """The LangGraph run config of a session."""
        return {"configurable": {"thread_id": check_session_id(session_id)}}

    def _parsed_documents(self, session_id: str, infos: Sequence[dict]) -> list[Document]:
        out = []
        for info in infos:
            key = (session_id, info["doc_id"])
            if key not in self._docs:
                self._docs[key] = self.load_document(Path(info["source_path"]))
            out.append(self._docs[key])
        return out

    # --------------------------------------------------------------- public
    def new_session(self) -> str:
        """A new session id (nothing is written until the first ingest or message)."""
        return new_session_id()

    def exists(self, session_id: str) -> bool:
        """True if the session has a checkpoint."""
        return self.graph.get_state(self.config(session_id)).created_at is not None

    def state(self, session_id: str) -> SessionState:
        """The session's current state (empty dict values for a new session)."""
        values = dict(self.graph.get_state(self.config(session_id)).values or {})
        values.setdefault("messages", [])
        values.setdefault("documents", [])
        values.setdefault("reports", [])
        return values  # type: ignore[return-value]

    def history(self, session_id: str) -> list[BaseMessage]:
        """The conversation, oldest first."""
        return list(self.state(session_id)["messages"])

    def documents(self, session_id: str) -> list[dict]:
        """The session's documents (see :func:`document_info`)."""
        return list(self.state(session_id)["documents"])

    def parsed_documents(self, session_id: str) -> list[Document]:
        """The session's documents, parsed (cached in memory; re-parsed after a restart)."""
        return self._parsed_documents(session_id, self.documents(session_id))

    def reports(self, session_id: str) -> list[Report]:
        """Every report of the session, oldest first."""
        return [Report.model_validate(r) for r in self.state(session_id)["reports"]]

    def ingest(self, session_id: str, paths: Sequence[Path]) -> list[dict]:
        """Parse ``paths`` and add them to the session (a document already there by sha256 is
        not added twice). All files are parsed before anything is recorded, so a bad file
        leaves the session unchanged.

        Returns the session's documents. Raises :class:`~clauselens.errors.IngestError`
        (the Archivist's specific error for the first bad file)."""
        with self._lock(session_id):
            parsed = [self.load_document(Path(p)) for p in paths]
            current = self.documents(session_id)
            have = {d["sha256"] for d in current}
            added = []
            for doc in parsed:
                if doc.sha256 in have:
                    continue
                have.add(doc.sha256)
                self._docs[(session_id, doc.id)] = doc
                added.append(document_info(doc))
            if added or not self.exists(session_id):
                self.graph.update_state(self.config(session_id), {"documents": current + added}, as_node="interrogator")
            return current + added

    def stream_turn(self, session_id: str, message: str) -> Iterator[Event]:
        """Run one user message; yield progress events as they happen, ending with a
        ``clarify`` or ``report`` event. Errors propagate (the session keeps the user's
        message; the next message or :meth:`retry` continues from there)."""
        if not message.strip():
            raise ClauselensError("empty message: type a question about the contract")
        lock = self._lock(session_id)
        if not lock.acquire(blocking=False):
            yield {"type": "status", "agent": "session", "text": "Waiting for the turn already running in this session"}
            lock.acquire()
        try:
            for mode, chunk in self.graph.stream({"messages": [HumanMessage(content=message)]}, self.config(session_id),
                                                 stream_mode=["custom", "updates"]):
                if mode == "custom":
                    yield chunk
        finally:
            lock.release()

    def retry(self, session_id: str) -> Iterator[Event]:
        """Re-run the failed step of the last turn (e.g. after the model server came back),
        from the last checkpoint, without adding a message."""
        with self._lock(session_id):
            for mode, chunk in self.graph.stream(None, self.config(session_id), stream_mode=["custom", "updates"]):
                if mode == "custom":
                    yield chunk

    def pending(self, session_id: str) -> bool:
        """True if the last turn stopped before finishing (so :meth:`retry` would resume it)."""
        return bool(self.graph.get_state(self.config(session_id)).next)

    def turn(self, session_id: str, message: str, on_event: Emit | None = None) -> TurnResult:
        """:meth:`stream_turn`, collected. Returns the :class:`TurnResult`."""
        return collect(self.stream_turn(session_id, message), on_event)


def collect(events: Iterator[Event], on_event: Emit | None = None) -> TurnResult:
    """Drain a turn's events into a :class:`TurnResult`; calls ``on_event`` for each one.

    Raises ``ClauselensError`` if the turn ended without a clarifying question or report."""
    seen: list[Event] = []
    result: TurnResult | None = None
    for ev in events:
        seen.append(ev)
        if on_event:
            on_event(ev)
        if ev["type"] == "clarify":
            result = TurnResult("clarify", ev["text"])
        elif ev["type"] == "report":
            rep = Report.model_validate(ev["report"])
            result = TurnResult("report", answer_text(rep), rep, ev["index"])
    if result is None:
        raise ClauselensError("the turn ended without an answer")
    result.events = seen
    return result
