"""Fit the ContractNLI span probe (issue #40) on ContractNLI **dev** only and write its weights.

The probe and its features are :mod:`clauselens.heads.nli_probe` (Koreeda & Manning, Findings of EMNLP
2021: span-NLI, evidence first). ContractNLI's train split is not available here, so the probe is fitted
on ``dev.json`` (61 NDAs); ``test.json`` is never read by this module. The shipped members (``SHIPPED``:
the ``emb_ec_k135`` ensemble of ``benchmarks/contractnli_stack.py``, chosen there by 4-fold CV over dev
documents, dev-CV accuracy 0.8216) are fitted on all of dev. Fitting (scikit-learn ``LogisticRegression``):

* evidence ranker per hypothesis: liblinear, ``class_weight="balanced"``, positive = annotated evidence span;
* ``ec`` rankers per hypothesis and label: the same, positive = evidence span of a document with that label;
  their training-document scores are cross-fitted over ``ec_inner`` folds of the training documents (the label
  model sees them as noisy as on new documents); ``inner`` does the same for the main ranker, ``aug`` trains the
  label model on both the cross-fitted and the in-sample versions;
* label model per member and hypothesis: lbfgs multinomial, ``C = c``; a hypothesis with one training label
  predicts it.

Run (CPU minutes; the MiniLM vectors of the dev spans are cached under ``~/.cache/clauselens/heads/nli_probe``)::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m clauselens.heads.train_nli_probe
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from scipy.sparse import hstack, vstack

from clauselens.heads.nli_probe import (
    EC_LABELS,
    LABELS,
    Config,
    Linear,
    ProbeModel,
    SpanDoc,
    ec_x,
    embed,
    label_x,
    make_vectorizer,
    ranker_scores,
    save,
    span_x,
)

DATA = Path("/work/shared/data/contractnli")
CACHE = Path.home() / ".cache" / "clauselens" / "heads" / "nli_probe"
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.heads.train_nli_probe")
#: The shipped ensemble: the mean of members differing only in k (``emb_ec_k135`` of the benchmark).
SHIPPED = [Config(emb=1.0, k=k, ec=1.0, ec_inner=4) for k in (1, 3, 5)]


def load_split(split: str) -> tuple[list[dict], dict[str, str]]:
    """ContractNLI ``split``'s documents and {hypothesis id: hypothesis text}."""
    d = json.loads((DATA / f"{split}.json").read_text())
    return d["documents"], {h: v["hypothesis"] for h, v in d["labels"].items()}


def doc_spans(doc: dict) -> list[str]:
    return [doc["text"][a:b] for a, b in doc["spans"]]


def doc_annotations(doc: dict) -> dict[str, dict]:
    return dict(doc["annotation_sets"][0]["annotations"])


