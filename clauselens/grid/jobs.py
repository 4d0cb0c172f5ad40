"""A grid job's state and its file (issue #43: moved here from ``interfaces/grids.py``): the questions
a user types (:func:`questions_from_text`), one grid of a session with the cells filled so far and its
progress (:class:`GridRun`), its JSON view (:meth:`GridRun.snapshot`, :func:`cell_json`), and its
definition on disk (:class:`GridFile`, written by :func:`save_grid` as a temporary file then a rename,
read back by :func:`load_grid`, where a grid that was preparing or running is ``interrupted``).

The front ends run these jobs in threads and send their events
(:class:`clauselens.interfaces.grids.GridRuns`); this module holds no thread, session or server.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from clauselens.errors import ClauselensError, ConfigError
from clauselens.grid.cells import Cell
from clauselens.grid.questions import GridQuestion
from clauselens.grid.runner import GridRow

#: Questions one grid may ask, and characters per typed question.
MAX_QUESTIONS = 100
MAX_QUESTION_CHARS = 500
#: A typed question starting with one of these words gets a yes/no answer.
_YES_NO_START = {"is", "are", "does", "do", "did", "can", "could", "must", "may", "has", "have", "will", "shall", "should", "was",
                 "were"}
GRID_STATES = ("preparing", "running", "done", "failed", "interrupted")
GridState = Literal["preparing", "running", "done", "failed", "interrupted"]
#: The layout version of a grid file (:class:`GridFile`).
GRID_FILE_VERSION = 1

class UnknownGridError(ClauselensError):
    """A grid id (or a cell of a grid) this server does not know."""


def questions_from_text(text: str) -> list[GridQuestion]:
    """Questions typed one per line. A line may end with ``| TYPE`` (``yes_no``, ``date``,
    ``duration``, ``amount``, ``party`` or ``text``); otherwise a question that starts like
    "Is/Does/Can/Must ..." is ``yes_no`` and any other ``text``. Empty lines and lines starting
    with ``#`` are skipped. Raises :class:`ConfigError` for no question, too many, or a bad type."""
    from clauselens.grid.questions import ANSWER_TYPES

    out: list[GridQuestion] = []
    ids: set[str] = set()
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        q, sep, typ = line.rpartition("|") if "|" in line else (line, "", "")
        q = " ".join(q.split())
        if len(q) > MAX_QUESTION_CHARS:
            raise ConfigError(f"question on line {n} is longer than {MAX_QUESTION_CHARS} characters")
        first = (re.findall(r"[a-z]+", q.lower()) or [""])[0]
        base = re.sub(r"[^a-z0-9]+", "_", q.lower()).strip("_")[:40] or "q"
        qid, i = base, 2
        while qid in ids:
            qid, i = f"{base}_{i}", i + 1
        ids.add(qid)
        try:
            out.append(GridQuestion(id=qid, question=q, category=q if len(q) <= 60 else q[:59] + "…",
                                    type=typ.strip() or ("yes_no" if first in _YES_NO_START else "text")))  # type: ignore[arg-type]
        except ValidationError:
            raise ConfigError(f"line {n}: {line[:80]!r} is not a question with a type "
                              f"({', '.join(ANSWER_TYPES)}), e.g. 'Which law governs this agreement? | text'") from None
        if len(out) > MAX_QUESTIONS:
            raise ConfigError(f"at most {MAX_QUESTIONS} questions per grid")
    if not out:
        raise ConfigError("no questions: type one question per line, or choose a preset")
    return out


def cell_json(cell: Cell, row: int) -> dict[str, Any]:
    """What the web UI and the MCP tools show of one cell (``row``: its row's index)."""
    return {"row": row, "question_id": cell.question_id, "status": cell.status, "answer": cell.answer, "quote": cell.quote,
            "clause": cell.clause, "page": cell.page, "reason": cell.reason, "agreement": cell.agreement, "doc_id": cell.doc_id,
            "quote_spans": cell.quote_spans, "top_spans": cell.top_spans, "seconds": cell.seconds}


