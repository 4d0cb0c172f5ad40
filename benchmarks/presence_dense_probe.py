"""Does a dense view of the window help the clause presence head? An out-of-fold experiment (issues #40, #44).

The committed presence head (:mod:`clauselens.heads.presence`) is a TF-IDF logistic probe per CUAD category over
100-word windows, contract score = max over windows (multiple-instance "max" aggregation). Its recall is lowest on
Non-Compete and Exclusivity, whose clauses are written in many wordings (Hendrycks et al. 2021 report the same
categories among CUAD's hardest). Here the same windows also get a MiniLM sentence vector (all-MiniLM-L6-v2,
Reimers & Gurevych 2019, the library's own embedder and its cache), and three probes are compared with the same
folds as the playbook calibration (:mod:`clauselens.playbook.calibrate`: ``train_allowed`` agreements only, 5 folds,
seed 44, the probe refitted on four fifths and scoring the fifth):

* ``tfidf``: the committed head's probe (scores cached by the calibration);
* ``dense``: logistic regression on the MiniLM vector alone;
* ``joint``: one logistic regression over the TF-IDF features and the MiniLM vector (scaled by ``--dense-weight``).

Per category: out-of-fold AUC of the contract score, and the calibration's threshold/band choice (decided accuracy,
unclear rate). Result (327 agreements, 42,053 windows): the MiniLM vector adds nothing -- dense alone is worse on
every category (Non-Compete AUC 0.800 vs 0.900, Exclusivity 0.730 vs 0.844) and joint is no better (0.888, 0.844);
the committed TF-IDF head stays. No agreement outside ``train_allowed.txt`` and no question file is read. Nothing shipped changes.
Run (resumable: vectors persist in the embedder's SQLite cache)::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m benchmarks.presence_dense_probe      # -> results/presence_dense_probe.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "results" / "presence_dense_probe.json"
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m benchmarks.presence_dense_probe")


def window_vectors(wins: list[str]) -> np.ndarray:
    """MiniLM vectors of the windows (cached, so an interrupted run resumes)."""
    from clauselens.retrieval.embedders import get_embedder

    emb = get_embedder("minilm")
    out = []
    t0 = time.time()
    for i in range(0, len(wins), 2048):
        out.append(emb.embed_passages(wins[i:i + 2048]))
        print(f"embedded {min(i + 2048, len(wins))}/{len(wins)} windows, {time.time() - t0:.0f} s", file=sys.stderr)
    return np.vstack(out)


def main() -> None:
    from scipy.sparse import csr_matrix, hstack
    from sklearn.metrics import roc_auc_score

    from clauselens.heads.presence import PresenceHead
    from clauselens.heads.train_presence import allowed_keys, build, corpus_files, load_rows
    from clauselens.playbook.calibrate import CACHE, FOLDS, SEED, choose, fold_assignment, out_of_fold, probe_out_of_fold

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--categories", nargs="*", default=["Non-Compete", "Exclusivity", "Anti-Assignment", "Audit Rights"])
    ap.add_argument("--dense-weight", type=float, nargs="*", default=[1.0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    t0 = time.time()
    CACHE.mkdir(parents=True, exist_ok=True)
    cats_all, ann = load_rows()
    files = corpus_files()
    keys = sorted(k for k in allowed_keys() if k in files and k in ann)
    folds = fold_assignment(keys)
    cats = [c for c in args.categories if c in cats_all]
    wins, ywin, owner, contract = build(keys, files, cats, ann)
    print(f"{len(keys)} agreements, {len(wins)} windows", file=sys.stderr)
    dense = window_vectors(wins)
    head = PresenceHead()
    x_tfidf = head.vectorizer.transform(wins).tocsr()
    _, tfidf_scores, _, _ = out_of_fold(tuple(cats))
    rows = {}
    for j, c in enumerate(cats):
        y = contract[:, j].astype(np.int64)
        scores = {"tfidf": tfidf_scores[c]}
        variants = {"dense": lambda _w: csr_matrix(dense)}
        for w in args.dense_weight:
            variants[f"joint_w{w}"] = lambda w_=w: hstack([x_tfidf, csr_matrix(dense * w_)]).tocsr()
        for name, make in variants.items():
            scores[name] = probe_out_of_fold(make(None) if name == "dense" else make(), ywin[:, j], owner, folds)
        rows[c] = {"positives": int(y.sum()), "agreements": len(y)}
        for name, s in scores.items():
            ch = choose(s, y)
            rows[c][name] = {"auc": round(float(roc_auc_score(y, s)), 4), "oof": ch["oof"],
                             "oof_no_band": ch["oof_no_band"], "margin": ch["margin"]}
        print(c, json.dumps({k: (v["auc"], v["oof_no_band"]["accuracy"], v["oof"]["decided_accuracy"],
                                 v["oof"]["unclear_rate"]) for k, v in rows[c].items() if isinstance(v, dict)}),
              file=sys.stderr)
    args.out.write_text(json.dumps({
        "what": "presence probe out of fold: TF-IDF (the committed head's probe) vs a MiniLM window vector vs both "
                "(an experiment; nothing shipped changes)",
        "data": f"{len(keys)} train_allowed agreements with a corpus text, {len(wins)} windows, {FOLDS} folds (seed {SEED})",
        "command": COMMAND, "seconds": round(time.time() - t0, 1), "categories": rows}, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
