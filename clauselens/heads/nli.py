"""The NLI head (issue #40): (premise span, hypothesis) -> P(Entailment), P(Contradiction), P(NotMentioned).

A BERT-style cross-encoder reads the premise and the hypothesis as one sequence and classifies the
pair from the [CLS] state (Devlin et al. 2019; the NLI cross-encoder set-up of Reimers & Gurevych
2019's ``CrossEncoder``): all-MiniLM-L6-v2 (Wang et al. 2020) fine-tuned with cross-entropy on
ContractNLI (Koreeda & Manning, Findings of EMNLP 2021) *dev* spans by :mod:`clauselens.heads.train_nli`
(ContractNLI's train split is not available here).

A contract-level decision aggregates over retrieved spans as span-NLI does (the label is decided by
the evidence spans): ``pE = max_s P(E|s)``, ``pC = max_s P(C|s)`` over the ``k`` most relevant spans;
NotMentioned when ``max(pE, pC) < threshold``, else Contradiction when ``pC * contradiction_weight > pE``,
else Entailment. ``k``, ``threshold`` and ``contradiction_weight`` were chosen on dev documents the head
never saw and are read from ``head.json`` (``rule``). Weights load on first use (offline, sha256-checked;
``base.load_sequence_classifier``); a missing head raises ``HeadMissingError``.

No weights are committed: the head trained so far (two epochs on 48 dev documents) reached 0.671 on the
full ContractNLI test split alone, under the per-hypothesis majority floor 0.674, and 0.791 mixed with the
TF-IDF span probe (probe alone 0.789; ``benchmarks/results/contractnli_nli_head_test.json``), so the
product keeps its other NLI paths; ``NLIConfig(head=True)`` and ``benchmarks/contractnli.py --mode head``
use a head once one is installed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.errors import ClauselensError
from clauselens.heads.base import HeadChecksumError, load_or_notice, load_sequence_classifier, load_tokenizer

NAME = "nli"
LABELS = ("Entailment", "Contradiction", "NotMentioned")
MAX_LENGTH = 128
BATCH = 32
DEFAULT_RULE = {"k": 5, "threshold": 0.5, "contradiction_weight": 1.0}


class NLIHead:
    """The loaded NLI cross-encoder. ``probs(pairs)`` -> (n, 3) softmax in :data:`LABELS` order."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._model: Any = None
        self._tok: Any = None
        self.meta: dict[str, Any] = {}

    def load(self) -> "NLIHead":
        if self._model is None:
            self._model, self.meta = load_sequence_classifier(NAME, self.root)
            labels = [self._model.config.id2label[i] for i in range(self._model.config.num_labels)]
            if tuple(labels) != LABELS:
                raise HeadChecksumError(f"nli head: labels {labels}, expected {list(LABELS)}")
            self._tok = load_tokenizer()
        return self

    @property
    def rule(self) -> dict[str, float]:
        return {**DEFAULT_RULE, **dict(self.meta.get("rule") or {})}

    def probs(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Softmax [P(E), P(C), P(N)] of each (premise, hypothesis) pair."""
        import torch

        self.load()
        out = []
        with torch.inference_mode():
            for i in range(0, len(pairs), BATCH):
                chunk = pairs[i:i + BATCH]
                enc = self._tok([" ".join(p.split()) for p, _ in chunk], [" ".join(h.split()) for _, h in chunk],
                                truncation="longest_first", max_length=int(self.meta.get("max_length") or MAX_LENGTH),
                                padding=True, return_tensors="pt")
                out.append(torch.softmax(self._model(**enc).logits.float(), dim=-1).numpy())
        return np.concatenate(out) if out else np.zeros((0, 3), dtype=np.float32)

    def decide(self, hypothesis: str, passages: Sequence[str]) -> tuple[str, dict[str, float], int]:
        """The contract-level label of ``hypothesis`` from its most relevant ``passages`` (best first;
        the first ``rule["k"]`` are read), the aggregated scores and the index of the deciding passage."""
        if not hypothesis.strip():
            raise ClauselensError("nli head: the hypothesis is empty")
        rule = self.rule
        spans = [p for p in list(passages)[:int(rule["k"])] if p.strip()]
        if not spans:
            return "NotMentioned", {"Entailment": 0.0, "Contradiction": 0.0}, -1
        p = self.probs([(s, hypothesis) for s in spans])
        pe, pc = float(p[:, 0].max()), float(p[:, 1].max())
        scores = {"Entailment": pe, "Contradiction": pc}
        if max(pe, pc) < rule["threshold"]:
            return "NotMentioned", scores, -1
        if pc * rule["contradiction_weight"] > pe:
            return "Contradiction", scores, int(p[:, 1].argmax())
        return "Entailment", scores, int(p[:, 0].argmax())


@lru_cache(maxsize=2)
def load(root: Path | None = None) -> NLIHead:
    """The installed head, loaded once (raises ``HeadMissingError`` / ``HeadChecksumError``)."""
    return NLIHead(root).load()


def load_or_none(feature: str = "the NLI head's labels") -> NLIHead | None:
    """The installed head, or None after one notice that ``feature`` is off."""
    return load_or_notice(NAME, feature, load)
