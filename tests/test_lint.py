"""Static checks run from the README's test command (`make test`), so CI runs them (issue #18):
ruff on the package, the benchmarks and the tests (rules: ``[tool.ruff]`` in pyproject.toml), and
mypy on the package (``[tool.mypy]``; every module is checked: no override ignores a module's errors).
``scripts/setup.sh test`` installs both (the ``dev`` extra), so in CI neither is skipped."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str | None:
    """The tool installed beside this Python (the venv's), else one on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def test_ruff_passes() -> None:
    ruff = _tool("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (scripts/setup.sh test installs it: pip install -e '.[dev]')")
    res = subprocess.run([ruff, "check", "--no-cache", "clauselens", "benchmarks", "tests"], cwd=REPO,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"ruff found problems (fix them, or `ruff check --fix`):\n{res.stdout}{res.stderr}"


def test_mypy_passes() -> None:
    mypy = _tool("mypy")
    if mypy is None:
        pytest.skip("mypy is not installed (scripts/setup.sh test installs it: pip install -e '.[dev]')")
    # this Python's packages (the venv's), also when the mypy found is another install's
    res = subprocess.run([mypy, "--python-executable", sys.executable, "clauselens"], cwd=REPO,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, f"mypy found problems:\n{res.stdout}{res.stderr}"


def test_mypy_checks_every_module() -> None:
    """No ``[[tool.mypy.overrides]]`` switches a clauselens module's errors off (issue #18: the
    last one, ``clauselens.grid.*``, went once the grid was clean)."""
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = cfg["tool"].get("mypy", {}).get("overrides", [])
    ignored = [o["module"] for o in overrides if o.get("ignore_errors")]
    assert not ignored, f"mypy skips the errors of {ignored}: make them type-clean instead"


#: getattr's object, as source text, when it is a settings object: ``settings``, ``self.settings``,
#: ``x.retrieval`` (RetrievalSettings) or the benchmarks' ``s = Settings()``.
_SETTINGS_OBJECT = re.compile(r"(?:^|\.)(?:settings|retrieval)$|^s$")


def test_no_getattr_reads_of_settings() -> None:
    """Every setting is a declared field read as an attribute (issue #18): a ``getattr`` on a
    settings object hides a misspelt or undeclared name behind a default, and mypy cannot see it."""
    found = []
    for path in sorted([*(REPO / "clauselens").rglob("*.py"), *(REPO / "benchmarks").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                    and node.args:
                obj = ast.unparse(node.args[0])
                if _SETTINGS_OBJECT.search(obj) or (path.name == "config.py" and obj == "self"):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "getattr on settings (declare the field and read it):\n" + "\n".join(found)
