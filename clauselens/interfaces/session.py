"""Chat sessions with memory, shared by the terminal chat, the MCP server and the web UI:
the chat graph of :mod:`clauselens.graph.chat` (``clarify`` -> ``answer``), persisted by a
SQLite checkpointer (``thread_id`` = session id).

* ``clarify`` runs :func:`clauselens.agents.archivist_dialogue.archivist_dialogue` on the
  whole conversation, with the session's documents and earlier findings, and either asks
  ONE clarifying question (an ``AIMessage`` marked ``clarify``) or writes the structured
  request into the state. In a **library session** (``library=``) it also resolves the
  agreement the request names, once: ``ambiguous`` asks which agreement, listing the
  candidates (kept on the message, ``additional_kwargs["candidates"]``, so the answer picks
  among them); ``unnamed`` searches the whole library.
* ``answer`` hands the request to an :class:`Interrogate` runner (the same
  :func:`clauselens.pipeline.ask` as ``clauselens ask``, see
  :mod:`clauselens.interfaces.engine`), streams its rounds as custom stream events
  (LangGraph ``get_stream_writer``) and writes the run's report, transcript and token
  ledger to ``<cache_dir>/sessions/<session id>/runs/report<n>.*``.

Checkpointer: ``langgraph.checkpoint.sqlite.SqliteSaver`` on
``<cache_dir>/sessions.sqlite`` by default.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.config import get_stream_writer
from langgraph.graph import StateGraph

from clauselens import events as ET
from clauselens.agents.archivist import document_summary
from clauselens.agents.archivist_dialogue import (
    ArchivistRequest,
    archivist_dialogue,
    last_ai_was_clarification,
)
from clauselens.agents.resources import ModelPool
from clauselens.config import Settings
from clauselens.errors import ClauselensError, IngestError
from clauselens.graph.chat import ChatState, build_chat_graph
from clauselens.interfaces.store import SessionStore, check_session_id, new_session_id
from clauselens.parsing.types import Document, DocumentSummary
from clauselens.pipeline import AskResult, save_result
from clauselens.reports.model import Report
from clauselens.reports.render import quote_text, verification_banner
from clauselens.retrieval.types import RetrievalMethod, SearchResult

Event = dict[str, Any]
Emit = Callable[[Event], None]
#: The persisted state of one chat session (:class:`clauselens.graph.chat.ChatState`).
SessionState = ChatState


class Interrogate(Protocol):
    """The runner: answers one structured request over parsed documents, or over a library,
    calling ``emit`` with progress events (``{"type": ET.ROUND, "node": name, "text": ...}``)
    as rounds finish, and returns the run (report, transcript, ledger); ``left_out`` (files the
    session could not read) are listed in the report."""

    def __call__(self, request: ArchivistRequest, documents: Sequence[Document], emit: Emit,
                 left_out: Sequence[str] = ()) -> AskResult: ...

    #: The agents' chat models (a grid answers with the Interrogator's).
    models: ModelPool

    def from_library(self, request: ArchivistRequest, library: Any, emit: Emit) -> AskResult: ...

    def tools_for(self, documents: Sequence[Document]) -> Mapping[str, RetrievalMethod]: ...


class UnknownDocumentError(ClauselensError):
    """A document id that is not (or no longer) in the session."""


#: Sessions listed by :meth:`ChatSessions.list_sessions` at most (the most recent ones).
MAX_LISTED_SESSIONS = 50


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


@dataclass
class TurnResult:
    """What one user message produced: a clarifying question or a report. ``candidates``:
    the agreements a library question could mean (``{"doc_id", "label"}``) when it asks which;
    ``files``: where the run's report, transcript and ledger were written."""

    kind: str  # "clarify" | "report"
    text: str
    report: Report | None = None
    report_index: int | None = None
    events: list[Event] = field(default_factory=list)
    candidates: list[dict] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)


