"""ContractNLI with a trained span-evidence + label probe (issue #40), trained on dev, scored on full test.

Koreeda & Manning (Findings of EMNLP 2021) frame the task as span-NLI: for each of the 17 fixed
hypotheses, find the evidence spans of a contract and label the pair Entailment / Contradiction /
NotMentioned. ContractNLI's train split is NOT available here, so everything is fitted on dev.json
(61 NDAs) and evaluated on every pair of test.json (123 NDAs, 2,091 pairs; a failure would count as
wrong, there are none because the probe always answers).

1. Evidence: per hypothesis, a logistic regression over TF-IDF (word 1-2 grams, sublinear tf) of a
   span, positive when the span is annotated evidence for that hypothesis in dev. Span recall@k is
   the share of gold evidence spans (Entailment/Contradiction test pairs) among the top-k spans.
2. Label: per hypothesis, a 3-class logistic regression over the TF-IDF of its top-k evidence spans
   joined and of the top span alone, plus the three highest evidence scores; a hypothesis with one
   dev label predicts that label. k and C are chosen by 4-fold cross-validation over dev documents.
   (An earlier variant without the top-span block and the 2nd/3rd scores had dev-CV 0.7975 and
   test 0.782; this one was adopted for its dev-CV 0.803, both test numbers were seen.)

95% intervals: percentile bootstrap over test pairs (1,000 resamples, seed 0). Run::

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python benchmarks/contractnli_head.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score

DATA = Path("/work/shared/data/contractnli")
OUT = Path(__file__).resolve().parent / "results" / "contractnli_head_test.json"
LABELS = ["Entailment", "Contradiction", "NotMentioned"]
K = 3
GRID_K = (1, 3, 5)
GRID_C = (4.0, 16.0)
CHOSEN: dict[str, float] = {}


def spans(doc: dict) -> list[str]:
    return [doc["text"][a:b] for a, b in doc["spans"]]


def load(split: str) -> tuple[list[dict], dict]:
    d = json.loads((DATA / f"{split}.json").read_text())
    return d["documents"], d["labels"]


def ci(values: list[float]) -> list[float]:
    return [round(float(np.percentile(values, q)), 4) for q in (2.5, 97.5)]


def features(ev: LogisticRegression, vec: TfidfVectorizer, docs: list[dict], xs: list, k: int) -> tuple[object, list]:
    """TF-IDF of the top-k evidence spans joined and of the top span alone, plus the top-3 evidence scores."""
    texts, tops, orders, firsts = [], [], [], []
    for doc, x in zip(docs, xs):
        s = ev.predict_proba(x)[:, 1]
        order = np.argsort(-s)[:k]
        orders.append(order)
        texts.append(" ".join(spans(doc)[i] for i in order))
        top3 = sorted(s.tolist(), reverse=True)[:3] + [0.0, 0.0]
        tops.append(top3[:3])
        firsts.append(spans(doc)[order[0]])
    return hstack([vec.transform(texts), vec.transform(firsts), np.asarray(tops)]).tocsr(), orders


def choice(doc: dict, h: str) -> str:
    return str(doc["annotation_sets"][0]["annotations"][h]["choice"])


def run(tr: list[dict], tr_x: list, te: list[dict], te_x: list, hyps: dict, vec: TfidfVectorizer, k: int, c: float):
    """Fit on ``tr`` and predict ``te``: gold, predictions, evidence recalls, per-hypothesis accuracy."""
    gold: list[str] = []
    pred: list[str] = []
    recalls: list[float] = []
    per_hyp = {}
    for h in sorted(hyps):
        ys = []
        for doc in tr:
            y = np.zeros(len(doc["spans"]), dtype=int)
            y[doc["annotation_sets"][0]["annotations"][h]["spans"]] = 1
            ys.append(y)
        ev = LogisticRegression(C=c, solver="liblinear", class_weight="balanced")
        ev.fit(_vstack(tr_x), np.concatenate(ys))
        x_tr, _ = features(ev, vec, tr, tr_x, k)
        y_tr = [choice(doc, h) for doc in tr]
        x_te, orders = features(ev, vec, te, te_x, k)
        y_te = [choice(doc, h) for doc in te]
        if len(set(y_tr)) == 1:
            p = [y_tr[0]] * len(te)
        else:
            clf = LogisticRegression(C=c, max_iter=2000)
            clf.fit(x_tr, y_tr)
            p = [str(v) for v in clf.predict(x_te)]
        for doc, order in zip(te, orders):
            ann = doc["annotation_sets"][0]["annotations"][h]
            if ann["choice"] != "NotMentioned" and ann["spans"]:
                recalls.append(len(set(ann["spans"]) & set(order.tolist())) / len(ann["spans"]))
        gold += y_te
        pred += p
        per_hyp[h] = round(accuracy_score(y_te, p), 4)
    return gold, pred, recalls, per_hyp


def choose(dev: list[dict], dev_x: list, hyps: dict) -> tuple[int, float]:
    """k and C by 4-fold cross-validation over dev documents (dev only; test is never looked at)."""
    best = (0.0, K, 4.0)
    folds = [list(range(i, len(dev), 4)) for i in range(4)]
    for k in GRID_K:
        for c in GRID_C:
            right = total = 0
            for f in folds:
                tr = [i for i in range(len(dev)) if i not in f]
                vec = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2)
                vec.fit([s for i in tr for s in spans(dev[i])])
                xs = [vec.transform(spans(d)) for d in dev]
                g, p, _, _ = run([dev[i] for i in tr], [xs[i] for i in tr], [dev[i] for i in f], [xs[i] for i in f],
                                 hyps, vec, k, c)
                right += sum(a == b for a, b in zip(g, p))
                total += len(g)
            print(f"dev cv k={k} C={c}: {right / total:.4f}", file=sys.stderr)
            if right / total > best[0]:
                best = (right / total, k, c)
    CHOSEN.update({"k": best[1], "C": best[2], "dev_cv_accuracy": round(best[0], 4)})
    return best[1], best[2]


def main() -> None:
    t0 = time.process_time()
    dev, hyps = load("dev")
    test, _ = load("test")
    vec = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2)
    vec.fit([s for doc in dev for s in spans(doc)])
    dev_x = [vec.transform(spans(doc)) for doc in dev]
    test_x = [vec.transform(spans(doc)) for doc in test]
    k, c = choose(dev, dev_x, hyps)
    gold, pred, recalls, per_hyp = run(dev, dev_x, test, test_x, hyps, vec, k, c)
    secs = time.process_time() - t0
    g, p_ = np.array(gold), np.array(pred)
    rng = np.random.default_rng(0)
    boots: dict[str, list[float]] = {"acc": [], "wf1": [], **{c: [] for c in LABELS}}
    for _ in range(1000):
        i = rng.integers(0, len(g), len(g))
        boots["acc"].append(accuracy_score(g[i], p_[i]))
        boots["wf1"].append(f1_score(g[i], p_[i], average="weighted"))
        for c, f in zip(LABELS, f1_score(g[i], p_[i], labels=LABELS, average=None)):
            boots[c].append(f)
    out = {
        "data": "trained on contractnli dev.json (61 docs; train.json is not available here); scored on all of test.json",
        "pairs": len(g),
        "failures": 0,
        "accuracy": round(accuracy_score(g, p_), 4),
        "accuracy_95ci": ci(boots["acc"]),
        "weighted_f1": round(f1_score(g, p_, average="weighted"), 4),
        "weighted_f1_95ci": ci(boots["wf1"]),
        "per_class_f1": {c: round(float(f), 4) for c, f in zip(LABELS, f1_score(g, p_, labels=LABELS, average=None))},
        "per_class_f1_95ci": {c: ci(boots[c]) for c in LABELS},
        "evidence_span_recall_at_k": round(float(np.mean(recalls)), 4),
        "chosen_on_dev_cv": CHOSEN,
        "evidence_pairs": len(recalls),
        "per_hypothesis_accuracy": per_hyp,
        "cpu_seconds_total_train_and_test": round(secs, 1),
        "cpu_ms_per_test_pair_upper_bound": round(1000 * secs / len(g), 2),
        "command": "OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python benchmarks/contractnli_head.py",
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print({k: out[k] for k in ("accuracy", "accuracy_95ci", "weighted_f1", "per_class_f1", "evidence_span_recall_at_k", "chosen_on_dev_cv")},
          file=sys.stderr)


def _vstack(xs: list) -> object:
    from scipy.sparse import vstack

    return vstack(xs).tocsr()


if __name__ == "__main__":
    main()
