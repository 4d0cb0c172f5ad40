"""The trained reranker head in the library (issue #39): before/after, abstention, latency.

Every question goes through :meth:`clauselens.library.Library.search` exactly as in
``benchmarks/clause_qa.py`` (agreement resolved from the question, no file names), once with
reranking off and once per ``--top`` with :class:`clauselens.heads.cross_encoder.HeadReranker`
scoring the fused top N (``Library._rerank``: RRF of the fused order and the head's order), with
no abstention threshold, so each row keeps the best P(relevant). Reported per variant: top-5 per
kind with 95 % Clopper-Pearson intervals, unanswerable answered, answerable abstained and latency
p50/p95 (LLM-free, the reranker included), then the abstention trade-off offline: a row whose first
passage is not an exact field abstains when its best P(relevant) < t -- for the threshold chosen on
the training validation split (``head.json``'s ``abstain_threshold``, the headline) and for a sweep
(the dev set's view of the trade-off; the dev sets are not used to choose it).

    .venv/bin/python -m benchmarks.clause_qa_head --setting cuad462
    .venv/bin/python -m benchmarks.clause_qa_head --setting cuad462 \
        --questions ../shared/data/clause-qa-lay/questions.jsonl --tag lay
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.clause_qa import RESULTS, K, hit, library_for, load_questions, rel, rel_repo, run, summarise
from clauselens.provenance import run_provenance

SWEEP = [round(0.05 * i, 2) for i in range(1, 20)]


def with_threshold(rows: list[dict], t: float) -> list[dict]:
    """``rows`` with the head's abstention at ``t`` applied offline."""
    out = []
    for r in rows:
        exact_first = bool(r["passages"]) and r["passages"][0]["method"] == "exact"
        p = r.get("rerank_best")
        abst = r["abstained"] or (t > 0 and not exact_first and p is not None and p < t)
        out.append({**r, "abstained": abst})
    return out


FUSION_WEIGHTS = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0]


def fusion_sweep(rows: list[dict], questions: list[dict], rrf_k: int = 60) -> dict[str, dict]:
    """Paraphrase top-5 hits when the reranked top N is ordered by a weighted RRF of the fused order
    (weight 1) and the head's order (weight ``w``; 1 = the library's :func:`rerank_order`, 0 = no
    reranking), recomputed offline from each row's fused top N and its head scores (questions answered
    by an exact field or abstained are left as they are)."""
    by_id = {q["id"]: q for q in questions}
    out = {}
    for w in FUSION_WEIGHTS:
        x = n = 0
        for r in rows:
            q = by_id[r["id"]]
            if q["type"] != "paraphrase":
                continue
            n += 1
            fused = r.get("fused_top")
            if not fused or r["abstained"]:
                x += (not r["abstained"]) and hit(r["passages"], q["gold"])
                continue
            by_p = sorted(range(len(fused)), key=lambda i: (-(fused[i]["head"] or 0.0), i))
            score = [1.0 / (rrf_k + i + 1) for i in range(len(fused))]
            for rank, i in enumerate(by_p, start=1):
                score[i] += w / (rrf_k + rank)
            order = sorted(range(len(fused)), key=lambda i: (-score[i], i))
            x += hit([fused[i] for i in order][:K], q["gold"])
        out[f"{w:g}"] = {"paraphrase_top5": x, "n": n}
    return out


