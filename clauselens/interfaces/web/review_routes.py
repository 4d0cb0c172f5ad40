"""The web UI's playbook review (issue #44), next to the review grid. LLM-free, like the MCP tool.

=================================================  =============================================
``POST /s/{sid}/review``                           multipart ``playbook`` (a YAML file) and
                                                   ``agreements`` (doc ids, repeatable; none = all
                                                   the session's documents, or the library's
                                                   agreements): reviews them, returns per
                                                   agreement the outcome counts and per position
                                                   outcome / value / clause, and the links below
``GET /s/{sid}/review/{rid}/{name}``               a file of that review: ``review.md|html|xlsx|json``
                                                   or ``<agreement>.redline.docx``
=================================================  =============================================
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from fastapi import APIRouter, File, Form, HTTPException, UploadFile
from fastapi.responses import FileResponse

from clauselens.errors import ClauselensError, ConfigError

#: A playbook upload larger than this is refused (a playbook is a short YAML file).
MAX_PLAYBOOK_BYTES = 256 * 1024
_RID = re.compile(r"^[0-9TZ]{16,24}$")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,120}$")


def review_router(service: Any, *, sid_ok: Callable[[str], str]) -> APIRouter:
    """The review routes (module docstring) over the chat-session ``service``."""
    r = APIRouter()

    def folder(sid: str) -> Path:
        return Path(service.settings.cache_dir) / "reviews" / sid

    @r.post("/s/{sid}/review")
    def review(sid: str, playbook: UploadFile = File(...), agreements: list[str] = Form(default=[])) -> dict:
        from clauselens.playbook.model import parse_playbook
        from clauselens.playbook.run import review_inputs
        from clauselens.playbook.sources import from_document, from_library

        sid = sid_ok(sid)
        data = playbook.file.read(MAX_PLAYBOOK_BYTES + 1)  # a sync route: FastAPI runs it in its thread pool
        name = playbook.filename or "playbook.yaml"
        if len(data) > MAX_PLAYBOOK_BYTES:
            raise ConfigError(f"{name}: a playbook is at most {MAX_PLAYBOOK_BYTES // 1024} KB")
        try:
            pb = parse_playbook(data.decode("utf-8"), name)
        except UnicodeDecodeError:
            raise ConfigError(f"{name}: not a UTF-8 text file (a playbook is YAML)") from None
        if service.library is not None:
            inputs = from_library(service.library, agreements)
        else:
            docs = service.parsed_documents(sid)
            if agreements:
                unknown = sorted(set(agreements) - {d.id for d in docs})
                if unknown:
                    raise ClauselensError(f"no document {unknown[0]!r} in this session")
                docs = [d for d in docs if d.id in agreements]
            if not docs:
                raise ClauselensError("no documents in this session yet: upload a contract first")
            inputs = [from_document(d) for d in docs]
        rid = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        run = review_inputs(inputs, pb, folder(sid) / rid)
        base = f"/s/{sid}/review/{rid}"
        return {"review": rid, "playbook": pb.name,
                "files": {k: f"{base}/{p.name}" for k, p in run.reports.items()},
                "redlines": {label: f"{base}/{p.name}" for label, p in run.redlines.items()},
                "agreements": [{"agreement": rv.agreement, "doc_id": rv.doc_id, "counts": rv.counts(), "error": rv.error,
                                "positions": [{"id": x.position_id, "outcome": x.outcome, "value": x.value, "rule": x.rule,
                                               "why": x.why, "clause": x.quotes[0].clause if x.quotes else "",
                                               "page": x.quotes[0].page if x.quotes else None} for x in rv.results]}
                               for rv in run.reviews]}

    @r.get("/s/{sid}/review/{rid}/{name}")
    def review_file(sid: str, rid: str, name: str) -> FileResponse:
        sid = sid_ok(sid)
        if not _RID.match(rid) or not _NAME.match(name):
            raise HTTPException(404, "no such review file")
        p = folder(sid) / rid / name
        if not p.is_file():
            raise HTTPException(404, "no such review file")
        return FileResponse(p, filename=name)

    return r


__all__ = ["review_router"]