def span_docs(split: str, docs: Sequence[dict]) -> list[SpanDoc]:
    """:class:`SpanDoc` of every document of ``split`` (MiniLM vectors cached per split)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{split}_vectors.npz"
    cached: dict[str, np.ndarray] = dict(np.load(path)) if path.is_file() else {}
    if any(str(d["id"]) not in cached for d in docs):
        for i, d in enumerate(docs):
            if str(d["id"]) not in cached:
                cached[str(d["id"])] = embed(doc_spans(d))
            if i % 20 == 19:
                print(f"[train_nli_probe] embedded {i + 1}/{len(docs)} {split} documents", file=sys.stderr, flush=True)
        np.savez(path, **cached)  # type: ignore[arg-type]
    return [SpanDoc(doc_spans(d), cached[str(d["id"])]) for d in docs]


def fit_ranker(cfg: Config, x: Any, y: np.ndarray) -> Linear | None:
    """A span ranker (None when the training spans are all of one class: every span then scores 0)."""
    from sklearn.linear_model import LogisticRegression

    if len(set(np.asarray(y).tolist())) < 2:
        return None
    return Linear.of(LogisticRegression(C=cfg.c_ev, solver="liblinear", class_weight="balanced").fit(x, y))


def inner_scores(cfg: Config, folds: int, xtr: list, y: np.ndarray) -> list[np.ndarray]:
    """Scores of each training document from a ranker fitted on the other training documents (``folds`` folds)."""
    sizes = np.cumsum([0] + [x.shape[0] for x in xtr])
    out: list[np.ndarray] = [np.zeros(0)] * len(xtr)
    for f in range(folds):
        fit = [i for i in range(len(xtr)) if i % folds != f]
        rows = np.concatenate([np.arange(sizes[i], sizes[i + 1]) for i in fit])
        ev = fit_ranker(cfg, vstack([xtr[i] for i in fit]).tocsr(), y[rows])
        for i in range(len(xtr)):
            if i % folds == f:
                out[i] = ranker_scores(ev, xtr[i])
    return out


def fit_label(cfg: Config, x: Any, y: list[str]) -> Linear | str:
    from sklearn.linear_model import LogisticRegression

    if len(set(y)) == 1:
        return y[0]
    return Linear.of(LogisticRegression(C=cfg.c, max_iter=2000).fit(x, y))


def fit(members: Sequence[Config], docs: Sequence[SpanDoc], anns: Sequence[dict[str, dict]],
        hypotheses: dict[str, str], log: bool = False) -> ProbeModel:
    """Fit the probe on ``docs`` (their ContractNLI annotations ``anns``): one vectoriser and per hypothesis one
    evidence ranker and the ``ec`` rankers (shared: ``members`` may differ only in the label model's fields)."""
    base = members[0]
    shared = ("emb", "ctx", "c_ev", "ec", "ec_inner")
    if any(getattr(m, f) != getattr(base, f) for m in members for f in shared):
        raise ValueError(f"ensemble members must share {shared}")
    vec = make_vectorizer()
    vec.fit([s for d in docs for s in d.spans])
    xtr = [span_x(base, vec, d) for d in docs]
    xall = vstack(xtr).tocsr()
    model = ProbeModel(vec=vec, members=list(members), hypotheses=dict(hypotheses), ev={}, ec={},
                       label=[{} for _ in members])
    for h in sorted(hypotheses):
        t0 = time.process_time()
        y = np.concatenate([np.isin(np.arange(len(d.spans)), a[h]["spans"]) for d, a in zip(docs, anns)]).astype(int)
        y_lab = [a[h]["choice"] for a in anns]
        model.ev[h] = fit_ranker(base, xall, y)
        s_in = [ranker_scores(model.ev[h], x) for x in xtr]
        model.ec[h], ec_tr = {}, []
        if base.ec:
            rows = np.concatenate([[lab] * len(d.spans) for d, lab in zip(docs, y_lab)])
            for lab in EC_LABELS:
                yl = (y * (rows == lab)).astype(int)
                model.ec[h][lab] = fit_ranker(base, xall, yl)
                ec_tr.append(inner_scores(base, base.ec_inner, xtr, yl) if base.ec_inner
                             else [ranker_scores(model.ec[h][lab], x) for x in xtr])
        for i, cfg in enumerate(members):
            s_tr = inner_scores(cfg, cfg.inner, xtr, y) if cfg.inner else s_in
            x_fit, _ = label_x(cfg, vec, docs, s_tr)
            if cfg.ec:
                x_fit = hstack([x_fit, ec_x(cfg, ec_tr)]).tocsr()
            y_fit = list(y_lab)
            if cfg.inner and cfg.aug:
                x_aug, _ = label_x(cfg, vec, docs, s_in)
                if cfg.ec:
                    x_aug = hstack([x_aug, ec_x(cfg, ec_tr)]).tocsr()
                x_fit, y_fit = vstack([x_fit, x_aug]).tocsr(), y_fit + y_fit
            model.label[i][h] = fit_label(cfg, x_fit, y_fit)
        if log:
            print(f"[train_nli_probe] {h}: {time.process_time() - t0:.1f} CPU s", file=sys.stderr, flush=True)
    return model


def predict_all(model: ProbeModel, docs: Sequence[SpanDoc], ids: Sequence[Any]) -> dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]:
    """{(doc id, hypothesis): (probabilities in LABELS order, every span's evidence score)} for every pair."""
    return {(int(i), h): model.predict(d, h) for d, i in zip(docs, ids) for h in sorted(model.hypotheses)}


def _cv_accuracy(members: Sequence[Config], docs: list[SpanDoc], anns: list[dict], hyps: dict[str, str],
                 folds: int = 4) -> float:
    right = []
    for f in range(folds):
        tr = [i for i in range(len(docs)) if i % folds != f]
        te = [i for i in range(len(docs)) if i % folds == f]
        m = fit(members, [docs[i] for i in tr], [anns[i] for i in tr], hyps)
        for i in te:
            for h in sorted(hyps):
                right.append(LABELS[int(np.argmax(m.predict(docs[i], h)[0]))] == anns[i][h]["choice"])
    return float(np.mean(right))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=None, help="write under this weights directory instead of the package's")
    ap.add_argument("--cv", action="store_true", help="also report the shipped ensemble's 4-fold dev CV accuracy")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    raw, hyps = load_split("dev")
    docs, anns = span_docs("dev", raw), [doc_annotations(d) for d in raw]
    t_emb = time.process_time() - t0
    metrics: dict[str, Any] = {}
    if args.cv:
        metrics["dev_cv4_accuracy"] = round(_cv_accuracy(SHIPPED, docs, anns, hyps), 4)
        print(f"[train_nli_probe] dev 4-fold CV accuracy {metrics['dev_cv4_accuracy']}", file=sys.stderr)
    t1 = time.process_time()
    model = fit(SHIPPED, docs, anns, hyps, log=True)
    counts = {lab: sum(a[h]["choice"] == lab for a in anns for h in hyps) for lab in LABELS}
    meta = {
        "training_command": COMMAND + (" --cv" if args.cv else ""),
        "manifest": {"data": str(DATA / "dev.json"), "documents": len(raw), "pairs": len(raw) * len(hyps),
                     "spans": sum(len(d.spans) for d in docs), "labels": counts,
                     "note": "ContractNLI dev split only (train.json is not available here; test.json is never read)"},
        "chosen_by": "benchmarks/contractnli_stack.py cv: emb_ec_k135 (4-fold CV over dev documents, 0.8216)",
        "metrics": {**metrics, "cpu_s_embed_dev_spans": round(t_emb, 1), "cpu_s_fit": round(time.process_time() - t1, 1)},
    }
    out = save(model, meta, Path(args.root) if args.root else None)
    print(json.dumps({k: out[k] for k in ("sha256", "size", "vocab_sha256", "metrics")}, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
