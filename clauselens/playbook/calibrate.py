"""Per-category presence thresholds and "unclear" bands for playbook review, cross-validated on
``train_allowed`` agreements only (issue #44).

The presence head (:mod:`clauselens.heads.presence`) chose each category's threshold on its tune
split (65 agreements: 12 with a non-compete), so a category with few positives got a noisy
threshold. Here every ``train_allowed`` agreement with a corpus text gets an out-of-fold
contract score: the agreements are split into ``FOLDS`` folds by agreement, and the same probe
(the committed head's TF-IDF vocabulary and idf; scikit-learn ``LogisticRegression``, liblinear,
``C=4``, balanced class weights, exactly as ``train_presence.py``) is fitted on the windows of the
other folds and scores the held-out agreements (max over windows). This is K-fold cross-validation
(Stone 1974) used for model selection only; the committed weights do not change.

Per category, on those out-of-fold scores (contract label: CUAD's annotation column non-empty):

* the **threshold** maximises contract-level accuracy (ties: the higher threshold, as the head);
* the **band** (``margin``, log-odds either side of the threshold, read as "unclear") is the
  smallest of :data:`MARGINS` whose decided accuracy reaches :data:`TARGET` with at most
  :data:`MAX_UNCLEAR` of the agreements unclear; when none does, the margin with the best decided
  accuracy within that unclear rate.

The result, ``presence_calibration.json`` beside this module, records the fold assignment, the
command, and per category the out-of-fold accuracy and unclear rate. No agreement outside
``train_allowed.txt`` is read. Run (heavy: ~42k windows, 5 fits per category)::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m clauselens.playbook.calibrate > /tmp/playbook_calibrate.log 2>&1
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

CALIBRATION = Path(__file__).resolve().parent / "presence_calibration.json"
CACHE = Path("~/.cache/clauselens/playbook_calibration").expanduser()
#: The CUAD categories a shipped or benchmark playbook decides with the presence head.
CATEGORIES = ("Non-Compete", "Exclusivity", "Anti-Assignment", "Cap On Liability", "Audit Rights", "Insurance",
              "Governing Law", "Renewal Term", "Notice Period To Terminate Renewal", "No-Solicit Of Employees",
              "Termination For Convenience", "Minimum Commitment")
FOLDS = 5
SEED = 44
#: Candidate bands in log-odds (0: no band).
MARGINS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
#: Decided accuracy a band aims for, and the most agreements it may leave unclear.
TARGET = 0.93
MAX_UNCLEAR = 0.12
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.playbook.calibrate")


def logit(p: np.ndarray | float) -> np.ndarray:
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-6, 1 - 1e-6)
    return np.log(q / (1 - q))


def band_stats(scores: np.ndarray, y: np.ndarray, threshold: float, margin: float) -> dict[str, float]:
    """Decided accuracy, unclear rate and accuracy (unclear counted wrong) of one threshold and band."""
    z = logit(scores) - float(logit(threshold))
    unclear = np.abs(z) < margin
    pred = z >= 0
    decided = ~unclear
    n_dec = int(decided.sum())
    right = int(((pred == (y == 1)) & decided).sum())
    return {"decided_accuracy": right / n_dec if n_dec else 0.0, "unclear_rate": float(unclear.mean()),
            "accuracy": right / len(y) if len(y) else 0.0, "decided": n_dec}


def choose(scores: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """The threshold (best accuracy) and the band (see the module docstring) for one category."""
    from clauselens.heads.train_presence import choose_threshold

    thr = choose_threshold(scores, y)
    stats = {m: band_stats(scores, y, thr, m) for m in MARGINS}
    ok = [m for m in MARGINS if stats[m]["unclear_rate"] <= MAX_UNCLEAR]
    reach = [m for m in ok if stats[m]["decided_accuracy"] >= TARGET]
    margin = reach[0] if reach else max(ok, key=lambda m: (stats[m]["decided_accuracy"], -m))
    return {"threshold": round(float(thr), 4), "margin": margin, "positives": int(y.sum()), "agreements": len(y),
            "oof": {k: round(v, 4) if isinstance(v, float) else v for k, v in stats[margin].items()},
            "oof_no_band": {k: round(v, 4) if isinstance(v, float) else v for k, v in stats[0.0].items()},
            "reaches_target": bool(reach)}


#: A text variant for a head experiment (``--variant``): "non-exclusive" read as "nonexclusive"
#: (the word-level TF-IDF otherwise sees "exclusive" with a weak "non"); never used by a review.
NON_PREFIX = re.compile(r"\b(non)[-\u2010\u2011\u2013]+(?=[a-z])", re.I)


def fold_assignment(keys: list[str]) -> list[int]:
    """The fold of each agreement key (``FOLDS`` folds, a shuffle seeded with ``SEED``): the same split wherever the
    presence probe is cross-validated."""
    order = keys[:]
    random.Random(SEED).shuffle(order)
    fold_of = {k: i % FOLDS for i, k in enumerate(order)}
    return [fold_of[k] for k in keys]


def probe_out_of_fold(x: Any, y_windows: np.ndarray, owner: np.ndarray, folds: list[int], keep: np.ndarray | None = None) -> np.ndarray:
    """Out-of-fold contract scores of one category: the probe (``train_presence``'s logistic regression, liblinear,
    ``C=4``, balanced) fitted on the windows ``x`` of the other folds, each held-out agreement scored by the maximum over
    its windows (``owner``: the agreement index of each window; ``keep``: windows that may score, the others count 0 --
    the review's mask of windows naming a kind only negated)."""
    from sklearn.linear_model import LogisticRegression

    from clauselens.heads.train_presence import contract_max

    fold = np.asarray(folds)
    win_fold = fold[owner]
    scores = np.zeros(len(fold), dtype=np.float64)
    for f in range(FOLDS):
        tr, te = win_fold != f, win_fold == f
        clf = LogisticRegression(C=4.0, solver="liblinear", class_weight="balanced", max_iter=500)
        clf.fit(x[tr], y_windows[tr])
        p = clf.predict_proba(x[te])[:, 1] * (keep[te] if keep is not None else 1.0)
        held = np.flatnonzero(fold == f)
        local = {a: b for b, a in enumerate(held)}
        scores[held] = contract_max(p[:, None], np.array([local[i] for i in owner[te]]), len(held))[:, 0]
    return scores


def out_of_fold(categories: tuple[str, ...], variant: str = "") -> tuple[list[str], dict[str, np.ndarray], dict[str, np.ndarray], list[int]]:
    """Out-of-fold contract scores and labels per category over the train_allowed agreements
    (``variant`` "join-non": the windows' "non-" prefixes joined before the vectoriser, train and test)."""
    from clauselens.heads.presence import PresenceHead
    from clauselens.heads.train_presence import allowed_keys, build, corpus_files, load_rows

    cats_all, ann = load_rows()
    files = corpus_files()
    keys = sorted(k for k in allowed_keys() if k in files and k in ann)
    folds = fold_assignment(keys)
    cats = [c for c in categories if c in cats_all]
    head = PresenceHead()
    wins, ywin, owner, contract = build(keys, files, cats, ann)
    print(f"{len(keys)} agreements, {len(wins)} windows", file=sys.stderr)
    x = head.vectorizer.transform([NON_PREFIX.sub(r"\1", w) for w in wins] if variant else wins).tocsr()
    scores = {c: np.zeros(len(keys), dtype=np.float64) for c in cats}
    for j, c in enumerate(cats):
        t0 = time.time()
        done = CACHE / f"oof{variant}_{re.sub(r'[^a-z0-9]+', '_', c.lower())}.json"
        if done.is_file():
            scores[c] = np.array(json.loads(done.read_text()))
            continue
        scores[c] = probe_out_of_fold(x, ywin[:, j], owner, folds)
        done.write_text(json.dumps(scores[c].tolist()))
        print(f"{c}: {time.time() - t0:.0f} s", file=sys.stderr)
    labels = {c: contract[:, j].astype(np.int64) for j, c in enumerate(cats)}
    return keys, scores, labels, folds


def variant_experiment(variant: str, out: Path) -> None:
    """Out-of-fold AUC and chosen band per category, plain text against ``variant`` (same folds)."""
    from sklearn.metrics import roc_auc_score

    CACHE.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    keys, plain, labels, folds = out_of_fold(CATEGORIES)
    _, var, _, _ = out_of_fold(CATEGORIES, variant)
    rows = {}
    for c in plain:
        rows[c] = {"positives": int(labels[c].sum()), "auc_plain": round(float(roc_auc_score(labels[c], plain[c])), 4),
                   f"auc_{variant}": round(float(roc_auc_score(labels[c], var[c])), 4),
                   "plain": choose(plain[c], labels[c])["oof"], variant: choose(var[c], labels[c])["oof"]}
        print(c, rows[c], file=sys.stderr)
    out.write_text(json.dumps({"what": f"presence probe out of fold, plain text vs {variant} (a head experiment; the shipped "
                                       "head and calibration are unchanged)",
                               "data": f"{len(keys)} train_allowed agreements, {FOLDS} folds (seed {SEED})",
                               "command": COMMAND + f" --variant {variant} --out {out}", "seconds": round(time.time() - t0, 1),
                               "categories": rows}, indent=1) + "\n")


@lru_cache(maxsize=1)
def load_calibration(path: str = str(CALIBRATION)) -> dict[str, dict[str, float]]:
    """Per category ``{"threshold", "margin"}`` (empty when the file is not there)."""
    p = Path(path)
    if not p.is_file():
        return {}
    data = json.loads(p.read_text())
    return {c: {"threshold": float(v["threshold"]), "margin": float(v["margin"])} for c, v in data["categories"].items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(CALIBRATION))
    ap.add_argument("--variant", choices=["", "join-non"], default="",
                    help="experiment: out-of-fold AUC with this text variant against the plain text (writes --out only)")
    args = ap.parse_args()
    if args.variant:
        variant_experiment(args.variant, Path(args.out))
        return
    t0 = time.time()
    CACHE.mkdir(parents=True, exist_ok=True)
    cache = CACHE / "oof_all.json"
    if cache.is_file() and json.loads(cache.read_text()).get("categories") == list(CATEGORIES):
        c = json.loads(cache.read_text())
        keys, folds = c["keys"], c["folds"]
        scores = {k: np.array(v) for k, v in c["scores"].items()}
        labels = {k: np.array(v) for k, v in c["labels"].items()}
    else:
        keys, scores, labels, folds = out_of_fold(CATEGORIES)
        cache.write_text(json.dumps({"categories": list(CATEGORIES), "keys": keys, "folds": folds,
                                     "scores": {k: v.tolist() for k, v in scores.items()},
                                     "labels": {k: v.tolist() for k, v in labels.items()}}))
    from clauselens.heads.presence import PresenceHead

    head = PresenceHead()
    out: dict[str, Any] = {}
    for c in scores:
        out[c] = choose(scores[c], labels[c])
        out[c]["head_threshold"] = round(float(head.thresholds[head.categories.index(c)]), 4)
        print(c, out[c], file=sys.stderr)
    result = {"what": "per-category presence thresholds and unclear bands for playbook review (issue #44)",
              "data": f"{len(keys)} train_allowed.txt agreements with a legalbench-rag/corpus/cuad text, "
                      f"{FOLDS}-fold out-of-fold scores (seed {SEED}); no other agreement read",
              "head_sha256": head.meta["sha256"], "target_decided_accuracy": TARGET, "max_unclear": MAX_UNCLEAR,
              "margins": list(MARGINS), "command": COMMAND, "seconds": round(time.time() - t0, 1),
              "folds": dict(zip(keys, folds)), "categories": out}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    load_calibration.cache_clear()
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

__all__ = ["CALIBRATION", "NON_PREFIX", "band_stats", "choose", "fold_assignment", "load_calibration", "logit",
           "probe_out_of_fold", "variant_experiment"]
