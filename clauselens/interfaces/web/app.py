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
``GET /s/{sid}/documents/{doc_id}``    a document's text (JSON) for the document view
=====================================  ===================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from langchain_core.messages import AIMessage, HumanMessage

from clauselens.errors import ClauselensError, IngestError, ModelUnavailableError
from clauselens.graph import events as ET
from clauselens.interfaces.session import ChatSessions, Event
from clauselens.interfaces.store import DEFAULT_MAX_UPLOAD_BYTES, StoreError, check_session_id
from clauselens.reports.render import (
    NO_CITATIONS,
    gaps_note,
    header_fields,
    no_findings_note,
    section_titles,
    show_conclusion,
    to_html,
    to_json,
    to_markdown,
    verification_banner,
)
from clauselens.reports.render_docx import to_docx

log = logging.getLogger(__name__)
_HERE = Path(__file__).parent
#: Seconds between SSE polls of a job's event list, and between keep-alive comments.
POLL_S = 0.1
KEEPALIVE_S = 15.0
#: Jobs kept in memory for their event streams; the oldest finished ones are dropped beyond this.
MAX_JOBS = 200


@dataclass
class Job:
    """A turn running in a worker thread; ``events`` grows as it runs."""

    id: str
    session_id: str
    events: list[Event] = field(default_factory=list)
    done: bool = False


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
        """Start a job that drains ``events()`` (a zero-argument callable returning an iterator)."""
        job = Job(id=uuid.uuid4().hex[:12], session_id=session_id)
        with self._guard:
            done = [k for k, j in self.jobs.items() if j.done]
            for k in done[: max(0, len(self.jobs) - MAX_JOBS + 1)]:  # oldest finished first (dicts keep order)
                del self.jobs[k]
            self.jobs[job.id] = job

        def run() -> None:
            try:
                for ev in events():
                    job.events.append(ev)
            except BaseException as e:  # noqa: BLE001 - reported to the UI, never swallowed
                job.events.append(error_event(e, retry=self.service.pending(session_id)))
            finally:
                job.events.append({"type": ET.DONE})
                job.done = True

        threading.Thread(target=run, name=f"turn-{job.id}", daemon=True).start()
        return job

    def latest(self, session_id: str) -> Job | None:
        """The session's most recent job (running or finished), for a reloaded page to re-attach to."""
        with self._guard:
            mine = [j for j in self.jobs.values() if j.session_id == session_id]
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
               max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES) -> FastAPI:
    """The FastAPI application.

    Args:
        service: the chat-session service (models, checkpointer, store).
        pick_dirs: folders whose ``.txt/.md/.pdf/.docx`` files the user may pick without
            uploading (e.g. the bundled ``examples/contracts``). Any other path is refused.
        max_upload_bytes: upload limit (default 20 MiB).
    """
    app = FastAPI(title="clauselens", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    runner = JobRunner(service)
    app.state.runner = runner
    roots = tuple(Path(d).resolve() for d in pick_dirs)

    def sid_ok(sid: str) -> str:
        try:
            return check_session_id(sid)
        except StoreError as e:
            raise HTTPException(400, str(e)) from None

    def pickable() -> list[dict]:
        out = []
        for r in roots:
            if r.is_dir():
                for p in sorted(r.iterdir()):
                    if p.is_file() and p.suffix.lower() in (".txt", ".md", ".pdf", ".docx"):
                        out.append({"name": p.name, "path": str(p)})
        return out

    def report_or_404(sid: str, n: int):
        reps = service.reports(sid)
        if not 0 <= n < len(reps):
            raise HTTPException(404, f"no report {n} in this session")
        return reps[n]

    @app.exception_handler(ClauselensError)
    async def _clauselens_error(request: Request, exc: ClauselensError) -> JSONResponse:
        status = 403 if isinstance(exc, StoreError) and "outside" in str(exc) else 400
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
        return {"session": sid, "messages": [_message_json(m) for m in st["messages"]],
                "documents": st["documents"],
                "reports": [{"index": i, "title": r["title"], "question": r["question"]} for i, r in enumerate(st["reports"])],
                "pending": service.pending(sid), "library": service.library_info(),
                "job": None if job is None else {"id": job.id, "done": job.done, "events": len(job.events)}}

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

    @app.post("/s/{sid}/ask")
    def ask(sid: str, message: str = Form(...)) -> dict:
        sid_ok(sid)
        if not message.strip():
            raise ClauselensError("type a question first")
        job = runner.start(sid, lambda: service.stream_turn(sid, message))
        return {"job": job.id}

    @app.post("/s/{sid}/retry")
    def retry(sid: str) -> dict:
        sid_ok(sid)
        if not service.pending(sid):
            raise ClauselensError("nothing to retry: the last turn finished")
        job = runner.start(sid, lambda: service.retry(sid))
        return {"job": job.id}

    @app.get("/s/{sid}/jobs/{job_id}/events")
    async def events(request: Request, sid: str, job_id: str) -> StreamingResponse:
        job = runner.get(sid_ok(sid), job_id)
        # Each event's id is its 1-based position in the job's history. A new EventSource (a
        # reloaded page) gets the whole history, then the new events; the browser's own
        # reconnect sends Last-Event-ID and gets only what it missed.
        last = request.headers.get("last-event-id", "")
        start = int(last) if last.isdigit() else 0

        async def gen():
            i, idle = min(start, len(job.events)), 0.0
            yield "retry: 2000\n\n"
            while True:
                while i < len(job.events):
                    ev = job.events[i]
                    i += 1
                    yield f"id: {i}\nevent: {ev['type']}\ndata: {json.dumps(ev, default=str)}\n\n"
                    idle = 0.0
                if job.done and i >= len(job.events):
                    return
                await asyncio.sleep(POLL_S)
                idle += POLL_S
                if idle >= KEEPALIVE_S:
                    idle = 0.0
                    yield ": keep-alive\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.get("/s/{sid}/reports/{n}/fragment", response_class=HTMLResponse)
    def report_fragment(request: Request, sid: str, n: int) -> HTMLResponse:
        rep = report_or_404(sid_ok(sid), n)
        return templates.TemplateResponse(request, "report_fragment.html", {
            "r": rep, "n": n, "sid": sid, "header": header_fields(rep), "banner": verification_banner(rep),
            "gaps_note": gaps_note(rep), "no_findings": no_findings_note(rep), "no_citations": NO_CITATIONS,
            "show_conclusion": show_conclusion(rep), "titles": section_titles(rep)})

    @app.get("/s/{sid}/reports/{n}.{fmt}")
    def report_download(sid: str, n: int, fmt: str) -> Response:
        rep = report_or_404(sid_ok(sid), n)
        name = f"clauselens-{sid}-report{n}.{fmt}"
        disp = {"Content-Disposition": f'attachment; filename="{name}"'}
        if fmt == "md":
            return PlainTextResponse(to_markdown(rep), media_type="text/markdown; charset=utf-8", headers=disp)
        if fmt == "html":
            return HTMLResponse(to_html(rep), headers=disp)
        if fmt == "json":
            return Response(to_json(rep), media_type="application/json", headers=disp)
        if fmt == "docx":
            return Response(to_docx(rep), headers=disp,
                            media_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        raise HTTPException(404, "formats: md, html, json, docx")

    @app.get("/s/{sid}/documents/{doc_id}")
    def document(sid: str, doc_id: str) -> dict:
        if service.library is not None:  # citations of a library session point into its agreements
            d = service.library_document(doc_id)
            return {"doc_id": d.id, "title": d.title or Path(d.source_path).name, "text": d.text}
        for d in service.parsed_documents(sid_ok(sid)):
            if d.id == doc_id:
                return {"doc_id": d.id, "title": d.title or Path(d.source_path).name, "text": d.text}
        raise HTTPException(404, "no such document in this session")

    return app
