"""``clauselens serve``: a small web UI over :class:`~clauselens.interfaces.session.ChatSessions`.

Stack: FastAPI (Starlette) routes, jinja2 templates, one static script, and server-sent
events (``text/event-stream``, WHATWG HTML Living Standard §9.2) for the interrogation
rounds of a running turn. A turn runs in a server thread, not in the request: closing or
reloading the page does not stop it, and the reloaded page finds it in ``/state`` and
re-opens its event stream (issue #19 item 3). Nothing is fetched from or sent to another
host; the page has no external assets.

Routes (``{sid}`` is a session id):

=====================================  ===================================================
``GET /``                              redirect to a new session
``GET /s/{sid}``                       the page
``POST /s/{sid}/upload``               multipart ``file``: checked (size, type), stored under
                                       the session, parsed by the Archivist; 400 with the
                                       Archivist's message on a bad file
``POST /s/{sid}/pick``                 form ``path``: a file from the pickable folders; 403
                                       for a path outside the store/those folders
``POST /s/{sid}/ask``                  form ``message``: starts a turn, returns ``{"job"}``
``POST /s/{sid}/retry``                re-runs the failed step of the last turn
``GET /s/{sid}/jobs/{job}/events``     SSE stream of the turn's events: the whole history so far,
                                       then new events as they happen (``id`` = position;
                                       ``Last-Event-ID`` resumes after it)
``GET /s/{sid}/state``                 history, documents, reports and the session's latest job
                                       (``{"id", "done", "events"}``; a reloaded page re-attaches
                                       to it while it runs) (JSON)
``GET /s/{sid}/reports/{n}/fragment``  the report as an HTML fragment with clickable citations
``GET /s/{sid}/reports/{n}.{md|html|json|docx}``  downloads (Markdown, HTML, JSON, Word)
``GET /s/{sid}/documents/{doc_id}``    a document's text, whether it is a PDF, and its pages
                                       (JSON) for the document view
``DELETE /s/{sid}/documents/{doc_id}`` takes the document out of the session (later questions
                                       do not search it); 404 for an id not in the session
``GET /s/{sid}/documents/{doc_id}/highlight?spans=S-E,...``  for a PDF: the pages the
                                       ``[S, E)`` ranges of its text fall on, each with its image
                                       URL and the ranges' highlight boxes (fractions of the page)
``GET /s/{sid}/documents/{doc_id}/pages/{n}.png``  page ``n`` of a PDF rendered by pypdfium2
                                       (rendered pages are kept in a bounded in-memory cache)
``GET /sessions``                      the sessions this server's database holds, newest first,
                                       with their first question and time (JSON)
``GET /s/{sid}/grid/options``          what a review grid can be started on: the session's
                                       documents (or the library's agreements) and the presets
``POST /s/{sid}/grids``                form ``agreements`` (doc ids, repeatable; none = all), and
                                       ``preset`` (``cuad``) or ``questions`` (one per line):
                                       starts a clause grid as a job, returns ``{"grid", "job"}``
                                       (the same id); its events (``grid``, ``cell``, ``grid_done``)
                                       stream from ``/s/{sid}/jobs/{job}/events``
``POST /s/{sid}/grids/{gid}/resume``   runs an ``interrupted`` (or ``failed``) grid again as a job
                                       (the same id): stored cells are reused, only the missing
                                       ones computed; returns ``{"grid", "job"}``
``GET /s/{sid}/grids/{gid}``           the grid: rows, questions, progress and filled cells (JSON)
``GET /s/{sid}/grids/{gid}/cells/{row}/{qid}``  one cell (row index, question id) with its
                                       document's id and the quote's spans, for the document view
``GET /s/{sid}/grids/{gid}/export.{xlsx|csv|html|json}``  the grid as filled so far
``POST /s/{sid}/review``               playbook review (multipart ``playbook`` YAML, ``agreements``) and
                                       its files (:mod:`.review_routes`)
``/s/{sid}/library/...``               with ``serve --library``: the library room (browse, clause
                                       search, add, remove; :mod:`.library_routes`)
=====================================  ===================================================

A citation of a PDF opens the cited page's image with the quoted words boxed
(:mod:`clauselens.parsing.page_image`: from the PDF's characters, or on a page read by OCR from
Tesseract's word boxes); other documents open as text with the quote marked.
A grid cell opens the same way (its verified quote; for a cell without one, the passage the
grid read first). Grids run through :class:`clauselens.interfaces.grids.GridRuns`, shared with
the MCP server; ``/state`` names the session's latest grid so a reloaded page re-attaches to it.
A grid's definition is kept in a file of its session, so after a server restart the session's
grids are listed again with their stored cells; one the restart stopped reads ``interrupted``
and the page offers to resume it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from langchain_core.messages import AIMessage, HumanMessage

from clauselens import events as ET
from clauselens.errors import ClauselensError, IngestError, ModelUnavailableError
from clauselens.interfaces.grids import GridRuns, UnknownGridError
from clauselens.interfaces.session import ChatSessions, Event, UnknownDocumentError
from clauselens.interfaces.store import DEFAULT_MAX_UPLOAD_BYTES, StoreError, check_session_id
from clauselens.interfaces.web.document_routes import MAX_PAGE_IMAGES, PageImages

log = logging.getLogger(__name__)
_HERE = Path(__file__).parent
#: Jobs kept in memory for their event streams; the oldest finished ones are dropped beyond this.
MAX_JOBS = 200
@dataclass
class Job:
    """A turn (or a grid: ``kind="grid"``) running in a worker thread; ``events`` grows as it runs."""

    id: str
    session_id: str
    events: list[Event] = field(default_factory=list)
    done: bool = False
    kind: str = "turn"


def error_event(e: BaseException, *, retry: bool) -> Event:
    """The UI event for an exception: our errors carry their user message; anything else is
    an internal error (logged with its traceback server-side, not shown to the user)."""
    if isinstance(e, ModelUnavailableError):
        return {"type": ET.ERROR, "kind": "model_unavailable", "retry": True,
                "message": f"The language model is not available: {e}. Start it (or check the server address) and press Retry."}
    if isinstance(e, ClauselensError):
        return {"type": ET.ERROR, "kind": type(e).__name__, "retry": retry, "message": str(e)}
    log.exception("internal error in a turn", exc_info=e)
    return {"type": ET.ERROR, "kind": "internal", "retry": retry, "message": f"Internal error ({type(e).__name__}); see the server log."}


class JobRunner:
    """Runs turns in daemon threads and keeps their events for the SSE stream."""

    def __init__(self, service: ChatSessions) -> None:
        self.service = service
        self.jobs: dict[str, Job] = {}
        self._guard = threading.Lock()

    def start(self, session_id: str, events: Callable[[], Iterator[Event]]) -> Job:
        """Start a turn: a job that drains ``events()`` (a zero-argument callable returning an iterator)."""

        def drain(emit: Callable[[Event], None]) -> None:
            for ev in events():
                emit(ev)

        return self.start_work(session_id, drain)

    def start_work(self, session_id: str, work: Callable[[Callable[[Event], None]], None], *, kind: str = "turn",
                   job_id: str | None = None) -> Job:
        """Start a job running ``work(emit)``; each event it emits is kept for the SSE stream."""
        job = Job(id=job_id or uuid.uuid4().hex[:12], session_id=session_id, kind=kind)
        with self._guard:
            done = [k for k, j in self.jobs.items() if j.done]
            for k in done[: max(0, len(self.jobs) - MAX_JOBS + 1)]:  # oldest finished first (dicts keep order)
                del self.jobs[k]
            self.jobs.pop(job.id, None)  # a resumed grid's new job: the newest again
            self.jobs[job.id] = job

        def run() -> None:
            try:
                work(job.events.append)
            except BaseException as e:  # noqa: BLE001 - reported to the UI, never swallowed
                job.events.append(error_event(e, retry=kind == "turn" and self.service.pending(session_id)))
            finally:
                job.events.append({"type": ET.DONE})
                job.done = True

        threading.Thread(target=run, name=f"{kind}-{job.id}", daemon=True).start()
        return job

    def latest(self, session_id: str, kind: str = "turn") -> Job | None:
        """The session's most recent job of ``kind`` (running or finished), for a reloaded page to re-attach to."""
        with self._guard:
            mine = [j for j in self.jobs.values() if j.session_id == session_id and j.kind == kind]
        return mine[-1] if mine else None

    def get(self, session_id: str, job_id: str) -> Job:
        """The job; 404 if unknown or of another session."""
        job = self.jobs.get(job_id)
        if job is None or job.session_id != session_id:
            raise HTTPException(404, "no such job")
        return job


