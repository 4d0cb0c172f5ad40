"""The module map in docs/DESIGN.md, enforced: data flows parsing -> retrieval -> library -> agents ->
graph -> pipeline -> interfaces/cli (and library + llm + reports -> grid -> interfaces/cli), never
backwards through imports; the leaf modules (errors, config, provenance, events, extras) every
layer may import import nothing of the package but each other."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "clauselens"

#: Top-level modules every layer may import (docs/DESIGN.md, "Module map", first row): data and
#: messages only, so they import nothing of the package but each other.
LEAVES = {"errors", "config", "provenance", "events", "extras"}
AREAS = LEAVES | {"parsing", "heads", "llm", "retrieval", "library", "reports", "agents", "grid", "playbook", "graph", "pipeline",
                  "interfaces", "cli"}

#: package area -> areas it must not import (docs/DESIGN.md, "Module map").
FORBIDDEN: dict[str, set[str]] = {
    **{leaf: AREAS - LEAVES for leaf in LEAVES},
    "parsing": {"retrieval", "library", "agents", "graph", "llm", "reports", "grid", "pipeline", "interfaces", "cli"},
    # trained heads (issue #39): leaves and parsing types only; retrieval, library, reports, grid, agents use them
    "heads": {"llm", "retrieval", "library", "agents", "graph", "reports", "grid", "pipeline", "interfaces", "cli"},
    "llm": {"parsing", "retrieval", "library", "agents", "graph", "reports", "grid", "pipeline", "interfaces", "cli"},
    "retrieval": {"library", "agents", "graph", "reports", "grid", "pipeline", "interfaces", "cli"},
    "library": {"llm", "agents", "graph", "reports", "grid", "pipeline", "interfaces", "cli"},
    "reports": {"agents", "graph", "grid", "pipeline", "interfaces", "cli"},
    "agents": {"graph", "grid", "pipeline", "interfaces", "cli"},
    "grid": {"agents", "graph", "playbook", "pipeline", "interfaces", "cli"},
    # playbook review (issue #44): grid's values and presence, the library's passages, parsing, heads
    "playbook": {"agents", "graph", "pipeline", "interfaces", "cli"},
    "graph": {"grid", "pipeline", "interfaces", "cli"},
    "pipeline": {"grid", "interfaces", "cli"},
    "interfaces": set(),
}


def _area(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py")


def _imported_areas(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from clauselens import events`` imports the area named after the package
            names = [f"{node.module}.{a.name}" for a in node.names] if node.module == "clauselens" else [node.module]
        for n in names:
            parts = n.split(".")
            if parts[0] == "clauselens" and len(parts) > 1:
                out.add(parts[1])
    return out


FILES = sorted(p for p in PKG.rglob("*.py") if _area(p) in FORBIDDEN)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PKG)))
def test_no_backward_imports(path: Path) -> None:
    bad = _imported_areas(path) & FORBIDDEN[_area(path)]
    assert not bad, f"{path.relative_to(PKG)} imports {sorted(bad)}, against docs/DESIGN.md's module map"


def test_rule_catches_a_backward_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from clauselens.agents import researcher\nimport clauselens.graph.builder\n"
                     "from clauselens import events as ET\nfrom clauselens import __version__\n")
    assert _imported_areas(probe) == {"agents", "graph", "events", "__version__"}


def test_every_area_is_in_the_map() -> None:
    """A new top-level module or package must get a row (and rules) in the map, not slip past it."""
    assert {_area(p) for p in PKG.rglob("*.py")} - {"__init__"} == AREAS


def test_graph_modules_are_wiring_only() -> None:
    """``graph/`` wires the agents' node functions (issue #18): no node body is written there as a
    function, lambda or class nested in another function (the closures ``build_graph`` held)."""
    for path in sorted((PKG / "graph").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            nested = [n for n in ast.walk(fn) if n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))]
            assert not nested, f"graph/{path.name}: {fn.name} defines {type(nested[0]).__name__} at line {nested[0].lineno}"


#: Module pairs that still import each other (issue #43): library/ is being split by concern this
#: session (issue #42); empty this once library.py and versions.py no longer do.
MUTUAL_IMPORTS_ALLOWED: set[tuple[str, str]] = set()


def _module_imports() -> dict[str, set[str]]:
    """Module name -> the package modules it imports anywhere in its body (function-local imports too)."""
    mods = {".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__"): p for p in PKG.rglob("*.py")}
    out: dict[str, set[str]] = {}
    for name, path in mods.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found |= {m for m in (node.module, *(f"{node.module}.{a.name}" for a in node.names)) if m in mods}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name in mods}
        out[name] = found - {name}
    return out


def test_no_two_modules_import_each_other() -> None:
    """No import loop of two modules, even through a function-local import (issue #43: the
    Markdown and Word renderers did; their shared words are ``reports/render_parts.py`` now)."""
    imports = _module_imports()
    assert "clauselens.reports.render_parts" in imports["clauselens.reports.render_docx"]
    pairs = {tuple(sorted((a, b))) for a, bs in imports.items() for b in bs if a in imports.get(b, set())}
    assert pairs <= MUTUAL_IMPORTS_ALLOWED, f"modules that import each other: {sorted(pairs - MUTUAL_IMPORTS_ALLOWED)}"


def test_readme_architecture_table_matches_the_tree() -> None:
    """The README's architecture table names every package and top-level module of the tree, and
    nothing that is not there (issue #18)."""
    readme = (PKG.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    named: set[str] = set()
    for row in (line for line in section.splitlines() if line.startswith("| `clauselens/")):
        first_cell = row.split("|")[1]
        named |= {n.removeprefix("clauselens/").rstrip("/").removesuffix(".py") for n in re.findall(r"`([^`]+)`", first_cell)}
    assert named == AREAS
