"""The model's reading of a reviewed clause (issue #44), labelled as the model's.

The outcome of a position is decided without a model (:mod:`clauselens.playbook.review`); the
reading is a short plain-language note a local chat model writes about the quoted clause against
the position, shown under "model's reading (not a quote)" in every report. ``clauselens review
--no-reading`` makes no model call at all. A failed call leaves the reading empty and says why
in it; it never changes an outcome.
"""

from __future__ import annotations

from typing import Any, Callable

from clauselens.playbook.model import Position
from clauselens.playbook.review import PositionResult

SYSTEM = ("You are a contract reviewer. You are given a firm's standard position and a clause quoted from an agreement. "
          "In at most two sentences, say in plain words what the clause provides on the position's topic and how it "
          "differs from the position, if it does. Use only the clause; do not invent terms.")
MAX_QUOTE = 2500


def make_reader(chat: Any) -> Callable[[Position, PositionResult], str]:
    """A reading function over a langchain chat model (``chat.invoke(messages)``)."""
    from langchain_core.messages import HumanMessage, SystemMessage

    def read(pos: Position, res: PositionResult) -> str:
        clause = "\n\n".join(q.text for q in res.quotes)[:MAX_QUOTE]
        # the preferred wording is not sent: a small model (0.5B, issue #44's check) then described it as the clause's
        ask = f"Position ({pos.severity}): {pos.topic} Requirement: {pos.require.describe()}.\n\nClause:\n{clause}"
        try:
            reply = chat.invoke([SystemMessage(content=SYSTEM), HumanMessage(content=ask)])
        except Exception as e:  # noqa: BLE001 - a reading is optional; the outcome stands without it
            return f"(no reading: the model call failed: {type(e).__name__})"
        return " ".join(str(getattr(reply, "content", reply)).split())[:800]

    return read


__all__ = ["SYSTEM", "make_reader"]
