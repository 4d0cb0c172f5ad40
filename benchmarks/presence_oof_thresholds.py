"""Grid presence with per-category thresholds chosen out of fold on all ``train_allowed`` agreements (issue #40).

The committed presence head (:mod:`clauselens.heads.presence`) chose each category's threshold on a tune split of
65 ``train_allowed`` agreements, so a category with few positives there got a noisy threshold. Here each of the
grid's 32 yes/no categories (``clauselens.grid.questions.CUAD``) gets the threshold that maximises contract-level
accuracy (``train_presence.choose_threshold``, ties: the higher) on 5-fold out-of-fold scores over the 327
``train_allowed`` agreements with a corpus text -- the same probe refitted per fold on the other four fifths (262
agreements, as many as the committed head was fitted on), by :func:`clauselens.playbook.calibrate.out_of_fold` (the
playbook's calibration, here for every yes/no category). K-fold cross-validation for model selection (Stone 1974).
The committed weights are not changed; only the thresholds differ.

Then the committed head scores CUAD's report split (134 corpus TXT agreements with a ``master_clauses.csv`` row, not
in ``train_allowed.txt``; the 21 selected contracts' TXT again separately), once, with the head's tune-split
thresholds and with the out-of-fold ones: yes/no accuracy and Yes P/R/F1 with percentile-bootstrap intervals over
agreements (``benchmarks/presence_head.py``'s ``summary``). No report-split agreement chooses anything. Run::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m benchmarks.presence_oof_thresholds     # -> results/presence_oof_thresholds.json

``--write-head`` then puts the out-of-fold thresholds of the 32 categories into the installed head's ``head.json``
(``thresholds``; the tune-split ones kept as ``thresholds_tune_split``, which a rerun compares against), so the grid,
its row checks and the playbook's uncalibrated categories use them.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.presence_head import summary

OUT = Path(__file__).resolve().parent / "results" / "presence_oof_thresholds.json"
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m benchmarks.presence_oof_thresholds")


def oof_thresholds(categories: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """Per category: the accuracy-maximising threshold on out-of-fold train_allowed scores, and that accuracy."""
    from clauselens.heads.train_presence import choose_threshold
    from clauselens.playbook.calibrate import CACHE, out_of_fold

    CACHE.mkdir(parents=True, exist_ok=True)
    keys, scores, labels, _ = out_of_fold(categories)
    out = {}
    for c in scores:
        t = float(choose_threshold(scores[c], labels[c]))
        out[c] = {"threshold": round(t, 4), "oof_accuracy": round(float(((scores[c] >= t) == (labels[c] == 1)).mean()), 4),
                  "positives": int(labels[c].sum()), "agreements": len(keys)}
    return out


def write_thresholds(thresholds: dict[str, float]) -> None:
    """Put ``thresholds`` into the installed presence head's ``head.json`` (the weights and their sha256 unchanged;
    the tune-split thresholds kept as ``thresholds_tune_split``, the rule and command recorded)."""
    from clauselens.heads.base import head_dir
    from clauselens.heads.presence import META_FILE, NAME

    path = head_dir(NAME) / META_FILE
    meta = json.loads(path.read_text())
    meta.setdefault("thresholds_tune_split", dict(meta["thresholds"]))
    meta["thresholds"] = {**meta["thresholds"], **thresholds}
    meta["thresholds_rule"] = {
        "categories": sorted(thresholds), "command": COMMAND + " --write-head",
        "rule": "the grid's yes/no categories: accuracy-maximising threshold on 5-fold out-of-fold contract scores over "
                "the train_allowed agreements with a corpus text (clauselens.playbook.calibrate.out_of_fold, seed 44); "
                "the other categories keep their tune-split threshold (thresholds_tune_split)"}
    path.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {len(thresholds)} thresholds into {path}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    import argparse

    from clauselens.grid.questions import CUAD as CUAD_PRESET
    from clauselens.heads.presence import PresenceHead
    from clauselens.heads.train_presence import CUAD, allowed_keys, corpus_files, key, load_rows

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write-head", action="store_true",
                    help="also write the out-of-fold thresholds of the yes/no categories into the presence head.json")
    write_head = ap.parse_args(argv).write_head
    t0 = time.time()
    head = PresenceHead()
    cats, ann = load_rows()
    yn_cats = [c for c in cats if c in {q.category for q in CUAD_PRESET if q.type == "yes_no"}]
    oof = oof_thresholds(tuple(yn_cats))
    files = corpus_files()
    allowed = allowed_keys()
    report = sorted(k for k in files if k in ann and k not in allowed)
    selected = {key(Path(s["txt"]).name) for s in json.loads((CUAD / "selected_contracts.json").read_text())}
    yn = [cats.index(c) for c in yn_cats]
    score = np.zeros((len(report), len(yn)))
    gold = np.zeros((len(report), len(yn)), dtype=bool)
    for i, k in enumerate(report):
        res = head.score(files[k].read_text(errors="replace"))
        score[i] = [res[j].score for j in yn]
        gold[i] = [bool(ann[k][cats[j]]) for j in yn]
    tune = head.meta.get("thresholds_tune_split", head.meta["thresholds"])  # the head's own, before --write-head
    tune_thr = np.array([float(tune[cats[j]]) for j in yn])
    oof_thr = np.array([oof[c]["threshold"] for c in yn_cats])
    sel = np.array([k in selected for k in report])
    res = {}
    for name, thr in (("tune_split_thresholds", tune_thr), ("oof_thresholds", oof_thr)):
        pred = score >= thr
        res[name] = {"report_split_yes_no_columns": summary(pred, gold, yn_cats),
                     "selected_21_txt_yes_no_columns": summary(pred[sel], gold[sel], yn_cats)}
    out = {"benchmark": "presence_oof_thresholds", "issue": 40,
           "data": {"thresholds": "5-fold out-of-fold scores over the train_allowed agreements with a corpus text "
                                  "(clauselens.playbook.calibrate.out_of_fold, seed 44); no report-split agreement read",
                    "report_split": f"{len(report)} corpus TXT agreements with a master_clauses.csv row, not in "
                                    "train_allowed.txt; scored once", "selected_21_txt": int(sel.sum())},
           "head_sha256": head.meta["sha256"], "categories": len(yn_cats),
           "thresholds": {c: {"tune_split": round(float(tune_thr[i]), 4), **oof[c]} for i, c in enumerate(yn_cats)},
           **res, "seconds": round(time.time() - t0, 1), "command": COMMAND}
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    if write_head:
        write_thresholds({c: oof[c]["threshold"] for c in yn_cats})
    for name in res:
        for part, s in res[name].items():
            print(name, part, "acc", s["accuracy"], s["accuracy_95ci"], "Yes", s["yes"]["precision"], s["yes"]["recall"],
                  s["yes"]["f1"], s["yes_f1_95ci"], file=sys.stderr)


if __name__ == "__main__":
    main()
