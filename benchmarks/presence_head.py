"""Clause presence head on CUAD's report split (issue #40): yes/no accuracy and Yes P/R/F1 vs always-No.

Report split: every agreement of ``legalbench-rag/corpus/cuad/`` (TXT) that has a row in
``master_clauses.csv`` and is NOT in ``train_allowed.txt`` (listed by name in the result JSON); the
subset that are the 21 contracts of ``selected_contracts.json`` (their TXT, not the PDFs) is reported
separately, and both again over only the grid's 32 yes/no columns (``clauselens.grid.questions.CUAD``).
Gold: a category is present when its annotation column is non-empty. 95% intervals are
percentile bootstrap over agreements (1,000 resamples, seed 0). Run::

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python benchmarks/presence_head.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from clauselens.grid.questions import CUAD as CUAD_PRESET
from clauselens.heads.presence import PresenceHead
from clauselens.heads.train_presence import CUAD, allowed_keys, corpus_files, key, load_rows

OUT = Path(__file__).resolve().parent / "results" / "presence_head.json"


def prf(pred: np.ndarray, gold: np.ndarray) -> dict[str, float]:
    tp = int((pred & gold).sum())
    p = tp / max(1, int(pred.sum()))
    r = tp / max(1, int(gold.sum()))
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4), "tp": tp,
            "pred_yes": int(pred.sum()), "gold_yes": int(gold.sum())}


def summary(pred: np.ndarray, gold: np.ndarray, cats: list[str]) -> dict:
    rng = np.random.default_rng(0)
    n = len(pred)
    acc = float((pred == gold).mean())
    no = float((gold == 0).mean())
    boots_acc, boots_f1 = [], []
    for _ in range(1000):
        i = rng.integers(0, n, n)
        boots_acc.append(float((pred[i] == gold[i]).mean()))
        boots_f1.append(prf(pred[i].ravel(), gold[i].ravel())["f1"])
    return {
        "agreements": n,
        "cells": int(pred.size),
        "accuracy": round(acc, 4),
        "accuracy_95ci": [round(float(np.percentile(boots_acc, q)), 4) for q in (2.5, 97.5)],
        "always_no_accuracy": round(no, 4),
        "yes": prf(pred.ravel(), gold.ravel()),
        "yes_f1_95ci": [round(float(np.percentile(boots_f1, q)), 4) for q in (2.5, 97.5)],
        "per_category": {
            c: {"accuracy": round(float((pred[:, j] == gold[:, j]).mean()), 4), **prf(pred[:, j], gold[:, j])}
            for j, c in enumerate(cats)
        },
    }


def main() -> None:
    t0 = time.time()
    head = PresenceHead()
    cats, ann = load_rows()
    assert cats == head.categories
    files = corpus_files()
    allowed = allowed_keys()
    report = sorted(k for k in files if k in ann and k not in allowed)
    selected = {key(Path(s["txt"]).name) for s in json.loads((CUAD / "selected_contracts.json").read_text())}
    pred = np.zeros((len(report), len(cats)), dtype=bool)
    gold = np.zeros_like(pred)
    for i, k in enumerate(report):
        res = head.score(files[k].read_text(errors="replace"))
        pred[i] = [r.present for r in res]
        gold[i] = [bool(ann[k][c]) for c in cats]
    sel = np.array([k in selected for k in report])
    yn = [j for j, c in enumerate(cats) if c in {q.category for q in CUAD_PRESET if q.type == "yes_no"}]
    yn_cats = [cats[j] for j in yn]
    out = {
        "data": "CUAD report split: corpus TXT agreements with a master_clauses.csv row, not in train_allowed.txt",
        "head": {"kind": head.meta["kind"], "sha256": head.meta["sha256"]},
        "report_split": summary(pred, gold, cats),
        "selected_21_txt": summary(pred[sel], gold[sel], cats) if sel.any() else None,
        "report_split_yes_no_columns": summary(pred[:, yn], gold[:, yn], yn_cats),
        "selected_21_txt_yes_no_columns": summary(pred[sel][:, yn], gold[sel][:, yn], yn_cats) if sel.any() else None,
        "report_agreements": [files[k].name for k in report],
        "seconds": round(time.time() - t0, 1),
        "command": "OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python benchmarks/presence_head.py",
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    for name in ("report_split", "selected_21_txt", "report_split_yes_no_columns", "selected_21_txt_yes_no_columns"):
        s = out[name]
        if s:
            print(name, s["agreements"], "acc", s["accuracy"], s["accuracy_95ci"], "always-No",
                  s["always_no_accuracy"], "Yes", s["yes"], file=sys.stderr)


if __name__ == "__main__":
    main()
