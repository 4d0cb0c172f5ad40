"""The web UI's library room (issue #46): routes over :class:`clauselens.library.service.LibraryService`
for a ``serve --library`` session. The front end stays thin: paging, filtering, search, the
writer lock and the upload policy live in the library package.

=================================================  =============================================
``GET /s/{sid}/library/agreements``                one page of the catalogue: ``filter``, ``sort``
                                                   (title, parties, date, type, pages, passages,
                                                   added, file), ``desc``, ``offset``, ``limit``
``GET /s/{sid}/library/agreements/{doc_id}``       one agreement's record and clause tree
``GET /s/{sid}/library/search``                    ``q``, ``k``, ``agreement``: clause search hits
                                                   with the matched words' offsets
``POST /s/{sid}/library/add``                      multipart ``files`` (repeatable; a ``.zip`` is a
                                                   folder): starts the add as a job, returns
                                                   ``{"job"}``; its ``library_progress`` and
                                                   ``library_added`` events stream from
                                                   ``/s/{sid}/jobs/{job}/events`` (SSE)
``GET /s/{sid}/library/job``                       the session's latest add (``{"id", "done"}``): a
                                                   reloaded page re-attaches to one still running
``POST /s/{sid}/library/remove``                   form ``keys`` (doc ids, repeatable)
=================================================  =============================================
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any, Callable

from fastapi import APIRouter, File, Form, UploadFile

from clauselens.errors import ClauselensError, ConfigError
from clauselens.library.library import AddReport
from clauselens.library.service import LibraryService, unpack_zip
from clauselens.parsing.numbering import clause_label

#: A zip (a folder of contracts) may be this many times the per-file upload limit.
ZIP_FACTOR = 25


def report_json(rep: AddReport, agreements: int) -> dict[str, Any]:
    """An add's outcome for the page (and the message it shows)."""
    failed = [{"path": p, "file_name": Path(p).name, "message": m} for p, m in rep.failed]
    msg = (f"{len(rep.added)} added, {len(rep.updated)} re-indexed, {len(rep.unchanged)} unchanged"
           + (f", {len(failed)} could not be added" if failed else "") + f"; the library has {agreements} agreements")
    return {"added": [Path(p).name for p in rep.added], "updated": [Path(p).name for p in rep.updated],
            "unchanged": [Path(p).name for p in rep.unchanged], "failed": failed, "passages": rep.passages,
            "seconds": round(rep.seconds, 2), "agreements": agreements, "message": msg}


def hit_json(rank: int, p: Any, marks: list[list[int]], labels: dict[str, str]) -> dict[str, Any]:
    """One search hit: agreement, clause, page, score, text, spans into the agreement's text and
    ``marks``, the matched words' offsets into ``text``."""
    return {"rank": rank, "doc_id": p.doc_id, "agreement": labels.get(p.doc_id, p.doc_title or p.doc_id),
            "clause_ref": p.clause_ref, "clause": clause_label(p.clause_ref) if p.clause_ref else None,
            "heading_path": p.heading_path, "page": p.page_start, "score": round(float(p.score), 4),
            "method": p.method, "text": p.text, "spans": [[s.start, s.end] for s in p.spans], "marks": marks,
            "notes": list(p.notes)}


