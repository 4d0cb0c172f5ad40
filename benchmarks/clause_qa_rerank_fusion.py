"""The trained reranker fused into the library's ranking, chosen by leave-one-set-out (issue #39).

``Library._rerank`` re-orders the fused top ``depth`` passages by weighted Reciprocal Rank Fusion
(Cormack et al. 2009) of the fused order (weight 1) and the head's order (weight ``w``;
``retrieval.library_rerank_weight`` / ``library_rerank_top``). This benchmark chooses the head,
``w`` and ``depth`` without picking them on the set they are scored on:

``score``   every question of the four development sets (clause-qa-dev, clause-qa-lay and the blind2 /
            blind3 lay sets of ``benchmarks/data/``; all four are dev sets this session, tuning allowed)
            through :meth:`Library.search` on the 462-contract library with a head (dynamic int8, as the
            product runs it; ``--fp32`` for the fp16 weights in fp32) scoring the fused top :data:`MAX_DEPTH`
            at weight 0 (so the returned order is the "off" order), keeping each
            question's fused top list with the head's logits; one cache file per (head, set), resumable.
``choose``  offline: for every (head, w, depth) the paraphrase top-5 hits per set, recomputed from
            the cached lists; leave-one-set-out -- for each set, the configuration with the most hits on
            the other three (ties: smaller depth, then smaller weight, then head name), scored on the
            held-out set -- and the final configuration chosen on all four pooled, with the ship rule
            (more hits than off pooled, no set more than one question below off).
``verify``  the chosen configuration run for real (the library's own ``_rerank``, the head as
            :class:`~clauselens.heads.cross_encoder.HeadReranker` loads it, its abstention threshold as
            configured): per set top-5 per kind with Wilson intervals, unanswerable answered,
            answerable abstained, latency p50/p95 -- beside the same run with reranking off.

Only paraphrase hits can move offline: exact-field answers are never reranked and abstention does
not depend on the order; ``verify`` checks that on the real path. The held-out lay set
(``clause_qa_lay_blind4``) is refused by every step.

    .venv/bin/python -m benchmarks.clause_qa_rerank_fusion score --head synth1=~/.cache/clauselens/heads/reranker/synth1
    .venv/bin/python -m benchmarks.clause_qa_rerank_fusion choose
    .venv/bin/python -m benchmarks.clause_qa_rerank_fusion verify --head synth1=DIR --weight 0.5 --depth 20
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from benchmarks.clause_qa import CACHE, DEV, REPO, RESULTS, K, hit, library_for, load_questions, rel, run, summarise
from benchmarks.grid_user_questions import wilson  # Wilson 1927 score interval

SETS: dict[str, Path] = {
    "dev": DEV / "questions.jsonl",
    "lay": REPO.parent / "shared" / "data" / "clause-qa-lay" / "questions.jsonl",
    "blind2": REPO / "benchmarks" / "data" / "clause_qa_lay_blind2" / "questions.jsonl",
    "blind3": REPO / "benchmarks" / "data" / "clause_qa_lay_blind3" / "questions.jsonl",
}
HELD_OUT = "blind4"
MAX_DEPTH = 20
DEPTHS = (5, 10, 15, 20)
WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
RRF_K = 60
SCORES = CACHE.parent / "rerank_fusion"
OUT = RESULTS / "clause_qa_rerank_fusion.json"


def set_questions(name: str) -> list[dict]:
    path = SETS[name]
    if HELD_OUT in str(path):
        raise SystemExit(f"{path}: the held-out set is not read by this benchmark")
    return load_questions(path)


class _Logits:
    """A head seen by the library as a plain scorer (``score`` -> raw logits, no ``judge``), so the
    library neither calibrates nor abstains; the logits order passages as P(relevant) does."""

    def __init__(self, head: Any) -> None:
        self.head = head

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [float(x) for x in self.head.logits(query, texts)]


def score_set(lib: Any, head: Any, questions: list[dict], out: Path) -> None:
    """Run ``questions`` with ``head`` scoring the fused top :data:`MAX_DEPTH` at weight 0 and write
    one row per question (:func:`benchmarks.clause_qa.run`'s fields + ``fused``: the fused top list
    with each passage's head logit, None when the question was not reranked)."""
    done = {json.loads(x)["id"] for x in out.read_text().splitlines()} if out.exists() else set()
    lib.reranker, lib.rerank_top, lib.rerank_weight, lib.rerank_abstain = _Logits(head), MAX_DEPTH, 0.0, 0.0
    orig = lib._rerank
    seen: dict[str, Any] = {}

    def spy(question: str, ranked: list, trace: dict) -> tuple[list, float]:
        res = orig(question, ranked, trace)
        seen["fused"] = [{"file_path": rel(p.source_path or ""), "span": [p.spans[0].start, p.spans[-1].end],
                          "logit": p.scores.get("llm")} for p in ranked[:MAX_DEPTH]]
        return res

    lib._rerank = spy
    try:
        with open(out, "a") as f:
            for q in questions:
                if q["id"] in done:
                    continue
                seen.clear()
                row = run(lib, [q])[0]
                row["fused"] = seen.get("fused")
                f.write(json.dumps(row) + "\n")
    finally:
        lib._rerank = orig
        lib.reranker = None


def fused_order(logits: Sequence[float], weight: float, depth: int) -> list[int]:
    """Positions of a fused list after reranking its first ``depth`` by weighted RRF (as
    ``clauselens.library.library.rerank_order``; the tail keeps its place)."""
    from clauselens.library.library import rerank_order

    n = min(depth, len(logits))
    return rerank_order(list(logits[:n]), weight) + list(range(n, len(logits)))


def paraphrase_hits(rows: list[dict], questions: list[dict], weight: float, depth: int) -> int:
    """Paraphrase questions with a gold passage in the top :data:`K` after reranking offline."""
    by_id = {q["id"]: q for q in questions}
    x = 0
    for r in rows:
        q = by_id[r["id"]]
        if q["type"] != "paraphrase" or r["abstained"]:
            continue
        fused = r.get("fused")
        if not fused or weight == 0:
            x += hit(r["passages"], q["gold"])
            continue
        order = fused_order([p["logit"] for p in fused], weight, depth)
        x += hit([fused[i] for i in order][:K], q["gold"])
    return x


def load_rows(head: str, name: str) -> list[dict]:
    path = SCORES / f"{head}_{name}.jsonl"
    if not path.exists():
        raise SystemExit(f"no scores for head {head!r} on {name}: run `score --head {head}=DIR` first ({path})")
    return [json.loads(x) for x in path.read_text().splitlines()]


def _pick(table: dict[tuple[str, float, int], dict[str, int]], sets: Sequence[str]) -> tuple[str, float, int]:
    """The configuration with the most hits pooled over ``sets`` (ties: smaller depth, smaller
    weight, head name -- the cheaper, closer-to-off choice)."""
    return max(table, key=lambda c: (sum(table[c][s] for s in sets), -c[2], -c[1], c[0]))


def choose(heads: Sequence[str]) -> dict[str, Any]:
    """The offline grid, leave-one-set-out choices and the pooled choice (see the module docstring)."""
    qs = {s: set_questions(s) for s in SETS}
    n_par = {s: sum(q["type"] == "paraphrase" for q in qs[s]) for s in SETS}
    rows = {(h, s): load_rows(h, s) for h in heads for s in SETS}
    off = {s: paraphrase_hits(rows[(heads[0], s)], qs[s], 0.0, 0) for s in SETS}
    # every head's run must have seen the same "off" ranking (the tree is shared: a ranking change between
    # two score runs would make their heads incomparable)
    off_differs = {h: [s for s in SETS if [r["passages"] for r in rows[(h, s)]] != [r["passages"] for r in rows[(heads[0], s)]]]
                   for h in heads[1:]}
    if any(off_differs.values()):
        print(f"[rerank_fusion] WARNING: the off rankings differ between score runs: {off_differs}", file=sys.stderr)
    table: dict[tuple[str, float, int], dict[str, int]] = {}
    for h in heads:
        for w in WEIGHTS[1:]:
            for d in DEPTHS:
                table[(h, w, d)] = {s: paraphrase_hits(rows[(h, s)], qs[s], w, d) for s in SETS}
    table[("off", 0.0, 0)] = dict(off)
    loso = {}
    for s in SETS:
        others = [o for o in SETS if o != s]
        c = _pick(table, others)
        loso[s] = {"chosen_on_others": {"head": c[0], "weight": c[1], "depth": c[2]},
                   "others_pooled": sum(table[c][o] for o in others),
                   "held_out_hits": table[c][s], "off_hits": off[s], "n": n_par[s],
                   "gain": table[c][s] - off[s]}
    final = _pick(table, list(SETS))
    tot_n = sum(n_par.values())
    gains = [v["gain"] for v in loso.values()]
    loso_total = sum(v["held_out_hits"] for v in loso.values())
    ship = sum(table[final].values()) > sum(off.values()) and all(table[final][s] >= off[s] - 1 for s in SETS)
    return {
        "paraphrase_n": n_par, "off": off, "off_rankings_differ_from_first_head": off_differs,
        "grid": [{"head": h, "weight": w, "depth": d, **v, "pooled": sum(v.values())}
                 for (h, w, d), v in sorted(table.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2]))],
        "leave_one_set_out": loso,
        "leave_one_set_out_pooled": {"hits": loso_total, "n": tot_n, "rate": round(loso_total / tot_n, 4),
                                     "wilson95": wilson(loso_total, tot_n), "off_hits": sum(off.values()),
                                     "gain_per_set": gains, "gain_min": min(gains), "gain_max": max(gains)},
        "chosen_on_all_four": {"head": final[0], "weight": final[1], "depth": final[2],
                               "hits": table[final], "pooled": sum(table[final].values()),
                               "off_pooled": sum(off.values()), "ship_rule_met": ship},
    }


