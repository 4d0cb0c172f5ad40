"""A cheaper answerability baseline (issue #39): a linear probe on frozen MiniLM embeddings.

Does the library's own bi-encoder, with a learned (diagonal bilinear) similarity instead of the
cosine, tell an answering passage from a neighbouring clause? Features per (question, passage): the
element-wise product of the question's and the passage's all-MiniLM-L6-v2 vectors (the passage's
from the benchmark library's stored vectors, ``cuad462-minilm``) and their cosine; logistic
regression (scikit-learn) on the CUAD gold labels of the searches written by
``clauselens.library.answerability_data`` (train_allowed agreements the reranker head did not train
on), split by agreement (seeded; a 30 % validation share of the agreements). Reported on the
validation agreements: passage-level ROC AUC of the probe and of the cosine, and list-level AUC
(best passage's probability; answerable = the category is annotated) overall and per register.
No question file is read.

    .venv/bin/python -m benchmarks.answerability_probe
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sqlite3
import sys
from pathlib import Path

import numpy as np

from benchmarks.clause_qa import RESULTS
from clauselens.library.answerability_data import LIBRARY, OUT


def passage_rows(library: Path, searches: list[dict]) -> list[list[int]]:
    """The library row of each search passage (-1 when the span is not a stored passage)."""
    db = sqlite3.connect(str(library / "catalogue.sqlite"))
    docs = {Path(p).name: d for d, p in db.execute("SELECT doc_id, path FROM agreements")}
    out = []
    for s in searches:
        rows = []
        for p in s["passages"]:
            r = db.execute("SELECT row FROM passages WHERE doc_id=? AND start=? AND end=?",
                           (docs.get(s["file"]), p["span"][0], p["span"][1])).fetchone()
            rows.append(int(r[0]) if r else -1)
        out.append(rows)
    return out


def main(argv: list[str] | None = None) -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from clauselens.retrieval.embedders import get_embedder

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--searches", type=Path, default=OUT)
    ap.add_argument("--library", type=Path, default=LIBRARY)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--val-share", type=float, default=0.3)
    ap.add_argument("--C", type=float, nargs="+", default=[0.1, 1.0, 10.0])
    args = ap.parse_args(argv)
    searches = [json.loads(x) for x in args.searches.read_text().splitlines() if x.strip()]
    dim = int(json.loads((args.library / "library.json").read_text())["dim"])
    vectors = np.memmap(args.library / "vectors.f32", dtype=np.float32, mode="r").reshape(-1, dim)
    rows = passage_rows(args.library, searches)
    queries = sorted({s["query"] for s in searches})
    qv = dict(zip(queries, get_embedder("minilm").embed_queries(queries)))
    contracts = sorted({s["contract"] for s in searches})
    random.Random(args.seed).shuffle(contracts)
    val = set(contracts[:max(1, round(len(contracts) * args.val_share))])
    X, y, is_val, sid = [], [], [], []
    for i, (s, rs) in enumerate(zip(searches, rows)):
        q = qv[s["query"]]
        for p, r in zip(s["passages"], rs):
            if r >= 0:
                X.append(np.concatenate([q * vectors[r], [float(q @ vectors[r])]]))
                y.append(bool(p["gold"]))
                is_val.append(s["contract"] in val)
                sid.append(i)
    Xa, ya, va, sa = np.asarray(X), np.asarray(y, dtype=int), np.asarray(is_val), np.asarray(sid)
    result: dict = {"benchmark": "answerability_probe", "data": str(args.searches), "library": str(args.library),
                    "pairs": {"fit": int((~va).sum()), "val": int(va.sum()), "gold_fit": int(ya[~va].sum()),
                              "gold_val": int(ya[va].sum())},
                    "agreements": {"fit": len(contracts) - len(val), "val": len(val)},
                    "passage_auc_cosine": round(float(roc_auc_score(ya[va], Xa[va, -1])), 4), "probe": {}}
    for C in args.C:
        lr = LogisticRegression(C=C, max_iter=2000).fit(Xa[~va], ya[~va])
        pv = lr.predict_proba(Xa[va])[:, 1]
        best: dict[int, float] = {}
        for i, p in zip(sa[va], pv):
            best[int(i)] = max(best.get(int(i), 0.0), float(p))
        ids = sorted(best)
        yy = np.asarray([searches[i]["present"] for i in ids], dtype=int)
        bb = np.asarray([best[i] for i in ids])
        per_reg = {}
        for reg in ("lay", "legal"):
            m = np.asarray([searches[i]["register"] == reg for i in ids])
            per_reg[reg] = round(float(roc_auc_score(yy[m], bb[m])), 4)
        result["probe"][f"C={C:g}"] = {"passage_auc": round(float(roc_auc_score(ya[va], pv)), 4),
                                       "list_auc_best_passage": round(float(roc_auc_score(yy, bb)), 4),
                                       "list_auc_by_register": per_reg, "searches": len(ids)}
    result["command"] = " ".join(["python -m benchmarks.answerability_probe", *(argv if argv is not None else sys.argv[1:])])
    result["date"] = dt.date.today().isoformat()
    out = RESULTS / "answerability_probe.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