def answer_text(report: Report) -> str:
    """The chat reply for a report: the answer, then -- when the report's facts are its quotes
    (``Report.facts``) -- each cited finding's quotes word for word, then the verified citations'
    locations."""
    lines = [b for b in (verification_banner(report),) if b]  # issue #19: unverified answers say so
    lines.append(report.answer or report.conclusion or "(no answer)")
    if report.facts == "quotes":
        ruled = {c.id: c for f in report.rule_findings if f.rule != "nearest" for c in report.fact_quotes(f)}  # issue #38
        if ruled:
            lines.append("The clauses that speak to this:")
            lines += [f'[{c.id}] {c.location}: "{quote_text(c)}"' for c in ruled.values()]
        quoted = {c.id: c for f in report.model_findings for c in report.fact_quotes(f) if c.id not in ruled}
        lines += [f'[{c.id}] "{quote_text(c)}"' for c in quoted.values()]
        near = {c.id: c for f in report.rule_findings if f.rule == "nearest" for c in report.fact_quotes(f)}
        if near:  # a declined report's nearest clauses: shown, as not answering
            lines.append("The nearest clauses (they do not answer the question):")
            lines += [f'[{c.id}] {c.location}: "{quote_text(c)}"' for c in near.values()]
    if report.citations:
        lines.append("Sources: " + "; ".join(f"[{c.id}] {c.location}" for c in report.citations))
    return "\n".join(lines)


def which_agreement(candidates: Sequence[dict]) -> str:
    """The clarifying question for an ambiguous library question."""
    lines = [f"{i}. {c['label']}" for i, c in enumerate(candidates, start=1)]
    return ("Which agreement do you mean? The question could mean " + f"{len(candidates)} agreements:\n"
            + "\n".join(lines) + "\nAnswer with its number or name (or 'all' to search them all).")


def pick_candidates(answer: str, candidates: Sequence[dict], library: Any) -> list[str]:
    """The doc ids the user's answer to :func:`which_agreement` picks: numbers ("2", "the
    first"), else the agreement its words name among the candidates (resolved by the
    library), else all candidates (one question is asked at most)."""
    ids = [c["doc_id"] for c in candidates]
    words = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
    nums = [int(n) for n in re.findall(r"\b(\d{1,2})\b", answer)]
    nums += [v for k, v in words.items() if re.search(rf"\b{k}\b", answer, re.IGNORECASE)]
    picked = [ids[n - 1] for n in nums if 1 <= n <= len(ids)]
    if picked:
        return list(dict.fromkeys(picked))
    if re.search(r"\b(all|both|any|every)\b", answer, re.IGNORECASE):
        return ids
    res = library.resolve(answer, allowed=ids)
    return list(res.chosen) if res.status == "resolved" else ids


def pending_candidates(conversation: Sequence[BaseMessage]) -> list[dict]:
    """The candidates of the clarifying question the latest user message answers (empty if
    it answers none, or a question that was not about the agreement)."""
    if not last_ai_was_clarification(conversation):
        return []
    return list(conversation[-2].additional_kwargs.get("candidates") or [])


