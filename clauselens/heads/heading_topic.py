"""Heading-topic head (issue #39): which clause topic -- a topic agreements give a heading of its own
("Force Majeure", "Insurance", "Non-Solicitation", "Publicity", ...), learnt from the headings of
``train_allowed`` CUAD agreements -- a question asks about, and whether an agreement's text has a clause
on it.

Two linear models, both trained by :mod:`clauselens.library.train_heading_topics`:

1. **Question topic**: k-nearest-neighbour vote (Cover & Hart 1967) among the clauses of
   ``train_allowed`` agreements (a bank of their stored all-MiniLM-L6-v2 vectors, Reimers & Gurevych
   2019), each labelled by the most specific heading topic it sits under, ``Other`` when none is an
   eligible topic: P(topic) = its share of the question's ``knn_k`` nearest clauses. A softmax over
   the question vector (:mod:`clauselens.library.heading_reader`; used when the weights file holds
   ``q_coef`` / ``q_intercept``) was measured twice and not shipped: trained on the few everyday questions
   per topic there first were, it read nearly every everyday question as ``Other``; on ~800 it read
   answerable lay questions as topics their agreements lack (docs/BENCHMARKS.md, 2026-12-06).
2. **Clause probe**: one logistic regression per topic over TF-IDF features (Salton & Buckley 1988;
   sublinear tf, l2 norm) of 100-word windows of an agreement's text, the windows of clauses under
   the topic's headings as positives, the heading words removed; the contract score is the maximum
   over its windows (multiple-instance "max", as :mod:`clauselens.heads.presence`).

An agreement **lacks** a topic when none of its heading keys is one of the topic's and its contract
score is below ``absent_below`` (the score under which at most 3 % of the ``train_allowed``
agreements that have such a heading fall, out of fold, heading words removed). Only topics whose
threshold leaves out enough of the agreements without the heading are eligible (a topic most
agreements state without a heading -- the term, payment -- is not). The search abstains when the
question's probability summed over the eligible topics the agreements lack reaches ``absent_mass``
(chosen on the clause-QA dev sets: ``benchmarks/heading_absence_sweep.py``). Files under
``weights/heading_topic/``: ``model.safetensors`` (fp16 probe and clause bank), ``vocab.json`` and
``head.json`` (topics, sha256, thresholds, training command, data manifest, metrics).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.base import HeadChecksumError, HeadMissingError, head_dir, sha256_file
from clauselens.heads.presence import windows
from clauselens.heads.topic import AbsentTopic

NAME = "heading_topic"
WEIGHT_FILE = "model.safetensors"
VOCAB_FILE = "vocab.json"
META_FILE = "head.json"
OTHER = "Other"

#: A heading label's leading marker ("12.", "Section 4.2(b)", "ARTICLE IX", "(a)").
_MARKER = re.compile(
    r"^\s*(?:(?:article|section|clause|chapter|schedule|exhibit|part|annex|appendix|paragraph)\s+)?"
    r"(?:[0-9]+|[ivxlcdm]+\b|[a-z]\b)?(?:[.\-][0-9a-z]+)*(?:\([0-9a-z]+\))*[.:)\-]?\s*", re.I)
#: Headings longer than this (words after analysis) are a clause's first sentence, not a heading.
MAX_HEADING_TOKENS = 5
MAX_HEADING_CHARS = 60
#: Labels the parser gives nodes that have no heading (their kind): not topics.
KIND_LABELS = frozenset({"root", "preamble", "recital", "article", "section", "clause", "subclause", "schedule",
                         "exhibit", "annex", "heading", "definition", "signature", "paragraph"})


def clean_heading(label: str) -> str:
    """A heading-path label without its clause marker, a filing stamp ("Source: ...") or a
    table-of-contents page number: ``"12.1 Force Majeure"`` -> ``"Force Majeure"``."""
    h = re.sub(r"\bSource:.*$", "", label)
    h = re.sub(r"\s+\d+\s*$", "", h)
    h = _MARKER.sub("", h, count=1)
    return h.strip(" .:-\t")


def heading_key(label: str, tokenize: Callable[[str], list[str]]) -> str | None:
    """The analysed words of a heading label (``"Force Majeure"`` -> ``"forc majeur"``), or ``None``
    for a label that is no heading (a bare number, a node kind, a sentence)."""
    h = clean_heading(label)
    if not h or len(h) > MAX_HEADING_CHARS or h.lower() in KIND_LABELS:
        return None
    toks = [t for t in tokenize(h) if not any(c.isdigit() for c in t)]
    if not toks or len(toks) > MAX_HEADING_TOKENS:
        return None
    return " ".join(toks)


def heading_keys(labels: Iterable[str], tokenize: Callable[[str], list[str]]) -> set[str]:
    """The heading keys of some labels (see :func:`heading_key`)."""
    out = set()
    for lab in labels:
        k = heading_key(lab, tokenize)
        if k:
            out.add(k)
    return out


def strip_headings(text: str, labels: Iterable[str]) -> str:
    """``text`` without its labels' heading where it opens the text (within its first
    :data:`HEAD_ZONE` characters; the same words in the clause's body stay): the probe is trained and
    calibrated on clause text alone, so that a clause that has no heading is still found."""
    for lab in sorted({clean_heading(x) for x in labels}, key=len, reverse=True):
        if len(lab) >= 3:
            m = re.search(r"(?<!\w)" + re.escape(lab) + r"(?!\w)", text[:HEAD_ZONE + len(lab)], flags=re.I)
            if m:
                text = text[:m.start()] + " " + text[m.end():]
    return text


#: How far into a passage's text its heading may start (after its clause marker).
HEAD_ZONE = 40



#: The reading of a question against agreements (mass on topics all of them lack, those topics, the
#: threshold): the topic head's type, shared.
AbsentHeading = AbsentTopic


def knn_shares(vectors: np.ndarray, bank: np.ndarray, labels: np.ndarray, n_labels: int, k: int) -> np.ndarray:
    """Share of each label among each question vector's ``k`` nearest rows of ``bank`` (cosine of
    l2-normalised vectors): the head's question-topic reading, and its training's validation."""
    q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    sims = q @ bank.T
    k = min(k, sims.shape[1])
    near = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    out = np.zeros((q.shape[0], n_labels), dtype=np.float64)
    for i, row in enumerate(near):
        np.add.at(out[i], np.asarray(labels)[row].astype(np.int64), 1.0 / k)
    return out


def softmax_rows(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax of logits ``z``."""
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class HeadingTopicHead:
    """The loaded head: :meth:`probabilities` of a question vector, :meth:`contract_scores` of a
    text, :meth:`read` a question against agreements."""

    def __init__(self, root: Path | None = None) -> None:
        d = head_dir(NAME, root)
        paths = [d / WEIGHT_FILE, d / VOCAB_FILE, d / META_FILE]
        missing = [p.name for p in paths if not p.is_file()]
        if missing:
            raise HeadMissingError(f"heading-topic head not installed: {', '.join(missing)} missing under {d}")
        meta = json.loads((d / META_FILE).read_text())
        for fname, key in ((WEIGHT_FILE, "sha256"), (VOCAB_FILE, "vocab_sha256")):
            if sha256_file(d / fname) != meta[key]:
                raise HeadChecksumError(f"heading-topic head: {fname} does not match the sha256 in head.json")
        from safetensors.numpy import load_file

        t = load_file(str(d / WEIGHT_FILE))
        #: The question reader: a softmax over the question vector (``q_coef``, ``q_intercept``) when the file
        #: holds one, else the kNN vote over the clause bank.
        self.q_coef = t["q_coef"].astype(np.float32) if "q_coef" in t else None
        self.q_intercept = t["q_intercept"].astype(np.float32) if "q_intercept" in t else None
        if self.q_coef is None:
            self.bank = t["bank"].astype(np.float32)  # (clauses, dim): MiniLM vectors of headed clauses
            self.bank_labels = t["bank_labels"].astype(np.int64)  # each clause's index in labels
            self.knn_k = int(meta["knn_k"])
        self.p_coef = t["p_coef"].astype(np.float32)
        self.p_intercept = t["p_intercept"].astype(np.float32)
        self.idf = t["idf"].astype(np.float64)
        self.vocab: dict[str, int] = json.loads((d / VOCAB_FILE).read_text())
        self.labels: list[str] = list(meta["labels"])  # question classes: the topics, then Other
        self.topics: list[str] = list(meta["topics"])  # probe rows
        self.keys: dict[str, set[str]] = {t: set(k) for t, k in meta["keys"].items()}
        self.absent_below: dict[str, float] = {c: float(v) for c, v in meta["absent_below"].items()}
        self.absent_mass = float(meta["absent_mass"])
        self.vectorizer_settings: dict[str, Any] = meta["vectorizer"]
        self.meta = meta
        self._vec: Any = None

    def vectorizer(self) -> Any:
        if self._vec is None:
            from sklearn.feature_extraction.text import TfidfVectorizer

            vs = self.vectorizer_settings
            vec = TfidfVectorizer(vocabulary=self.vocab, ngram_range=tuple(vs["ngram_range"]),
                                  sublinear_tf=bool(vs["sublinear_tf"]), lowercase=True, dtype=np.float32)
            vec.fit(["x"])
            vec.idf_ = self.idf
            self._vec = vec
        return self._vec

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """P(each of :attr:`labels`), one row per question embedding: the softmax reader's, or the share of each
        label among the question's :attr:`knn_k` nearest clauses of the bank (:func:`knn_shares`)."""
        if self.q_coef is not None and self.q_intercept is not None:
            return softmax_rows(np.atleast_2d(np.asarray(vectors, dtype=np.float32)) @ self.q_coef.T + self.q_intercept)
        return knn_shares(vectors, self.bank, self.bank_labels, len(self.labels), self.knn_k)

    def window_probs(self, texts: list[str]) -> np.ndarray:
        """Probe probability per (window, topic)."""
        x = self.vectorizer().transform(texts)
        return 1.0 / (1.0 + np.exp(-(np.asarray(x @ self.p_coef.T) + self.p_intercept)))

    def contract_scores(self, text: str) -> dict[str, float]:
        """Topic -> maximum probe probability over the text's windows (empty for a blank text)."""
        wins = windows(text)
        if not wins:
            return {}
        best = self.window_probs(wins).max(axis=0)
        return {t: float(v) for t, v in zip(self.topics, best)}

    def lacks(self, topic: str, state: tuple[set[str], dict[str, float]]) -> bool:
        """Does an agreement (its heading keys, its contract scores) clearly lack ``topic``?"""
        keys, scores = state
        thr = self.absent_below.get(topic)
        if thr is None or keys & self.keys.get(topic, set()) or topic not in scores:
            return False
        return scores[topic] < thr

    def read(self, vector: np.ndarray, states: list[tuple[set[str], dict[str, float]]]) -> AbsentHeading:
        """The absent mass of one question embedding against agreements (see the module docstring)."""
        p = self.probabilities(vector)[0]
        parts = [(t, float(p[j])) for j, t in enumerate(self.labels)
                 if t in self.absent_below and states and all(self.lacks(t, s) for s in states)]
        parts.sort(key=lambda tp: -tp[1])
        return AbsentHeading(float(sum(q for _, q in parts)), parts, self.absent_mass)

    def reason(self, reading: AbsentHeading, names: str, n_docs: int) -> str:
        """The user's words for an abstention (after "no matching clause found: ")."""
        topic = reading.categories[0][0]
        return (f"the question reads as one about {topic.lower()} (the heading-topic head: P {reading.mass:.2f} on "
                f"topics absent here), and {names} {'has' if n_docs == 1 else 'have'} no clause headed or worded "
                f"as one")


@lru_cache(maxsize=1)
def load() -> HeadingTopicHead:
    """The installed head, loaded once (raises :class:`HeadMissingError` when absent)."""
    return HeadingTopicHead()


__all__ = ["AbsentHeading", "HEAD_ZONE", "KIND_LABELS", "NAME", "OTHER", "HeadingTopicHead", "clean_heading", "heading_key",
           "heading_keys", "knn_shares", "load", "softmax_rows", "strip_headings"]