def library_router(svc: LibraryService, *, sid_ok: Callable[[str], str], start_job: Callable[..., Any],
                   latest_job: Callable[[str, str], Any], max_upload_bytes: int) -> APIRouter:
    """The library routes (module docstring). ``start_job(sid, work, kind=...)`` runs
    ``work(emit)`` as a job whose events the page follows over SSE; ``latest_job(sid, kind)`` is
    the session's latest one (a reloaded page re-attaches to an add still running)."""
    r = APIRouter()

    @r.get("/s/{sid}/library/job")
    def job(sid: str) -> dict:
        j = latest_job(sid_ok(sid), "library")
        return {"job": None if j is None else {"id": j.id, "done": j.done}}

    @r.get("/s/{sid}/library/agreements")
    def agreements(sid: str, filter: str = "", sort: str = "added", desc: bool = False, offset: int = 0,
                   limit: int = 25) -> dict:
        sid_ok(sid)
        pg = svc.page(filter, sort=sort, descending=desc, offset=offset, limit=limit)
        return {"rows": [row.as_dict() for row in pg.rows], "total": pg.total, "offset": pg.offset, "limit": pg.limit,
                "library_total": pg.library_total, "name": svc.library.root.name}

    @r.get("/s/{sid}/library/agreements/{doc_id}")
    async def agreement(sid: str, doc_id: str) -> dict:
        sid_ok(sid)
        rec = svc.record(doc_id)
        outline: list[dict] = []
        if svc.load is not None:
            doc = await asyncio.to_thread(svc.load, Path(rec.path))
            outline = [{"ref": n.ref, "label": clause_label(n.ref) if n.ref else "", "heading": n.heading, "level": n.level,
                        "span": [n.span.start, n.span.end], "page": n.page_start}
                       for n in doc.nodes if n.kind != "root" and (n.ref or n.heading)][:400]
        return {"record": rec.model_dump(mode="json"), "label": rec.label, "outline": outline}

    @r.get("/s/{sid}/library/search")
    async def search(sid: str, q: str = "", k: int = 8, agreement: str = "") -> dict:
        sid_ok(sid)
        res, marks = await asyncio.to_thread(svc.search, q, k, agreement=agreement or None)
        labels = {a.doc_id: a.label for a in svc.library.agreements()}
        rt = res.trace.get("resolution") or {}
        return {"query": q, "abstained": res.abstained, "reason": res.reason,
                "resolution": {"status": rt.get("status", "unnamed"),
                               "chosen": [{"doc_id": d, "label": labels.get(d, d)} for d in rt.get("chosen", [])]},
                "hits": [hit_json(i + 1, p, m, labels) for i, (p, m) in enumerate(zip(res.passages, marks))]}

    @r.post("/s/{sid}/library/add")
    async def add(sid: str, files: list[UploadFile] = File(...)) -> dict:
        sid_ok(sid)
        staged = svc.uploads_dir() / ".incoming" / uuid.uuid4().hex[:12]
        staged.mkdir(parents=True, exist_ok=True)
        refused: list[tuple[str, str]] = []
        try:
            for f in files:
                name = Path((f.filename or "").replace("\\", "/")).name
                if not name or name.startswith("."):
                    refused.append((name or "(no name)", "a file needs a name (hidden files are not added)"))
                    continue
                is_zip = name.lower().endswith(".zip")
                limit = max_upload_bytes * (ZIP_FACTOR if is_zip else 1)
                data = await f.read(limit + 1)
                if len(data) > limit:
                    refused.append((name, f"{name} is larger than {limit // (1024 * 1024)} MiB"))
                    continue
                if is_zip:
                    zpath = staged.parent / f"{staged.name}-{name}"
                    zpath.write_bytes(data)
                    try:
                        _, bad = unpack_zip(zpath, staged / Path(name).stem, max_file_bytes=max_upload_bytes)
                        refused += bad
                    except ClauselensError as e:
                        refused.append((name, str(e)))
                    finally:
                        zpath.unlink(missing_ok=True)
                else:
                    (staged / name).write_bytes(data)
        except BaseException:
            import shutil

            shutil.rmtree(staged, ignore_errors=True)
            raise
        if not any(p.is_file() for p in staged.rglob("*")) and not refused:
            staged.rmdir()
            raise ConfigError("choose at least one file (.pdf .docx .txt .md, or a .zip of them)")

        def work(emit: Callable[[dict], None]) -> None:
            def progress(stage: str, i: int, n: int, detail: str) -> None:
                emit({"type": "library_progress", "stage": stage, "done": i, "total": n, "detail": detail})

            rep = svc.add_staged(staged, progress=progress)
            rep.failed = refused + rep.failed
            emit({"type": "library_added", "report": report_json(rep, len(svc.library))})

        job = start_job(sid, work, kind="library")
        return {"job": job.id}

    @r.post("/s/{sid}/library/remove")
    async def remove(sid: str, keys: list[str] = Form(default=[])) -> dict:
        sid_ok(sid)
        removed = await asyncio.to_thread(svc.remove, keys)
        return {"removed": [Path(p).name for p in removed], "agreements": len(svc.library)}

    return r


__all__ = ["library_router", "report_json"]
