"""Presence with wording features (issue #44): the presence head's score stacked with counts of how a clause kind is worded.

The presence head (:mod:`clauselens.heads.presence`, a TF-IDF logistic probe over 100-word windows) reads Exclusivity
poorly: out of fold over the 327 ``train_allowed`` agreements it decides 0.80 of them right at an 11 % unclear band
(``presence_calibration.json``), and it misses grants worded in one phrase ("appoints the Agent as its exclusive financial
advisor") inside long windows about something else. Here, per category of :data:`FEATURES`, a logistic regression
(scikit-learn, ``C=1``) reads the head's contract score (log-odds of the maximum over windows, windows that name the kind
only negated masked as the review masks them) and ``log(1 + count)`` of a few wording patterns in the whole agreement (an
exclusive grant or appointment, "exclusivity", a sole supplier or distributor, "exclusively from", a negated
"non-exclusive" and a bar on dealing with "any other" party). This is stacked generalisation (Wolpert 1992, "Stacked
generalization", Neural Networks 5): the head's input scores are out-of-fold (5 folds, :func:`clauselens.playbook.calibrate.
fold_assignment`, the probe refitted without the held-out agreements), so the stacker never sees a score the head fitted.

Threshold and unclear band are chosen on the stacker's own out-of-fold probabilities (a second cross-validation over the
same folds) exactly as :func:`clauselens.playbook.calibrate.choose` chooses the head's; the result, ``presence_stack.json``
beside this module, records coefficients, folds, out-of-fold accuracy and the command. Only ``train_allowed`` agreements
are read. Run (about a minute)::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m clauselens.playbook.stack > /tmp/playbook_stack.log 2>&1
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.grid.heads import EXCLUSIVE_GRANT, EXCLUSIVITY_WORD

STACK = Path(__file__).resolve().parent / "presence_stack.json"
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.playbook.stack")

#: Wording patterns per category: (name, pattern), counted over the agreement's whole text (the exclusive grant's and
#: "exclusivity" are the grid's, :data:`clauselens.grid.heads.EXCLUSIVE_GRANT`).
FEATURES: dict[str, tuple[tuple[str, str], ...]] = {
    "Exclusivity": (
        ("exclusive grant", EXCLUSIVE_GRANT),
        ("exclusivity", EXCLUSIVITY_WORD),
        ("sole supplier", r"\bsole\s+(?:and\s+exclusive\s+)?(?:distributor|supplier|source|provider|agent|reseller|licensee|manufacturer)\b"),
        ("only from", r"\b(?:exclusively|solely)\s+(?:from|through|with)\b|\ball of (?:its|their|the) requirements\b|"
                      r"\bshall not\b[^.]{0,80}\b(?:any other|third[- ]party)\s+(?:supplier|distributor|manufacturer|vendor|source)"),
        ("negated", r"\bnon\W{0,2}exclusiv|\bnot\b[^.]{0,60}\bexclusive\b"),
        ("not any other", r"\b(?:shall|will|may|agrees?)\s+not\b[^.]{0,120}\b(?:any other|anyone other|any third part|other than)"),
    ),
}
_COMPILED: dict[str, list[tuple[str, re.Pattern[str]]]] = {c: [(n, re.compile(p, re.I)) for n, p in f] for c, f in FEATURES.items()}


_NEGATIVE_NAME = re.compile(r"^(?:non|anti|no)\b", re.IGNORECASE)


def negated_windows(wins: Sequence[str], category: str) -> Any:
    """Which presence-head windows name the category only in its negated form (issue #44): a window
    whose every word on the category's stem (the first six letters of its name: "exclus" for
    Exclusivity) carries "non" ("non-exclusive licence", "nonexclusive right") grants the opposite,
    so the head's score on it does not show the clause. A boolean array; all False for a category
    named by a negation itself ("Non-Compete", "Anti-Assignment") or a stem shorter than six letters."""
    stem = re.sub(r"[^a-z]", "", category.split()[0].lower())[:6] if category.split() else ""
    if len(stem) < 6 or _NEGATIVE_NAME.match(category):
        return np.zeros(len(wins), dtype=bool)
    rx = re.compile(r"\b(non[\s-]*)?" + stem + r"\w*", re.IGNORECASE)
    out = []
    for w in wins:
        found = [m.group(1) is not None for m in rx.finditer(w)]
        out.append(bool(found) and all(found))
    return np.array(out, dtype=bool)


def wording(category: str, text: str) -> np.ndarray:
    """``log(1 + count)`` of each wording pattern of ``category`` in ``text`` (empty for a category without features)."""
    return np.array([math.log1p(len(rx.findall(text))) for _, rx in _COMPILED.get(category, [])], dtype=np.float64)


def first_match(category: str, texts: Sequence[str]) -> tuple[int, tuple[int, int]] | None:
    """The first passage (index, character span) holding the strongest wording feature of ``category``, in the order of
    :data:`FEATURES` (a grant before a bar on "any other"), leaving out the negated pattern; ``None`` when none matches."""
    for name, rx in _COMPILED.get(category, []):
        if name == "negated":
            continue
        for i, t in enumerate(texts):
            m = rx.search(t)
            if m:
                return i, m.span()
    return None


def _logit(p: float | np.ndarray) -> Any:
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-6, 1 - 1e-6)
    return np.log(q / (1 - q))


@lru_cache(maxsize=1)
def load_stack(path: str = str(STACK)) -> dict[str, dict[str, Any]]:
    """Per category ``{"coef", "intercept", "threshold", "margin", "features"}`` (empty when the file is not there or its
    patterns are not this module's)."""
    p = Path(path)
    if not p.is_file():
        return {}
    data = json.loads(p.read_text())
    out = {}
    for c, v in data.get("categories", {}).items():
        if [list(x) for x in FEATURES.get(c, ())] == v.get("features"):
            out[c] = v
    return out


def stacked_score(category: str, head_score: float, text: str) -> float | None:
    """The stacker's probability that the agreement (``text``, its whole text) has a clause of ``category``, from the head's
    contract score; ``None`` when no stacker is shipped for the category."""
    entry = load_stack().get(category)
    if entry is None:
        return None
    x = np.concatenate([[float(_logit(head_score))], wording(category, text)])
    z = float(np.dot(entry["coef"], x) + entry["intercept"])
    return 1.0 / (1.0 + math.exp(-z))


def _oof_head(category: str) -> tuple[list[str], np.ndarray, np.ndarray, list[int], list[str]]:
    """Out-of-fold head contract scores over the train_allowed agreements (:func:`clauselens.playbook.calibrate.probe_out_of_fold`,
    the calibration's folds), negated windows masked as the review masks them."""
    from clauselens.heads.presence import PresenceHead
    from clauselens.heads.train_presence import allowed_keys, build, corpus_files, load_rows
    from clauselens.playbook.calibrate import fold_assignment, probe_out_of_fold

    _, ann = load_rows()
    files = corpus_files()
    keys = sorted(k for k in allowed_keys() if k in files and k in ann)
    folds = fold_assignment(keys)
    wins, ywin, owner, contract = build(keys, files, [category], ann)
    x = PresenceHead().vectorizer.transform(wins).tocsr()
    scores = probe_out_of_fold(x, ywin[:, 0], owner, folds, keep=~negated_windows(wins, category))
    texts = [files[k].read_text(errors="ignore") for k in keys]
    return keys, scores, contract[:, 0].astype(np.int64), folds, texts


def fit(category: str) -> dict[str, Any]:
    """The stacker of one category: out-of-fold head scores, wording features, a second cross-validation for the
    stacker's own out-of-fold probabilities (threshold and band), and the final fit on every agreement."""
    from sklearn.linear_model import LogisticRegression

    from clauselens.playbook.calibrate import FOLDS, choose

    keys, head, y, folds, texts = _oof_head(category)
    x = np.column_stack([_logit(head), np.array([wording(category, t) for t in texts])])
    fold = np.asarray(folds)
    oof = np.zeros(len(y))
    for f in range(FOLDS):
        tr = fold != f
        m = LogisticRegression(C=1.0, max_iter=1000).fit(x[tr], y[tr])
        oof[~tr] = m.predict_proba(x[~tr])[:, 1]
    chosen = choose(oof, y)
    head_alone = choose(head, y)
    final = LogisticRegression(C=1.0, max_iter=1000).fit(x, y)
    return {"features": [list(f) for f in FEATURES[category]], "coef": [round(float(v), 6) for v in final.coef_[0]],
            "intercept": round(float(final.intercept_[0]), 6), "threshold": chosen["threshold"], "margin": chosen["margin"],
            "positives": int(y.sum()), "agreements": len(y), "oof": chosen["oof"], "oof_no_band": chosen["oof_no_band"],
            "head_alone_masked": {"threshold": head_alone["threshold"], "margin": head_alone["margin"], "oof": head_alone["oof"],
                                  "oof_no_band": head_alone["oof_no_band"]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(STACK))
    args = ap.parse_args()
    from clauselens.heads.presence import PresenceHead
    from clauselens.playbook.calibrate import FOLDS, SEED

    t0 = time.time()
    cats = {}
    for c in FEATURES:
        cats[c] = fit(c)
        print(c, {k: v for k, v in cats[c].items() if k != "features"}, file=sys.stderr)
    result = {"what": "presence head score stacked with wording features, for playbook review (issue #44)",
              "data": f"train_allowed.txt agreements with a legalbench-rag/corpus/cuad text; head scores {FOLDS}-fold out of "
                      f"fold (seed {SEED}); the stacker's threshold and band from its own out-of-fold probabilities; no other "
                      "agreement read",
              "head_sha256": PresenceHead().meta["sha256"], "command": COMMAND, "seconds": round(time.time() - t0, 1),
              "categories": cats}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    load_stack.cache_clear()
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

__all__ = ["FEATURES", "STACK", "first_match", "load_stack", "negated_windows", "stacked_score", "wording"]
