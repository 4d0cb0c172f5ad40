"""Clause grids started from the web UI and the MCP server (issue #21): a session's agreements ×
a list of questions, filled in a server thread by :func:`clauselens.grid.run_grid` (the same
engine as ``clauselens grid``), watched cell by cell, exported as XLSX/CSV/HTML/JSON.

* **Agreements**: the session's documents, or, when the server runs with ``--library``, the
  library's agreements (all, or the ones chosen by doc id). A session's documents are indexed
  for the grid in a lexical-only library of the session (``<session>/grid/library``; the grid
  reads BM25 alone, :data:`clauselens.grid.answer.DENSE_QUERY`), so a cell is retrieved through
  a library pinned to the agreement exactly as the CLI does. A document that cannot be indexed
  (its file has gone since it was added) becomes a row of ``error`` cells; the grid goes on.
* **Questions**: a preset (``cuad``) or questions typed one per line (:func:`questions_from_text`).
* **Cells** are stored per session (``<session>/grid/cells.sqlite``, a
  :class:`~clauselens.grid.CellStore`): starting the same grid again reuses the finished cells.
* **Events** (``emit``): ``grid`` (the grid's rows and questions, again when its rows are
  known), ``status``, ``cell`` (one filled cell and the progress: done / total, ETA, cells per
  minute) and ``grid_done``; a failure before the first cell is an ``error`` event.

* **Grid files**: a grid's definition (id, session, rows, questions, preset, answer model, created
  time, state) is written to ``<session>/grid/grids/<grid id>.json`` (:class:`GridFile`; a temporary
  file, then a rename) when it is prepared, when it starts, and when it ends. A session's grids are
  read back on its first use after a restart, their cells from the cell store; a grid that was
  ``preparing`` or ``running`` when the server stopped is ``interrupted``, and
  :meth:`GridRuns.resume` runs it again (the stored cells are reused, only the missing ones are
  computed). A grid file that cannot be read is skipped with a warning naming it.

A grid's state, its JSON view and its file are :mod:`clauselens.grid.jobs`' (:class:`GridRun`,
:class:`GridFile`); this module runs them in threads for a session service and sends their events.

One grid runs per session at a time; :class:`GridRuns` keeps the last :data:`MAX_GRIDS` in memory
(older ones are read back from their files when asked for; their cells stay in the cell store).
"""

from __future__ import annotations

import logging
import re
import tempfile
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

from pydantic import ValidationError

from clauselens import events as ET
from clauselens.agents.resources import ModelPool
from clauselens.errors import ClauselensError, ConfigError
from clauselens.grid import Cell, GridRow
from clauselens.grid.jobs import (
    GRID_FILE_VERSION,
    GridFile,
    GridRun,
    UnknownGridError,
    cell_json,
    load_grid,
    questions_from_text,
    save_grid,
)
from clauselens.interfaces.session import ChatSessions
from clauselens.interfaces.store import check_session_id

log = logging.getLogger(__name__)
Emit = Callable[[dict[str, Any]], None]

#: Grids kept in memory (finished ones beyond this are forgotten, oldest first).
MAX_GRIDS = 50
_GRID_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
EXPORT_TYPES = {"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "csv": "text/csv; charset=utf-8",
                "html": "text/html; charset=utf-8", "json": "application/json"}


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


