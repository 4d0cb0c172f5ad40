"""Train the question-topic head (:mod:`clauselens.heads.topic`) and choose its thresholds.

Data (all from ``../shared/data/`` or written from it; no question file of any evaluation or
development set is read):

* ``topic_questions*.jsonl`` -- everyday questions per topic written by the 1.5B
  (:mod:`clauselens.heads.topic_questions`; CUAD categories and ``Other`` topics);
* ``clauselens/heads/data/cuad_category_phrasings.json`` -- lay and legal phrasings per category;
* ``synth/questions.jsonl`` -- the 1.5B's questions for sampled passages of ``train_allowed``
  agreements (:mod:`clauselens.heads.synthetic`): the passage's CUAD category, or ``Other``.

Features: the question's all-MiniLM-L6-v2 embedding (the library's own embedder, with its vector
cache). Model: scikit-learn ``LogisticRegression`` (multinomial, balanced class weights); ``C``
chosen on a validation split (one generated item in five, by a hash of its id), then refitted on everything
(the embeddings are l2-normalised, so useful ``C`` values are large).

Thresholds:

* ``absent_below`` per eligible category -- out-of-fold presence scores of the ``train_allowed``
  agreements (:func:`clauselens.playbook.calibrate.out_of_fold`, 5 folds by agreement): the
  highest score under which at most :data:`PRESENT_MISS` of the agreements *with* such a clause
  fall. Eligible: CUAD answer format Yes/No (``CUAD_v1_README.txt``), at least
  :data:`MIN_POSITIVES` agreements with the clause, and at least :data:`MIN_COVERAGE` of the
  agreements without one below the threshold;
* ``absent_mass`` -- the question's probability on eligible categories the agreement clearly lacks,
  summed, at which the search abstains: chosen by :func:`mass_threshold` on the validation
  questions put to every ``train_allowed`` agreement (at most :data:`MAX_WRONG_ABSTAIN` of the
  answerable pairs abstained).

Run (resumable: embeddings and out-of-fold scores are cached)::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m clauselens.heads.train_topic
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.base import head_dir, sha256_file
from clauselens.heads.topic import META_FILE, NAME, OTHER, WEIGHT_FILE
from clauselens.heads.topic_questions import CUAD_README, cuad_name, read
from clauselens.heads.topic_questions import OUT as TOPIC_QUESTIONS

PHRASINGS = Path(__file__).resolve().parent / "data" / "cuad_category_phrasings.json"
PASSAGE_QUESTIONS = Path.home() / ".cache" / "clauselens" / "synth" / "questions.jsonl"
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.heads.train_topic")
MAX_WRONG_ABSTAIN = 0.03
PRESENT_MISS = 0.03
MIN_POSITIVES = 15
MIN_COVERAGE = 0.4
C_GRID = (3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0)


def yes_no_categories(path: Path = CUAD_README) -> list[str]:
    """CUAD categories whose answer format is Yes/No (the README's ``Answer Format`` lines)."""
    out, cat = [], None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"\s*(Category|Answer Format):\s*(.+?)\s*$", line)
        if m and m.group(1) == "Category":
            cat = cuad_name(m.group(2))
        elif m and cat:
            if m.group(2).lower().startswith("yes/no"):
                out.append(cat)
            cat = None
    return out


def examples() -> list[dict[str, Any]]:
    """Every training question: ``{"text", "label", "source", "val"}``."""
    rows: list[dict[str, Any]] = []
    for it in [r for f in sorted(TOPIC_QUESTIONS.parent.glob(TOPIC_QUESTIONS.stem + "*.jsonl")) for r in read(f)]:
        val = zlib.crc32(it["id"].encode()) % 5 == 0  # one generated item in five (all its questions)
        rows += [{"text": q, "label": it["label"], "source": "topic_questions", "val": val} for q in it["questions"]]
    phr = json.loads(PHRASINGS.read_text())
    for cat, d in phr.items():
        if cat.startswith("_"):
            continue
        rows += [{"text": q, "label": cat, "source": "phrasings", "val": False} for k in ("lay", "legal") for q in d[k]]
    if PASSAGE_QUESTIONS.is_file():
        for line in PASSAGE_QUESTIONS.read_text().splitlines():
            try:
                it = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows += [{"text": q, "label": it.get("category") or OTHER, "source": "passage_questions", "val": False}
                     for q in it.get("kept", [])]
    return rows


