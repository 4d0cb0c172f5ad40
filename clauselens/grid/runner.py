"""Fill a grid: agreements × questions, resumable, with N parallel model calls.

:func:`run_grid` walks the cells row by row. Cells already in the :class:`~clauselens.grid.cells.CellStore`
with the same fingerprint are skipped (a rerun does only the missing ones; ``error`` cells are
retried); a stored cell checked by an older :data:`~clauselens.grid.answer.CHECK_VERSION` is
re-checked from its stored reply (retrieval again, no model call; a "not found" the model gave too). A cell whose retrieved passages
never mention the question's topic terms is "not found" without a model call
(:func:`~clauselens.grid.answer.off_topic`; recomputed when the checks change). For each missing
cell the runner retrieves in its own thread (the library's catalogue is one SQLite connection), sends the model call to a ``ThreadPoolExecutor`` of
``concurrency`` workers (1 for the in-process model, which runs one call at a time), and
verifies and stores the reply as it comes back. A contract that failed to load, or any cell
whose retrieval or model call fails, becomes an ``error`` cell with the reason; the grid goes on.

Issue #45: a typed question (date, duration, amount, party, jurisdiction) is read by rule from the
agreement's passages (:func:`clauselens.grid.rule.rule_cell`; model id ``rule``, no model call), and
a yes/no question is first decided from the evidence (:func:`clauselens.grid.rule.yes_no_cell`);
when the evidence does not decide, the cell is left *unverified* for a reviewer (model id :data:`OPEN_MODEL`, no model
call; the 1.5B's checked answers to such cells were wrong 23 times in 48 on seven keyed dev sets), or with
``yes_no_model=True`` the model answers it. Rule cells are recomputed when
:data:`~clauselens.grid.answer.CHECK_VERSION` changes (they are cheap: regular expressions).

With the heads on (``presence=True``, the CLI's default), a user's yes/no question the topic head reads
as a CUAD Yes/No category is decided by the presence head before the evidence and the model
(:func:`clauselens.grid.rule.head_yes_no_cell`, model id ``presence-head``; its unclear band is left
unverified, no model call), and a typed everyday question is also read as the head's category
(:func:`clauselens.grid.rule.category_rule_cell`, cross-checked with its own words' reading); see
:mod:`clauselens.grid.heads`. The presence head reads each row once, on first need.
"""

from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from clauselens.errors import ClauselensError
from clauselens.grid.answer import (
    CHECK_VERSION,
    DEFAULT_K,
    ask_model,
    fingerprint,
    finish,
    off_topic,
    retrieve,
    stored_reply,
    terms_preview,
    topic_check,
    vocabulary_terms,
)
from clauselens.grid.cells import Cell, CellStore, Status
from clauselens.grid.corroborate import check as corroborate_check
from clauselens.grid.heads import RowHeads, cuad_question, row_heads
from clauselens.grid.presence import contract_presence, presence_answer
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import (
    RULE_MODEL,
    category_rule_cell,
    checks_category,
    cross_checked,
    head_yes_no_cell,
    rule_cell,
    uses_rule,
    yes_no_cell,
)
from clauselens.library.library import chunks_of
from clauselens.retrieval.types import Passage, SearchResult

PRESENCE_MODEL = "presence-head"


@dataclass
class GridRow:
    """One agreement of the grid: its library doc id, or the reason it could not be added."""

    row_key: str
    agreement: str
    source_path: str = ""
    doc_id: str = ""
    error: str = ""


@dataclass
class GridStats:
    """What one run did."""

    total: int = 0
    reused: int = 0
    rechecked: int = 0
    computed: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0
    by_status: dict[str, int] = field(default_factory=dict)

    @property
    def cells_per_minute(self) -> float:
        """Cells computed by this run per wall-clock minute (reused cells do not count)."""
        return 60.0 * self.computed / self.seconds if self.seconds > 0 else 0.0


#: ``on_cell(cell, done, total, reused)`` after each cell (stored or reused).
CellCallback = Callable[[Cell, int, int, bool], None]


