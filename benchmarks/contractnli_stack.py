"""ContractNLI: the span probe with better evidence, cue and pooled features, chosen by dev CV (issue #40).

Koreeda & Manning (Findings of EMNLP 2021) frame ContractNLI as span-NLI: for each of 17 fixed
hypotheses, find a contract's evidence spans and label the pair Entailment / Contradiction /
NotMentioned; the label is decided by the evidence, so evidence selection comes first. ContractNLI's
train split is NOT available here: everything is fitted on ``dev.json`` (61 NDAs) and every variant
and weight below is chosen by 4-fold cross-validation over dev *documents* (grouped: all 17 pairs of
a document are in the same fold). ``test.json`` (123 NDAs, 2,091 pairs) is scored once per final
candidate with ``--test NAME`` and each such run is appended to the result file's ``test_runs``
(a failure would count as wrong; there are none, every pair is labelled).

Building blocks (each a variant switch of :class:`Config`):

1. Evidence ranker (per hypothesis, as ``benchmarks/contractnli_head.py``): a logistic regression over
   the TF-IDF (word 1-2 grams, sublinear tf) of a span, optionally plus its all-MiniLM-L6-v2 vector
   (``emb``) and the TF-IDF of the span before it (``ctx``: list items such as "(iii) is independently
   developed ..." carry their meaning in the lead-in sentence). Positive = annotated evidence.
2. Label model per hypothesis (the probe): 3-class logistic regression over the TF-IDF of the top-k
   spans joined and of the top span, the top-3 evidence scores, the MiniLM vectors of the top span and
   the mean of the top-k, and optionally ``cues``: counts of negation / restriction / permission
   words in the top span and the top-k (the contradiction signal: "shall not", "only", "may",
   "except", ...; Koreeda & Manning's error analysis names negation and scope as the hard cases).
3. Pooled model (``pooled`` weight): one multinomial logistic regression over every (document,
   hypothesis) of the training documents with the hypothesis one-hot, the evidence scores, the cue
   counts crossed with whether the hypothesis itself is negated, and the element-wise product of the
   hypothesis and top-span vectors (the "u*v" feature of InferSent, Conneau et al. 2017), so rare
   Contradiction examples are shared across hypotheses; its probabilities are averaged with the
   probe's at the CV-chosen weight. (Retired when the probe moved into the package: dev CV 0.792-0.806,
   below the chosen ensemble; the recorded CV entries stay in the result file.)
4. ``ec``: per hypothesis and label, an evidence ranker of the spans that are evidence in Entailment
   documents and one of those in Contradiction documents (the same TF-IDF/MiniLM span features); the two
   highest scores of each join the label features. Their training-document scores are cross-fitted
   (``ec_inner`` folds inside the training documents: the label model must see them as noisy as on
   new documents; ``inner`` does the same for the main ranker, ``aug`` trains on both versions).
5. Ensembles: the mean of the class probabilities of variants that differ only in k (1, 3, 5 spans
   read), fixed before their CV was seen (:data:`ENSEMBLES`).

The feature code, fitting and prediction are the product's own: :mod:`clauselens.heads.nli_probe`
(features, :class:`~clauselens.heads.nli_probe.Config`) and :mod:`clauselens.heads.train_nli_probe` (``fit``;
it also writes the shipped weights of the chosen ensemble, ``emb_ec_k135``); this module only cross-validates
and scores. The product path with the committed weights is measured by
``python -m benchmarks.contractnli run --mode head --split test``.

Run (CPU seconds, no model call; the MiniLM span vectors come from the provisioned package, cached under
``~/.cache/clauselens/heads/nli_probe``, filled once under the heavy-job lock)::

    .venv/bin/python -m benchmarks.contractnli_stack cv            # every variant, dev 4-fold CV
    .venv/bin/python -m benchmarks.contractnli_stack test --name X [Y]  # once per final candidate

-> ``benchmarks/results/contractnli_stack.json``; 95 % intervals: percentile bootstrap over test pairs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.contractnli_head import LABELS, metrics
from clauselens.heads.nli_probe import Config
from clauselens.heads.train_nli_probe import doc_annotations, fit, load_split, span_docs

OUT = Path(__file__).resolve().parent / "results" / "contractnli_stack.json"
FOLDS = 4


class Data:
    """dev + test documents (raw ContractNLI JSON), their :class:`~clauselens.heads.nli_probe.SpanDoc` (MiniLM
    vectors of the provisioned package, cached) and the hypotheses."""

    def __init__(self) -> None:
        self.dev, self.hyps = load_split("dev")
        self.test, _ = load_split("test")
        self.hids = sorted(self.hyps)
        self.docs = {int(d["id"]): sd for split, raw in (("dev", self.dev), ("test", self.test))
                     for d, sd in zip(raw, span_docs(split, raw))}


def fit_predict(cfg: Config, data: Data, tr: list[dict], te: list[dict]) -> tuple[dict, list[float]]:
    """Fit the package's probe (:func:`clauselens.heads.train_nli_probe.fit`) on ``tr``, predict ``te``:
    {(doc id, hypothesis): [P(E), P(C), P(N)]} and the evidence recall@k of every Entailment/Contradiction pair."""
    if cfg.pooled:
        raise ValueError("the pooled variants were retired when the probe moved into clauselens.heads.nli_probe "
                         "(their dev CV, 0.792-0.806, stays in the result file)")
    model = fit([cfg], [data.docs[int(d["id"])] for d in tr], [doc_annotations(d) for d in tr], data.hyps)
    out: dict[tuple[int, str], np.ndarray] = {}
    recalls: list[float] = []
    for d in te:
        anns = doc_annotations(d)
        for h in data.hids:
            p, s = model.predict(data.docs[int(d["id"])], h)
            out[(int(d["id"]), h)] = p
            if anns[h]["choice"] != "NotMentioned" and anns[h]["spans"]:
                order = np.argsort(-s, kind="stable")[:cfg.k]
                recalls.append(len(set(anns[h]["spans"]) & set(order.tolist())) / len(anns[h]["spans"]))
    return out, recalls


def cv(cfg: Config, data: Data) -> tuple[dict, float, float]:
    """Out-of-fold probabilities over dev (4 folds of documents), accuracy and evidence recall@k."""
    oof: dict[tuple[int, str], np.ndarray] = {}
    rec: list[float] = []
    for f in range(FOLDS):
        tr = [d for i, d in enumerate(data.dev) if i % FOLDS != f]
        te = [d for i, d in enumerate(data.dev) if i % FOLDS == f]
        p, r = fit_predict(cfg, data, tr, te)
        oof.update(p)
        rec += r
    return oof, _accuracy(oof, data.dev), float(np.mean(rec))


def _gold(docs: list[dict]) -> dict[tuple[int, str], str]:
    return {(int(d["id"]), h): a["choice"] for d in docs for h, a in d["annotation_sets"][0]["annotations"].items()}


def _accuracy(proba: dict, docs: list[dict]) -> float:
    g = _gold(docs)
    return float(np.mean([LABELS[int(np.argmax(proba[key]))] == lab for key, lab in g.items()]))


#: The variants the CV compares, in order (each changes one thing from an earlier one).
VARIANTS: dict[str, Config] = {
    "probe_embed": Config(),                               # = contractnli_head.py --embed (k=3, C=4)
    "ev_emb": Config(emb=1.0),
    "ev_ctx": Config(ctx=0.5),
    "ev_emb_ctx": Config(emb=1.0, ctx=0.5),
    "cues": Config(cues=1.0),
    "ev_emb_cues": Config(emb=1.0, cues=1.0),
    "ev_emb_inner": Config(emb=1.0, inner=4),
    "ev_emb_inner_aug": Config(emb=1.0, inner=4, aug=1.0),
    "ev_emb_k1": Config(emb=1.0, k=1),
    "ev_emb_k5": Config(emb=1.0, k=5),
    "ev_emb_k5_ec_in_sample": Config(emb=1.0, k=5, ec=1.0),
    "ev_emb_k1_ec": Config(emb=1.0, k=1, ec=1.0, ec_inner=4),
    "ev_emb_k3_ec": Config(emb=1.0, k=3, ec=1.0, ec_inner=4),
    "ev_emb_k5_ec": Config(emb=1.0, k=5, ec=1.0, ec_inner=4),
}
#: Probability averages of variants (bagging over k, fixed before looking at their CV).
ENSEMBLES: dict[str, tuple[str, ...]] = {
    "emb_k135": ("ev_emb_k1", "ev_emb", "ev_emb_k5"),
    "emb_ec_k135": ("ev_emb_k1_ec", "ev_emb_k3_ec", "ev_emb_k5_ec"),
}


def _members(name: str, extra: dict[str, Config]) -> list[Config]:
    allv = {**VARIANTS, **extra}
    return [allv[m] for m in ENSEMBLES[name]] if name in ENSEMBLES else [allv[name]]


def _mean(probas: list[dict]) -> dict:
    return {key: np.mean([p[key] for p in probas], axis=0) for key in probas[0]}


def cv_main(names: list[str], extra: dict[str, Config]) -> dict[str, Any]:
    data = Data()
    res: dict[str, Any] = {}
    memo: dict[Config, tuple[dict, float]] = {}
    for name in names:
        t0 = time.process_time()
        for cfg in _members(name, extra):
            if cfg not in memo:
                oof, _, rec = cv(cfg, data)
                memo[cfg] = (oof, rec)
        members = _members(name, extra)
        oof = _mean([memo[c][0] for c in members])
        acc, rec = _accuracy(oof, data.dev), float(np.mean([memo[c][1] for c in members]))
        res[name] = {"config": [asdict(c) for c in members] if name in ENSEMBLES else asdict(members[0]),
                     "dev_cv_accuracy": round(acc, 4), "dev_cv_evidence_recall_at_k": round(rec, 4),
                     "dev_cv_per_class_f1": metrics([g for _, g in sorted(_gold(data.dev).items())],
                                                    [LABELS[int(np.argmax(oof[key]))] for key in sorted(_gold(data.dev))])["per_class_f1"],
                     "cpu_s": round(time.process_time() - t0, 1)}
        print(f"[contractnli_stack] {name}: dev CV {acc:.4f} recall {rec:.4f} ({res[name]['cpu_s']} s)",
              file=sys.stderr, flush=True)
    return res


def test_main(name: str, members: list[Config], dev_cv: dict[str, Any], data: Data,
              memo: dict[Config, tuple[dict, list[float], float]]) -> dict[str, Any]:
    """Fit every member on all of dev (``memo``: fits shared between names), average, score test.
    ``dev_cv``: this name's entry of the CV sweep."""
    for cfg in members:
        if cfg not in memo:
            t0 = time.process_time()
            p, r = fit_predict(cfg, data, data.dev, data.test)
            memo[cfg] = (p, r, time.process_time() - t0)
    fits = [memo[cfg][:2] for cfg in members]
    secs = sum(memo[cfg][2] for cfg in members)
    proba = _mean([f[0] for f in fits])
    g = _gold(data.test)
    keys = sorted(g)
    gold = [g[key] for key in keys]
    pred = [LABELS[int(np.argmax(proba[key]))] for key in keys]
    return {"name": name, "config": [asdict(c) for c in members], "dev_cv_accuracy": dev_cv["dev_cv_accuracy"],
            "test": metrics(gold, pred),
            "test_evidence_recall_at_k": {str(c.k): round(float(np.mean(f[1])), 4) for c, f in zip(members, fits)},
            "failures": 0, "cpu_ms_per_test_pair_fit_and_predict_upper_bound": round(1000 * secs / len(keys), 2)}


