"""The web UI's turn routes (split from :func:`clauselens.interfaces.web.app.create_app` for issue
#43; listed in :mod:`clauselens.interfaces.web.app`'s docstring): ask a question and retry the last
turn, each run as a job of the web UI's :class:`~clauselens.interfaces.web.app.JobRunner`, and a job's
events as server-sent events (``id`` = the event's 1-based position, so a reconnect resumes).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import StreamingResponse

from clauselens.errors import ClauselensError

#: Seconds between SSE polls of a job's event list, and between keep-alive comments.
POLL_S = 0.1
KEEPALIVE_S = 15.0


def turn_router(service: Any, runner: Any, *, sid_ok: Callable[[str], str]) -> APIRouter:
    """The ask / retry / events routes over the chat-session ``service`` and the job ``runner``."""
    r = APIRouter()

    @r.post("/s/{sid}/ask")
    def ask(sid: str, message: str = Form(...)) -> dict:
        sid_ok(sid)
        if not message.strip():
            raise ClauselensError("type a question first")
        job = runner.start(sid, lambda: service.stream_turn(sid, message))
        return {"job": job.id}

    @r.post("/s/{sid}/retry")
    def retry(sid: str) -> dict:
        sid_ok(sid)
        if not service.pending(sid):
            raise ClauselensError("nothing to retry: the last turn finished")
        job = runner.start(sid, lambda: service.retry(sid))
        return {"job": job.id}

    @r.get("/s/{sid}/jobs/{job_id}/events")
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

    return r


__all__ = ["KEEPALIVE_S", "POLL_S", "turn_router"]
