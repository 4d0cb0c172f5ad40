"""Clause grid speed and protocol check (issue #21): the same cells with the in-process model and
with llama-cpp-python's own OpenAI-compatible server (``python -m llama_cpp.server``, the GPU path's
stand-in here) at ``--concurrency 1`` and ``4``.

Each configuration runs the real command, ``clauselens grid LIBRARY --preset cuad --only ...
--limit N --out X.json`` (plus ``--base-url`` / ``--concurrency`` for the server), into its own
fresh cell store, one after the other in one process tree, so the cells/minute are comparable
as ratios (the brief: speeds only side by side in one run). It records each run's cells/minute
(the grid's own ``GridStats``: computed cells per wall-clock minute, model load excluded for the
in-process model only as far as the grid's clock starts after it), the status counts, and whether
the three runs gave the same status and answer per cell (a protocol check: the server path must
parse the same structured replies; llama.cpp's server runs one request at a time, so
``--concurrency 4`` is not expected to be faster here -- the speed-up needs a GPU server with
parallel slots, e.g. vLLM).

    .venv/bin/python -m benchmarks.grid_server --library cuad21 --limit 3

The library must exist (e.g. the 21 CUAD PDFs added by ``clauselens grid ../shared/data/cuad/
full_contract_pdf --library cuad21 ...``, lexical: ``CLAUSELENS_RETRIEVAL__EMBEDDER=none``).
Stores live under ``~/.cache/clauselens/bench/grid_server/`` (deleted at the start of each run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.llama_server import llama_server
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "grid_server"
#: Questions with clauses in most commercial contracts (so that most cells reach the model).
DEFAULT_ONLY = "governing_law,anti_assignment,termination_for_convenience,renewal_term,audit_rights,insurance"
CLI = [sys.executable, "-m", "clauselens.cli"]


def run_config(name: str, args: argparse.Namespace, extra: list[str], env: dict[str, str]) -> dict:
    out = CACHE / name / "grid.json"
    cmd = [*CLI, "grid", args.library, "--preset", "cuad", "--only", args.only, "--limit", str(args.limit), "--out", str(out),
           *extra]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{name}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
    data = json.loads(out.read_text())
    info = data.get("stats", {})
    cells = {f"{r['agreement']}|{qid}": (c["status"], c["answer"]) for r in data["rows"] for qid, c in r["cells"].items()}
    return {"config": name, "command": " ".join(cmd[2:]), "wall_seconds_incl_startup": round(wall, 1),
            "cells_per_minute": info.get("cells_per_minute"), "grid_seconds": info.get("seconds"),
            "computed": info.get("computed"), "by_status": info.get("by_status"), "cells": cells}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--library", default="cuad21")
    ap.add_argument("--limit", type=int, default=3, help="first N agreements")
    ap.add_argument("--only", default=DEFAULT_ONLY, help="question ids of the CUAD preset")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b", help="bundled model (the same GGUF in-process and served)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    from clauselens.config import Settings
    from clauselens.llm.provision import ensure_model

    model_path = ensure_model(args.model, Settings().models_dir)
    shutil.rmtree(CACHE, ignore_errors=True)
    CACHE.mkdir(parents=True)
    env = {**os.environ, "CLAUSELENS_RETRIEVAL__EMBEDDER": "none", "CLAUSELENS_INTERROGATOR_MODEL__N_THREADS": str(args.threads),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    runs = [run_config("in-process", args, ["--model", args.model], env)]
    with llama_server(model_path, CACHE / "server.log", threads=args.threads) as base:
        for c in (1, 4):
            runs.append(run_config(f"server-c{c}", args, ["--base-url", base, "--concurrency", str(c)], env))
    ref = runs[0]["cells"]
    for r in runs:
        cells = r.pop("cells")
        r["same_status_as_in_process"] = sum(cells[k][0] == ref[k][0] for k in ref)
        r["same_answer_as_in_process"] = sum(cells[k] == ref[k] for k in ref)
        r["n_cells"] = len(cells)
    base_rate = runs[1]["cells_per_minute"] or 0
    res = {"benchmark": "grid_server", "library": args.library, "agreements": args.limit, "questions": args.only.split(","),
           "model": args.model, "threads": args.threads, "runs": runs,
           "server_c4_over_c1": round(runs[2]["cells_per_minute"] / base_rate, 2) if base_rate else None,
           "server_c1_over_in_process": round(base_rate / runs[0]["cells_per_minute"], 2) if runs[0]["cells_per_minute"] else None,
           "command": " ".join(["python -m benchmarks.grid_server", *(argv if argv is not None else sys.argv[1:])]),
           "date_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
           "load_average": list(map(float, Path("/proc/loadavg").read_text().split()[:3])),
           "provenance": run_provenance(["llama-cpp-python", "langchain-openai"])}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "grid_server.json").write_text(json.dumps(res, indent=1))
    print(json.dumps({k: v for k, v in res.items() if k != "provenance"}, indent=1))


if __name__ == "__main__":
    main()
