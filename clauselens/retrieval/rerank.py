"""Rerankers: re-score the top candidates of a first-stage ranking.

* :class:`CrossEncoderReranker` -- a bge-style cross-encoder through FlagEmbedding's
  ``FlagReranker`` (Xiao et al. 2023, "C-Pack: Packaged Resources To Advance General
  Chinese Embedding", BAAI bge-reranker), loaded from a local directory only. Scores are
  ``sigmoid(logit)`` in [0, 1] (``normalize=True``).
* :class:`LLMReranker` -- pointwise yes/no with any langchain ``BaseChatModel``
  (prompts in :mod:`clauselens.retrieval.prompts_rerank`); score 1.0 for "yes", 0.0 for
  "no", ties keep the first-stage order.
* :class:`LLMRelevanceScorer` -- the same question, scored as P("yes") from the first
  token's log-probabilities (graded, so usable for abstention thresholds).
* :class:`NoReranker` -- identity.

All rerank only the first ``top_n`` passages (default 20) and keep the rest after them in
their original order. Each reranked passage gets ``scores["rerank"]`` and ``ranks["rerank"]``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol, Sequence

from clauselens.errors import ConfigError, ModelUnavailableError
from clauselens.retrieval.prompts_rerank import RERANK_SYSTEM, RERANK_USER
from clauselens.retrieval.types import Passage

DEFAULT_RERANK_TOP = 20


class Reranker(Protocol):
    """``rerank(query, passages, top_n) -> passages`` (same passages, new order/scores)."""

    name: str

    def rerank(self, query: str, passages: Sequence[Passage], top_n: int = DEFAULT_RERANK_TOP) -> list[Passage]: ...


def _apply(passages: Sequence[Passage], top_n: int, scores: Sequence[float], name: str) -> list[Passage]:
    head = [p.model_copy(deep=True) for p in passages[:top_n]]
    for p, s in zip(head, scores):
        p.scores["rerank"] = float(s)
        p.score = float(s)
        p.method = name
    order = sorted(range(len(head)), key=lambda i: (-head[i].score, i))
    out = []
    for r, i in enumerate(order, start=1):
        head[i].ranks["rerank"] = r
        out.append(head[i])
    return out + [p.model_copy(deep=True) for p in passages[top_n:]]


class NoReranker:
    """Leaves the ranking unchanged."""

    name = "none"

    def rerank(self, query: str, passages: Sequence[Passage], top_n: int = DEFAULT_RERANK_TOP) -> list[Passage]:
        """Copies of ``passages`` in the same order."""
        return [p.model_copy(deep=True) for p in passages]


class CrossEncoderReranker:
    """FlagEmbedding ``FlagReranker`` from a local model directory (never downloads).

    ``path``: a directory with a sequence-classification model (1 logit) and its
    tokenizer. ``max_length``: tokens per (query, passage) pair (default 512).
    Raises :class:`ModelUnavailableError` when the directory is missing or unloadable.
    """

    name = "cross-encoder"

    def __init__(self, path: str | Path, max_length: int = 512, batch_size: int = 16) -> None:
        p = Path(path).expanduser()
        if not p.is_dir():
            raise ModelUnavailableError(f"reranker model directory not found: {p}")
        from clauselens.extras import require_extra

        require_extra("rerank", "the cross-encoder reranker")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from FlagEmbedding import FlagReranker

            self.model = FlagReranker(str(p), use_fp16=False, devices="cpu", max_length=max_length,
                                      batch_size=batch_size)
        except Exception as e:  # noqa: BLE001 - any load failure means the user's model is unusable
            raise ModelUnavailableError(f"cannot load reranker from {p}: {e}") from e

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Sigmoid relevance in [0, 1] for each (query, text) pair."""
        if not texts:
            return []
        s = self.model.compute_score([[query, t] for t in texts], normalize=True)
        return [float(x) for x in (s if isinstance(s, list) else [s])]

    def rerank(self, query: str, passages: Sequence[Passage], top_n: int = DEFAULT_RERANK_TOP) -> list[Passage]:
        """Rerank the first ``top_n`` passages by cross-encoder probability."""
        head = list(passages[:top_n])
        return _apply(passages, top_n, self.score(query, [p.text for p in head]), self.name)


class LLMReranker:
    """Pointwise yes/no relevance with a langchain chat model.

    ``chat_model``: a ``langchain_core.language_models.BaseChatModel``. ``max_chars``:
    passage characters shown to the model. Errors of the model propagate (they are
    already :class:`~clauselens.errors.ClauselensError` s from ``clauselens.llm``).
    """

    name = "llm"

    def __init__(self, chat_model: Any, max_chars: int = 2000) -> None:
        self.chat_model = chat_model
        self.max_chars = max_chars

    def judge(self, query: str, text: str) -> float:
        """1.0 if the model answers yes, else 0.0."""
        from langchain_core.messages import HumanMessage, SystemMessage

        msg = self.chat_model.invoke([
            SystemMessage(content=RERANK_SYSTEM),
            HumanMessage(content=RERANK_USER.format(query=query, passage=text[: self.max_chars])),
        ])
        content = msg.content if isinstance(msg.content, str) else str(msg.content)
        return 1.0 if content.strip().lower().lstrip("\"'*").startswith("yes") else 0.0

    def rerank(self, query: str, passages: Sequence[Passage], top_n: int = DEFAULT_RERANK_TOP) -> list[Passage]:
        """Rerank the first ``top_n`` passages: "yes" passages first, each group in its old order."""
        head = list(passages[:top_n])
        return _apply(passages, top_n, [self.judge(query, p.text) for p in head], self.name)


