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
   probe's at the CV-chosen weight.
4. ``ec``: per hypothesis and label, an evidence ranker of the spans that are evidence in Entailment
   documents and one of those in Contradiction documents (the same TF-IDF/MiniLM span features); the two
   highest scores of each join the label features. Their training-document scores are cross-fitted
   (``ec_inner`` folds inside the training documents: the label model must see them as noisy as on
   new documents; ``inner`` does the same for the main ranker, ``aug`` trains on both versions).
5. Ensembles: the mean of the class probabilities of variants that differ only in k (1, 3, 5 spans
   read), fixed before their CV was seen (:data:`ENSEMBLES`).

Run (CPU seconds, no model call; the MiniLM span vectors come from the project's embedding cache,
filled once under the heavy-job lock)::

    .venv/bin/python -m benchmarks.contractnli_stack cv            # every variant, dev 4-fold CV
    .venv/bin/python -m benchmarks.contractnli_stack test --name X [Y]  # once per final candidate

-> ``benchmarks/results/contractnli_stack.json``; 95 % intervals: percentile bootstrap over test pairs.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix, hstack, vstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from benchmarks.contractnli_head import LABELS, choice, load, metrics, spans

OUT = Path(__file__).resolve().parent / "results" / "contractnli_stack.json"
FOLDS = 4

#: Negation / restriction / permission cues (word-boundary regexes, case-insensitive), counted per span.
CUES = {
    "not": r"\b(?:not|no|never|nothing|neither|nor|none)\b|n't\b",
    "shall_not": r"\b(?:shall|will|may|must|should)\s+not\b|\bshall\s+in\s+no\s+event\b",
    "without": r"\bwithout\b",
    "only": r"\b(?:only|solely|exclusively|limited\s+to)\b",
    "except": r"\b(?:except|unless|provided\s+that|other\s+than|excluding)\b",
    "may": r"\b(?:may|is\s+permitted|is\s+entitled|can|right\s+to)\b",
    "shall": r"\b(?:shall|must|will|agrees?\s+to|is\s+required)\b",
    "any": r"\b(?:any|all|every|whatsoever)\b",
    "prohibit": r"\b(?:prohibit\w*|restrict\w*|forbid\w*|refrain\w*)\b",
}
_CUE_RE = {k: re.compile(v, re.IGNORECASE) for k, v in CUES.items()}


@dataclass(frozen=True)
class Config:
    """One variant. ``emb``/``ctx``: evidence-ranker blocks; ``cues``: cue counts in the label features;
    ``pooled``: weight of the pooled model's probabilities (0 = probe alone)."""

    k: int = 3
    c: float = 4.0
    c_ev: float = 4.0
    emb: float = 0.0
    ctx: float = 0.0
    cues: float = 0.0
    label_emb: float = 1.0
    pooled: float = 0.0
    c_pool: float = 1.0
    sc: float = 1.0
    inner: int = 0
    aug: float = 0.0
    ec: float = 0.0
    ec_inner: int = 0


def cue_counts(text: str) -> np.ndarray:
    return np.asarray([len(r.findall(text)) for r in _CUE_RE.values()], dtype=float)


class Data:
    """dev + test documents, hypotheses and MiniLM vectors of every span and hypothesis (from the cache)."""

    def __init__(self) -> None:
        self.dev, self.hyps = load("dev")
        self.test, _ = load("test")
        self.hids = sorted(self.hyps)
        self.vecs: dict[int, np.ndarray] = {}
        from clauselens.config import Settings
        from clauselens.retrieval.embedders import get_embedder

        emb = get_embedder(Settings().retrieval.embedder)
        for d in self.dev + self.test:
            self.vecs[int(d["id"])] = emb.embed_passages(spans(d))
        self.hvec = dict(zip(self.hids, emb.embed_passages([self.hyps[h]["hypothesis"] for h in self.hids])))
        self.hneg = {h: float(bool(_CUE_RE["not"].search(self.hyps[h]["hypothesis"]))) for h in self.hids}
        self.cues = {int(d["id"]): np.asarray([cue_counts(s) for s in spans(d)]) for d in self.dev + self.test}


def _prev(doc: dict) -> list[str]:
    s = spans(doc)
    return [""] + s[:-1]


def _span_x(cfg: Config, vec: TfidfVectorizer, data: Data, doc: dict) -> Any:
    blocks = [vec.transform(spans(doc))]
    if cfg.emb:
        blocks.append(csr_matrix(cfg.emb * data.vecs[int(doc["id"])]))
    if cfg.ctx:
        blocks.append(cfg.ctx * vec.transform(_prev(doc)))
    return hstack(blocks).tocsr() if len(blocks) > 1 else blocks[0]


