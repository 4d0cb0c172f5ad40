"""Absence lines for the grid's yes/no heads, out of fold on ``train_allowed`` agreements only (issue #45).

The grid answers a user's yes/no question "No" from the clause presence head when the agreement's contract score is
below the topic head's ``absent_below`` for that CUAD category (:mod:`clauselens.heads.train_topic`: the score under which
at most 3 % of the agreements *with* such a clause fall, kept only when it covers 40 % of those without). Termination For
Convenience and Exclusivity have none: their positives spread too low for that rule. For a "No" what matters is the other
side -- how many agreements under a line have the clause -- so here each category's line is the **least out-of-fold score
of any agreement with the clause** (no train_allowed agreement with such a clause scores below it), kept when at least
:data:`MIN_BELOW` agreements fall under it.

Scores: 5-fold out-of-fold contract scores of the 327 ``train_allowed`` agreements with a corpus text
(:func:`clauselens.playbook.calibrate.out_of_fold`, seed 44, the playbook's 12 categories and :data:`EXTRA`, cached); labels: CUAD's
``master_clauses.csv`` annotation non-empty. No question file, keyed set or report-split agreement is read. K-fold
cross-validation for model selection (Stone 1974). Run (seconds when the out-of-fold scores are cached)::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m benchmarks.presence_absent_lines

Writes ``clauselens/grid/presence_absent_lines.json`` (read by :func:`clauselens.grid.heads.absent_line`) and
``benchmarks/results/presence_absent_lines.json``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from clauselens.grid.heads import ABSENT_LINES

OUT = Path(__file__).resolve().parent / "results" / "presence_absent_lines.json"
COMMAND = "flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m benchmarks.presence_absent_lines"
#: Categories the grid's yes/no heads read beside the playbook's twelve (a question about competing or soliciting asks all three).
EXTRA = ("No-Solicit Of Customers",)
#: The fewest agreements a line must have under it (none of them with the clause) to be used.
MIN_BELOW = 20


def wilson_upper(k: int, n: int, z: float = 1.96) -> float:
    """The upper end of the Wilson score interval for ``k`` of ``n`` (Wilson 1927)."""
    if n == 0:
        return 1.0
    p = k / n
    return float((p + z * z / (2 * n) + z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n))


def lines(scores: dict[str, np.ndarray], labels: dict[str, np.ndarray]) -> dict[str, dict[str, float | int | bool]]:
    """Per category: the least out-of-fold score of an agreement with the clause, how many agreements fall under it (none with
    the clause), the upper 95 % bound on the share with the clause under it, and whether it is used (:data:`MIN_BELOW`)."""
    out: dict[str, dict[str, float | int | bool]] = {}
    for c, s in scores.items():
        y = labels[c]
        if not y.any():
            continue
        line = float(s[y == 1].min())
        below = int((s < line).sum())
        out[c] = {"line": round(line, 4), "below": below, "positives": int(y.sum()), "agreements": len(y),
                  "negatives_below_share": round(below / max(1, int((y == 0).sum())), 3),
                  "clause_share_below_upper95": round(wilson_upper(0, below), 3), "used": below >= MIN_BELOW}
    return out


def main() -> None:
    from clauselens.playbook.calibrate import CATEGORIES, out_of_fold

    t0 = time.time()
    keys, scores, labels, _ = out_of_fold((*CATEGORIES, *EXTRA))
    got = lines(scores, labels)
    used = {c: v["line"] for c, v in got.items() if v["used"]}
    ABSENT_LINES.write_text(json.dumps({"rule": "least 5-fold out-of-fold contract score of a train_allowed agreement with the clause; "
                                                f"used when at least {MIN_BELOW} agreements score below it", "command": COMMAND,
                                        "lines": used}, indent=1) + "\n")
    OUT.write_text(json.dumps({"benchmark": "presence_absent_lines", "issue": 45, "agreements": len(keys),
                               "data": "5-fold out-of-fold presence scores over the train_allowed agreements with a corpus text "
                                       "(clauselens.playbook.calibrate.out_of_fold, seed 44); labels: CUAD master_clauses.csv",
                               "categories": got, "seconds": round(time.time() - t0, 1), "command": COMMAND}, indent=1) + "\n")
    for c, v in got.items():
        print(f"{c:40s} line {v['line']:.4f} below {v['below']:4d} used {v['used']}", file=sys.stderr)


if __name__ == "__main__":
    main()