def yes_probability(message: Any) -> float | None:
    """P("yes") / (P("yes") + P("no")) from the first generated token's top log-probabilities
    in an OpenAI-format ``response_metadata["logprobs"]`` (in-process llama.cpp and
    OpenAI-compatible servers both report it when asked with ``logprobs=True,
    top_logprobs=N``); ``None`` when the message has no log-probabilities or neither word
    is among the top tokens."""
    import math

    lp = (getattr(message, "response_metadata", None) or {}).get("logprobs") or {}
    content = lp.get("content") or []
    if not content:
        return None
    yes = no = 0.0
    for alt in content[0].get("top_logprobs") or []:
        tok = str(alt.get("token", "")).strip().lower()
        p = math.exp(float(alt.get("logprob", -100.0)))
        if tok in ("yes", "y"):
            yes += p
        elif tok in ("no", "n"):
            no += p
    return yes / (yes + no) if yes + no > 0 else None


class LLMRelevanceScorer:
    """Graded pointwise relevance from a chat model: the probability of "yes" against "no"
    as the first answer token (monoT5's scoring, Nogueira et al. 2020, "Document Ranking
    with a Pretrained Sequence-to-Sequence Model": softmax over the "true"/"false" logits),
    asked with the prompts of :mod:`clauselens.retrieval.prompts_rerank`. Unlike
    :class:`LLMReranker`'s yes/no, the score is continuous, so it can rank and it can be
    thresholded for abstention. Falls back to the generated word (1.0 / 0.0) when the
    backend returns no log-probabilities.

    ``max_chars``: passage characters shown (the question goes first, so consecutive pairs
    share a prompt prefix the in-process model keeps in its KV cache).
    """

    name = "llm-score"

    def __init__(self, chat_model: Any, max_chars: int = 700) -> None:
        self.chat_model = chat_model
        self.max_chars = max_chars

    def _messages(self, query: str, text: str) -> list:
        from langchain_core.messages import HumanMessage, SystemMessage

        return [SystemMessage(content=RERANK_SYSTEM),
                HumanMessage(content=RERANK_USER.format(query=query, passage=text[: self.max_chars]))]

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """P(relevant) in [0, 1] for each (query, text) pair, in order. The in-process model
        scores "yes"/"no" from one forward pass (``choice_logprobs``); a server is asked for
        one token with ``top_logprobs``; a backend with neither answers in words (1 / 0)."""
        import math

        out = []
        for t in texts:
            msgs = self._messages(query, t)
            if hasattr(self.chat_model, "choice_logprobs"):
                lp = self.chat_model.choice_logprobs(msgs, ["yes", "no"])
                y, n = math.exp(lp["yes"]), math.exp(lp["no"])
                out.append(y / (y + n) if y + n > 0 else 0.0)
                continue
            msg = self.chat_model.bind(max_tokens=1, logprobs=True, top_logprobs=10).invoke(msgs)
            p = yes_probability(msg)
            if p is None:
                content = msg.content if isinstance(msg.content, str) else str(msg.content)
                p = 1.0 if content.strip().lower().lstrip("\"'*").startswith("yes") else 0.0
            out.append(float(p))
        return out

    def rerank(self, query: str, passages: Sequence[Passage], top_n: int = DEFAULT_RERANK_TOP) -> list[Passage]:
        """Rerank the first ``top_n`` passages by P(relevant)."""
        head = list(passages[:top_n])
        return _apply(passages, top_n, self.score(query, [p.text for p in head]), self.name)


def build_reranker(spec: str, chat_model: Any | None = None) -> Reranker:
    """``"none"`` -> :class:`NoReranker`; ``"llm"`` -> :class:`LLMReranker` (needs
    ``chat_model``); anything else is a path to a cross-encoder directory.

    Raises :class:`ConfigError` for ``"llm"`` without a chat model, and
    :class:`ModelUnavailableError` for a path that cannot be loaded.
    """
    if spec in ("none", "", None):
        return NoReranker()
    if spec in ("llm", "llm-score"):
        if chat_model is None:
            raise ConfigError(f"reranker {spec!r} needs a chat model (the Researcher's)")
        return LLMReranker(chat_model) if spec == "llm" else LLMRelevanceScorer(chat_model)
    return CrossEncoderReranker(spec)
