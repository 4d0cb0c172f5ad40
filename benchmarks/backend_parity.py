"""Backend parity (issue #20): the dev clause-QA benchmark (``benchmarks/clause_qa.py``,
setting ``agreements10``: the 10 dev agreements, 100 questions) on the ``local`` backend and
the ``milvus`` backend (Milvus Lite) in one run, with the same parser, passages, embedder
(MiniLM, through the same persistent embedding cache, so both stores hold identical vectors)
and question set, scored by the same functions (``clause_qa.run`` / ``clause_qa.summarise``).

Rows:
  local            -- the embedded default (SQLite + bm25s + NumPy; BM25 statistics of the
                      resolved agreement when few are searched, Python RRF k = 60);
  local-global-idf -- the local backend with ``Library.local_idf = False`` (library-wide BM25
                      statistics): isolates the one ranking difference by design;
  milvus           -- Milvus Lite: BM25 function + sparse inverted index, FLAT dense index,
                      ``hybrid_search`` with ``RRFRanker(60)``, filtered to the resolved
                      agreements (engine BM25 statistics: per segment in Milvus Lite).

Per question it also lists where the backends differ (hit on one and not the other, a
different resolution, a different first passage) so the differences can be explained.
Libraries are built under ``~/.cache/clauselens/bench/backend_parity/`` (build time is
reported; embeddings come from the cache, so it is mostly parsing + storage).

    nice -n 10 .venv/bin/python -m benchmarks.backend_parity
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

from benchmarks.clause_qa import CORPUS, K, hit, load_questions, run, summarise
from clauselens.library import Library
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "backend_parity"
OUT = REPO / "benchmarks" / "results" / "backend_parity_clause_qa_agreements10.json"


def build(backend: str, embedder: str, files: list[Path], root: Path) -> tuple[Library, dict]:
    t0 = time.perf_counter()
    lib = Library.open(root, embedder_name=embedder, abstain_threshold=0.0, backend=backend)
    open_s = time.perf_counter() - t0
    rep = lib.add(files)
    if rep.failed:
        raise SystemExit(f"{backend}: files failed: {rep.failed}")
    return lib, {"open_s": round(open_s, 2), "add_s": round(rep.seconds, 2), "added": len(rep.added),
                 "unchanged": len(rep.unchanged), "passages": sum(r.passages for r in lib.agreements()),
                 "agreements": len(lib)}


def compare(rows_a: list[dict], rows_b: list[dict], questions: list[dict]) -> list[dict]:
    """Questions on which two rows differ (hit, abstention, resolution or first passage)."""
    by_id = {q["id"]: q for q in questions}
    out = []
    for a, b in zip(rows_a, rows_b):
        q = by_id[a["id"]]
        ha = not a["abstained"] and hit(a["passages"], q.get("gold") or [])
        hb = not b["abstained"] and hit(b["passages"], q.get("gold") or [])
        first_a = a["passages"][0]["span"] if a["passages"] else None
        first_b = b["passages"][0]["span"] if b["passages"] else None
        if ha != hb or a["abstained"] != b["abstained"] or a["resolved_files"] != b["resolved_files"] or first_a != first_b:
            out.append({"id": a["id"], "type": q["type"], "hit": [ha, hb], "abstained": [a["abstained"], b["abstained"]],
                        "same_resolution": a["resolved_files"] == b["resolved_files"],
                        "first_passage_method": [a["passages"][0]["method"] if a["passages"] else None,
                                                 b["passages"][0]["method"] if b["passages"] else None],
                        "same_first_passage": first_a == first_b,
                        "same_top5_set": {tuple(p["span"]) for p in a["passages"]} == {tuple(p["span"]) for p in b["passages"]}})
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    questions = load_questions()
    files = sorted({CORPUS / q["agreement_file"] for q in questions})
    result: dict = {"benchmark": "backend_parity", "issue": 20, "data": "clause-qa-dev (100 questions, 10 agreements)",
                    "setting": "agreements10", "k": K, "embedder": args.embedder, "abstain_threshold_dense": 0.0,
                    "command": " ".join(["python -m benchmarks.backend_parity", *(argv if argv is not None else sys.argv[1:])]),
                    "provenance": run_provenance(["bm25s", "numpy", "pymilvus", "milvus-lite", "sentence-transformers"]),
                    "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "rows": {}, "builds": {}}
    rows_by: dict[str, list[dict]] = {}
    for backend in ("local", "milvus"):
        lib, b = build(backend, args.embedder, files, CACHE / f"agreements10-{args.embedder}-{backend}")
        result["builds"][backend] = b
        lib.search(questions[0]["question"], K)  # warm-up: model load, index load
        variants = [(backend, True)] + ([("local-global-idf", False)] if backend == "local" else [])
        for name, local_idf in variants:
            lib.local_idf = local_idf
            rows = run(lib, questions)
            rows_by[name] = rows
            s = summarise(rows, questions)
            result["rows"][name] = s
            print(f"[parity] {name}: exact {s['exact']['x']}/{s['exact']['n']} defined {s['defined_term']['x']}/"
                  f"{s['defined_term']['n']} paraphrase {s['paraphrase']['x']}/{s['paraphrase']['n']} unanswerable "
                  f"answered {s['unanswerable_answered']['x']}/{s['unanswerable_answered']['n']} p50/p95 "
                  f"{s['latency_ms']['p50']}/{s['latency_ms']['p95']} ms", file=sys.stderr, flush=True)
            (args.out.parent / f"backend_parity_{name}.results.jsonl").write_text(
                "".join(json.dumps(r) + "\n" for r in rows))
    result["differences"] = {
        "local_vs_milvus": compare(rows_by["local"], rows_by["milvus"], questions),
        "local-global-idf_vs_milvus": compare(rows_by["local-global-idf"], rows_by["milvus"], questions),
        "local_vs_local-global-idf": compare(rows_by["local"], rows_by["local-global-idf"], questions),
    }
    result["difference_counts"] = {k: {"questions": len(v), "hit_differs": sum(1 for d in v if d["hit"][0] != d["hit"][1]),
                                       "resolution_differs": sum(1 for d in v if not d["same_resolution"]),
                                       "first_passage_differs": sum(1 for d in v if not d["same_first_passage"]),
                                       "top5_set_differs": sum(1 for d in v if not d["same_top5_set"])}
                                   for k, v in result["differences"].items()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["difference_counts"], indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