def _label_x(cfg: Config, vec: TfidfVectorizer, data: Data, docs: list[dict], scores: list[np.ndarray]):
    """Label features of one hypothesis over ``docs`` given each document's evidence scores."""
    texts, firsts, tops, dense, orders = [], [], [], [], []
    for doc, s in zip(docs, scores):
        order = np.argsort(-s)[:cfg.k]
        orders.append(order)
        sp = spans(doc)
        texts.append(" ".join(sp[i] for i in order))
        firsts.append(sp[order[0]])
        tops.append((sorted(s.tolist(), reverse=True)[:3] + [0.0, 0.0])[:3])
        row = []
        if cfg.label_emb:
            v = data.vecs[int(doc["id"])][order]
            row.append(cfg.label_emb * np.concatenate([v[0], v.mean(axis=0)]))
        if cfg.cues:
            cu = data.cues[int(doc["id"])]
            row.append(cfg.cues * np.log1p(np.concatenate([cu[order[0]], cu[order].sum(axis=0)])))
        dense.append(np.concatenate(row) if row else np.zeros(0))
    blocks = [vec.transform(texts), vec.transform(firsts), csr_matrix(cfg.sc * np.asarray(tops))]
    if dense and len(dense[0]):
        blocks.append(csr_matrix(np.asarray(dense)))
    return hstack(blocks).tocsr(), orders


def _pool_x(data: Data, h: str, doc: dict, s: np.ndarray, k: int) -> np.ndarray:
    order = np.argsort(-s)[:k]
    v = data.vecs[int(doc["id"])]
    cu = np.log1p(data.cues[int(doc["id"])])
    onehot = np.asarray([float(h == x) for x in data.hids])
    tops = np.asarray((sorted(s.tolist(), reverse=True)[:3] + [0.0, 0.0])[:3])
    hv = data.hvec[h]
    cue1, cuek = cu[order[0]], cu[order].mean(axis=0)
    return np.concatenate([onehot, tops, cue1, cuek, data.hneg[h] * cue1, [float(v[order[0]] @ hv)],
                           v[order[0]] * hv, v[order].mean(axis=0) * hv])


class _Ranker:
    """The evidence ranker of one hypothesis (module docstring, 1.); a hypothesis with no evidence span
    in the training documents scores every span 0."""

    def __init__(self, cfg: Config, x: Any, y: np.ndarray) -> None:
        self.lr = None
        if len(set(y.tolist())) > 1:
            self.lr = LogisticRegression(C=cfg.c_ev, solver="liblinear", class_weight="balanced").fit(x, y)

    def __call__(self, x: Any) -> np.ndarray:
        return self.lr.predict_proba(x)[:, 1] if self.lr is not None else np.zeros(x.shape[0])


def _inner_scores(cfg: Config, xtr: list, y: np.ndarray) -> list[np.ndarray]:
    """Evidence scores of the training documents from rankers fitted on the other training documents
    (``cfg.inner`` folds; cross-fitting, so the label model sees scores as noisy as on new documents)."""
    sizes = np.cumsum([0] + [x.shape[0] for x in xtr])
    out: list[np.ndarray] = [np.zeros(0)] * len(xtr)
    for f in range(cfg.inner):
        fit = [i for i in range(len(xtr)) if i % cfg.inner != f]
        rows = np.concatenate([np.arange(sizes[i], sizes[i + 1]) for i in fit])
        ev = _Ranker(cfg, vstack([xtr[i] for i in fit]).tocsr(), y[rows])
        for i in range(len(xtr)):
            if i % cfg.inner == f:
                out[i] = ev(xtr[i])
    return out


def _class_scores(cfg: Config, tr: list[dict], xtr: list, xtr_all: Any, xte: list, y: np.ndarray,
                  y_tr: list[str]) -> tuple[Any, Any]:
    """``ec``: per label (Entailment, Contradiction) an evidence ranker of the spans that are evidence in
    documents of that label; the two highest scores of each, for the training documents (cross-fitted
    over ``ec_inner`` folds when set) and the test documents."""
    rows = np.concatenate([[lab] * len(d["spans"]) for d, lab in zip(tr, y_tr)])
    f_tr, f_te = [], []
    for lab in ("Entailment", "Contradiction"):
        yl = (y * (rows == lab)).astype(int)
        r = _Ranker(cfg, xtr_all, yl)
        s_tr = _inner_scores(replace(cfg, inner=cfg.ec_inner), xtr, yl) if cfg.ec_inner else [r(x) for x in xtr]
        f_tr.append([(sorted(v.tolist(), reverse=True) + [0.0])[:2] for v in s_tr])
        f_te.append([(sorted(r(x).tolist(), reverse=True) + [0.0])[:2] for x in xte])
    return (csr_matrix(cfg.ec * np.hstack([np.asarray(f) for f in f_tr])),
            csr_matrix(cfg.ec * np.hstack([np.asarray(f) for f in f_te])))