def _message_json(m: Any) -> dict:
    role = "user" if isinstance(m, HumanMessage) else "assistant" if isinstance(m, AIMessage) else "system"
    extra = m.additional_kwargs if isinstance(m, AIMessage) else {}
    return {"role": role, "content": m.content, "clarify": bool(extra.get("clarify")),
            "report_index": extra.get("report_index")}


def create_app(service: ChatSessions, *, pick_dirs: tuple[Path, ...] = (),
               max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES, grids: GridRuns | None = None) -> FastAPI:
    """The FastAPI application.

    Args:
        service: the chat-session service (models, checkpointer, store).
        pick_dirs: folders whose ``.txt/.md/.pdf/.docx`` files the user may pick without
            uploading (e.g. the bundled ``examples/contracts``). Any other path is refused.
        max_upload_bytes: upload limit (default 20 MiB).
        grids: the review grids' runner (default: one on ``service``, answering with its
            Interrogator's model, one cell at a time).
    """
    app = FastAPI(title="clauselens", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    runner = JobRunner(service)
    app.state.runner = runner
    images = PageImages(MAX_PAGE_IMAGES)
    app.state.page_images = images
    grid_runs = grids or GridRuns(service)
    app.state.grids = grid_runs
    roots = tuple(Path(d).resolve() for d in pick_dirs)

    def sid_ok(sid: str) -> str:
        try:
            return check_session_id(sid)
        except StoreError as e:
            raise HTTPException(400, str(e)) from None

    from clauselens.interfaces.web.document_routes import document_router  # reports and documents
    from clauselens.interfaces.web.grid_routes import grid_router  # review grids (issue #21)
    from clauselens.interfaces.web.review_routes import review_router  # playbook review (issue #44)
    from clauselens.interfaces.web.turn_routes import turn_router  # questions and their event streams

    app.include_router(review_router(service, sid_ok=sid_ok))
    if service.library is not None:  # the library room (issue #46): browse, search, add, remove
        from clauselens.interfaces.web.library_routes import library_router
        from clauselens.library.service import LibraryService

        app.state.library_service = LibraryService(service.library, load=service.load_document)
        app.include_router(library_router(app.state.library_service, sid_ok=sid_ok, start_job=runner.start_work,
                                          latest_job=runner.latest, max_upload_bytes=max_upload_bytes))

    def pickable() -> list[dict]:
        out = []
        for r in roots:
            if r.is_dir():
                for p in sorted(r.iterdir()):
                    if p.is_file() and p.suffix.lower() in (".txt", ".md", ".pdf", ".docx"):
                        out.append({"name": p.name, "path": str(p)})
        return out

    @app.exception_handler(ClauselensError)
    async def _clauselens_error(request: Request, exc: ClauselensError) -> JSONResponse:
        status = 403 if isinstance(exc, StoreError) and "outside" in str(exc) else 400
        if isinstance(exc, (UnknownDocumentError, UnknownGridError)):
            status = 404
        return JSONResponse({"error": str(exc), "kind": type(exc).__name__}, status_code=status)

    @app.get("/", include_in_schema=False)
    def index() -> RedirectResponse:
        return RedirectResponse(f"/s/{service.new_session()}", status_code=303)

    @app.get("/s/{sid}", response_class=HTMLResponse)
    def page(request: Request, sid: str) -> HTMLResponse:
        sid_ok(sid)
        return templates.TemplateResponse(request, "index.html", {
            "sid": sid, "pickable": pickable(), "max_mb": max_upload_bytes // (1024 * 1024),
            "library": service.library_info()})

    @app.get("/s/{sid}/state")
    def state(sid: str) -> dict:
        st = service.state(sid_ok(sid))
        job = runner.latest(sid)
        grid = grid_runs.latest(sid)
        return {"session": sid, "messages": [_message_json(m) for m in st["messages"]],
                "documents": st["documents"],
                "reports": [{"index": i, "title": r["title"], "question": r["question"],
                             "generated": (r.get("run") or {}).get("generated_utc"), "verification": r.get("verification")}
                            for i, r in enumerate(st["reports"])],
                "pending": service.pending(sid), "library": service.library_info(),
                "job": None if job is None else {"id": job.id, "done": job.done, "events": len(job.events)},
                "grid": None if grid is None else {"id": grid.id, "state": grid.state, "done": grid.finished}}

    @app.post("/s/{sid}/upload")
    async def upload(sid: str, file: UploadFile = File(...)) -> dict:
        sid_ok(sid)
        service.check_can_ingest()  # a library session: refused before storing anything
        data = await file.read(max_upload_bytes + 1)
        path = service.store.save_upload(sid, file.filename or "upload", data, max_upload_bytes)
        try:
            docs = await asyncio.to_thread(service.ingest, sid, [path])
        except IngestError:
            path.unlink(missing_ok=True)  # keep only files the Archivist could read
            raise
        return {"documents": docs}

    @app.post("/s/{sid}/pick")
    async def pick(sid: str, path: str = Form(...)) -> dict:
        sid_ok(sid)
        service.check_can_ingest()  # a library session: refused before storing anything
        # only the pickable folders and this session's own uploads
        p = service.store.resolve(path, allowed_roots=roots + (service.store.uploads_dir(sid),), include_store=False)
        if p.suffix.lower() not in (".txt", ".md", ".pdf", ".docx"):
            raise StoreError(f"{p.name}: unsupported file type")
        return {"documents": await asyncio.to_thread(service.ingest, sid, [p])}

    @app.get("/sessions")
    def sessions() -> dict:
        return {"sessions": service.list_sessions()}

    app.include_router(grid_router(service, grid_runs, sid_ok=sid_ok, start_job=runner.start_work))
    app.include_router(turn_router(service, runner, sid_ok=sid_ok))
    app.include_router(document_router(service, sid_ok=sid_ok, templates=templates, images=images))
    return app
