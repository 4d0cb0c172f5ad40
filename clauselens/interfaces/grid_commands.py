"""``clauselens grid LIBRARY_OR_FOLDER --questions q.yaml|csv | --preset cuad --out review.xlsx``.

A folder (or files) is first added to a library (incremental, as ``library add``; the library
is named after the folder unless ``--library`` says otherwise), then every agreement × question
cell is filled by :func:`clauselens.grid.run_grid`: retrieval through the library pinned to the
agreement, a short typed answer from the model with a verified quote, clause and page. Cells
are stored as they are computed (``<out>.cells.sqlite`` beside the output), so an interrupted
or repeated run does only the missing cells. ``--concurrency N`` sends N model calls at once to
an OpenAI-compatible server (``--base-url``); the in-process model answers one cell at a time.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from clauselens.config import Settings
from clauselens.errors import ClauselensError, ConfigError, IngestError
from clauselens.interfaces.consoles import add_progress, fail, out_console  # one error printer for the library and grid commands
from clauselens.interfaces.consoles import err_console as make_err_console

console = out_console()
err_console = make_err_console()


_QUESTIONS_HELP = ("Questions: .yaml or .csv with id, question, type (yes_no, date, duration, amount, party, jurisdiction, text) "
                   "and optional search.")


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("ETA"), TimeRemainingColumn(), TextColumn("[cyan]{task.fields[rate]}"),
                    TextColumn("[dim]{task.fields[detail]}"), console=err_console, transient=False)


def grid_model_settings(settings: Settings, *, model: str | None, base_url: str | None, api_key: str | None) -> Any:
    """The answer model's settings: the Interrogator's (``CLAUSELENS_INTERROGATOR_MODEL__*``),
    overridden by ``--base-url`` / ``--model`` / ``--api-key``."""
    ms = settings.interrogator_model
    upd: dict[str, Any] = {}
    if base_url:
        upd.update(backend="openai", base_url=base_url, model=model or ("local" if ms.model.startswith("qwen2.5-coder") else ms.model))
        if api_key:
            upd["api_key"] = api_key
    elif model:
        upd.update(backend="llamacpp", model=model)
    return ms.model_copy(update=upd)


def grid_rows(settings: Settings, source: str, library_name: str | None, *, ocr: bool = True,
              limit: int | None = None) -> tuple[Any, list[Any]]:
    """The library and the grid's rows for ``source``: a library name/path (every agreement),
    or contract files/folders (added to the library first; files that fail become error rows).
    ``limit``: only the first N agreements -- of a folder, only its first N files are added."""
    from clauselens.agents.resources import ModelPool
    from clauselens.grid import GridRow
    from clauselens.library.opening import open_library

    p = Path(source).expanduser()
    if ("/" in source or p.suffix) and not p.exists():
        raise ConfigError(f"no such folder, file or library: {source}")
    is_contracts = p.is_file() or (p.is_dir() and not (p / "library.json").exists())
    if not is_contracts:
        lib = open_library(settings, library_name or source, chat_model=ModelPool(settings).researcher)
        return lib, [GridRow(row_key=r.sha256, agreement=r.label, source_path=r.path, doc_id=r.doc_id)
                     for r in lib.agreements()][:limit]
    from clauselens.agents.archivist import load_one
    from clauselens.parsing import DocumentStore

    settings = settings.model_copy(update={"ocr": ocr})
    lib = open_library(settings, library_name or (p.stem if p.is_file() else p.resolve().name), create=True,
                       chat_model=ModelPool(settings).researcher)
    store = DocumentStore(settings.store_dir / "documents") if settings.use_store else None
    from clauselens.library import collect_files
    from clauselens.parsing.loader import file_sha256

    files, _ = collect_files([p])
    files = files[:limit]  # --limit 1 on a folder adds one file, not the whole folder
    with _progress() as bar:
        progress = add_progress(bar, rate="")
        rep = lib.add(files if limit else [p], load=lambda f: load_one(f, settings, store=store), progress=progress)
    by_path = {r.path: r for r in lib.agreements()}
    failed = dict(rep.failed)
    rows = []
    for f in files:
        r = by_path.get(str(f))
        if r is not None and str(f) not in failed:
            rows.append(GridRow(row_key=r.sha256, agreement=r.label, source_path=r.path, doc_id=r.doc_id))
            continue
        try:
            key = file_sha256(f)
        except OSError:
            key = str(f)
        msg = failed.get(str(f), "not added to the library")
        rows.append(GridRow(row_key=key, agreement=f.name, source_path=str(f), error=f"could not read this contract: {msg}"))
    if not files:
        raise ConfigError(f"no contracts (.pdf .docx .txt .md) in {source}")
    return lib, rows


_PRESENCE_HELP = ("Yes/no columns of a CUAD category, and of a question the topic head reads as one, from the clause presence head, "
                  "no model call (default: on when installed; see below).")


def grid_cmd(
    source: Annotated[str, typer.Argument(metavar="LIBRARY_OR_FOLDER", help="A library name or path, or contract files/folder (added to a "
                                                                            "library first).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output: .xlsx, .csv, .html or .json.")],
    questions: Annotated[Optional[Path], typer.Option("--questions", "-q", help=_QUESTIONS_HELP)] = None,
    preset: Annotated[Optional[str], typer.Option("--preset", help="Built-in questions: 'cuad' (CUAD's 41 clause categories).")] = None,
    library: Annotated[Optional[str], typer.Option("--library", "-l", help="Library to add a folder to (default: named after the folder).")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-j", min=1, max=64, help="Parallel model calls (OpenAI-compatible server only).")] = 1,
    model: Annotated[Optional[str], typer.Option("--model", help="Bundled model name or .gguf path; with --base-url the server's model "
                                                                 "name.")] = None,
    base_url: Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible server's base URL, ending in /v1.")] = None,
    api_key: Annotated[Optional[str], typer.Option("--api-key", help="API key for --base-url.")] = None,
    k: Annotated[int, typer.Option("--k", min=1, max=20, help="Passages the model reads per cell.")] = 3,
    store: Annotated[Optional[Path], typer.Option("--store", help="Cell store (default: OUT with suffix .cells.sqlite).")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Only the first N agreements.")] = None,
    only: Annotated[Optional[str], typer.Option("--only", help="Only these question ids (comma-separated).")] = None,
    ocr: Annotated[bool, typer.Option("--ocr/--no-ocr", help="OCR image-only pages when adding files.")] = True,
    export_only: Annotated[bool, typer.Option("--export-only", help="Write OUT from the stored cells; compute nothing (missing cells show "
                                                                    "as pending).")] = False,
    presence: Annotated[Optional[bool], typer.Option("--presence/--no-presence", help=_PRESENCE_HELP)] = None,
    yes_no_model: Annotated[bool, typer.Option("--yes-no-model", help="Ask the model the yes/no cells left open.")] = False,
) -> None:
    """Fill a review grid: one row per agreement, one column per question; each cell a short
    answer with its verified quote, clause, page, link and status. Resumable. Typed and yes/no columns need no model server (a
    yes/no cell neither the rules nor the heads decide is left for a reviewer unless --yes-no-model or CLAUSELENS_GRID_YES_NO_MODEL=1);
    CLAUSELENS_GRID_PRESENCE=0 turns the heads off."""
    from clauselens.grid import CellStore, check_out_path, load_questions, run_grid, status_counts, write_grid
    from clauselens.grid import preset as get_preset

    try:
        out = check_out_path(out)
        if (questions is None) == (preset is None):
            raise ConfigError("give exactly one of --questions FILE or --preset cuad")
        qs = load_questions(questions) if questions is not None else get_preset(preset or "")
        if only:
            want = [x.strip() for x in only.split(",") if x.strip()]
            unknown = [x for x in want if x not in {q.id for q in qs}]
            if unknown:
                raise ConfigError(f"--only: unknown question id(s) {', '.join(unknown)}; ids: {', '.join(q.id for q in qs)}")
            qs = [q for q in qs if q.id in want]
        cells_at = store or out.with_suffix(".cells.sqlite")
        if export_only and not cells_at.is_file():
            raise ConfigError(f"--export-only: no cell store at {cells_at} (run the grid without --export-only first, "
                              "or name the store with --store)")
        settings = Settings()
        ms = grid_model_settings(settings, model=model, base_url=base_url, api_key=api_key)
        if ms.backend == "llamacpp" and concurrency > 1:
            err_console.print("[yellow]--concurrency applies to an OpenAI-compatible server (--base-url); "
                              "the in-process model answers one cell at a time.[/yellow]")
            concurrency = 1
        lib, rows = grid_rows(settings, source, library, ocr=ocr, limit=limit)
        from clauselens.llm import get_chat_model

        chat = get_chat_model(ms, settings.models_dir)
        model_id = f"{ms.backend}:{ms.model}"
        cell_store = CellStore(cells_at)
    except ClauselensError as e:
        fail(e)
        return
    n_cells = len(rows) * len(qs)
    console.print(f"Grid: {len(rows)} agreement{'' if len(rows) == 1 else 's'} × {len(qs)} questions = {n_cells} cells; model {escape(model_id)}, "
                  f"concurrency {concurrency}; cells stored in {escape(str(cell_store.path))}{'; export only: nothing is computed' * export_only}")
    stats = None
    interrupted = False
    with _progress() as bar:
        task = bar.add_task("Reading the stored cells" if export_only else "Filling the grid", total=n_cells, detail="", rate="")
        import time as _time

        t0 = _time.perf_counter()
        computed = 0

        def on_cell(cell: Any, done: int, total: int, reused: bool) -> None:
            nonlocal computed
            computed += 0 if reused else 1
            mins = (_time.perf_counter() - t0) / 60
            rate = f"{computed / mins:.1f} cells/min" if computed and mins > 0 else ""
            bar.update(task, completed=done, rate=rate, detail=escape(f"{cell.status}: {cell.question_id} · {cell.agreement[:40]}"))

        try:
            stats = run_grid(lib, rows, qs, cell_store, model=chat, model_id=model_id, concurrency=concurrency,
                             k=k, method=ms.structured_method, on_cell=on_cell, compute=not export_only,
                             presence=settings.grid_presence if presence is None else presence,
                             yes_no_model=yes_no_model or settings.grid_yes_no_model)
        except KeyboardInterrupt:
            interrupted = True
    cells = [c for c in cell_store.cells() if c.question_id in {q.id for q in qs}]
    info: dict[str, Any] = {"agreements": len(rows), "questions": len(qs), "cells": n_cells, "model": model_id,
                            "concurrency": concurrency, "written_utc": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if stats is not None:
        info.update(computed=stats.computed, reused=stats.reused, rechecked=stats.rechecked, seconds=round(stats.seconds, 1),
                    cells_per_minute=round(stats.cells_per_minute, 2))
    keys = {r.row_key for r in rows}
    info["by_status"] = status_counts(c for c in cells if c.row_key in keys)
    try:
        path = write_grid(out, rows, qs, cells, info)
    except (OSError, ClauselensError) as e:
        fail(e if isinstance(e, ClauselensError) else ConfigError(f"cannot write {out}: {e}"))
        return
    finally:
        cell_store.close()
    counts = ", ".join(f"{v} {k}" for k, v in info["by_status"].items())
    if interrupted:
        console.print(f"[yellow]Interrupted.[/yellow] Wrote what is done to {escape(str(path))}; run the same command again to finish.")
        raise typer.Exit(code=130)
    assert stats is not None
    rechecked = f", of which {stats.rechecked} re-checked" if stats.rechecked else ""
    rate = f" = {stats.cells_per_minute:.1f} cells/minute" if stats.computed else ""  # no rate when all cells were stored
    console.print(f"Wrote {escape(str(path))}: {counts}. This run computed {stats.computed} cells "
                  f"(reused {stats.reused}{rechecked}) in {stats.seconds:.1f}s{rate}.")
    bad_rows = [r for r in rows if r.error]
    if bad_rows:
        err_console.print(f"[bold red]{len(bad_rows)} contract(s) could not be read (their cells say error):[/bold red]")
        for r in bad_rows:
            err_console.print(f"  [red]- {escape(r.error)}[/red]")
        raise typer.Exit(code=IngestError.exit_code)
    if info["by_status"].get("error"):
        err_console.print(f"[yellow]{info['by_status']['error']} cell(s) failed; a rerun retries them. Why:[/yellow]")
        for reason, n in failure_reasons(c for c in cells if c.row_key in keys):
            err_console.print(f"  [yellow]- {n} cell(s): {escape(reason)}[/yellow]")


def failure_reasons(cells: Any) -> list[tuple[str, int]]:
    """Each distinct reason of the ``error`` cells once, with how many cells gave it, most frequent first
    (an unreachable model server fails every model cell with the same reason; tryout, issue #45)."""
    from collections import Counter

    return Counter(c.reason or "no reason recorded" for c in cells if c.status == "error").most_common()


__all__ = ["failure_reasons", "grid_cmd", "grid_model_settings", "grid_rows"]