def _summary(rows: list[dict], questions: list[dict]) -> dict[str, Any]:
    s = summarise(rows, questions)
    for k, v in list(s.items()):
        if isinstance(v, dict) and "x" in v and "n" in v:
            s[k] = {**v, "wilson95": wilson(v["x"], v["n"])}
    return s


def verify(head_root: Path, weight: float, depth: int, abstain: float | None, int8: bool,
           sets: Sequence[str] = tuple(SETS), limit: int | None = None) -> dict[str, Any]:
    """The chosen configuration through the library's own reranking, per set, beside "off"."""
    from clauselens.heads.cross_encoder import HeadReranker

    head = HeadReranker(head_root, int8=int8).load()
    out: dict[str, Any] = {"head": {k: head.meta.get(k) for k in ("sha256", "abstain_threshold", "max_length",
                                                                  "training_command")},
                           "weight": weight, "depth": depth, "int8": int8,
                           "abstain": head.abstain_threshold if abstain is None else abstain, "sets": {}}
    for s in sets:
        qs = set_questions(s)[:limit]
        lib = library_for("cuad462", "minilm", qs)
        lib.reranker = None
        off = run(lib, qs)
        lib.reranker, lib.rerank_top, lib.rerank_weight = head, depth, weight
        lib.rerank_abstain = out["abstain"]
        on = run(lib, qs)
        lib.reranker = None
        (RESULTS / f"clause_qa_rerank_fusion_{s}.results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in on))
        out["sets"][s] = {"data": str(SETS[s].relative_to(REPO.parent)), "off": _summary(off, qs), "on": _summary(on, qs),
                          "changed_top5": sum(a["passages"] != b["passages"] for a, b in zip(off, on))}
        print(f"[rerank_fusion] {s}: paraphrase {out['sets'][s]['off']['paraphrase']['x']} -> "
              f"{out['sets'][s]['on']['paraphrase']['x']}", file=sys.stderr, flush=True)
    return out


def _heads(specs: Sequence[str]) -> dict[str, Path]:
    out = {}
    for spec in specs:
        name, _, path = spec.partition("=")
        out[name] = Path(os.path.expanduser(path))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    sc = sub.add_parser("score", help="score the four dev sets' fused lists with each head (cached, resumable)")
    sc.add_argument("--head", nargs="+", required=True, help="NAME=WEIGHTS_ROOT (a root holding reranker/)")
    sc.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    sc.add_argument("--limit", type=int, default=None, help="first N questions per set (a smoke test; resumable)")
    sc.add_argument("--fp32", action="store_true", help="the head in fp32 (default: dynamic int8, as the product runs it)")
    ch = sub.add_parser("choose", help="offline grid + leave-one-set-out over the cached scores")
    ch.add_argument("--heads", nargs="+", default=None, help="head names to choose among (default: all cached)")
    ve = sub.add_parser("verify", help="run the chosen configuration through the library")
    ve.add_argument("--head", required=True, help="NAME=WEIGHTS_ROOT")
    ve.add_argument("--weight", type=float, required=True)
    ve.add_argument("--depth", type=int, required=True)
    ve.add_argument("--abstain", type=float, default=None, help="head abstention threshold (default: the head's)")
    ve.add_argument("--fp32", action="store_true", help="the head in fp32 (default: dynamic int8, as the product runs it)")
    ve.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    ve.add_argument("--limit", type=int, default=None, help="first N questions per set (a smoke test; not written)")
    args = ap.parse_args(argv)
    command = " ".join(["python -m benchmarks.clause_qa_rerank_fusion", *(argv if argv is not None else sys.argv[1:])])
    result = json.loads(OUT.read_text()) if OUT.exists() else {"benchmark": "clause_qa_rerank_fusion"}
    from clauselens.provenance import run_provenance

    prov = run_provenance(["bm25s", "numpy", "torch", "transformers", "sentence-transformers"])
    if args.step == "score":
        from clauselens.heads.cross_encoder import HeadReranker

        SCORES.mkdir(parents=True, exist_ok=True)
        for name, root in _heads(args.head).items():
            head = HeadReranker(root, int8=not args.fp32).load()
            tag = f"{name}-fp32" if args.fp32 else name  # a head's cached scores per precision
            for s in args.sets:
                qs = set_questions(s)
                t0 = time.perf_counter()
                score_set(library_for("cuad462", "minilm", qs), head, qs[: args.limit], SCORES / f"{tag}_{s}.jsonl")
                print(f"[rerank_fusion] {name} {s}: {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
            result.setdefault("heads", {})[tag] = {"root": str(root), "sha256": head.meta.get("sha256"), "int8": head.int8,
                                                    "training_command": head.meta.get("training_command")}
        return _write(result, "score", command, prov)
    if args.step == "choose":
        heads = args.heads or sorted({p.name.rsplit("_", 1)[0] for p in SCORES.glob("*_dev.jsonl")})
        result["choice"] = {"heads": heads, **choose(heads)}
        c = result["choice"]
        print(json.dumps({k: c[k] for k in ("off", "leave_one_set_out", "leave_one_set_out_pooled", "chosen_on_all_four")},
                         indent=1))
        return _write(result, "choose", command, prov)
    name, root = next(iter(_heads([args.head]).items()))
    checked = verify(root, args.weight, args.depth, args.abstain, not args.fp32, args.sets, args.limit)
    if args.limit is not None:
        print(json.dumps({s: {k: v["on"].get(k) for k in ("paraphrase", "latency_ms")} for s, v in checked["sets"].items()}))
        return
    result["verify"] = {"head_name": name, **checked,
                        "torch_threads": __import__("torch").get_num_threads(),
                        "load_average_1_5_15_at_end": [round(x, 2) for x in os.getloadavg()]}
    _write(result, "verify", command, prov)


def _write(result: dict[str, Any], step: str, command: str, prov: dict[str, Any]) -> None:
    result.setdefault("commands", {})[step] = command
    result.setdefault("provenance", {})[step] = prov
    result["date"] = dt.date.today().isoformat()
    result["data"] = {s: str(p.relative_to(REPO.parent)) for s, p in SETS.items()}
    result["note"] = ("all four sets are development sets (tuning allowed this session); the held-out "
                      "clause_qa_lay_blind4 is not read")
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
