"""Small helpers shared by navindex, navembed and inject for talking to a chat model: the
model's window, and a JSON-schema call.

They delegate to the model layer (:func:`clauselens.llm.invoke_structured`, bounded retries
and backend-specific structured output). Tokens are counted with the model layer's one
counter, :func:`clauselens.llm.count_tokens` (exact for the in-process GGUF model,
``ceil(len/4)`` otherwise).
"""

from __future__ import annotations

from typing import TypeVar

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from clauselens.llm import invoke_structured

T = TypeVar("T", bound=BaseModel)


def context_window(model: BaseChatModel | None, default: int = 8192) -> int:
    """The model's context window in tokens (``n_ctx`` when it has one, else ``default``)."""
    return int(getattr(model, "n_ctx", None) or default)


def invoke_json(model: BaseChatModel, messages: list[BaseMessage], schema: type[T]) -> T:
    """``invoke_structured(model, messages, schema)``; raises ``ModelResponseError`` when
    the model's output never validates."""
    return invoke_structured(model, messages, schema)


def invoke_text(model: BaseChatModel, messages: list[BaseMessage]) -> str:
    """Plain-text call; returns the reply's text (stripped)."""
    reply = model.invoke(messages)
    return (reply.content if isinstance(reply.content, str) else reply.text()).strip()