def fit_predict(cfg: Config, data: Data, tr: list[dict], te: list[dict]) -> tuple[dict, list[float]]:
    """Fit on ``tr``, predict ``te``: {(doc id, hypothesis): [P(E), P(C), P(N)]} and the evidence recall@k
    of every Entailment/Contradiction pair of ``te``."""
    vec = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2)
    vec.fit([s for d in tr for s in spans(d)])
    xtr = [_span_x(cfg, vec, data, d) for d in tr]
    xte = [_span_x(cfg, vec, data, d) for d in te]
    xtr_all = vstack(xtr).tocsr()
    out: dict[tuple[int, str], np.ndarray] = {}
    recalls: list[float] = []
    pool_tr, pool_y, pool_te = [], [], []
    for h in data.hids:
        y = np.concatenate([np.isin(np.arange(len(d["spans"])), d["annotation_sets"][0]["annotations"][h]["spans"])
                            for d in tr]).astype(int)
        ev = _Ranker(cfg, xtr_all, y)
        s_te = [ev(x) for x in xte]
        s_in = [ev(x) for x in xtr]
        s_tr = _inner_scores(cfg, xtr, y) if cfg.inner else s_in
        x_tr, _ = _label_x(cfg, vec, data, tr, s_tr)
        x_te, orders = _label_x(cfg, vec, data, te, s_te)
        y_tr = [choice(d, h) for d in tr]
        if cfg.ec:
            e_tr, e_te = _class_scores(cfg, tr, xtr, xtr_all, xte, y, y_tr)
            x_tr, x_te = hstack([x_tr, e_tr]).tocsr(), hstack([x_te, e_te]).tocsr()
        y_fit = y_tr
        if cfg.inner and cfg.aug:  # train the label model on both the clean (in-sample) and the cross-fitted top spans
            x_tr = vstack([x_tr, _label_x(cfg, vec, data, tr, s_in)[0]]).tocsr()
            y_fit = y_tr + y_tr
        proba = np.zeros((len(te), 3))
        if len(set(y_tr)) == 1:
            proba[:, LABELS.index(y_tr[0])] = 1.0
        else:
            clf = LogisticRegression(C=cfg.c, max_iter=2000).fit(x_tr, y_fit)
            pr = clf.predict_proba(x_te)
            for j, lab in enumerate(clf.classes_):
                proba[:, LABELS.index(str(lab))] = pr[:, j]
        for d, p, order in zip(te, proba, orders):
            out[(int(d["id"]), h)] = p
            ann = d["annotation_sets"][0]["annotations"][h]
            if ann["choice"] != "NotMentioned" and ann["spans"]:
                recalls.append(len(set(ann["spans"]) & set(order.tolist())) / len(ann["spans"]))
        if cfg.pooled:
            pool_tr += [_pool_x(data, h, d, s, cfg.k) for d, s in zip(tr, s_tr)]
            pool_y += y_tr
            pool_te += [((int(d["id"]), h), _pool_x(data, h, d, s, cfg.k)) for d, s in zip(te, s_te)]
    if cfg.pooled:
        mu, sd = np.mean(pool_tr, axis=0), np.std(pool_tr, axis=0) + 1e-6
        clf = LogisticRegression(C=cfg.c_pool, max_iter=3000).fit((np.asarray(pool_tr) - mu) / sd, pool_y)
        pr = clf.predict_proba((np.asarray([x for _, x in pool_te]) - mu) / sd)
        idx = [LABELS.index(str(lab)) for lab in clf.classes_]
        for (key, _), p in zip(pool_te, pr):
            q = np.zeros(3)
            q[idx] = p
            out[key] = (1 - cfg.pooled) * out[key] + cfg.pooled * q
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
    "pooled": Config(pooled=0.5),
    "ev_emb_pooled": Config(emb=1.0, pooled=0.5),
    "ev_emb_cues_pooled": Config(emb=1.0, cues=1.0, pooled=0.5),
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