def embed(texts: list[str]) -> np.ndarray:
    """all-MiniLM-L6-v2 vectors of ``texts`` (l2-normalised, as the library's ``minilm`` embedder makes them)."""
    from sentence_transformers import SentenceTransformer

    from clauselens.heads.base import base_model_path

    model = SentenceTransformer(str(base_model_path()), device="cpu")
    return np.asarray(model.encode(texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False),
                      dtype=np.float32)


def mass_threshold(pv: np.ndarray, classes: list[str], gold: list[str], absent_below: dict[str, float],
                   scores: dict[str, np.ndarray], labels: dict[str, np.ndarray]) -> tuple[float, list[dict[str, float]]]:
    """The absent-mass threshold (module docstring): every validation question is put to every
    ``train_allowed`` agreement with its out-of-fold presence scores; the mass is the question's
    probability on eligible categories the agreement clearly lacks. A pair is *answerable* when the
    question's category is a CUAD category the agreement has, or ``Other`` (unknown: counted
    answerable); *absent* when its category is eligible and the agreement has none. The threshold
    is the smallest whose answerable pairs abstained stay within :data:`MAX_WRONG_ABSTAIN`."""
    idx = {c: j for j, c in enumerate(classes)}
    cats = [c for c in absent_below if c in idx and c in scores]
    n_agr = len(next(iter(scores.values())))
    lacks = np.stack([scores[c] < absent_below[c] for c in cats], axis=1)  # (agreements, cats)
    mass = pv[:, [idx[c] for c in cats]] @ lacks.T.astype(np.float64)  # (questions, agreements)
    answerable = np.zeros_like(mass, dtype=bool)
    absent = np.zeros_like(mass, dtype=bool)
    for i, g in enumerate(gold):
        if g == OTHER:
            answerable[i] = True
        elif g in labels:
            answerable[i] = labels[g] == 1
            absent[i] = (labels[g] == 0) if g in absent_below else False
        else:  # a category without out-of-fold labels (not Yes/No): the agreement is assumed to have it
            answerable[i] = True
    curve, best = [], 1.0
    for t in np.arange(0.2, 0.96, 0.05):
        ab = mass >= t
        wrong = float(ab[answerable].mean()) if answerable.any() else 0.0
        recall = float(ab[absent].mean()) if absent.any() else 0.0
        curve.append({"t": round(float(t), 2), "answerable_abstained": round(wrong, 4), "absent_abstained": round(recall, 4)})
        if wrong <= MAX_WRONG_ABSTAIN and t < best:
            best = float(t)
    print(f"mass threshold {best:.2f} over {len(gold)} questions x {n_agr} agreements", file=sys.stderr)
    return round(best, 2), curve


