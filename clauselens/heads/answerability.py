"""Answerability: does any retrieved passage answer the question at all? (issue #39)

The library ranks an agreement's passages for any question, so a question about a topic the agreement
lacks (anti-bribery, staff non-solicitation, insurance) still gets a neighbouring clause first. This
module turns the reranker head's view of the fused top N into two calibrated probabilities:

* per passage, P(relevant) = sigmoid(a * logit + b): Platt scaling (Platt 1999) of the head's logit,
  fitted on held-out (question, passage) pairs with CUAD gold labels -- what ``Passage.scores["head"]``
  carries and the Interrogator compares with ``Settings.lead_min_relevance``;
* per question, P(answerable) = a logistic regression (scikit-learn; coefficients stored as JSON, no
  pickle) on :func:`features` of the list: the head's best logits and their margin over the list, the
  best dense cosine and BM25 of retrieval. Answerability as a learned list-level decision follows the
  "no answer" classifiers of SQuAD 2.0 systems (Rajpurkar et al. 2018) and selective prediction
  (Geifman & El-Yaniv 2017): abstain below a threshold chosen for a bounded share of answerable
  questions abstained.

Both are fitted by ``clauselens.heads.train_answerability`` on CUAD searches of ``train_allowed``
agreements the reranker head never trained on (``library.answerability_data``; labels: the
category is annotated in the agreement or not), the threshold on a validation split by agreement.
The model is ``weights/answerability/model.json``; it is read on first use with the reranker head.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.heads import base
from clauselens.heads.base import HeadMissingError

NAME = "answerability"
MODEL_FILE = "model.json"
FEATURES = ("best_logit", "second_logit", "mean_top3_logit", "best_minus_mean_logit", "best_dense", "top1_dense",
            "log1p_best_bm25", "bm25_of_head_best_over_best")


def features(logits: Sequence[float], dense: Sequence[float | None], bm25: Sequence[float | None]) -> list[float]:
    """The list-level features of one question's scored passages (fused order; missing retrieval
    scores -- a passage one ranker did not return -- count as 0). Names: :data:`FEATURES`."""
    if not logits:
        raise ValueError("answerability features need at least one scored passage")
    lg = sorted((float(x) for x in logits), reverse=True)
    d = [float(x or 0.0) for x in dense]
    b = [max(0.0, float(x or 0.0)) for x in bm25]
    best_i = max(range(len(logits)), key=lambda i: logits[i])
    best_b = max(b, default=0.0)
    return [lg[0], lg[1] if len(lg) > 1 else lg[0], float(np.mean(lg[:3])), lg[0] - float(np.mean(lg)),
            max(d, default=0.0), d[0] if d else 0.0, math.log1p(best_b), b[best_i] / best_b if best_b > 0 else 0.0]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


class Answerability:
    """The fitted calibrator and answerability model (``model.json``: ``platt`` [a, b], ``mean``,
    ``scale``, ``coef``, ``intercept``, ``threshold`` and the provenance of the fit)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.platt = [float(x) for x in spec["platt"]]
        self.mean = np.asarray(spec["mean"], dtype=float)
        self.scale = np.asarray(spec["scale"], dtype=float)
        self.coef = np.asarray(spec["coef"], dtype=float)
        self.intercept = float(spec["intercept"])
        self.threshold = float(spec.get("threshold", 0.0))
        if spec.get("features") != list(FEATURES) or len(self.coef) != len(FEATURES):
            raise HeadMissingError(f"{NAME} model was fitted on other features ({spec.get('features')}); refit it")

    @classmethod
    def load(cls, root: Path | None = None) -> "Answerability":
        path = (root or base.WEIGHTS) / NAME / MODEL_FILE
        if not path.is_file():
            raise HeadMissingError(f"{NAME} model not installed: {path} missing")
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def p_relevant(self, logits: Sequence[float]) -> list[float]:
        """Calibrated P(relevant) of each passage from its head logit."""
        a, b = self.platt
        return [_sigmoid(a * float(x) + b) for x in logits]

    def p_answerable(self, logits: Sequence[float], dense: Sequence[float | None], bm25: Sequence[float | None]) -> float:
        """P(some passage of the list answers the question)."""
        x = (np.asarray(features(logits, dense, bm25)) - self.mean) / self.scale
        return _sigmoid(float(x @ self.coef) + self.intercept)