class GridRuns:
    """Starts, runs and keeps the grids of a :class:`ChatSessions` service (see the module docstring).

    Args:
        service: the chat-session service (its documents, library, settings and store).
        model: the answer model; default: the Interrogator's model of the service's model pool
            (the model the chat answers with), created on first use.
        concurrency: parallel model calls (an OpenAI-compatible server only; the in-process model
            answers one cell at a time).
    """

    def __init__(self, service: ChatSessions, *, model: Any = None, concurrency: int = 1) -> None:
        self.service = service
        self._model = model
        self.concurrency = max(1, int(concurrency))
        self.grids: dict[str, GridRun] = {}
        self._guard = threading.Lock()
        self._build = threading.Lock()  # one session grid library built at a time
        self._loading = threading.Lock()  # one session's grid files read at a time
        self._loaded: set[str] = set()  # sessions whose grid files were read
        self._skipped: set[Path] = set()  # grid files that could not be read (warned once)

    # ------------------------------------------------------------- model
    def model_and_id(self) -> tuple[Any, str, str]:
        """(the answer model, its id for the cells' fingerprints, the structured-output method)."""
        ms = self.service.settings.interrogator_model
        if self._model is not None:
            return self._model, f"supplied:{type(self._model).__name__}", ms.structured_method
        pool = self.service.interrogate.models
        supplied = pool.supplied("interrogator")
        if supplied is not None:
            return supplied, f"supplied:{type(supplied).__name__}", ms.structured_method
        return pool.model("interrogator"), f"{ms.backend}:{ms.model}", ms.structured_method

    # ------------------------------------------------------------- registry
    def get(self, grid_id: str, session_id: str | None = None) -> GridRun:
        """The grid (read back from its file after a restart); :class:`UnknownGridError` for an
        unknown id (or one of another session)."""
        if session_id is not None:
            self.load_session(session_id)
        g = self.grids.get(grid_id) or self._from_file(grid_id, session_id)
        if g is None or (session_id is not None and g.session_id != session_id):
            if any(p.stem == grid_id for p in self._skipped):
                raise UnknownGridError(f"grid {grid_id!r} cannot be read: its file is damaged (the server log names it)")
            known = ", ".join(k for k, v in self.grids.items() if session_id is None or v.session_id == session_id)
            raise UnknownGridError(f"no grid {grid_id!r}" + (f" (grids: {known})" if known else " (no grid started yet)"))
        return g

    def latest(self, session_id: str) -> GridRun | None:
        """The session's most recent grid (read back from the grid files after a restart), or None."""
        self.load_session(session_id)
        with self._guard:
            mine = [g for g in self.grids.values() if g.session_id == session_id]
        return mine[-1] if mine else None

    # ------------------------------------------------------------- grid files
    def grids_dir(self, session_id: str) -> Path:
        """``<session>/grid/grids``: the session's grid files (not created here)."""
        return self.service.store.root / check_session_id(session_id) / "grid" / "grids"

    def _cells_path(self, session_id: str) -> Path:
        return self.service.store.root / check_session_id(session_id) / "grid" / "cells.sqlite"

    def save(self, grid: GridRun) -> Path:
        """Write ``grid``'s file (:func:`save_grid`); raises :class:`ClauselensError` when it cannot."""
        try:
            return save_grid(grid, self.grids_dir(grid.session_id))
        except OSError as e:
            raise ClauselensError(f"cannot write the grid file of {grid.id} in {self.grids_dir(grid.session_id)}: "
                                  f"{e.strerror or e}") from None

    def load_session(self, session_id: str) -> list[GridRun]:
        """Read the session's grid files (once per session; grids already in memory are kept), oldest
        first, each with its cells from the session's cell store. A file that cannot be read is
        skipped with a warning naming it. Returns the grids read."""
        if session_id in self._loaded:
            return []
        with self._loading:
            if session_id in self._loaded:
                return []
            try:
                folder = self.grids_dir(session_id)
            except ClauselensError:  # a bad session id has no grid files
                self._loaded.add(session_id)
                return []
            read = [(self._read(p, session_id), p) for p in folder.glob("*.json")]
            # oldest first; a tie (created in the same second) goes by the file's last write
            found = [g for g, _ in sorted(((g, p) for g, p in read if g is not None),
                                          key=lambda gp: (gp[0].created_utc, _mtime(gp[1])))]
            self._read_cells(session_id, found)
            with self._guard:
                new = [g for g in found if g.id not in self.grids]
                mine = {k: v for k, v in self.grids.items() if v.session_id == session_id}
                for k in mine:  # the session's grids of this process come after the ones read back
                    del self.grids[k]
                self.grids.update({g.id: g for g in new})
                self.grids.update(mine)
            self._loaded.add(session_id)
        if new:
            log.info("read %d grid(s) of session %s from %s", len(new), session_id, folder)
        return new

    def _read(self, path: Path, session_id: str) -> GridRun | None:
        """The grid of ``path`` (without its cells), or None (one warning per file) when it cannot be read."""
        try:
            grid = load_grid(path)
            if grid.session_id != session_id:
                raise ValueError(f"it belongs to session {grid.session_id!r}, not {session_id!r}")
            return grid
        except (OSError, ValueError, ValidationError) as e:  # ValidationError: not a grid file
            if path not in self._skipped:
                self._skipped.add(path)
                why = ("; ".join(f"{'.'.join(map(str, err['loc'])) or 'file'}: {err['msg']}" for err in e.errors()[:3])
                       if isinstance(e, ValidationError) else str(e))
                log.warning("skipping the grid file %s: it cannot be read (%s)", path, why)
            return None

    def _read_cells(self, session_id: str, grids: Sequence[GridRun]) -> None:
        """Fill ``grids``' cells from the session's cell store (a cell computed for another question
        wording or model since is not the grid's, and stays missing)."""
        from clauselens.grid import CellStore, fingerprint

        path = self._cells_path(session_id)
        grids = [g for g in grids if g.model_id]  # no model id: it never reached its first cell
        if not grids or not path.exists():
            return
        store = CellStore(path)
        try:
            for g in grids:
                fps = {q.id: fingerprint(q, g.model_id) for q in g.questions}
                for i, r in enumerate(g.rows):
                    for q in g.questions:
                        c = store.get(r.row_key, q.id, fps[q.id])
                        if c is not None:
                            g.cells[(i, q.id)] = c
                g.done = len(g.cells)
        finally:
            store.close()

    def _from_file(self, grid_id: str, session_id: str | None) -> GridRun | None:
        """A grid not in memory, read from its file: the session's, or (no session) any session's."""
        if not _GRID_ID.match(grid_id or ""):
            return None
        if session_id is None:
            hit = next(iter(sorted(self.service.store.root.glob(f"*/grid/grids/{grid_id}.json"))), None)
            if hit is None:
                return None
            session_id = hit.parents[2].name
            self.load_session(session_id)
            if grid_id in self.grids:
                return self.grids[grid_id]
        try:
            path = self.grids_dir(session_id) / f"{grid_id}.json"
        except ClauselensError:
            return None
        grid = self._read(path, session_id) if path.exists() else None
        if grid is None:
            return None
        self._read_cells(session_id, [grid])
        with self._guard:
            return self.grids.setdefault(grid.id, grid)

    def agreements(self, session_id: str) -> list[dict[str, Any]]:
        """What a grid can be started on: ``{"doc_id", "label", "file_name"}`` per agreement."""
        lib = self.service.library
        if lib is not None:
            return [{"doc_id": r.doc_id, "label": r.label, "file_name": Path(r.path).name} for r in lib.agreements()]
        return [{"doc_id": d["doc_id"], "label": d.get("title") or d["file_name"], "file_name": d["file_name"]}
                for d in self.service.documents(session_id)]

    # ------------------------------------------------------------- start
    def prepare(self, session_id: str, *, doc_ids: Sequence[str] | None = None, preset: str | None = None,
                questions: str | Sequence[str] | None = None) -> GridRun:
        """A new grid (not started): the chosen agreements (all when ``doc_ids`` is empty) × the
        preset's or the typed questions. Raises :class:`ClauselensError` for no agreements, an
        unknown doc id or preset, no questions or both, or a grid already running in the session."""
        from clauselens.grid import preset as get_preset

        running = self.latest(session_id)
        if running is not None and not running.finished:
            raise ClauselensError(f"a grid is already running in this session ({running.id}, {running.done} of "
                                  f"{running.total} cells): wait for it to finish")
        text = questions if isinstance(questions, str) else "\n".join(questions or [])
        if bool(preset) == bool(text.strip()):
            raise ConfigError("give a question preset (cuad) or questions, one per line (not both)")
        qs = get_preset(preset) if preset else questions_from_text(text)
        have = self.agreements(session_id)
        if not have:
            raise ClauselensError("no documents in this session yet: add contracts first" if self.service.library is None
                                  else "the library has no agreements")
        want = [d for d in dict.fromkeys(doc_ids or []) if d]
        by_id = {a["doc_id"]: a for a in have}
        unknown = [d for d in want if d not in by_id]
        if unknown:
            raise ClauselensError(f"unknown agreement(s) {', '.join(unknown)}; this session's: "
                                  + ", ".join(f"{a['doc_id']} ({a['file_name']})" for a in have[:20]))
        chosen = [by_id[d] for d in want] if want else have
        rows = self._rows(session_id, [a["doc_id"] for a in chosen])
        grid = GridRun(id=uuid.uuid4().hex[:12], session_id=session_id, rows=rows, questions=qs, preset=preset or "")
        self.save(grid)  # before it is registered: a grid that cannot be saved never blocks the session
        with self._guard:
            done = [k for k, g in self.grids.items() if g.finished]
            for k in done[: max(0, len(self.grids) - MAX_GRIDS + 1)]:
                del self.grids[k]
            self.grids[grid.id] = grid
        return grid

    def _rows(self, session_id: str, doc_ids: list[str]) -> list[GridRow]:
        lib = self.service.library
        if lib is not None:
            recs = {r.doc_id: r for r in lib.agreements()}
            return [GridRow(row_key=recs[d].sha256, agreement=recs[d].label, source_path=recs[d].path, doc_id=d) for d in doc_ids]
        docs = {d["doc_id"]: d for d in self.service.documents(session_id)}
        return [GridRow(row_key=docs[d]["sha256"], agreement=docs[d].get("title") or docs[d]["file_name"],
                        source_path=docs[d]["source_path"], doc_id=d) for d in doc_ids]

    def resume(self, grid_id: str, session_id: str) -> GridRun:
        """Make an ``interrupted`` (or ``failed``) grid of the session ready to run again: :meth:`run`
        reuses its stored cells and computes the missing ones. Raises :class:`UnknownGridError`, or
        :class:`ClauselensError` for a grid that is running or done, or another grid running."""
        grid = self.get(grid_id, session_id)
        with self._guard:
            if grid.state not in ("interrupted", "failed"):
                raise ClauselensError(f"grid {grid.id} is {grid.state}: only an interrupted or failed grid can be resumed")
            busy = next((g for g in self.grids.values() if g.session_id == session_id and not g.finished), None)
            if busy is not None:
                raise ClauselensError(f"a grid is already running in this session ({busy.id}, {busy.done} of "
                                      f"{busy.total} cells): wait for it to finish")
            grid.state, grid.error = "preparing", ""
            grid.computed = grid.reused = 0
            grid.started, grid.seconds = 0.0, 0.0
        for r in grid.rows:  # found again when the grid's library is built
            r.error = ""
        self.save(grid)
        return grid

    def start(self, grid: GridRun, emit: Emit | None = None) -> threading.Thread:
        """Run ``grid`` in a daemon thread (the MCP server; the web UI runs it as a job)."""
        t = threading.Thread(target=self.run, args=(grid, emit), name=f"grid-{grid.id}", daemon=True)
        t.start()
        return t

    # ------------------------------------------------------------- run
    def _session_library(self, session_id: str, rows: list[GridRow]) -> Any:
        """The session's lexical grid library with ``rows``' documents added; a row whose document
        cannot be added gets its ``error``."""
        from clauselens.library.opening import open_library

        settings = self.service.settings
        lexical = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"embedder": "none"})})
        root = self.service.store.session_dir(session_id) / "grid" / "library"
        by_path = {d["source_path"]: d["doc_id"] for d in self.service.documents(session_id)}

        def load(p: Path) -> Any:
            doc_id = by_path.get(str(p))
            return self.service.parsed_document(session_id, doc_id) if doc_id else self.service.load_document(p)

        with self._build:
            lib = open_library(lexical, str(root), create=True, chat_model=ModelPool(lexical).researcher)
            rep = lib.add([Path(r.source_path) for r in rows], load=load)
        failed = dict(rep.failed)
        added = {r.path for r in lib.agreements()}
        for r in rows:
            if r.source_path in failed or r.source_path not in added:
                r.error = f"could not read this contract: {failed.get(r.source_path, 'not added to the grid index')}"
        return lib

    def _library(self, grid: GridRun) -> Any:
        lib = self.service.library
        if lib is None:
            return self._session_library(grid.session_id, grid.rows)
        if lib.meta.get("backend", "local") != "local":
            return lib
        from clauselens.library.opening import open_library

        settings = self.service.settings  # its own SQLite connection for this thread
        return open_library(settings, str(lib.root), chat_model=ModelPool(settings).researcher)

    def run(self, grid: GridRun, emit: Emit | None = None) -> None:
        """Fill ``grid`` (in the calling thread), calling ``emit`` with its events (see the module
        docstring). Never raises: a failure before the cells is recorded (``state="failed"``,
        ``error``) and emitted as an ``error`` event; a failing cell or contract is an ``error`` cell."""
        from clauselens.grid import CellStore, run_grid

        send: Emit = emit or (lambda ev: None)
        send({"type": ET.GRID, "grid": grid.snapshot(cells=False)})
        t0 = time.perf_counter()
        store = None
        try:
            model, grid.model_id, method = self.model_and_id()
            n = len(grid.rows)
            send({"type": ET.STATUS, "agent": "grid", "text": f"Indexing {n} agreement{'s' if n != 1 else ''} for the grid"})
            lib = self._library(grid)
            store = CellStore(self.service.store.session_dir(grid.session_id) / "grid" / "cells.sqlite")
            grid.state, grid.started = "running", time.perf_counter()
            self.save(grid)  # with the answer model's id: the cells can be found after a restart
            send({"type": ET.GRID, "grid": grid.snapshot(cells=False)})
            rows = {r.row_key: i for i, r in enumerate(grid.rows)}

            def on_cell(cell: Cell, done: int, total: int, reused: bool) -> None:
                i = rows[cell.row_key]
                grid.add(i, cell, reused)
                send({"type": ET.CELL, "cell": cell_json(cell, i), "progress": grid.progress()})

            run_grid(lib, grid.rows, grid.questions, store, model=model, model_id=grid.model_id,
                     concurrency=self.concurrency if self.service.settings.interrogator_model.backend != "llamacpp" else 1,
                     method=method, on_cell=on_cell, presence=self.service.settings.grid_presence,
                     yes_no_model=self.service.settings.grid_yes_no_model)
            grid.state = "done"
        except Exception as e:  # noqa: BLE001 - reported to the user, never a traceback
            grid.state = "failed"
            if isinstance(e, ClauselensError):
                grid.error = str(e)
            else:
                log.exception("internal error in grid %s", grid.id)
                grid.error = f"Internal error ({type(e).__name__}); see the server log."
            send({"type": ET.ERROR, "kind": type(e).__name__, "retry": False, "message": f"The grid stopped: {grid.error}"})
        finally:
            if store is not None:
                store.close()
            grid.seconds = time.perf_counter() - (grid.started or t0)
            try:
                self.save(grid)
            except ClauselensError as e:  # the grid's cells are stored; only its file is stale
                log.error("%s", e)
        send({"type": ET.GRID_DONE, "grid": grid.snapshot(cells=False)})

    # ------------------------------------------------------------- export
    def export(self, grid: GridRun, fmt: str) -> tuple[bytes, str, str]:
        """The grid (as filled so far; missing cells read ``pending``) as ``fmt`` (xlsx, csv,
        html, json): (bytes, media type, file name). Raises :class:`ConfigError` for another format."""
        from clauselens.grid import write_grid

        if fmt not in EXPORT_TYPES:
            raise ConfigError(f"grid downloads: {', '.join(EXPORT_TYPES)} (not {fmt!r})")
        p = grid.progress()
        info = {"grid": grid.id, "agreements": len(grid.rows), "questions": len(grid.questions), "cells": grid.total,
                "done": p["done"], "state": p["state"], "model": grid.model_id, "computed": p["computed"], "reused": p["reused"],
                "seconds": p["seconds"], "cells_per_minute": p["cells_per_minute"], "by_status": p["counts"],
                "written_utc": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        with grid._guard:
            cells = list(grid.cells.values())
        with tempfile.TemporaryDirectory(prefix="clauselens-grid-") as tmp:
            path = write_grid(Path(tmp) / f"grid.{fmt}", grid.rows, grid.questions, cells, info)
            return path.read_bytes(), EXPORT_TYPES[fmt], f"clauselens-grid-{grid.id}.{fmt}"


__all__ = ["EXPORT_TYPES", "GRID_FILE_VERSION", "GridFile", "GridRun", "GridRuns", "MAX_GRIDS", "UnknownGridError", "cell_json",
           "load_grid", "questions_from_text", "save_grid"]
