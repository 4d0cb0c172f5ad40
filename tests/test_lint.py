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


def _event_literal(node: ast.expr) -> str | None:
    from clauselens.events import EVENT_TYPES

    return node.value if isinstance(node, ast.Constant) and node.value in EVENT_TYPES else None


def _is_type_read(node: ast.expr) -> bool:
    """``x["type"]`` or ``x.get("type")``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "type"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "type")


def test_event_types_are_written_and_matched_through_the_vocabulary() -> None:
    """An event's ``"type"`` is one of ``clauselens.events``' constants, never a bare string
    (issue #18): a misspelt ``"llm_cal"`` would silently match nothing."""
    found = []
    for path in sorted([*(REPO / "clauselens").rglob("*.py"), *(REPO / "benchmarks").rglob("*.py")]):
        if path == REPO / "clauselens" / "events.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            bare = None
            if isinstance(node, ast.Compare) and _is_type_read(node.left):
                bare = next((v for c in node.comparators for v in [_event_literal(c)] if v), None)
            elif isinstance(node, ast.Dict):
                bare = next((_event_literal(v) for k, v in zip(node.keys, node.values)
                             if isinstance(k, ast.Constant) and k.value == "type" and _event_literal(v)), None)
            if bare:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {bare!r}")
    assert not found, "bare event type strings (use clauselens.events' constants):\n" + "\n".join(found)


def _written_event_keys() -> list[tuple[str, str, set[str]]]:
    """``(where, kind, keys)`` of every event dict literal the package and the benchmarks write
    with ``"type": ET.<KIND>`` (keys of ``**`` splats are not known statically and not listed)."""
    from clauselens import events

    by_const = {name: getattr(events, name) for name in dir(events) if name.isupper() and getattr(events, name) in events.EVENT_TYPES}
    out = []
    for path in sorted([*(REPO / "clauselens").rglob("*.py"), *(REPO / "benchmarks").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            kind = next((by_const.get(v.attr) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)
                         and k.value == "type" and isinstance(v, ast.Attribute) and v.attr in by_const), None)
            if kind:
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                out.append((f"{path.relative_to(REPO)}:{node.lineno}", kind, keys))
    return out


def test_event_payloads_are_typed() -> None:
    """Every event kind has its TypedDict(s) in ``clauselens.events.PAYLOADS`` (issue #43), and
    every event the code writes uses only keys its kind's payload type declares."""
    from typing import get_type_hints

    from clauselens import events

    assert set(events.PAYLOADS) == set(events.EVENT_TYPES)
    declared = {kind: set().union(*(get_type_hints(t) for t in types)) for kind, types in events.PAYLOADS.items()}
    written = _written_event_keys()
    assert len({kind for _, kind, _ in written}) >= 15, "the scan found too few event writers"
    bad = [f"{where}: {kind} writes {sorted(keys - declared[kind])}" for where, kind, keys in written if keys - declared[kind]]
    assert not bad, "event keys not in their payload TypedDict (clauselens/events.py):\n" + "\n".join(bad)


#: Private names still imported from another module (issue #43): none left.
PRIVATE_IMPORTS_ALLOWED: set[str] = set()


def test_no_private_names_imported_across_modules() -> None:
    """A ``_name`` is its module's own: another module that needs it gets a public name (issue #43)."""
    found = []
    for path in sorted((REPO / "clauselens").rglob("*.py")):
        rel = str(path.relative_to(REPO))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("clauselens") and rel not in PRIVATE_IMPORTS_ALLOWED:
                found += [f"{rel}:{node.lineno}: {a.name} from {node.module}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "private names imported from another module:\n" + "\n".join(found)


#: docs/DESIGN.md's size rules (issue #43): a module of the package at most this many lines, a
#: function (with its nested functions) at most this many.
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 120
#: Modules others are still splitting this session (issue #42: library/); the lead empties it.
SIZE_ALLOWED: set[str] = set()


def _size_problems(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)
        if rel in SIZE_ALLOWED:
            continue
        text = path.read_text(encoding="utf-8")
        if (n := text.count("\n")) > MAX_MODULE_LINES:
            found.append(f"{rel}: {n} lines (> {MAX_MODULE_LINES})")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None \
                    and (n := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES:
                found.append(f"{rel}:{node.lineno}: {node.name} is {n} lines (> {MAX_FUNCTION_LINES})")
    return found


def test_modules_and_functions_are_short() -> None:
    """No module of the package over 600 lines, no function over 120 (docs/DESIGN.md, issue #43)."""
    found = _size_problems(REPO / "clauselens")
    assert not found, "split these (or, while another change splits them, name them in SIZE_ALLOWED):\n" + "\n".join(found)


def test_size_rule_catches_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n", encoding="utf-8")
    assert [p.split(": ", 1)[1] for p in _size_problems(tmp_path)] == [f"long is {MAX_FUNCTION_LINES + 1} lines (> 120)"]


def _definitions(name: str) -> list[str]:
    """Where the package defines ``name`` at module level (a function, class or assignment)."""
    out = []
    for path in sorted((REPO / "clauselens").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names: list[str] = []
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            if name in names:
                out.append(f"{path.relative_to(REPO)}:{node.lineno}")
    return out


@pytest.mark.parametrize("name", ["NLILabel", "count_tokens", "DocumentSummary"])
def test_one_definition_of_each_shared_term(name: str) -> None:
    """One vocabulary (issue #18): the NLI label, the token counter and the document summary are
    defined once (reports.model, llm.structured, parsing.types) and imported everywhere else."""
    assert len(_definitions(name)) == 1, f"{name} is defined more than once: {_definitions(name)}"