@dataclass
class GridRun:
    """One grid of a session: its rows, questions and the cells filled so far."""

    id: str
    session_id: str
    rows: list[GridRow]
    questions: list[GridQuestion]
    model_id: str = ""
    preset: str = ""
    state: GridState = "preparing"
    error: str = ""
    created_utc: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))
    done: int = 0
    computed: int = 0
    reused: int = 0
    started: float = 0.0  # perf_counter when the first cell began
    seconds: float = 0.0
    cells: dict[tuple[int, str], Cell] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def total(self) -> int:
        return len(self.rows) * len(self.questions)

    @property
    def finished(self) -> bool:
        """Not preparing or running (done, failed, or interrupted by a server stop)."""
        return self.state in ("done", "failed", "interrupted")

    def add(self, row: int, cell: Cell, reused: bool) -> None:
        with self._guard:
            self.cells[(row, cell.question_id)] = cell
            self.done = len(self.cells)
            self.computed += 0 if reused else 1
            self.reused += 1 if reused else 0

    def progress(self) -> dict[str, Any]:
        """``{"state", "done", "total", "counts", "eta_s", "cells_per_minute", "seconds"}``; ETA from this
        run's computed cells (reused ones come at once), None before the first one."""
        with self._guard:
            cells = list(self.cells.values())
        counts = {s: 0 for s in ("answered", "not found", "unverified", "error")}
        for c in cells:
            counts[c.status] = counts.get(c.status, 0) + 1
        elapsed = self.seconds if self.finished else (time.perf_counter() - self.started if self.started else 0.0)
        rate = 60.0 * self.computed / elapsed if self.computed and elapsed > 0 else 0.0
        eta = (self.total - self.done) * elapsed / self.computed if self.computed and not self.finished else None
        return {"state": self.state, "done": self.done, "total": self.total, "counts": counts,
                "eta_s": None if eta is None else round(eta, 1), "cells_per_minute": round(rate, 2),
                "seconds": round(elapsed, 1), "computed": self.computed, "reused": self.reused, "error": self.error}

    def row_json(self) -> list[dict[str, Any]]:
        return [{"row": i, "agreement": r.agreement, "file": Path(r.source_path).name if r.source_path else "", "doc_id": r.doc_id,
                 "error": r.error} for i, r in enumerate(self.rows)]

    def snapshot(self, *, cells: bool = True) -> dict[str, Any]:
        """The grid as JSON: id, rows, questions, progress and (``cells``) every filled cell."""
        out: dict[str, Any] = {"grid_id": self.id, "session_id": self.session_id, "created_utc": self.created_utc,
                               "model": self.model_id, "preset": self.preset, "rows": self.row_json(),
                               "questions": [{"id": q.id, "question": q.shown, "type": q.type, "label": q.category or q.id}
                                             for q in self.questions],
                               "progress": self.progress()}
        if cells:
            with self._guard:
                out["cells"] = [cell_json(c, r) for (r, _), c in sorted(self.cells.items(), key=lambda kv: kv[0])]
        return out

    def find_row(self, agreement: str | int) -> int:
        """A row by index, doc id, file name or agreement label; raises :class:`UnknownGridError`."""
        if isinstance(agreement, int) or str(agreement).isdigit():
            i = int(agreement)
            if 0 <= i < len(self.rows):
                return i
        for i, r in enumerate(self.rows):
            if agreement in (r.doc_id, r.agreement, Path(r.source_path).name if r.source_path else None):
                return i
        have = "; ".join(f"{i}: {r.doc_id or '-'} ({Path(r.source_path).name if r.source_path else r.agreement})"
                         for i, r in enumerate(self.rows))
        raise UnknownGridError(f"no agreement {agreement!r} in grid {self.id} (its rows: {have})")

    def cell(self, agreement: str | int, question_id: str) -> tuple[int, Cell | None]:
        """The row and the cell (None while pending); raises :class:`UnknownGridError` for an unknown
        agreement or question id."""
        row = self.find_row(agreement)
        if question_id not in {q.id for q in self.questions}:
            raise UnknownGridError(f"no question {question_id!r} in grid {self.id} (its questions: "
                                   f"{', '.join(q.id for q in self.questions)})")
        with self._guard:
            return row, self.cells.get((row, question_id))


class GridFile(BaseModel):
    """A grid's definition as written to ``<session>/grid/grids/<id>.json`` (its cells are in the
    session's cell store, found by the rows' keys and the questions' fingerprints with ``model_id``)."""

    version: int = GRID_FILE_VERSION
    id: str
    session_id: str
    created_utc: str
    updated_utc: str = ""
    preset: str = ""
    model_id: str = ""
    state: GridState
    error: str = ""
    computed: int = 0
    reused: int = 0
    seconds: float = 0.0
    rows: list[GridRow]
    questions: list[GridQuestion]


def save_grid(grid: GridRun, folder: Path) -> Path:
    """Write ``grid``'s :class:`GridFile` to ``folder/<id>.json``: a temporary file, then a rename
    (atomic on POSIX), so a reader never sees half a file. Raises ``OSError``."""
    with grid._guard:
        data = GridFile(id=grid.id, session_id=grid.session_id, created_utc=grid.created_utc,
                        updated_utc=datetime.now(timezone.utc).isoformat(timespec="seconds"), preset=grid.preset,
                        model_id=grid.model_id, state=grid.state, error=grid.error, computed=grid.computed,
                        reused=grid.reused, seconds=round(grid.seconds, 2), rows=list(grid.rows), questions=list(grid.questions))
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{grid.id}.json"
    tmp = folder / f".{grid.id}.json.part"
    tmp.write_text(data.model_dump_json(indent=1), encoding="utf-8")
    tmp.replace(dest)
    return dest


def load_grid(path: Path) -> GridRun:
    """The grid of a grid file, without its cells; one that was preparing or running is
    ``interrupted``. Raises ``OSError``, ``ValueError`` (not JSON, not a grid file, or a file whose
    name is not its grid's id)."""
    f = GridFile.model_validate_json(path.read_bytes())
    if f.id != path.stem:
        raise ValueError(f"it holds grid {f.id!r}, not {path.stem!r}")
    if f.version > GRID_FILE_VERSION:
        raise ValueError(f"grid file version {f.version} is newer than this clauselens reads ({GRID_FILE_VERSION})")
    return GridRun(id=f.id, session_id=f.session_id, rows=f.rows, questions=f.questions, model_id=f.model_id, preset=f.preset,
                   state="interrupted" if f.state in ("preparing", "running") else f.state, error=f.error,
                   created_utc=f.created_utc, computed=f.computed, reused=f.reused, seconds=f.seconds)


__all__ = ["GRID_FILE_VERSION", "GRID_STATES", "MAX_QUESTIONS", "MAX_QUESTION_CHARS", "GridFile", "GridRun", "GridState",
           "UnknownGridError", "cell_json", "load_grid", "questions_from_text", "save_grid"]