def run_head(lib: Any, questions: list[dict]) -> list[dict]:
    """:func:`benchmarks.clause_qa.run` plus each row's best P(relevant) (None when not reranked)."""
    best: dict[str, float | None] = {}
    orig = lib._rerank

    def spy(question: str, ranked: list, trace: dict) -> tuple[list, float]:
        fused = ranked[: lib.rerank_top]
        out = orig(question, ranked, trace)
        best["last"] = out[1]
        best["fused"] = [{"file_path": rel(p.source_path or ""), "span": [p.spans[0].start, p.spans[-1].end],
                          "head": p.scores.get("head", p.scores.get("llm"))} for p in fused]
        return out

    lib._rerank = spy
    rows = []
    for q in questions:
        best["last"], best["fused"] = None, None
        rows += run(lib, [q])
        rows[-1]["rerank_best"], rows[-1]["fused_top"] = best["last"], best["fused"]
    lib._rerank = orig
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--setting", choices=("agreements10", "cuad462"), default="cuad462")
    ap.add_argument("--top", type=int, nargs="+", default=[10, 20], help="fused passages the head scores")
    ap.add_argument("--max-length", type=int, default=None, help="word pieces per pair (default: the head's)")
    ap.add_argument("--questions", type=Path, nargs="+", default=None)
    ap.add_argument("--tag", default="dev")
    ap.add_argument("--head-root", type=Path, default=None,
                    help="weights root holding reranker/ (a training run's export; default: the installed head)")
    ap.add_argument("--answerability-root", type=Path, default=None,
                    help="weights root holding answerability/model.json (default: the installed one, else --head-root)")
    ap.add_argument("--suffix", default="", help="appended to the result file names (e.g. the head's stage)")
    args = ap.parse_args(argv)
    from clauselens.heads.cross_encoder import HeadReranker

    questions = [q for f in args.questions for q in load_questions(f)] if args.questions else load_questions()
    provenance = run_provenance(["bm25s", "numpy", "sentence-transformers", "torch", "transformers", "scipy"])
    lib = library_for(args.setting, "minilm", questions, tag="" if args.tag == "dev" else args.tag)
    from clauselens.heads.base import WEIGHTS

    ans_root = args.answerability_root or (WEIGHTS if (WEIGHTS / "answerability").exists() else args.head_root)
    head = HeadReranker(args.head_root, answerability_root=ans_root,
                        **({"max_length": args.max_length} if args.max_length else {})).load()
    thr = head.abstain_threshold  # P(answerable) when the answerability model is installed, else head.json's
    variants: dict[str, dict] = {}
    lib.reranker = None
    rows = run(lib, questions)
    variants["off"] = {"summary": summarise(rows, questions)}
    for n in args.top:
        lib.reranker, lib.rerank_top, lib.rerank_abstain = head, n, 0.0
        t0 = time.perf_counter()
        rows = run_head(lib, questions)
        print(f"[clause_qa_head] top {n}: {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
        (RESULTS / f"clause_qa_head_{args.setting}_{args.tag}_top{n}{args.suffix}.results.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows))
        keep = ("exact+defined_term", "paraphrase", "unanswerable_answered", "answerable_abstained")
        variants[f"head_top{n}"] = {
            "summary": summarise(rows, questions),
            f"abstain_at_{thr}": summarise(with_threshold(rows, thr), questions),
            "fusion_weight_sweep": fusion_sweep(rows, questions),
            "sweep": {f"{t:.2f}": {k: v for k, v in summarise(with_threshold(rows, t), questions).items() if k in keep}
                      for t in SWEEP},
        }
    lib.reranker = None
    result = {
        "benchmark": "clause_qa_head", "setting": args.setting, "tag": args.tag,
        "data": [rel_repo(f) for f in args.questions] if args.questions else "../shared/data/clause-qa-dev/questions.jsonl",
        "head": {k: head.meta.get(k) for k in ("sha256", "abstain_threshold", "max_length", "training_command")}
        | {"max_length_used": head.max_length},
        "answerability": None if head.answerability is None else
        {k: head.answerability.spec.get(k) for k in ("threshold", "head_sha256", "training_command")},
        "abstain_threshold_from_validation_split": thr, "questions": len(questions),
        "torch_threads": __import__("torch").get_num_threads(),
        "load_average_1_5_15_at_end": [round(x, 2) for x in os.getloadavg()],
        "variants": variants,
        "command": " ".join(["python -m benchmarks.clause_qa_head", *(argv if argv is not None else sys.argv[1:])]),
        "provenance": provenance, "date": dt.date.today().isoformat(),
    }
    out = RESULTS / f"clause_qa_head_{args.setting}_{args.tag}{args.suffix}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    for name, v in variants.items():
        s = v["summary"]
        print(name, {k: (s[k]["rate"] if isinstance(s.get(k), dict) and "rate" in s[k] else s.get(k))
                     for k in ("exact+defined_term", "paraphrase", "unanswerable_answered", "answerable_abstained", "latency_ms")})
    print(f"wrote {out}")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
