"""Train the clause presence head (issue #40) on CUAD agreements of ``train_allowed.txt`` only.

Data: ``master_clauses.csv`` (CUAD v1, Hendrycks et al. 2021): for each of the 41 category columns the
annotated clause texts; texts from ``legalbench-rag/corpus/cuad/<name>.txt``. A window is labelled
positive for a category when it contains a probe (an 60-character slice) of one of the category's
annotated texts in that agreement. Agreements are split by agreement into train (80%) and tune (20%);
the probe (scikit-learn ``LogisticRegression``, liblinear) is fitted on train windows, and each
category's contract-level threshold (max over windows) is chosen on the tune agreements to maximise
contract-level accuracy (ties: the higher threshold). Run::

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python -m clauselens.heads.train_presence
"""

from __future__ import annotations

import ast
import csv
import json
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

from clauselens.heads.base import head_dir, sha256_file
from clauselens.heads.presence import META_FILE, NAME, VOCAB_FILE, WEIGHT_FILE, normalise, windows

CUAD = Path("/work/shared/data/cuad")
CORPUS = Path("/work/shared/data/legalbench-rag/corpus/cuad")
COMMAND = "OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python -m clauselens.heads.train_presence"
VECTORIZER = {"ngram_range": [1, 2], "sublinear_tf": True, "lowercase": True, "dtype": "float32"}
PROBE = 60


def key(name: str) -> str:
    """Match key: name without extension, lower case, letters and digits only (TRAINING.md)."""
    stem = re.sub(r"\.(pdf|txt)$", "", name.strip(), flags=re.I)
    return re.sub(r"[^a-z0-9]", "", stem.lower())


def load_rows() -> tuple[list[str], dict[str, dict[str, list[str]]]]:
    """Categories and, per agreement key, the annotated texts per category."""
    csv.field_size_limit(10**9)
    with open(CUAD / "master_clauses.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    cats = [c for c in rows[0] if c != "Filename" and not c.strip().endswith("Answer")]
    ann: dict[str, dict[str, list[str]]] = {}
    for r in rows:
        ann[key(r["Filename"])] = {c: [str(s) for s in ast.literal_eval(r[c] or "[]")] for c in cats}
    return cats, ann


def corpus_files() -> dict[str, Path]:
    return {key(p.name): p for p in CORPUS.glob("*.txt")}


def allowed_keys() -> set[str]:
    return {key(line) for line in (CUAD / "train_allowed.txt").read_text().splitlines() if line.strip()}


def label_windows(wins: list[str], texts: list[str]) -> np.ndarray:
    """1 for the windows that contain a probe slice of one of ``texts``."""
    probes: list[str] = []
    for t in texts:
        n = normalise(t)
        probes += [n] if len(n) <= PROBE else [n[i : i + PROBE] for i in range(0, len(n) - PROBE + 1, PROBE)]
    normed = [normalise(w) for w in wins]
    return np.array([any(p in w for p in probes) for w in normed], dtype=np.int8)


def build(keys: list[str], files: dict[str, Path], cats: list[str], ann: dict[str, dict[str, list[str]]]):
    """Windows, their labels (windows × categories), the owning agreement index, contract labels."""
    wins: list[str] = []
    owner: list[int] = []
    labels: list[np.ndarray] = []
    contract = np.zeros((len(keys), len(cats)), dtype=np.int8)
    for i, k in enumerate(keys):
        w = windows(files[k].read_text(errors="replace"))
        wins += w
        owner += [i] * len(w)
        labels.append(np.stack([label_windows(w, ann[k][c]) for c in cats], axis=1))
        contract[i] = [1 if ann[k][c] else 0 for c in cats]
    return wins, np.concatenate(labels), np.array(owner), contract


def contract_max(probs: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n, probs.shape[1]), dtype=np.float32)
    np.maximum.at(out, owner, probs)
    return out


def choose_threshold(scores: np.ndarray, y: np.ndarray) -> float:
    best, best_acc = 1.01, float((y == 0).mean())
    for t in sorted(set(np.round(scores, 4).tolist()), reverse=True):
        acc = float(((scores >= t) == y).mean())
        if acc > best_acc:
            best, best_acc = float(t), acc
    return best


def main() -> None:
    from safetensors.numpy import save_file
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    t0 = time.time()
    cats, ann = load_rows()
    files = corpus_files()
    keys = sorted(k for k in allowed_keys() if k in files and k in ann)
    random.Random(40).shuffle(keys)
    n_tune = len(keys) // 5
    tune, train = keys[:n_tune], keys[n_tune:]
    print(f"train {len(train)} agreements, tune {len(tune)}", file=sys.stderr)
    w_tr, y_tr, _, _ = build(train, files, cats, ann)
    w_tu, _, own_tu, c_tu = build(tune, files, cats, ann)
    vec = TfidfVectorizer(min_df=3, max_features=60000, **{**VECTORIZER, "ngram_range": (1, 2), "dtype": np.float32})
    x_tr = vec.fit_transform(w_tr)
    x_tu = vec.transform(w_tu)
    coef = np.zeros((len(cats), x_tr.shape[1]), dtype=np.float32)
    icpt = np.zeros(len(cats), dtype=np.float32)
    thresholds: dict[str, float] = {}
    for j, c in enumerate(cats):
        if y_tr[:, j].sum() < 2:
            icpt[j] = -20.0
            thresholds[c] = 1.01
            continue
        clf = LogisticRegression(C=4.0, solver="liblinear", class_weight="balanced", max_iter=500)
        clf.fit(x_tr, y_tr[:, j])
        coef[j], icpt[j] = clf.coef_[0], clf.intercept_[0]
        p = clf.predict_proba(x_tu)[:, 1]
        s = contract_max(p[:, None], own_tu, len(tune))[:, 0]
        thresholds[c] = choose_threshold(s, c_tu[:, j])
        print(f"{c}: pos windows {int(y_tr[:, j].sum())} thr {thresholds[c]:.3f}", file=sys.stderr)
    d = head_dir(NAME)
    d.mkdir(parents=True, exist_ok=True)
    vocab = [t for t, _ in sorted(vec.vocabulary_.items(), key=lambda kv: kv[1])]
    save_file(
        {"idf": vec.idf_.astype(np.float16), "coef": coef.astype(np.float16), "intercept": icpt.astype(np.float16)},
        str(d / WEIGHT_FILE),
    )
    (d / VOCAB_FILE).write_text(json.dumps(vocab))
    meta = {
        "name": NAME,
        "kind": "tfidf-logistic-probe",
        "sha256": sha256_file(d / WEIGHT_FILE),
        "size": (d / WEIGHT_FILE).stat().st_size,
        "vocab_sha256": sha256_file(d / VOCAB_FILE),
        "categories": cats,
        "thresholds": thresholds,
        "vectorizer": VECTORIZER,
        "training_command": COMMAND,
        "manifest": {
            "annotations": "/work/shared/data/cuad/master_clauses.csv",
            "texts": "/work/shared/data/legalbench-rag/corpus/cuad/",
            "agreements": "train_allowed.txt with a corpus file",
            "train_agreements": sorted(train),
            "tune_agreements": sorted(tune),
            "train_windows": len(w_tr),
            "tune_windows": len(w_tu),
        },
        "training_seconds": round(time.time() - t0, 1),
    }
    (d / META_FILE).write_text(json.dumps(meta, indent=1) + "\n")
    print(f"saved {d} in {meta['training_seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
