"""Grid yes/no columns from the clause presence head (issue #40), without a model call.

:func:`contract_presence` scores one library agreement with :mod:`clauselens.heads.presence`: the
decision is the head's own (max over 100-word windows of the agreement's text, against the
per-category threshold tuned on the train_allowed tune split), and the passage shown is the library
passage (a verbatim :class:`~clauselens.parsing.types.Chunk`) the head scores highest for that
category, so its quote verifies against the document. :func:`presence_answer` turns that into a
yes/no answer with its quote. When the head is not installed the caller gets ``None`` (one notice)
and keeps the model path. Measured in ``benchmarks/presence_head.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clauselens.heads.base import HeadMissingError, notice_missing
from clauselens.heads.presence import load


@dataclass(frozen=True)
class PresenceAnswer:
    """One category's yes/no for one agreement: the answer, the passage quoted, and why."""

    category: str
    answer: str  # "Yes" / "No"
    quote: str  # the library passage the head marks (empty for "No")
    passage_index: int  # index into the agreement's passages (-1 for "No")
    reason: str


def contract_presence(passages: list[Any]) -> dict[str, PresenceAnswer] | None:
    """Yes/no per CUAD category for one agreement given its library passages in document order
    (e.g. :func:`clauselens.library.library.chunks_of`); ``None`` when the head is not installed."""
    try:
        head = load()
    except HeadMissingError as e:
        notice_missing("presence", "grid yes/no columns from the presence head", e)
        return None
    texts = [str(getattr(p, "text", p)) for p in passages]
    verdicts = head.score(" ".join(texts))
    probs = head.window_probs(texts) if texts else None
    out: dict[str, PresenceAnswer] = {}
    for j, v in enumerate(verdicts):
        why = f"clause presence head: score {v.score:.2f} vs threshold {v.threshold:.2f}"
        if v.present and probs is not None:
            i = int(probs[:, j].argmax())
            out[v.category] = PresenceAnswer(v.category, "Yes", texts[i], i, why)
        else:
            out[v.category] = PresenceAnswer(v.category, "No", "", -1, why)
    return out


def presence_answer(presence: dict[str, PresenceAnswer] | None, category: str) -> PresenceAnswer | None:
    """The head's answer for a grid question's CUAD ``category`` (``None``: no head, or a category it
    was not trained on -- the model path answers)."""
    if presence is None:
        return None
    return presence.get(category)