class ChatSessions:
    """The chat-session service.

    Args:
        settings: project settings (the Archivist's model settings pick the structured-output
            method and retries).
        archivist_model: the Archivist's chat model (a fake model in tests).
        interrogate: the runner (see :class:`Interrogate`).
        load_document: ``path -> Document`` (``clauselens.parsing.load_document`` bound to
            settings); raises :class:`~clauselens.errors.IngestError` subclasses.
        db_path: SQLite file for the checkpointer (default :func:`default_sessions_db`).
        store: where uploads and run files live (default ``<cache_dir>/sessions``).
        library: a :class:`clauselens.library.Library`: questions are answered from it (the
            agreement resolved from the question) and documents cannot be added.

    Thread safety: turns and ingests of one session are serialised with a per-session lock,
    so two browser tabs on one session cannot interleave their writes.
    """

    def __init__(self, settings: Settings, *, archivist_model: BaseChatModel, interrogate: Interrogate,
                 load_document: Callable[[Path], Document], db_path: Path | None = None,
                 store: SessionStore | None = None, library: Any | None = None) -> None:
        self.settings = settings
        self.archivist_model = archivist_model
        self.interrogate = interrogate
        self.load_document = load_document
        self.library = library
        self.db_path = db_path or default_sessions_db(settings)
        self.store = store or SessionStore(settings.cache_dir / "sessions")
        self.checkpointer = open_checkpointer(self.db_path)
        self.graph = self.state_graph().compile(checkpointer=self.checkpointer)
        self._docs: dict[tuple[str, str], Document] = {}  # (session, doc_id) -> parsed
        self._locks: dict[str, threading.RLock] = {}
        self._locks_guard = threading.Lock()

    # ------------------------------------------------------------------ graph
    def state_graph(self) -> StateGraph:
        """The session graph (:func:`clauselens.graph.chat.build_chat_graph`), not compiled."""
        return build_chat_graph(self._clarify_node, self._answer_node)

    def _clarify_node(self, state: SessionState) -> dict:
        writer = get_stream_writer()
        writer({"type": ET.STATUS, "agent": "archivist", "text": "Archivist: reading your request"})
        docs = [DocumentSummary.model_validate(d) for d in state.get("documents", [])]
        findings = [(r["question"], r.get("answer") or r.get("conclusion") or "") for r in state.get("reports", [])]
        ms = self.settings.archivist_model
        clarified = last_ai_was_clarification(state["messages"])
        outcome = archivist_dialogue(self.archivist_model, state["messages"], docs, findings=findings,
                                     clarified=clarified, method=ms.structured_method, max_retries=ms.max_retries)
        if outcome.clarifying_question:
            return self._ask_back(writer, outcome.clarifying_question, outcome.ambiguity)
        req = outcome.request
        assert req is not None
        if self.library is not None:
            which = self._resolve_agreement(state["messages"], req, clarified, writer)
            if which is not None:
                return which
        writer({"type": ET.REQUEST, "request": req.model_dump()})
        return {"request": req.model_dump()}

    def _resolve_agreement(self, messages: Sequence[BaseMessage], req: ArchivistRequest, clarified: bool,
                           writer: Emit) -> dict | None:
        """Library sessions: pin ``req.doc_ids`` to the agreements the question names (resolved
        once), or return the state update asking which agreement when the resolver finds a tie
        (not after a clarifying question: one is asked at most; then all tied ones are searched)."""
        assert self.library is not None  # only called in a library session
        labels = {a.doc_id: a.label for a in self.library.agreements()}
        cands = pending_candidates(messages)
        if cands:  # the user answered "which agreement?"
            req.doc_ids, status = pick_candidates(str(messages[-1].content), cands, self.library), "clarified"
        else:
            res = self.library.resolve(req.question)
            if res.status == "ambiguous" and not clarified:
                cands = [{"doc_id": d, "label": labels.get(d, d)} for d in res.chosen]
                return self._ask_back(writer, which_agreement(cands), "agreement", cands)
            req.doc_ids, status = list(res.chosen), res.status
        writer({"type": ET.RESOLUTION, "status": status, "chosen": req.doc_ids,
                "labels": [labels.get(d, d) for d in req.doc_ids],
                "unknown_names": [] if req.doc_ids else self.library.unknown_names(req.question)})
        return None

    @staticmethod
    def _ask_back(writer: Emit, question: str, ambiguity: str | None, candidates: list[dict] | None = None) -> dict:
        extra: dict[str, Any] = {"clarify": True, "ambiguity": ambiguity}
        if candidates:
            extra["candidates"] = candidates
        writer({"type": ET.CLARIFY, "text": question, "ambiguity": ambiguity, "candidates": candidates or []})
        return {"messages": [AIMessage(content=question, additional_kwargs=extra)], "request": None}

    def _answer_node(self, state: SessionState, config: RunnableConfig) -> dict:
        writer = get_stream_writer()
        sid = config["configurable"]["thread_id"]
        request = state.get("request")
        assert request is not None  # clarify routes here only when it wrote a request
        req = ArchivistRequest(**request)
        if self.library is not None:
            result = self.interrogate.from_library(req, self.library, writer)
        else:
            docs = self._parsed_documents(sid, state.get("documents", []))
            if req.doc_ids:
                docs = [d for d in docs if d.id in req.doc_ids] or docs
            if not docs:
                raise ClauselensError("no documents in this session yet: add a contract first (upload, or `chat FILE`)")
            result = self.interrogate(req, docs, writer, list(state.get("left_out") or []))
        report = result.report
        n = len(state.get("reports", []))
        files = {k: str(v) for k, v in save_result(result, self.runs_dir(sid), stem=f"report{n}").items()}
        writer({"type": ET.REPORT, "index": n, "report": report.model_dump(mode="json"), "files": files})
        return {"reports": [report.model_dump(mode="json")],
                "messages": [AIMessage(content=answer_text(report), additional_kwargs={"report_index": n})],
                "request": None}

    # --------------------------------------------------------------- helpers
    def check_can_ingest(self) -> None:
        """Raises :class:`ClauselensError` in a library session (its agreements are added with
        ``clauselens library add``, not per session)."""
        if self.library is not None:
            name = self.library.root.name
            raise ClauselensError(f"this session answers from the library {name!r}; add contracts to it with: "
                                  f"clauselens library add FILES --library {name}")

    def library_info(self) -> dict | None:
        """``{"name", "root", "ref", "agreements"}`` of the session library, None without one;
        ``ref`` is what ``--library`` takes to open it again (its name, or its folder when it
        lives outside ``<cache_dir>/libraries``)."""
        if self.library is None:
            return None
        root = Path(self.library.root)
        named = root.parent.resolve() == (self.settings.cache_dir / "libraries").resolve()
        return {"name": root.name, "root": str(root), "ref": root.name if named else str(root),
                "agreements": len(self.library)}

    def library_document(self, doc_id: str) -> Document:
        """A library agreement, parsed (through the document store, as ``library add`` parsed
        it, so passage spans index its text). Raises :class:`ClauselensError` for an unknown id."""
        if self.library is None:
            raise ClauselensError("this session has no library")
        rec = next((r for r in self.library.agreements() if r.doc_id == doc_id), None)
        if rec is None:
            raise ClauselensError(f"no agreement {doc_id!r} in the library {self.library.root.name!r}")
        return self.load_document(Path(rec.path))

    def runs_dir(self, session_id: str) -> Path:
        """``<store>/<session id>/runs``: each turn's report, transcript and token ledger."""
        return self.store.session_dir(session_id) / "runs"

    def _lock(self, session_id: str) -> threading.RLock:
        with self._locks_guard:
            return self._locks.setdefault(session_id, threading.RLock())

    @staticmethod
    def config(session_id: str) -> RunnableConfig:
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
        values.setdefault("left_out", [])
        values.setdefault("reports", [])
        return values  # type: ignore[return-value]

    def history(self, session_id: str) -> list[BaseMessage]:
        """The conversation, oldest first."""
        return list(self.state(session_id)["messages"])

    def documents(self, session_id: str) -> list[dict]:
        """The session's documents (:class:`~clauselens.parsing.types.DocumentSummary` dumps)."""
        return list(self.state(session_id)["documents"])

    def parsed_documents(self, session_id: str) -> list[Document]:
        """The session's documents, parsed (cached in memory; re-parsed after a restart)."""
        return self._parsed_documents(session_id, self.documents(session_id))

    def search(self, session_id: str, query: str, k: int = 5) -> SearchResult:
        """The top ``k`` passages for ``query``: from the library (its resolution in the trace),
        else from the session's documents through the runner's tools (``hybrid`` when configured).
        Raises :class:`ClauselensError` when the session has no documents yet."""
        if self.library is not None:
            return self.library.search(query, k)
        docs = self.parsed_documents(session_id)
        if not docs:
            raise ClauselensError("no documents in this session yet: call ingest first")
        tools = self.interrogate.tools_for(docs)
        tool = tools.get("hybrid") or next(iter(tools.values()))
        return tool.search(query, k=k)

    def parsed_document(self, session_id: str, doc_id: str) -> Document:
        """One of the session's documents, parsed (cached as :meth:`parsed_documents`). Raises
        :class:`UnknownDocumentError` for an id that is not in the session."""
        info = [d for d in self.documents(session_id) if d["doc_id"] == doc_id]
        if not info:
            raise UnknownDocumentError(f"no document {doc_id!r} in this session (was it removed?)")
        return self._parsed_documents(session_id, info)[0]

    def reports(self, session_id: str) -> list[Report]:
        """Every report of the session, oldest first."""
        return [Report.model_validate(r) for r in self.state(session_id)["reports"]]

    def ingest(self, session_id: str, paths: Sequence[Path]) -> list[dict]:
        """:meth:`add_files`, returning only the session's documents (the files left out are
        kept in the session state and listed in every report)."""
        return self.add_files(session_id, paths)[0]

    def add_files(self, session_id: str, paths: Sequence[str | Path], *,
                  admit: Callable[[Path], Path] | None = None) -> tuple[list[dict], list[IngestError]]:
        """Parse ``paths`` and add them to the session (a document already there by sha256 is
        not added twice), continuing past files that cannot be read, as ``clauselens ask``
        does (the same :func:`clauselens.agents.archivist.ingest_all`). All files are parsed
        before anything is recorded; the files left out are recorded in the session's
        ``left_out`` (replacing an earlier entry for a file now read) and listed in the
        reports.

        ``admit`` (the MCP server: only files under its roots) maps each path to the file to
        read, or raises :class:`~clauselens.errors.IngestError` for a path the caller refuses;
        such a path is left out, recorded and named like a file that cannot be read.

        Returns (the session's documents, one :class:`~clauselens.errors.IngestError` per file
        left out). Raises :class:`~clauselens.errors.IngestError` when no file could be read
        (the Archivist's specific error for a single file); the session is then unchanged."""
        from clauselens.agents.archivist import ingest_all

        self.check_can_ingest()
        load = self.load_document if admit is None else (lambda p: self.load_document(admit(p)))
        with self._lock(session_id):
            parsed, failed = ingest_all(paths, self.settings, load=load)
            state = self.state(session_id)
            current = list(state["documents"])
            have = {d["sha256"] for d in current}
            added = []
            for doc in parsed:
                if doc.sha256 in have:
                    continue
                have.add(doc.sha256)
                self._docs[(session_id, doc.id)] = doc
                added.append(document_summary(doc))
            read_now = [re.compile(rf"(^|[\s/\\]){re.escape(Path(d.source_path).name)}\b") for d in parsed]
            left_out = [m for m in state["left_out"] if not any(r.search(m) for r in read_now)]
            left_out += [m for m in (str(e) for e in failed) if m not in left_out]
            if added or left_out != state["left_out"] or not self.exists(session_id):
                self.graph.update_state(self.config(session_id), {"documents": current + added, "left_out": left_out},
                                        as_node="answer")
            return current + added, failed

    def remove_document(self, session_id: str, doc_id: str) -> list[dict]:
        """Take document ``doc_id`` out of the session: later questions no longer search it (the
        reports already written keep their text). Its uploaded file, if it was uploaded to this
        session, is deleted; a file picked from a folder is left alone. Returns the session's
        remaining documents.

        Raises :class:`UnknownDocumentError` for an id that is not in the session, and
        :class:`ClauselensError` in a library session (its agreements are removed with
        ``clauselens library remove``). Waits for a turn running in the session to finish."""
        if self.library is not None:
            name = self.library.root.name
            raise ClauselensError(f"this session answers from the library {name!r}; remove agreements from it with: "
                                  f"clauselens library remove ID --library {name}")
        with self._lock(session_id):
            current = self.documents(session_id)
            gone = [d for d in current if d["doc_id"] == doc_id]
            if not gone:
                have = ", ".join(f"{d['doc_id']} ({d['file_name']})" for d in current) or "none"
                raise UnknownDocumentError(f"no document {doc_id!r} in this session (its documents: {have})")
            keep = [d for d in current if d["doc_id"] != doc_id]
            self.graph.update_state(self.config(session_id), {"documents": keep}, as_node="answer")
            self._docs.pop((session_id, doc_id), None)
            src = Path(gone[0]["source_path"])
            if src.parent.resolve() == self.store.uploads_dir(session_id).resolve():
                src.unlink(missing_ok=True)
            return keep

    def list_sessions(self, limit: int = MAX_LISTED_SESSIONS) -> list[dict]:
        """The sessions this service's checkpoint database holds, most recently updated first
        (at most ``limit``): ``{"session", "first_question", "questions", "documents",
        "updated"}`` (``updated``: ISO 8601, UTC, of the last checkpoint; ``first_question``:
        None before the first question). Read through a separate read-only connection (the
        checkpointer's documented table ``checkpoints``; its newest ``checkpoint_id`` per thread
        is a time-ordered UUID v6)."""
        if not self.db_path.exists():
            return []
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT thread_id, MAX(checkpoint_id) AS last FROM checkpoints WHERE checkpoint_ns = '' "
                                "GROUP BY thread_id ORDER BY last DESC LIMIT ?", (max(0, limit),)).fetchall()
        except sqlite3.DatabaseError:  # no checkpoint written yet
            rows = []
        finally:
            conn.close()
        out = []
        for thread_id, _last in rows:
            try:
                snap = self.graph.get_state(self.config(thread_id))
            except ClauselensError:  # a thread id that is no session id (written by another tool)
                continue
            values = snap.values or {}
            questions = [str(m.content) for m in values.get("messages", []) if isinstance(m, HumanMessage)]
            docs = values.get("documents") or []
            if not questions and not docs:
                continue
            out.append({"session": thread_id, "first_question": questions[0] if questions else None,
                        "questions": len(questions), "documents": [d.get("file_name") for d in docs],
                        "updated": snap.created_at})
        return out

    def left_out(self, session_id: str) -> list[str]:
        """One message per file the session could not read (see :meth:`add_files`)."""
        return list(self.state(session_id)["left_out"])

    def stream_turn(self, session_id: str, message: str) -> Iterator[Event]:
        """Run one user message; yield progress events as they happen, ending with a
        ``clarify`` or ``report`` event. Errors propagate (the session keeps the user's
        message; the next message or :meth:`retry` continues from there)."""
        if not message.strip():
            raise ClauselensError("empty message: type a question about the contract")
        lock = self._lock(session_id)
        if not lock.acquire(blocking=False):
            yield {"type": ET.STATUS, "agent": "session", "text": "Waiting for the turn already running in this session"}
            lock.acquire()
        try:
            for mode, chunk in self.graph.stream({"messages": [HumanMessage(content=message)]}, self.config(session_id),
                                                 stream_mode=["custom", "updates"]):
                if mode == "custom":
                    yield cast(Event, chunk)
        finally:
            lock.release()

    def retry(self, session_id: str) -> Iterator[Event]:
        """Re-run the failed step of the last turn (e.g. after the model server came back),
        from the last checkpoint, without adding a message."""
        with self._lock(session_id):
            for mode, chunk in self.graph.stream(None, self.config(session_id), stream_mode=["custom", "updates"]):
                if mode == "custom":
                    yield cast(Event, chunk)

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
        if ev["type"] == ET.CLARIFY:
            result = TurnResult("clarify", ev["text"], candidates=list(ev.get("candidates") or []))
        elif ev["type"] == ET.REPORT:
            rep = Report.model_validate(ev["report"])
            result = TurnResult("report", answer_text(rep), rep, ev["index"], files=dict(ev.get("files") or {}))
    if result is None:
        raise ClauselensError("the turn ended without an answer")
    result.events = seen
    return result
