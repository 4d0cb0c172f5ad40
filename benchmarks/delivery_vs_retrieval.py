"""Issue #38's delivery target, per question kind: the gold clause shown as a fact end to end
(``benchmarks/answers_e2e.py`` rows) against retrieval's top-1 / top-3 / top-5 on the same questions
(``benchmarks/clause_qa.py`` rows of the same library: its ``*.results.jsonl``, each question's ranked
passages). "Paraphrase: gold shown as a fact >= retrieval's top-3 rate" is the issue's done-when line.

A gold passage overlaps a gold span of the question file's ``gold`` list (same file, overlapping
characters). Reads committed result files only; no model, no library.

    python -m benchmarks.delivery_vs_retrieval \\
        --pair answers_e2e_d38q_lay.json clause_qa_cuad462_minilm-lay.results.jsonl ...
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from benchmarks.clause_qa import rate

RESULTS = Path(__file__).resolve().parent / "results"


def _overlap(file_path: str, spans: list[list[int]], gold: list[dict]) -> bool:
    return any(file_path == g["file_path"] and s < g["span"][1] and g["span"][0] < e for g in gold for s, e in spans)


def compare(e2e: dict, ranked: dict[str, dict], questions: dict[str, dict]) -> dict:
    """Per kind: questions, gold shown as a fact, gold quoted at all, retrieval's top-1/3/5."""
    acc: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in e2e["rows"]:
        q, kind = questions[row["id"]], row["type"]
        if kind == "unanswerable" or row["id"] not in ranked:
            continue
        gold = q.get("gold") or []
        a = acc[kind]
        a["n"] += 1
        a["shown_as_fact"] += any(_overlap(c["file_path"], c["spans"], gold)
                                  for f in row["findings"] if f["cited_fact"] for c in f["citations"])
        a["quoted"] += any(_overlap(c["file_path"], c["spans"], gold) for f in row["findings"] for c in f["citations"])
        hits = [i for i, p in enumerate(ranked[row["id"]]["passages"]) if _overlap(p["file_path"], [p["span"]], gold)]
        for k in (1, 3, 5):
            a[f"retrieval_top{k}"] += bool(hits and hits[0] < k)
    return {kind: {m: (rate(v, a["n"]) if m != "n" else v) for m, v in a.items()} for kind, a in acc.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pair", nargs=2, action="append", required=True, metavar=("E2E_JSON", "CLAUSE_QA_JSONL"),
                    help="an answers_e2e result and the clause_qa results.jsonl of the same questions (in results/)")
    ap.add_argument("--out", type=Path, default=RESULTS / "delivery_vs_retrieval.json")
    args = ap.parse_args(argv)
    out = []
    for e2e_name, ranked_name in args.pair:
        e2e = json.loads((RESULTS / e2e_name).read_text())
        ranked = {r["id"]: r for r in map(json.loads, (RESULTS / ranked_name).read_text().splitlines()) if r}
        repo = Path(__file__).resolve().parents[1]
        data = Path(e2e["data"]) if Path(e2e["data"]).is_absolute() else repo / e2e["data"]
        questions = {q["id"]: q for q in map(json.loads, data.read_text().splitlines()) if q}
        out.append({"answers_e2e": e2e_name, "clause_qa": ranked_name, "data": e2e["data"],
                    "by_kind": compare(e2e, ranked, questions)})
    args.out.write_text(json.dumps({"benchmark": "delivery_vs_retrieval", "issue": 38, "runs": out}, indent=1))
    for r in out:
        print(r["answers_e2e"], {k: {m: (v["x"] if isinstance(v, dict) else v) for m, v in d.items()}
                                 for k, d in r["by_kind"].items()})


if __name__ == "__main__":
    main()