def absence_thresholds(categories: list[str]) -> tuple[dict[str, dict[str, Any]], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Per category the out-of-fold absence threshold and what it leaves out (module docstring), and the
    out-of-fold scores and labels (agreements in one order) they came from."""
    from clauselens.playbook.calibrate import CACHE, out_of_fold

    CACHE.mkdir(parents=True, exist_ok=True)
    keys, scores, labels, _ = out_of_fold(tuple(categories))
    out = {}
    for c in scores:
        s, y = scores[c], labels[c]
        pos, neg = np.sort(s[y == 1]), s[y == 0]
        if len(pos) == 0:
            continue
        k = int(np.floor(PRESENT_MISS * len(pos)))  # at most k present agreements strictly below the threshold
        thr = float(pos[k])
        out[c] = {"threshold": round(thr, 4), "positives": int(len(pos)), "negatives": int(len(neg)),
                  "present_below": int((pos < thr).sum()), "absent_below": int((neg < thr).sum()),
                  "coverage": round(float((neg < thr).mean()) if len(neg) else 0.0, 4)}
    return out, scores, labels


def main(argv: list[str] | None = None) -> None:
    from safetensors.numpy import load_file, save_file
    from sklearn.linear_model import LogisticRegression

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=None, help="write the head under this weights root (default: the package's)")
    args = ap.parse_args(argv)
    t0 = time.time()
    rows = examples()
    x = embed([r["text"] for r in rows])
    y = np.array([r["label"] for r in rows])
    val = np.array([r["val"] for r in rows])
    print(f"{len(rows)} questions ({int(val.sum())} validation), {len(set(y))} labels", file=sys.stderr)
    curve_c = []
    for c in C_GRID:
        clf = LogisticRegression(C=c, max_iter=3000, class_weight="balanced")
        clf.fit(x[~val], y[~val])
        acc = float((clf.predict(x[val]) == y[val]).mean())
        curve_c.append({"C": c, "val_accuracy": round(acc, 4)})
        print(f"C={c}: val accuracy {acc:.3f}", file=sys.stderr)
    best_c = max(curve_c, key=lambda r: (r["val_accuracy"], -r["C"]))["C"]
    clf = LogisticRegression(C=best_c, max_iter=3000, class_weight="balanced").fit(x[~val], y[~val])
    final = LogisticRegression(C=best_c, max_iter=3000, class_weight="balanced").fit(x, y)
    coef, intercept = final.coef_, final.intercept_
    eligible_pool = [c for c in yes_no_categories() if c in set(final.classes_)]
    absence, oof_scores, oof_labels = absence_thresholds(eligible_pool)
    absent_below = {c: a["threshold"] for c, a in absence.items()
                    if a["positives"] >= MIN_POSITIVES and a["coverage"] >= MIN_COVERAGE}
    mass_t, curve_m = mass_threshold(clf.predict_proba(x[val]), [str(c) for c in clf.classes_], [str(v) for v in y[val]],
                                     absent_below, oof_scores, oof_labels)
    d = head_dir(NAME, args.root)
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / (WEIGHT_FILE + ".tmp")
    save_file({"coef": np.ascontiguousarray(coef, dtype=np.float16),  # sklearn keeps coef_ in Fortran order
               "intercept": np.ascontiguousarray(intercept, dtype=np.float16)}, str(tmp))
    tmp.replace(d / WEIGHT_FILE)
    # read the file back: how much fp16 storage (and the file itself) moves the probabilities
    back = load_file(str(d / WEIGHT_FILE))
    z = x @ back["coef"].astype(np.float32).T + back["intercept"].astype(np.float32)
    p16 = np.exp(z - z.max(1, keepdims=True))
    p16 /= p16.sum(1, keepdims=True)
    fp16_gap = float(np.abs(final.predict_proba(x) - p16).max())
    sources: dict[str, int] = {}
    for r in rows:
        sources[r["source"]] = sources.get(r["source"], 0) + 1
    meta = {"name": NAME, "kind": "softmax probe over all-MiniLM-L6-v2 question embeddings",
            "sha256": sha256_file(d / WEIGHT_FILE), "size": (d / WEIGHT_FILE).stat().st_size,
            "labels": [str(c) for c in final.classes_], "absent_mass": mass_t, "absent_below": absent_below,
            "training_command": COMMAND, "training_seconds": round(time.time() - t0, 1),
            "manifest": {"questions": len(rows), "by_source": sources,
                         "labels": {str(c): int((y == c).sum()) for c in final.classes_},
                         "files": [str(TOPIC_QUESTIONS), str(PHRASINGS.name), str(PASSAGE_QUESTIONS)],
                         "presence_scores": "out-of-fold over train_allowed.txt agreements (playbook.calibrate.out_of_fold)"},
            "metrics": {"C": best_c, "C_curve": curve_c, "validation_questions": int(val.sum()),
                        "absent_mass_curve": curve_m, "absence": absence,
                        "max_wrong_abstain": MAX_WRONG_ABSTAIN, "present_miss": PRESENT_MISS,
                        "fp16_max_probability_change": round(fp16_gap, 5)}}
    (d / META_FILE).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: meta[k] for k in ("absent_mass", "absent_below", "training_seconds")}), file=sys.stderr)


if __name__ == "__main__":
    main()
