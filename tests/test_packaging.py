"""pyproject.toml declares what the code imports, and nothing it does not (issue #18): every
third-party module imported by ``clauselens/`` or ``benchmarks/`` comes from a declared
dependency (core or an extra), every declared dependency is imported somewhere (or is listed
below with why it is declared anyway), and ``scripts/setup.sh`` installs every extra, so the
README's two commands (and CI) have everything the demo and the tests need."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))

#: Declared but not imported by name, on purpose.
NOT_IMPORTED = {
    "torch": "the backend of sentence-transformers; pinned (and installed CPU-only by scripts/setup.sh)",
    "transformers": "a version constraint on sentence-transformers' dependency",
    "python-multipart": "FastAPI needs it to parse the web UI's form uploads",
    "langgraph-checkpoint-sqlite": "imported as langgraph.checkpoint.sqlite (a namespace package)",
    "optimum-onnx": "sentence-transformers' ONNX backend imports it (as optimum.onnxruntime) for MiniLM on ONNX Runtime",
}
#: Extras that are not import-level dependencies of the code.
NOT_CODE_EXTRAS = {"models", "dev"}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(req: str) -> str:
    return norm(re.split(r"[\s\[<>=!~;]", req.strip(), maxsplit=1)[0])


def declared(*, code_only: bool = False) -> dict[str, str]:
    """Distribution name -> where it is declared (``core`` or the extra's name); ``code_only``
    leaves out the extras that are not the code's dependencies (models, dev)."""
    out = {requirement_name(r): "core" for r in PYPROJECT["project"]["dependencies"]}
    for extra, reqs in PYPROJECT["project"]["optional-dependencies"].items():
        if not (code_only and extra in NOT_CODE_EXTRAS):
            out.update({requirement_name(r): extra for r in reqs if requirement_name(r) not in out})
    return out


def imported_modules(*dirs: str) -> dict[str, str]:
    """Top-level third-party module -> one file importing it."""
    own = {"clauselens", "benchmarks", "tests"} | {f.stem for d in dirs for f in (REPO / d).glob("*.py")}  # + sibling scripts
    out: dict[str, str] = {}
    for d in dirs:
        for f in sorted((REPO / d).rglob("*.py")):
            for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for n in names:
                    top = n.split(".")[0]
                    if top not in own and top not in sys.stdlib_module_names and not (f.parent / f"{top}.py").exists():  # a sibling
                        out.setdefault(top, str(f.relative_to(REPO)))
    return out


def test_every_imported_package_is_declared() -> None:
    dists = packages_distributions()
    decl = declared()
    missing = {m: where for m, where in imported_modules("clauselens", "benchmarks").items()
               if not any(norm(d) in decl for d in dists.get(m, []))}
    assert not missing, f"imported but not declared in pyproject.toml (module: a file importing it): {missing}"


def test_every_declared_dependency_is_imported() -> None:
    dists = packages_distributions()
    used = {norm(d) for m in imported_modules("clauselens", "benchmarks") for d in dists.get(m, [])}
    unused = sorted(d for d in declared(code_only=True) if d not in used and d not in {norm(n) for n in NOT_IMPORTED})
    assert not unused, f"declared in pyproject.toml but never imported: {unused} (drop them, or say why in NOT_IMPORTED)"


def test_setup_installs_every_extra() -> None:
    setup = (REPO / "scripts" / "setup.sh").read_text(encoding="utf-8")
    m = re.search(r"pip install -q -e '\.\[([a-z,]+)\]'", setup)
    assert m, "scripts/setup.sh no longer installs the project with its extras"
    assert set(m.group(1).split(",")) == set(PYPROJECT["project"]["optional-dependencies"])
