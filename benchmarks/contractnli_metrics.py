"""Scoring for the ContractNLI benchmark: failures count as wrong *and* are counted.

PAKTON's evaluation drops answers it cannot parse; here a pair with no label (model output
never parsed), a timeout, or an error stays in the denominator as a wrong answer and is
also tallied under ``failures``.

Definitions (Koreeda & Manning 2021 report accuracy and per-class F1; weighted F1 is the
support-weighted mean of per-class F1, as in scikit-learn's ``average="weighted"``):

* confusion ``matrix[gold][pred]`` with ``pred`` in E, C, N or ``Failed``;
* precision(c) = TP / (column total of c), recall(c) = TP / (row total of c),
  F1 = 2PR/(P+R), 0 when undefined; failed pairs lower recall of their gold class and
  add no false positive to any class;
* accuracy's 95% interval is the exact Clopper–Pearson interval (Clopper & Pearson 1934),
  via ``scipy.stats.beta`` quantiles;
* F1 intervals are percentile bootstrap intervals over pairs (Efron & Tibshirani 1993,
  ch. 13), 1,000 resamples, fixed seed.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
from scipy.stats import beta

from clauselens.retrieval.exemplars import LABELS

SHORT = {"Entailment": "E", "Contradiction": "C", "NotMentioned": "N"}
FAILED = "Failed"
FAILURE_STATUSES = ("no_label", "timeout", "error", "no_fit")


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact two-sided ``1 - alpha`` interval for a binomial proportion ``k / n``.

    Returns ``(low, high)`` in [0, 1]; ``(0.0, 1.0)`` when ``n == 0``.
    """
    if n == 0:
        return 0.0, 1.0
    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def confusion(gold: Sequence[str], pred: Sequence[str | None]) -> dict[str, dict[str, int]]:
    """Confusion counts ``{gold: {pred: count}}``; a ``None`` prediction counts as ``Failed``."""
    cm = {g: {p: 0 for p in (*LABELS, FAILED)} for g in LABELS}
    for g, p in zip(gold, pred):
        cm[g][p if p in LABELS else FAILED] += 1
    return cm


def f1_scores(cm: dict[str, dict[str, int]]) -> tuple[dict[str, float], float]:
    """Per-class F1 and the support-weighted F1 from a confusion matrix (see module doc)."""
    per: dict[str, float] = {}
    support = {c: sum(cm[c].values()) for c in LABELS}
    for c in LABELS:
        tp = cm[c][c]
        col = sum(cm[g][c] for g in LABELS)
        row = support[c]
        p = tp / col if col else 0.0
        r = tp / row if row else 0.0
        per[c] = 2 * p * r / (p + r) if p + r else 0.0
    n = sum(support.values())
    weighted = sum(per[c] * support[c] for c in LABELS) / n if n else 0.0
    return per, weighted


def score(records: Iterable[dict], *, n_boot: int = 1000, seed: int = 0) -> dict:
    """Score benchmark records (dicts with ``gold``, ``pred`` (str or None), ``status``).

    Returns ``{"n", "correct", "accuracy", "accuracy_ci95", "f1_weighted",
    "f1_weighted_ci95", "f1": {E, C, N}, "f1_ci95": {...}, "confusion", "failures":
    {status: count, "total": int}, "pred_counts"}``. Any record whose ``status`` is not
    ``ok`` has its prediction replaced by ``Failed``.
    """
    recs = list(records)
    gold = [r["gold"] for r in recs]
    pred = [r.get("pred") if r.get("status") == "ok" else None for r in recs]
    n = len(recs)
    correct = sum(1 for g, p in zip(gold, pred) if g == p)
    cm = confusion(gold, pred)
    per, weighted = f1_scores(cm)
    failures = {s: sum(1 for r in recs if r.get("status") == s) for s in FAILURE_STATUSES}
    failures["total"] = sum(1 for r in recs if r.get("status") != "ok")
    out = {
        "n": n, "correct": correct, "accuracy": correct / n if n else 0.0,
        "accuracy_ci95": list(clopper_pearson(correct, n)),
        "f1_weighted": weighted, "f1": {SHORT[c]: per[c] for c in LABELS},
        "confusion": {SHORT[g]: {(SHORT.get(p, p)): v for p, v in row.items()} for g, row in cm.items()},
        "failures": failures,
        "pred_counts": {SHORT.get(p, p) if p else FAILED: sum(1 for q in pred if q == p) for p in (*LABELS, None)},
    }
    if n and n_boot:
        rng = np.random.default_rng(seed)
        gi = np.array(gold, dtype=object)
        pi = np.array(pred, dtype=object)
        wf, pc = [], {c: [] for c in LABELS}
        for _ in range(n_boot):
            idx = rng.integers(0, n, n)
            per_b, w_b = f1_scores(confusion(gi[idx].tolist(), pi[idx].tolist()))
            wf.append(w_b)
            for c in LABELS:
                pc[c].append(per_b[c])
        q = lambda xs: [float(np.percentile(xs, 2.5)), float(np.percentile(xs, 97.5))]  # noqa: E731
        out["f1_weighted_ci95"] = q(wf)
        out["f1_ci95"] = {SHORT[c]: q(pc[c]) for c in LABELS}
    return out
