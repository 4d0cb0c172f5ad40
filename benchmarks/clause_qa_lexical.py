"""Clause-QA dev numbers with each lexical engine (issue #42): bm25s (rebuilt index) vs tantivy
(segments), same code, same libraries.

Copies of the clause-QA ``agreements10`` libraries (``~/.cache/clauselens/bench/clause_qa/
agreements10-minilm`` and ``-lay``: catalogue by SQLite backup, vectors; the originals are never
written) get ``"lexical": <engine>`` in ``library.json``, so opening them builds that engine's index
from the stored tokens; then :func:`benchmarks.clause_qa.main` runs on them unchanged (the dev set,
and the lay set with ``--questions ... --tag lay``), its result files written under the copy, not
into ``benchmarks/results``. The summaries side by side, and the questions whose top 5 differs,
go to ``benchmarks/results/clause_qa_lexical.json``.

    flock /tmp/clauselens-heavy.lock nice -n 5 .venv/bin/python -m benchmarks.clause_qa_lexical [--cuad462]
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path

from benchmarks import clause_qa

REPO = Path(__file__).resolve().parents[1]
BASE = Path("~/.cache/clauselens/bench/clause_qa_lexical").expanduser()
LAY = REPO.parent / "shared" / "data" / "clause-qa-lay" / "questions.jsonl"
OUT = REPO / "benchmarks" / "results" / "clause_qa_lexical.json"
ENGINES = ("bm25s", "tantivy")
#: The clause-QA libraries copied (read before :func:`main` points ``clause_qa.CACHE`` at the copies).
SOURCE = clause_qa.CACHE
RUNS = {"dev": ("agreements10-minilm", ["--setting", "agreements10"]),
        "lay": ("agreements10-minilm-lay", ["--setting", "agreements10", "--questions", str(LAY), "--tag", "lay"])}
#: ``--cuad462``: the dev questions over the 462-agreement library (a copy; the shared one is never written).
CUAD462 = {"dev_cuad462": ("cuad462-minilm", ["--setting", "cuad462"])}


def copy_library(src: Path, dst: Path, engine: str) -> None:
    """A copy of library ``src`` at ``dst`` that uses lexical engine ``engine`` (index built on open)."""
    if (dst / "library.json").exists():
        return
    dst.mkdir(parents=True, exist_ok=True)
    a = sqlite3.connect(f"file:{src / 'catalogue.sqlite'}?mode=ro", uri=True)
    b = sqlite3.connect(str(dst / "catalogue.sqlite"))
    a.backup(b)
    a.close()
    b.close()
    shutil.copy(src / "vectors.f32", dst / "vectors.f32")
    meta = json.loads((src / "library.json").read_text())
    meta["lexical"] = engine
    (dst / "library.json").write_text(json.dumps(meta, indent=2))


def main(argv: list[str] | None = None) -> None:
    runs = {**RUNS, **CUAD462} if "--cuad462" in (sys.argv[1:] if argv is None else argv) else RUNS
    out: dict = {"benchmark": "clause_qa_lexical", "issue": 42,
                 "command": " ".join(["python -m benchmarks.clause_qa_lexical", *(sys.argv[1:] if argv is None else argv)]),
                 "method": __doc__.split("\n\n")[1], "runs": {}}
    hits: dict[str, dict[str, dict[str, list]]] = {}
    for engine in ENGINES:
        for run, (lib_name, cq_argv) in runs.items():
            cache = BASE / engine
            copy_library(SOURCE / lib_name, cache / lib_name, engine)
            clause_qa.CACHE, clause_qa.RESULTS = cache, cache / "results"
            clause_qa.main(cq_argv)
            variant = "minilm" + ("-lay" if run == "lay" else "")
            setting = "cuad462" if run == "dev_cuad462" else "agreements10"
            res = json.loads((cache / "results" / f"clause_qa_{setting}_{variant}.json").read_text())
            rows = [json.loads(x) for x in (cache / "results" / f"clause_qa_{setting}_{variant}.results.jsonl")
                    .read_text().splitlines() if x.strip()]
            out["runs"].setdefault(run, {})[engine] = {"data": res["data"], "questions": res["questions"],
                                                        "summary": res["summary"]}
            hits.setdefault(run, {})[engine] = {str(r["id"]): [(p["file_path"], p["span"]) for p in r["passages"]]
                                                for r in rows}
    for run, by in hits.items():
        a, b = by.get("bm25s", {}), by.get("tantivy", {})
        out["runs"][run]["questions_with_other_top5"] = sorted(q for q in a if a[q] != b.get(q))
    OUT.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
