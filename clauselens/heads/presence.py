"""Clause presence head (issue #40): does this contract contain a clause of a CUAD category, and where.

A linear probe per CUAD category (Hendrycks et al. 2021, "CUAD: An Expert-Annotated NLP Dataset for
Legal Contract Review", the 41 categories) over TF-IDF features of overlapping word windows
(Salton & Buckley 1988 term weighting; sublinear tf, l2 norm, as scikit-learn's ``TfidfVectorizer``).
Each window gets a logistic-regression probability per category; the contract-level score is the
maximum over its windows (multiple-instance "max" aggregation), compared with a per-category
threshold chosen on a tune split of ``train_allowed.txt`` agreements (see ``train_presence.py``).

Files under ``clauselens/heads/weights/presence/``: ``model.safetensors`` (fp16 ``idf``, ``coef``,
``intercept``), ``vocab.json`` (the feature terms in column order) and ``head.json`` (sha256 of both,
categories, thresholds, vectoriser settings, training command, manifest, metrics). Loading is
offline, verifies the checksums and happens on first use; a missing head raises
:class:`~clauselens.heads.base.HeadMissingError`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.errors import ClauselensError
from clauselens.heads.base import HeadChecksumError, HeadMissingError, head_dir, sha256_file

NAME = "presence"
WEIGHT_FILE = "model.safetensors"
VOCAB_FILE = "vocab.json"
META_FILE = "head.json"
WINDOW_WORDS = 100
STRIDE_WORDS = 60


@dataclass(frozen=True)
class Presence:
    """One category's verdict for one contract: the score, the threshold, and the best window."""

    category: str
    present: bool
    score: float
    threshold: float
    passage: str


def windows(text: str, size: int = WINDOW_WORDS, stride: int = STRIDE_WORDS) -> list[str]:
    """Overlapping word windows of ``text`` (the passages the head scores)."""
    words = text.split()
    if not words:
        return []
    out = []
    for start in range(0, max(1, len(words) - size + stride), stride):
        out.append(" ".join(words[start : start + size]))
        if start + size >= len(words):
            break
    return out


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class PresenceHead:
    """The loaded probe: ``score(text)`` gives one :class:`Presence` per category."""

    def __init__(self, root: Path | None = None) -> None:
        d = head_dir(NAME, root)
        paths = [d / WEIGHT_FILE, d / VOCAB_FILE, d / META_FILE]
        missing = [p.name for p in paths if not p.is_file()]
        if missing:
            raise HeadMissingError(f"presence head not installed: {', '.join(missing)} missing under {d}")
        meta = json.loads((d / META_FILE).read_text())
        for fname, key in ((WEIGHT_FILE, "sha256"), (VOCAB_FILE, "vocab_sha256")):
            if sha256_file(d / fname) != meta[key]:
                raise HeadChecksumError(f"presence head: {fname} does not match the sha256 in head.json")
        from safetensors.numpy import load_file
        from sklearn.feature_extraction.text import TfidfVectorizer

        tensors = load_file(str(d / WEIGHT_FILE))
        vocab = json.loads((d / VOCAB_FILE).read_text())
        vs = meta["vectorizer"]
        vec = TfidfVectorizer(
            vocabulary=vocab,
            ngram_range=tuple(vs["ngram_range"]),
            sublinear_tf=bool(vs["sublinear_tf"]),
            lowercase=bool(vs["lowercase"]),
            dtype=np.float32,
        )
        vec.fit(["x"])  # sets the fixed vocabulary; the trained idf replaces the fitted one
        vec.idf_ = tensors["idf"].astype(np.float64)
        self.vectorizer = vec
        self.coef = tensors["coef"].astype(np.float32)  # (categories, features)
        self.intercept = tensors["intercept"].astype(np.float32)
        self.categories: list[str] = list(meta["categories"])
        self.thresholds = np.asarray([meta["thresholds"][c] for c in self.categories], dtype=np.float32)
        self.meta: dict[str, Any] = meta

    def window_probs(self, passages: list[str]) -> np.ndarray:
        """Probability per (passage, category)."""
        x = self.vectorizer.transform(passages)
        logits = np.asarray(x @ self.coef.T) + self.intercept
        return 1.0 / (1.0 + np.exp(-logits))

    def score(self, text: str, passages: list[str] | None = None) -> list[Presence]:
        """Presence of every category in ``text`` (or in the given ``passages``)."""
        if not isinstance(text, str):
            raise ClauselensError("presence head: the contract text must be a string")
        wins = passages if passages is not None else windows(text)
        if not wins:
            raise ClauselensError("presence head: the contract text is empty")
        probs = self.window_probs(wins)
        best = probs.argmax(axis=0)
        out = []
        for j, cat in enumerate(self.categories):
            s = float(probs[best[j], j])
            thr = float(self.thresholds[j])
            out.append(Presence(cat, s >= thr, s, thr, wins[int(best[j])]))
        return out


def contract_scores(text: str) -> dict[str, float]:
    """Contract-level presence score per category of ``text`` (maximum over its windows) from the
    installed head; empty when the head is not installed or the text is blank (the callers' checks are
    then off)."""
    if not text.strip():
        return {}
    try:
        head = load()
    except HeadMissingError:
        return {}
    return {p.category: p.score for p in head.score(text)}


@lru_cache(maxsize=1)
def load() -> PresenceHead:
    """The installed head, loaded once (raises :class:`HeadMissingError` when absent)."""
    return PresenceHead()
