"""The web UI's review grid routes (split from :func:`clauselens.interfaces.web.app.create_app` for
issue #43; the routes are listed in :mod:`clauselens.interfaces.web.app`'s docstring): a grid's
options, start and resume (as a job of the web UI's job runner), its state, one cell and its export.
Grids run through :class:`clauselens.interfaces.grids.GridRuns`, shared with the MCP server.
"""

from __future__ import annotations

from typing import Any, Callable

from fastapi import APIRouter, Form, HTTPException
from fastapi.responses import Response

from clauselens.grid.jobs import UnknownGridError, cell_json
from clauselens.interfaces.grids import EXPORT_TYPES, GridRuns


def grid_router(service: Any, grid_runs: GridRuns, *, sid_ok: Callable[[str], str], start_job: Callable[..., Any]) -> APIRouter:
    """The grid routes over the chat-session ``service`` and its ``grid_runs``; ``start_job``
    starts a grid run as a job of the web UI (``JobRunner.start_work``)."""
    r = APIRouter()

    @r.get("/s/{sid}/grid/options")
    def grid_options(sid: str) -> dict:
        from clauselens.grid.questions import PRESETS

        return {"agreements": grid_runs.agreements(sid_ok(sid)), "library": service.library_info(),
                "presets": [{"name": k, "questions": len(v)} for k, v in PRESETS.items()]}

    @r.post("/s/{sid}/grids")
    def start_grid(sid: str, agreements: list[str] = Form(default=[]), preset: str = Form(default=""),
                   questions: str = Form(default="")) -> dict:
        grid = grid_runs.prepare(sid_ok(sid), doc_ids=agreements, preset=preset.strip() or None, questions=questions)
        start_job(sid, lambda emit: grid_runs.run(grid, emit), kind="grid", job_id=grid.id)
        return {"grid": grid.id, "job": grid.id}

    @r.post("/s/{sid}/grids/{gid}/resume")
    def resume_grid(sid: str, gid: str) -> dict:
        grid = grid_runs.resume(gid, sid_ok(sid))
        start_job(sid, lambda emit: grid_runs.run(grid, emit), kind="grid", job_id=grid.id)
        return {"grid": grid.id, "job": grid.id}

    @r.get("/s/{sid}/grids/{gid}")
    def grid_state(sid: str, gid: str) -> dict:
        return grid_runs.get(gid, sid_ok(sid)).snapshot()

    @r.get("/s/{sid}/grids/{gid}/cells/{row}/{qid}")
    def grid_cell(sid: str, gid: str, row: int, qid: str) -> dict:
        grid = grid_runs.get(gid, sid_ok(sid))
        i, cell = grid.cell(row, qid)
        if cell is None:
            raise UnknownGridError(f"cell {row}/{qid} of grid {gid} is not filled yet")
        return cell_json(cell, i)

    @r.get("/s/{sid}/grids/{gid}/export.{fmt}")
    def grid_export(sid: str, gid: str, fmt: str) -> Response:
        grid = grid_runs.get(gid, sid_ok(sid))
        if fmt not in EXPORT_TYPES:
            raise HTTPException(404, f"formats: {', '.join(EXPORT_TYPES)}")
        data, media, name = grid_runs.export(grid, fmt)
        return Response(data, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return r


__all__ = ["grid_router"]
