"""The relevance reranker head: a cross-encoder (question, passage) -> P(relevant) (issue #39).

A BERT-style cross-encoder reads the question and the passage as one sequence and scores the pair
with a linear head on the [CLS] state (Nogueira & Cho 2019, "Passage Re-ranking with BERT"); here
it is all-MiniLM-L6-v2 (Wang et al. 2020, MiniLM; Reimers & Gurevych 2019) fine-tuned with binary
cross-entropy on CUAD clause annotations (Hendrycks et al. 2021) by
``clauselens.heads.train_reranker``, so ``sigmoid(logit)`` is read as P(relevant) and a threshold on
the best one abstains ("no matching clause found").

:class:`HeadReranker` has the library's reranker interface, ``score(query, texts) -> [P(relevant)]``,
and ``judge(query, texts, dense, bm25)``: P(relevant) calibrated and P(answerable) of the list from
the answerability model fitted on this head (``heads.answerability``; the library prefers it).
Weights load on first use (``base.load_sequence_classifier``: offline, sha256-checked). Inference
runs under ``torch.inference_mode`` in batches, with the threads torch is set to
(``torch.set_num_threads`` / ``OMP_NUM_THREADS``: this module never changes them).
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any, Sequence

from clauselens.heads.answerability import NAME as ANSWERABILITY
from clauselens.heads.answerability import Answerability
from clauselens.heads.base import HeadMissingError, load_sequence_classifier, load_tokenizer, notice_missing

log = logging.getLogger(__name__)

NAME = "reranker"
#: Word pieces per (question, passage) pair when ``head.json`` does not say (it records the training
#: length, which inference uses). Library passages are at most 900 characters plus a heading path
#: (~230 pieces); the head is trained at 128 (the question and the passage's first ~450 characters)
#: because a forward pass costs ~linearly in length on this CPU (benchmarks/clause_qa_head.py latency).
MAX_LENGTH = 128
BATCH = 16


class HeadReranker:
    """P(relevant) of passages for a question from the trained reranker head.

    Args:
        root: weights root (default ``clauselens/heads/weights``; tests pass another).
        max_length: word pieces per pair (question first; the passage is truncated); default the
            head's training length from ``head.json``.
        batch_size: pairs per forward pass.
    """

    def __init__(self, root: Path | None = None, max_length: int | None = None, batch_size: int = BATCH,
                 answerability_root: Path | None = None, int8: bool = False) -> None:
        self.root, self.max_length, self.batch_size = root, max_length, batch_size
        #: Run the Linear layers in dynamic int8 (:func:`quantize_int8`): ~1.5x faster on this CPU.
        self.int8 = int8
        self.answerability_root = answerability_root
        self._model: Any = None
        self._tok: Any = None
        self.meta: dict[str, Any] = {}
        #: The fitted calibration and answerability model (``heads.answerability``), None when not installed.
        self.answerability: Answerability | None = None

    def load(self) -> "HeadReranker":
        """Load the weights and tokenizer now (raises ``HeadMissingError`` / ``HeadChecksumError``)."""
        if self._model is None:
            self._model, self.meta = load_sequence_classifier(NAME, self.root)
            if self.int8:
                self._model = quantize_int8(self._model)
            if self.max_length is None:  # the length it was trained at (head.json), else MAX_LENGTH
                self.max_length = int(self.meta.get("max_length") or MAX_LENGTH)
            self._tok = load_tokenizer()
            try:
                self.answerability = Answerability.load(self.answerability_root or self.root)
                fitted_on = self.answerability.spec.get("head_sha256") or []
                if fitted_on and self.meta.get("sha256") not in fitted_on:
                    self.answerability = None
                    raise HeadMissingError(f"{ANSWERABILITY} model was fitted on another reranker head "
                                           f"({fitted_on[0][:12]}, this one {str(self.meta.get('sha256'))[:12]})")
            except HeadMissingError as e:  # optional: the head ranks without it (sigmoid, head.json's threshold)
                log.info("%s; the head's sigmoid is used", e)
        return self

    @property
    def abstain_threshold(self) -> float:
        """The abstention threshold on P(answerable) of the answerability model when installed, else on
        the best P(relevant) recorded in ``head.json`` (both chosen on validation splits of training
        agreements), 0 when none."""
        if self.answerability is not None:
            return self.answerability.threshold
        return float(self.meta.get("abstain_threshold") or 0.0)

    def logits(self, query: str, texts: Sequence[str]) -> list[float]:
        """Raw relevance logits of ``texts`` for ``query``."""
        import torch

        self.load()
        out: list[float] = []
        # int8: one pair per forward pass -- dynamic quantisation scales a batch's activations together, so a
        # passage's score would depend on its batch-mates (measured: up to 0.16 logits); alone it is as fast here
        step = 1 if self.int8 else self.batch_size
        with torch.inference_mode():
            for i in range(0, len(texts), step):
                chunk = list(texts[i:i + step])
                # longest_first, as sentence-transformers' CrossEncoder tokenised the training pairs: a long
                # question (a LegalBench-RAG MAUD query) is cut too instead of failing "only_second"
                enc = self._tok([query] * len(chunk), chunk, truncation="longest_first", max_length=self.max_length,
                                padding=True, return_tensors="pt")
                out += self._model(**enc).logits[:, 0].float().tolist()
        return out

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """P(relevant) = sigmoid(logit) of each of ``texts`` for ``query``, in order."""
        return [1.0 / (1.0 + math.exp(-x)) for x in self.logits(query, texts)]


    def judge(self, query: str, texts: Sequence[str], dense: Sequence[float | None],
              bm25: Sequence[float | None]) -> tuple[list[float], float]:
        """Calibrated P(relevant) of each of ``texts`` (a fused list, best first; ``dense`` / ``bm25``
        its retrieval scores, None where a ranker did not return it) and P(some passage answers
        ``query``). Without the answerability model: the head's sigmoid and its best value."""
        logits = self.logits(query, texts)
        if not logits:
            return [], 0.0
        if self.answerability is None:
            probs = [1.0 / (1.0 + math.exp(-x)) for x in logits]
            return probs, max(probs)
        return self.answerability.p_relevant(logits), self.answerability.p_answerable(logits, dense, bm25)


