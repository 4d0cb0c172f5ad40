"""Fit the answerability model and the head's calibration (issue #39; see ``heads.answerability``).

Input: the library searches written by ``python -m clauselens.library.answerability_data`` (CUAD
phrasings searched in ``train_allowed`` agreements the reranker head did not train on; label: the
category is annotated there or not; per passage: gold or not, dense and BM25 scores).

``score``: the reranker head's logits for every passage of those searches, agreements in a seeded
order, appended to ``logits.jsonl`` (resumable; ``--max-seconds`` stops between searches so a run
holds the CPU for a bounded time).

``fit``: the scored agreements are split by agreement (seeded) into a fit share and a validation
share. On the fit share: Platt scaling of the passage logits against the gold labels
(``LogisticRegression`` on one feature) and the answerability logistic regression on
``answerability.features`` (standardised). On the validation share: ROC AUC of the model and of its
single-feature baselines, the trade-off curve (answerable searches abstained vs unanswerable searches
answered, per threshold), and the threshold = the highest with at most ``--max-abstained`` of the
answerable validation searches abstained. ``--export`` writes ``weights/answerability/model.json``
and ``benchmarks/results/answerability_training.json``. No question file is read.

    python -m clauselens.heads.train_answerability score --head ~/.cache/clauselens/heads/reranker/stage1
    python -m clauselens.heads.train_answerability fit --export
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.answerability import FEATURES, MODEL_FILE, NAME, features
from clauselens.heads.base import WEIGHTS, sha256_file

CACHE = Path.home() / ".cache" / "clauselens" / "heads" / "reranker" / "answerability"
REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "benchmarks" / "results" / "answerability_training.json"
GRID = [round(0.02 * i, 2) for i in range(1, 50)]


def load_searches(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def search_key(s: dict[str, Any]) -> str:
    return f"{s['contract']}|{s['category']}|{s['register']}"


def agreement_order(searches: list[dict[str, Any]], seed: int) -> list[str]:
    keys = sorted({s["contract"] for s in searches})
    random.Random(seed).shuffle(keys)
    return keys


def score(args: argparse.Namespace) -> None:
    """Append head logits of the searches' passages to ``args.logits`` until done or out of time."""
    import torch

    from clauselens.heads.cross_encoder import HeadReranker

    torch.set_num_threads(args.threads)
    head = HeadReranker(args.head, batch_size=args.batch_size).load()
    searches = load_searches(args.searches)
    done = {json.loads(x)["key"] for x in args.logits.read_text().splitlines()} if args.logits.exists() else set()
    rank = {k: i for i, k in enumerate(agreement_order(searches, args.seed))}
    todo = sorted((s for s in searches if search_key(s) not in done and s["passages"]), key=lambda s: rank[s["contract"]])
    t0 = time.time()
    n = 0
    with open(args.logits, "a", encoding="utf-8") as f:
        for s in todo:
            if args.max_seconds and time.time() - t0 > args.max_seconds:
                break
            lg = head.logits(s["query"], [p["text"] for p in s["passages"][:args.top]])
            f.write(json.dumps({"key": search_key(s), "head_sha256": head.meta.get("sha256"), "logits": lg}) + "\n")
            n += 1
            if n % 50 == 0:
                f.flush()
                print(f"[train_answerability] scored {n}/{len(todo)} searches, {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    print(f"[train_answerability] scored {n} searches this run ({len(done) + n} in all)", file=sys.stderr)


def _auc(y: np.ndarray, s: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return round(float(roc_auc_score(y, s)), 4) if 0 < y.sum() < len(y) else float("nan")


def curve(y: np.ndarray, p: np.ndarray, grid: list[float] = GRID) -> list[dict[str, float]]:
    """Per threshold: share of answerable (y=1) abstained (p < t) and unanswerable (y=0) answered (p >= t)."""
    pos, neg = p[y == 1], p[y == 0]
    return [{"t": t, "answerable_abstained": round(float((pos < t).mean()), 4),
             "unanswerable_answered": round(float((neg >= t).mean()), 4)} for t in grid]


def dataset(searches: list[dict[str, Any]], logits: dict[str, list[float]]) -> list[dict[str, Any]]:
    out = []
    for s in searches:
        lg = logits.get(search_key(s))
        if not lg:
            continue
        ps = s["passages"][:len(lg)]
        out.append({"contract": s["contract"], "present": s["present"], "register": s["register"], "logits": lg,
                    "gold": [bool(p["gold"]) for p in ps],
                    "x": features(lg, [p["dense"] for p in ps], [p["bm25"] for p in ps])})
    return out


def fit(args: argparse.Namespace) -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    searches = load_searches(args.searches)
    logits = {}
    heads = set()
    for line in args.logits.read_text().splitlines():
        d = json.loads(line)
        logits[d["key"]] = d["logits"]
        heads.add(d["head_sha256"])
    rows = dataset(searches, logits)
    contracts = sorted({r["contract"] for r in rows})
    random.Random(args.seed).shuffle(contracts)
    val = set(contracts[:max(1, round(len(contracts) * args.val_share))])
    tr = [r for r in rows if r["contract"] not in val]
    va = [r for r in rows if r["contract"] in val]
    # Platt scaling of passage logits on the fit share
    lx = np.asarray([x for r in tr for x in r["logits"]])[:, None]
    ly = np.asarray([g for r in tr for g in r["gold"]], dtype=int)
    platt = LogisticRegression(C=1e4).fit(lx, ly)
    if args.label == "retrieved":  # fit on answerable searches whose answer was retrieved, and unanswerable ones
        tr_fit = [r for r in tr if not r["present"] or any(r["gold"])]
    else:
        tr_fit = tr
    X, y = np.asarray([r["x"] for r in tr_fit]), np.asarray([r["present"] for r in tr_fit], dtype=int)
    Xv, yv = np.asarray([r["x"] for r in va]), np.asarray([r["present"] for r in va], dtype=int)
    scaler = StandardScaler().fit(X)
    lr = LogisticRegression(C=args.C, max_iter=1000).fit(scaler.transform(X), y)
    pv = lr.predict_proba(scaler.transform(Xv))[:, 1]
    cv = curve(yv, pv)
    hit5 = np.asarray([any(r["gold"][:5]) for r in va])
    keep = (yv == 0) | hit5  # answerable searches with the answer in the top 5 (what abstaining would lose)
    cv_hit = curve(yv[keep], pv[keep])
    ok = [c for c in cv if c["answerable_abstained"] <= args.max_abstained]
    thr = max((c["t"] for c in ok), default=0.0)
    vx = np.asarray([x for r in va for x in r["logits"]])[:, None]
    vy = np.asarray([g for r in va for g in r["gold"]], dtype=int)
    pp = platt.predict_proba(vx)[:, 1]
    passage_curve = [{"t": t, "relevant_kept": round(float((pp[vy == 1] >= t).mean()), 4),
                      "irrelevant_kept": round(float((pp[vy == 0] >= t).mean()), 4)} for t in GRID]
    report = {
        "data": {"searches": str(args.searches), "fit": {"agreements": len(contracts) - len(val), "searches": len(tr),
                                                        "answerable": int(y.sum()), "passages": len(ly), "gold_passages": int(ly.sum())},
                 "val": {"agreements": len(val), "searches": len(va), "answerable": int(yv.sum()), "passages": len(vy),
                         "gold_passages": int(vy.sum())},
                 "head_sha256": sorted(h for h in heads if h)},
        "val_auc": {"model": _auc(yv, pv), **{f: _auc(yv, Xv[:, i]) for i, f in enumerate(FEATURES)}},
        "val_passage_auc_platt": _auc(vy, pp),
        "label": args.label, "C": args.C, "threshold": thr, "max_abstained": args.max_abstained, "val_curve": cv,
        "val_curve_answer_in_top5": cv_hit, "val_passage_curve": passage_curve,
        "coef": dict(zip(FEATURES, [round(float(c), 4) for c in lr.coef_[0]])),
    }
    print(json.dumps({k: v for k, v in report.items() if "curve" not in k}, indent=2))
    for c, c5 in list(zip(cv, cv_hit))[::3]:
        print(c, "| answer in top 5:", c5["answerable_abstained"])
    if not args.export:
        return
    spec = {"name": NAME, "features": list(FEATURES), "platt": [float(platt.coef_[0][0]), float(platt.intercept_[0])],
            "mean": scaler.mean_.tolist(), "scale": scaler.scale_.tolist(), "coef": lr.coef_[0].tolist(),
            "intercept": float(lr.intercept_[0]), "threshold": thr, "head_sha256": sorted(h for h in heads if h),
            "training_command": "python -m clauselens.library.answerability_data && python -m "
                                "clauselens.heads.train_answerability score --head <reranker head dir> && python -m "
                                "clauselens.heads.train_answerability " + " ".join(sys.argv[1:]),
            "validation": {k: v for k, v in report.items() if k not in ("val_curve", "val_passage_curve")}}
    d = (args.export_root or WEIGHTS) / NAME
    d.mkdir(parents=True, exist_ok=True)
    (d / MODEL_FILE).write_text(json.dumps(spec, indent=2) + "\n")
    r = resource.getrusage(resource.RUSAGE_SELF)
    (args.results or RESULTS).write_text(json.dumps({**report, "model_sha256": sha256_file(d / MODEL_FILE),
                                   "fit_cpu_s": round(r.ru_utime + r.ru_stime, 1)}, indent=2) + "\n")
    print(f"wrote {d / MODEL_FILE} and {args.results or RESULTS}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=("score", "fit"))
    ap.add_argument("--searches", type=Path, default=CACHE / "searches.jsonl")
    ap.add_argument("--logits", type=Path, default=CACHE / "logits.jsonl")
    ap.add_argument("--head", type=Path, default=None, help="weights root holding reranker/ (default: the installed head)")
    ap.add_argument("--top", type=int, default=10, help="passages per search scored (the library's rerank_top)")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=0.0, help="stop scoring after this long (0: no limit)")
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--val-share", type=float, default=0.3, help="agreements held out for the curve and threshold")
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--label", choices=("present", "retrieved"), default="present",
                    help="fit on every search (answerable = category annotated) or leave out the answerable ones "
                         "whose answer retrieval missed (the validation curve always counts every search)")
    ap.add_argument("--max-abstained", type=float, default=0.03)
    ap.add_argument("--export", action="store_true")
    ap.add_argument("--export-root", type=Path, default=None, help="weights root (default: clauselens/heads/weights)")
    ap.add_argument("--results", type=Path, default=None, help="curve JSON (default: " + RESULTS.name + ")")
    args = ap.parse_args(argv)
    score(args) if args.step == "score" else fit(args)


if __name__ == "__main__":
    main()