def _read() -> dict[str, Any]:
    return json.loads(OUT.read_text()) if OUT.is_file() else {}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stage", choices=["cv", "test"])
    ap.add_argument("--variants", nargs="*", default=[*VARIANTS, *ENSEMBLES])
    ap.add_argument("--name", nargs="+", default=[], help="test: the variants or ensembles to score on test (once each)")
    ap.add_argument("--set", nargs="*", default=[], help="cv: a new variant = the first of --variants with field=value")
    args = ap.parse_args(argv)
    over: dict[str, Any] = {kv.split("=")[0]: float(kv.split("=")[1]) for kv in args.set}
    for key in ("k", "inner", "ec_inner"):
        if key in over:
            over[key] = int(over[key])
    res = _read()
    res["data"] = ("fitted on contractnli dev.json only (61 docs; train.json is not available here); variants chosen by "
                   "4-fold CV over dev documents; test.json (2,091 pairs) scored once per final candidate (test_runs: every one)")
    if args.stage == "cv":
        extra: dict[str, Config] = {}
        names = args.variants
        if over:
            tag = names[0] + "+" + ",".join(args.set)
            extra = {tag: replace(VARIANTS[names[0]], **over)}
            names = [tag]
        res.setdefault("dev_cv", {}).update(cv_main(names, extra))
    else:
        data, memo = Data(), {}
        for name in args.name:
            run = test_main(name, _members(name, {}), res["dev_cv"][name], data, memo)
            run["command"] = "python -m benchmarks.contractnli_stack test --name " + " ".join(args.name)
            res.setdefault("test_runs", []).append(run)
            print(json.dumps({k: run[k] for k in ("name", "dev_cv_accuracy", "test")}, indent=1), file=sys.stderr)
    OUT.write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
