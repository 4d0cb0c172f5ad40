"""The rich consoles of the command line, the one error printer of its commands (:func:`fail`)
and the library-add progress bars the library and grid commands share (:func:`add_progress`).

Piped or redirected output has no terminal width, and rich then wraps at 80 columns: tables
squeeze titles letter by letter and progress lines break mid-sentence in a log. A non-terminal
stdout gets 160 columns instead (``COLUMNS`` in the environment still wins); errors go to
stderr soft-wrapped (whole lines, never cut).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from rich.progress import Progress

    from clauselens.errors import ClauselensError

#: Width of a console whose stdout is not a terminal (and ``COLUMNS`` is unset).
PIPED_WIDTH = 160


def out_console() -> Console:
    """The console for a command's normal output."""
    return Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH)


def err_console() -> Console:
    """The console for error messages (stderr)."""
    return Console(stderr=True, soft_wrap=True)


def fail(e: ClauselensError) -> NoReturn:
    """Print ``e``'s message in red on stderr and exit with its exit code (no traceback)."""
    import typer

    err_console().print(f"[bold red]Error:[/bold red] [red]{escape(str(e))}[/red]")
    raise typer.Exit(code=e.exit_code)


def add_progress(bar: Progress, **fields: Any) -> Any:
    """A ``Library.add`` progress callback drawing one bar per stage on ``bar`` (``fields``:
    extra task fields the bar's columns read, e.g. ``rate=""``)."""
    tasks: dict[str, Any] = {}

    def progress(stage: str, i: int, n: int, detail: str) -> None:
        label = {"add": "Adding agreements", "index": "Building the search index"}.get(stage, stage)
        if stage not in tasks:
            tasks[stage] = bar.add_task(label, total=n, detail="", **fields)
        bar.update(tasks[stage], completed=i, total=n, detail=escape(detail[:50]))

    return progress
