"""Grid cells and the resumable cell store.

A :class:`Cell` is one agreement × one question: the short answer, the verified quote with its
clause number, page and document span, a link into the source, and a ``status``:

- ``answered``: the model answered and its quote was found verbatim in a retrieved passage;
- ``not found``: retrieval found no matching clause, or the model said the passages do not
  answer the question (a yes/no question then reads "No");
- ``unverified``: the model answered but its quote is not in the retrieved text, or is not about
  the question's topic (the answer is shown, the quote withheld; ``reason`` says which);
- ``error``: the contract or the model failed (``reason`` says how); the grid goes on.

:class:`CellStore` keeps cells in one SQLite file, keyed by the agreement's sha256 and the
question's fingerprint (its wording, type, search text, the answer model and the prompt
version), so a rerun computes only the cells that are missing (errors are retried).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Iterable, Literal

from pydantic import BaseModel, Field

Status = Literal["answered", "not found", "unverified", "error"]
STATUSES: tuple[str, ...] = ("answered", "not found", "unverified", "error")


class Cell(BaseModel):
    """One agreement × one question (see the module docstring)."""

    row_key: str  # the agreement's sha256 (or its path when the file could not be read)
    question_id: str
    fingerprint: str
    status: Status
    agreement: str = ""
    doc_id: str = ""
    source_path: str = ""
    answer: str = ""
    quote: str = ""
    clause: str = ""
    page: int | None = None
    link: str = ""
    reason: str = ""
    #: What the model offered as its quote when it could not be verified (for audit; never shown as a quote).
    model_quote: str = ""
    #: A value a rule read but nothing confirmed (for a reviewer, with ``model_quote``; never shown as the answer).
    candidate: str = ""
    #: ``[start, end)`` in the agreement's text of the verified quote, and of the top retrieved passage.
    quote_spans: list[list[int]] = Field(default_factory=list)
    top_spans: list[list[int]] = Field(default_factory=list)
    passages: int = 0
    seconds: float = 0.0
    model: str = ""
    #: The checks the status comes from (:data:`clauselens.grid.answer.CHECK_VERSION`; "" before they were versioned).
    check: str = ""
    #: The model's reply as given (found, passage, quote, answer), so that the checks can be re-run without the model.
    reply: dict | None = None


class CellStore:
    """Cells in a SQLite file (WAL; one writer at a time, guarded by a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS cells (row_key TEXT, question_id TEXT, fingerprint TEXT, "
                         "status TEXT, data TEXT, PRIMARY KEY (row_key, question_id))")
        self._db.commit()

    def get(self, row_key: str, question_id: str, fingerprint: str) -> Cell | None:
        """The stored cell, or ``None`` when missing or computed for another question fingerprint."""
        with self._lock:
            r = self._db.execute("SELECT fingerprint, data FROM cells WHERE row_key=? AND question_id=?",
                                 (row_key, question_id)).fetchone()
        if r is None or r[0] != fingerprint:
            return None
        return Cell.model_validate_json(r[1])

    def put(self, cell: Cell) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO cells VALUES (?,?,?,?,?)",
                             (cell.row_key, cell.question_id, cell.fingerprint, cell.status, cell.model_dump_json()))
            self._db.commit()

    def cells(self) -> list[Cell]:
        with self._lock:
            rows = self._db.execute("SELECT data FROM cells").fetchall()
        return [Cell.model_validate_json(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def status_counts(cells: Iterable[Cell]) -> dict[str, int]:
    out = {s: 0 for s in STATUSES}
    for c in cells:
        out[c.status] = out.get(c.status, 0) + 1
    return out


def spans_json(spans: list[list[int]]) -> str:
    return json.dumps(spans)


__all__ = ["Cell", "CellStore", "STATUSES", "Status", "status_counts"]
