"""Clause QA with MiniLM on ONNX Runtime against PyTorch, on the library the dev numbers come from
(issue #42: a change of how MiniLM runs must keep the clause-QA dev numbers and existing libraries).

The clause-QA CUAD library (``benchmarks/clause_qa.py --setting cuad462``: 462 agreements, its
passages embedded by PyTorch MiniLM) is asked the dev questions (``clause-qa-dev``, 100) and the
lay ones (``clause-qa-lay``, 60) through ``Library.search``, exactly as ``clause_qa`` asks them, once
per runtime, each in a fresh process whose embedder cache is empty (every question is encoded by
that runtime; a runtime's vectors never come from the shared cache). The library's stored passage
vectors are the PyTorch ones in both runs: this is what an existing library sees after the change.

Reported per runtime and question set: ``clause_qa.summarise`` (top-5 hit rates per kind with
Clopper-Pearson intervals, unanswerable answered, abstentions); and across runtimes the number of
questions whose top 5 (file, span, method) or abstention differ.

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m \\
        benchmarks.embed_runtime_clause_qa
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "embed_runtime_clause_qa.json"
SETS = {"dev": REPO.parent / "shared" / "data" / "clause-qa-dev" / "questions.jsonl",
        "lay": REPO.parent / "shared" / "data" / "clause-qa-lay" / "questions.jsonl"}


def child(runtime: str, out: Path) -> None:
    """Ask both question sets with MiniLM on ``runtime``; write the rows per set to ``out``."""
    from benchmarks import clause_qa
    from clauselens.retrieval import embedders

    cache = Path(tempfile.mkdtemp(prefix=f"qa-{runtime}-"))

    def get_embedder(name: str, cache_dir: Path | None = None) -> Any:
        inner = embedders.load_embedder(name, cache_dir, runtime=runtime)  # type: ignore[arg-type]
        return embedders.CachedEmbedder(inner, cache / f"{inner.name}.sqlite")

    embedders.get_embedder = get_embedder  # type: ignore[assignment]
    rows: dict[str, Any] = {}
    for name, path in SETS.items():
        qs = clause_qa.load_questions(path)
        lib = clause_qa.library_for("cuad462", "minilm", qs)
        got = clause_qa.run(lib, qs)
        rows[name] = {"rows": got, "summary": clause_qa.summarise(got, qs),
                      "runtime_used": getattr(getattr(lib.embedder, "inner", None), "runtime", "?")}
    out.write_text(json.dumps(rows))


def differing(a: list[dict], b: list[dict]) -> list[str]:
    """Ids of the questions whose top 5 or abstention differ between two runs."""
    key = ("abstained", "passages")
    return [x["id"] for x, y in zip(a, b) if any(x[k] != y[k] for k in key)]


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runtimes", nargs="+", default=["torch", "onnx"])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--_child", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if a._child:
        child(a._child[0], Path(a._child[1]))
        return
    got: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rt in a.runtimes:
            path = Path(tmp) / f"{rt}.json"
            subprocess.run([sys.executable, "-m", "benchmarks.embed_runtime_clause_qa", "--_child", rt, str(path)],
                           cwd=REPO, check=True)
            got[rt] = json.loads(path.read_text())
    ref = a.runtimes[0]
    res = {"benchmark": "embed_runtime_clause_qa", "issue": 42, "method": __doc__.split("\n\n")[1:3],
           "data": {k: str(v) for k, v in SETS.items()}, "setting": "cuad462",
           "summaries": {rt: {s: {"summary": v[s]["summary"], "runtime_used": v[s]["runtime_used"]} for s in SETS}
                         for rt, v in got.items()},
           "differing_from_" + ref: {rt: {s: differing(got[ref][s]["rows"], v[s]["rows"]) for s in SETS}
                                     for rt, v in got.items() if rt != ref},
           "questions": {s: len(got[ref][s]["rows"]) for s in SETS},
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "load_1min_after": round(os.getloadavg()[0], 2),
           "command": " ".join(["python", "-m", "benchmarks.embed_runtime_clause_qa", *(argv if argv is not None else sys.argv[1:])]),
           "clauselens_commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                               capture_output=True, text=True).stdout.strip()}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: res[k] for k in ("differing_from_" + ref, "questions")}, indent=1))


if __name__ == "__main__":
    main()