def quantize_int8(model: Any) -> Any:
    """``model`` with its ``nn.Linear`` layers dynamically quantised to int8 (weights int8 per output
    channel, activations quantised per batch at run time; PyTorch dynamic quantisation, after Jacob et
    al. 2018, "Quantization and Training of Neural Networks for Efficient Integer-Arithmetic-Only
    Inference"). Per-channel weight scales keep the logits within ~0.1 of fp32 on the head's test
    cases, where one scale per tensor moved them by up to 0.6 and flipped a close pair. The fp16
    weights stay the shipped artefact; the ranking is measured against fp32 by
    ``benchmarks/clause_qa_rerank_fusion.py verify`` (int8) against ``verify --fp32``."""
    import warnings

    import torch
    from torch.ao.quantization import per_channel_dynamic_qconfig

    with warnings.catch_warnings():  # torch.ao.quantization's deprecation notice (moving to torchao)
        warnings.simplefilter("ignore")
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear: per_channel_dynamic_qconfig},
                                                      dtype=torch.qint8)


def load_reranker(root: Path | None = None, int8: bool = False) -> HeadReranker | None:
    """The installed reranker head, loaded and checksum-verified (``int8``: :func:`quantize_int8`);
    None after one notice ("reranker head not installed: ...; reranking off") when it is missing or
    corrupt."""
    from clauselens.heads.base import HeadChecksumError

    try:
        return HeadReranker(root, int8=int8).load()
    except (HeadMissingError, HeadChecksumError) as e:
        notice_missing(NAME, "reranking", e)
        return None
