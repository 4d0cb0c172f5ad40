"""What produced a result: Python and package versions, and the git commit of the checkout
(with whether the given paths had uncommitted changes). Benchmarks store it beside every
number they write (``benchmarks/results/*.json``)."""

from __future__ import annotations

import contextlib
import platform
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parents[1]


def warn_other_tree(script: str | None = None) -> bool:
    """Warn (stderr) and return True when ``script`` (default: the running program) lives in a
    tree other than the one ``clauselens`` was imported from: a benchmark started as a script from a
    copy of the tree (a git archive) imports the installed package, not the copy's, unless
    PYTHONPATH names the copy -- its numbers would be the other tree's."""
    path = Path(script if script is not None else sys.argv[0]).resolve()
    if not path.is_file() or path.parent.name != "benchmarks" or path.parents[1] == REPO:
        return False
    print(f"warning: clauselens is imported from {REPO}, not from {path.parents[1]}: "
          f"set PYTHONPATH={path.parents[1]} to measure that tree's code", file=sys.stderr)
    return True


def run_provenance(packages: Sequence[str], dirty_paths: Sequence[str] = ("clauselens", "benchmarks")) -> dict:
    """``{"python": ..., <package>: version or None, "clauselens_commit": sha, "dirty": bool}``.

    ``dirty`` is True when any of ``dirty_paths`` (relative to the repository root) has
    uncommitted changes. Outside a git checkout the commit keys are simply absent.
    """
    v: dict = {"python": platform.python_version(), "clauselens_path": str(REPO)}
    warn_other_tree()
    for pkg in packages:
        try:
            v[pkg] = version(pkg)
        except PackageNotFoundError:
            v[pkg] = None
    with contextlib.suppress(OSError):  # no git on this machine: the commit keys stay absent (see above)
        v["clauselens_commit"] = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                                                text=True).stdout.strip()
        v["dirty"] = bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", *dirty_paths],
                                         capture_output=True, text=True).stdout.strip())
    return v
