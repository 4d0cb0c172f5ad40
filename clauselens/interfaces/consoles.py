"""The rich consoles of the command line.

Piped or redirected output has no terminal width, and rich then wraps at 80 columns: tables
squeeze titles letter by letter and progress lines break mid-sentence in a log. A non-terminal
stdout gets 160 columns instead (``COLUMNS`` in the environment still wins); errors go to
stderr soft-wrapped (whole lines, never cut).
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

#: Width of a console whose stdout is not a terminal (and ``COLUMNS`` is unset).
PIPED_WIDTH = 160


def out_console() -> Console:
    """The console for a command's normal output."""
    return Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH)


def err_console() -> Console:
    """The console for error messages (stderr)."""
    return Console(stderr=True, soft_wrap=True)
