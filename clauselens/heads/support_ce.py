"""The cross-encoder support head (issue #40): ``P(quote supports claim)`` from a fine-tuned MiniLM cross-encoder.

A BERT-style cross-encoder reads the claim and the quote as one sequence and scores the pair from the [CLS] state
with one logit (the NLI cross-encoder set-up of Reimers & Gurevych 2019, pointwise as in Nogueira & Cho 2019):
all-MiniLM-L6-v2 (Wang et al. 2020) fine-tuned with binary cross-entropy by
:mod:`clauselens.heads.train_support_ce` on the generated pairs of :mod:`clauselens.heads.train_support`
(ContractNLI dev, CUAD ``train_allowed`` category claims and perturbed clause sentences; no hand label).
``head.json`` records whether the verdict reads the logit alone (``sigmoid(logit)``) or a logistic regression
stacked over [logit, :data:`clauselens.heads.support.LEXICAL`] (``stack``: standardisation, coefficients), and the
threshold -- both chosen on held-out training documents.

Measured, **not shipped** (no weights committed; the verdict hook uses this head only when
``weights/support_ce/`` is installed): one lock hold, 3,999 pairs, 1 epoch, 532 CPU-s
(``benchmarks/results/support_ce_training.json``); on the 81 held-out training documents AUC 0.80 (logit) / 0.86
(stacked, chosen), but on the 162 hand-labelled findings of the 11 label files (``python -m benchmarks.support_verdicts
--head --head-name support_ce --head-root ~/.cache/clauselens/heads/support_ce/export``) AUC 0.63 stacked and 0.39
for the logit alone (a ContractNLI 3-way cross-encoder's P(Entailment): 0.39 too), against the logistic head's 0.74:
the labelled unsupported readings are near copies of their quote with one wrong party or scope, the supported ones
framed restatements, so a model trained on verbatim-vs-edited pairs ranks them the wrong way round
(``benchmarks/results/support_verdicts_head_ce.json``).

Files under ``weights/support_ce/`` (``base``: fp16 ``model.safetensors``, ``config.json``, ``head.json`` with
sha256, training command, data manifest). Loading is offline, sha256-checked and on first use; a missing head
raises :class:`~clauselens.heads.base.HeadMissingError`. Inference runs under ``torch.inference_mode`` with the
threads torch is set to (this module never changes them).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.errors import ClauselensError
from clauselens.heads.base import HeadChecksumError, HeadMissingError, load_or_notice, load_sequence_classifier, load_tokenizer

NAME = "support_ce"
BATCH = 16
MAX_LENGTH = 256


class SupportCrossEncoder:
    """The loaded support cross-encoder: :meth:`proba` of (claim, quote) pairs, :attr:`threshold`."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._model: Any = None
        self._tok: Any = None
        self.meta: dict[str, Any] = {}

    def load(self) -> "SupportCrossEncoder":
        """Load the weights and tokenizer now (raises ``HeadMissingError`` / ``HeadChecksumError``)."""
        if self._model is None:
            model, meta = load_sequence_classifier(NAME, self.root)
            if model.config.num_labels != 1 or "threshold" not in meta:
                raise HeadChecksumError(f"{NAME} head: expected one logit and a threshold in head.json")
            stack = meta.get("stack")
            if stack is not None:
                from clauselens.heads.support import LEXICAL

                if list(stack["features"]) != ["logit", *LEXICAL]:
                    raise HeadChecksumError(f"{NAME} head: stacked on {stack['features']}, this code computes "
                                            f"{['logit', *LEXICAL]}")
            self._model, self.meta, self._tok = model, meta, load_tokenizer()
        return self

    @property
    def threshold(self) -> float:
        return float(self.load().meta["threshold"])

    def logits(self, claims: Sequence[str], quotes: Sequence[str]) -> np.ndarray:
        """Raw logits of the (claim, quote) pairs (the quote is truncated first, as in training)."""
        import torch

        self.load()
        if len(claims) != len(quotes):
            raise ClauselensError(f"support head: {len(claims)} claims but {len(quotes)} quotes")
        if any(not c.strip() for c in claims) or any(not q.strip() for q in quotes):
            raise ClauselensError("support head: the claim and the quote must both be non-empty")
        out: list[float] = []
        length = int(self.meta.get("max_length") or MAX_LENGTH)
        with torch.inference_mode():
            for i in range(0, len(claims), BATCH):
                enc = self._tok(list(claims[i:i + BATCH]), list(quotes[i:i + BATCH]), truncation="longest_first",
                                max_length=length, padding=True, return_tensors="pt")
                out += self._model(**enc).logits[:, 0].float().tolist()
        return np.asarray(out, dtype=np.float64)

    def proba(self, claims: Sequence[str], quotes: Sequence[str]) -> np.ndarray:
        """P(supports) of each pair: ``sigmoid(logit)``, or the stacked regression when ``head.json`` has one."""
        z = self.logits(claims, quotes)
        stack = self.meta.get("stack")
        if stack is None:
            return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)
        from clauselens.heads.support import lexical_features

        x = np.column_stack([z, np.asarray([lexical_features(c, q) for c, q in zip(claims, quotes)]).reshape(len(z), -1)])
        s = ((x - np.asarray(stack["mean"])) / np.asarray(stack["scale"])) @ np.asarray(stack["coef"]) + stack["intercept"]
        return np.asarray(1.0 / (1.0 + np.exp(-s)), dtype=np.float64)

    def support(self, claim: str, quote: str) -> float:
        """P(``quote`` supports ``claim``)."""
        return float(self.proba([claim], [quote])[0])

    def supports(self, claim: str, quote: str) -> bool:
        return self.support(claim, quote) >= self.threshold


@lru_cache(maxsize=1)
def load() -> SupportCrossEncoder:
    """The installed cross-encoder support head, loaded (raises ``HeadMissingError`` / ``HeadChecksumError``)."""
    return SupportCrossEncoder().load()


def load_verdict_head() -> Any:
    """The head the support verdict uses: this cross-encoder when it is installed, else the logistic head
    (:func:`clauselens.heads.support.load`). Both have ``support(claim, quote)`` and ``threshold``."""
    from clauselens.heads import support

    try:
        return load()
    except HeadMissingError:
        return support.load()


def load_or_none(feature: str = "the support verdict from the head (the model's verdict is used)") -> Any:
    """The verdict head (:func:`load_verdict_head`), or None after one notice that ``feature`` is off."""
    from clauselens.heads.support import NAME as SUPPORT

    return load_or_notice(SUPPORT, feature, load_verdict_head)