def _error_text(e: BaseException) -> str:
    if isinstance(e, ClauselensError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def _rule_base(row: GridRow, q: GridQuestion, fp: str) -> dict[str, Any]:
    return {"row_key": row.row_key, "question_id": q.id, "fingerprint": fp, "agreement": row.agreement, "doc_id": row.doc_id,
            "source_path": row.source_path, "model": RULE_MODEL}


def _passages(library: Any, row: GridRow) -> list[Passage]:
    return [Passage.from_chunk(c, 0.0, "rule") for c in chunks_of(library, row.doc_id)]


def _by_rule(library: Any, row: GridRow, q: GridQuestion, fp: str, store: CellStore, compute: bool,
             whole: list[Passage] | None, heads: Callable[[list[Passage]], RowHeads | None] | None = None
             ) -> tuple[Cell | None, bool, list[Passage] | None]:
    """The cell of a typed or yes/no question decided by rule (issue #45): ``(cell, reused, passages)``
    -- the stored cell when the current checks made it (or when nothing is computed), else the rule's
    new cell; ``cell`` is None when there is none (``compute`` off and nothing stored; or a yes/no
    question the evidence does not decide: the model answers it). ``passages``: the agreement's
    passages, read once per row. ``heads(passages)``: the presence head's reading of the row (None:
    the heads are off); a typed question whose own words find nothing is read again as the topic head's
    category (:func:`clauselens.grid.rule.category_rule_cell`)."""
    old = store.get(row.row_key, q.id, fp)
    typed = uses_rule(q)
    if old is not None and ((old.check == CHECK_VERSION and (old.model == RULE_MODEL or not typed)) or (typed and not compute)):
        return old, True, whole
    if not compute:
        return None, False, whole
    base = _rule_base(row, q, fp)
    started = time.perf_counter()
    if whole is None and not row.error:
        try:
            whole = _passages(library, row)
        except Exception as e:  # noqa: BLE001 - a typed cell reports it; a yes/no one goes to the model path
            if typed:
                return Cell(**base, status="error", reason=_error_text(e)), False, whole
            whole = []
    if typed:
        try:
            if row.error:
                raise ClauselensError(row.error)
            cell: Cell | None = rule_cell(base, q, whole or [])
            if cell is not None and checks_category(cell) and heads is not None and whole:
                cell = cross_checked(cell, category_rule_cell(base, q, whole, heads(whole)))
            if cell is not None:
                cell = corroborate_check(library, row.doc_id, q, cell)  # a period or sum the question's words alone found
        except Exception as e:  # noqa: BLE001 - one cell's failure never stops the grid
            cell = Cell(**base, status="error", reason=_error_text(e))
    else:
        cell = yes_no_cell(base, q, whole) if whole else None
    if cell is None:
        return None, False, whole
    return cell.model_copy(update={"seconds": round(time.perf_counter() - started, 2)}), False, whole


def _row_heads_once() -> Callable[[list[Passage]], RowHeads | None]:
    """The presence head's reading of one row, computed on first need and kept."""
    cache: list[RowHeads | None] = []

    def get(passages: list[Passage]) -> RowHeads | None:
        if not cache:
            cache.append(row_heads([p.text for p in passages]))
        return cache[0]

    return get


def _heads_cell(library: Any, row: GridRow, q: GridQuestion, heads: Any, store: CellStore, k: int, *, compute: bool,
                on: bool, whole: list[Passage] | None, rh_of: Any) -> tuple[Cell | None, bool, list[Passage] | None]:
    """A yes/no cell the trained heads decide (a CUAD preset category by the presence head; a user's question
    the topic head reads, issue #45): ``(cell, reused, whole)``, or ``(None, False, whole)`` when they do not."""
    got = presence_answer(heads, q.category) if q.type == "yes_no" else None
    if got is not None:
        fp = fingerprint(q, PRESENCE_MODEL, k)
        old = store.get(row.row_key, q.id, fp)
        if old is not None:
            return old, True, whole
        base0: dict[str, Any] = {"row_key": row.row_key, "question_id": q.id, "fingerprint": fp, "agreement": row.agreement,
                                 "doc_id": row.doc_id, "source_path": row.source_path, "model": PRESENCE_MODEL}
        status: Status = "answered" if got.answer == "Yes" else "not found"
        return Cell(**base0, status=status, answer=got.answer, quote=got.quote, reason=got.reason), False, whole
    if q.type == "yes_no" and (on or not compute):
        fp = fingerprint(q, PRESENCE_MODEL, k)
        old = store.get(row.row_key, q.id, fp)
        if old is not None and (old.check == CHECK_VERSION or not compute):
            return old, True, whole
        if on:
            try:
                whole = whole if whole is not None else _passages(library, row)
                hc = head_yes_no_cell({**_rule_base(row, q, fp), "model": PRESENCE_MODEL}, q, whole, rh_of(whole))
            except Exception as e:  # noqa: BLE001 - one cell's failure never stops the grid
                hc = Cell(**{**_rule_base(row, q, fp), "model": PRESENCE_MODEL}, status="error", reason=_error_text(e))
            if hc is not None:
                return hc, False, whole
    return None, False, whole


def run_grid(library: Any, rows: Sequence[GridRow], questions: Sequence[GridQuestion], store: CellStore, *,
             model: Any = None, model_id: str = "", concurrency: int = 1, k: int = DEFAULT_K, method: str = "auto",
             on_cell: CellCallback | None = None, answer: Callable[..., Any] = ask_model, compute: bool = True,
             presence: bool = False, yes_no_model: bool = False) -> GridStats:
    """Fill every missing cell of ``rows`` × ``questions`` into ``store`` (see the module
    docstring). ``model``: a langchain chat model (``None``: retrieval only is not allowed;
    every question needs the answer step). ``compute=False`` only counts the stored cells (an
    export of a partial grid). ``presence=True``: yes/no questions of a CUAD category are answered by
    the clause presence head (:mod:`clauselens.grid.presence`, no model call; model id
    ``presence-head``). ``yes_no_model=False``: a yes/no cell that neither the rules nor the heads decide is
    *unverified* with no model call (model id :data:`OPEN_MODEL`; ``Settings.grid_yes_no_model``). Returns :class:`GridStats`."""
    t0 = time.perf_counter()
    stats = GridStats(total=len(rows) * len(questions))
    fps = {q.id: fingerprint(q, model_id, k) for q in questions}
    done = 0
    pending: dict[Future, tuple[dict[str, Any], GridQuestion, Any, float]] = {}

    def record(cell: Cell, reused: bool) -> None:
        nonlocal done
        done += 1
        stats.by_status[cell.status] = stats.by_status.get(cell.status, 0) + 1
        if reused:
            stats.reused += 1
        else:
            store.put(cell)
            stats.computed += 1
        if on_cell:
            on_cell(cell, done, stats.total, reused)

    def collect(block: bool) -> None:
        if not pending:
            return
        finished, _ = wait(list(pending), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for fut in finished:
            base, q, result, started = pending.pop(fut)
            secs = time.perf_counter() - started
            stats.model_seconds += secs
            try:
                cell = finish({**base, "seconds": round(secs, 2)}, q, result, fut.result())
            except Exception as e:  # noqa: BLE001 - one cell's failure never stops the grid
                cell = Cell(**base, status="error", reason=_error_text(e), seconds=round(secs, 2))
            record(cell, False)

    workers = max(1, int(concurrency))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="grid") as pool:
        for row in rows:
            on = presence and compute and not row.error
            heads = (contract_presence(chunks_of(library, row.doc_id))
                     if on and any(q.type == "yes_no" and cuad_question(q.category) for q in questions) else None)
            whole: list[Passage] | None = None  # the agreement's passages, read once per row by the typed rule
            rh_of = _row_heads_once()

            for q in questions:
                if uses_rule(q):  # typed columns: the value is read by rule, the model is not asked (issue #45)
                    cell, reused, whole = _by_rule(library, row, q, fps[q.id], store, compute, whole, rh_of if on else None)
                    if cell is not None:
                        record(cell, reused)
                    continue
                cell, reused, whole = _heads_cell(library, row, q, heads, store, k, compute=compute, on=on, whole=whole,
                                                  rh_of=rh_of)
                if cell is not None:
                    record(cell, reused)
                    continue
                if q.type == "yes_no" and compute and not row.error:  # the evidence first; the model when it does not decide
                    cell, reused, whole = _yes_no_by_rule(library, row, q, fps[q.id], store, whole, yes_no_model)
                    if cell is not None:
                        record(cell, reused)
                        continue
                base: dict[str, Any] = {"row_key": row.row_key, "question_id": q.id, "fingerprint": fps[q.id],
                                        "agreement": row.agreement, "doc_id": row.doc_id, "source_path": row.source_path,
                                        "model": model_id}
                old = store.get(row.row_key, q.id, fps[q.id])
                if old is not None and compute and old.model in (RULE_MODEL, OPEN_MODEL):
                    old = None  # the rule decided it once and no longer does: the model answers
                if (old is not None and compute and old.check != CHECK_VERSION and not row.error
                        and (old.status in ("answered", "unverified") or old.reply is not None)):
                    try:  # new checks, same model reply: no model call
                        cell = finish({**base, "seconds": old.seconds}, q, retrieve(library, row.doc_id, q, k), stored_reply(old))
                    except Exception:  # noqa: BLE001 - keep the stored cell when it cannot be re-checked
                        cell = old
                    if cell is not old:
                        stats.rechecked += 1
                        store.put(cell)
                    record(cell, True)
                    continue
                stale_skip = old is not None and old.reply is None and old.check not in ("", CHECK_VERSION)
                if old is not None and (old.status != "error" or not compute) and not (compute and stale_skip):
                    record(old, True)
                    continue
                if not compute:
                    continue
                if row.error:
                    record(Cell(**base, status="error", reason=row.error), False)
                    continue
                started = time.perf_counter()
                try:
                    result = retrieve(library, row.doc_id, q, k)
                except Exception as e:  # noqa: BLE001
                    record(Cell(**base, status="error", reason=_error_text(e)), False)
                    continue
                if not result.abstained and result.passages and off_topic(q, result.passages) and whole:
                    result = _on_topic_instead(q, result, whole, k)  # the agreement says it where the ranking did not look
                if result.abstained or not result.passages or off_topic(q, result.passages):
                    if result.passages and not result.abstained:
                        result = result.model_copy(update={"reason": "no retrieved passage mentions the question's topic "
                                                                      f"({terms_preview(q)})"})
                    record(finish({**base, "seconds": round(time.perf_counter() - started, 2)}, q, result, None), False)
                    continue
                retrieval_s = time.perf_counter() - started
                while len(pending) >= workers:
                    collect(block=True)
                # a cell's seconds: its retrieval + its model call, not the wait for a free worker
                fut = pool.submit(answer, model, q, result.passages, method=method)
                pending[fut] = (base, q, result, time.perf_counter() - retrieval_s)
                collect(block=False)
        while pending:
            collect(block=True)
    stats.seconds = time.perf_counter() - t0
    return stats


#: The model id of a yes/no cell left for a reviewer with no model call (``run_grid(yes_no_model=False)``).
OPEN_MODEL = "rule-open"


def _yes_no_by_rule(library: Any, row: GridRow, q: GridQuestion, fp: str, store: CellStore, whole: list[Passage] | None,
                    yes_no_model: bool) -> tuple[Cell | None, bool, list[Passage] | None]:
    """A yes/no cell the agreement's sentences decide, else (``yes_no_model`` off) one left open for a reviewer; ``(None, False,
    whole)``: the model answers it."""
    cell, reused, whole = _by_rule(library, row, q, fp, store, True, whole)
    if cell is not None and not (yes_no_model and cell.model == OPEN_MODEL):
        return cell, reused, whole
    return (None, False, whole) if yes_no_model else (_left_open(row, q, fp), False, whole)


def _left_open(row: GridRow, q: GridQuestion, fp: str) -> Cell:
    return Cell(**{**_rule_base(row, q, fp), "model": OPEN_MODEL}, check=CHECK_VERSION, status="unverified",
                reason="neither the agreement's sentences nor the trained heads decide it; left for a reviewer (no model call: the "
                       "default model's checked yes/no answers were wrong on 23 of 48 keyed dev cells; CLAUSELENS_GRID_YES_NO_MODEL=true "
                       "or grid --yes-no-model asks it)")


def _on_topic_instead(q: GridQuestion, result: SearchResult, whole: Sequence[Passage], k: int) -> SearchResult:
    """``result`` with the agreement's passages that do use the question's topic terms (most terms first, then document order),
    when its ranked passages use none: a yes/no cell is "not found" (read "No") only when the agreement never says the topic
    (a keyed dev set: "does one side have to cover the other?" if an outsider sues, "No" for three agreements with an
    indemnity the ranking missed)."""
    vocabulary = set(vocabulary_terms(q))  # the contract's wording only: a bare word ("keep", "stuff") says nothing of the topic
    said = [(len(set(topic_check(q, p.text)) & vocabulary), i, p) for i, p in enumerate(whole)]
    best = [p for n, _i, p in sorted(said, key=lambda x: (-x[0], x[1])) if n][:k]
    return result.model_copy(update={"passages": best, "reason": None}) if best else result


__all__ = ["OPEN_MODEL", "GridRow", "GridStats", "run_grid"]
