"""Build the chat model an agent uses from its :class:`~clauselens.config.ModelSettings`.

Two backends, both langchain-core ``BaseChatModel``s:

* ``llamacpp`` — :class:`~clauselens.llm.llamacpp_chat.ChatLlamaCppInProcess` on a GGUF file
  (a bundled model name is assembled by :func:`~clauselens.llm.provision.ensure_model`);
* ``openai`` — langchain-openai's ``ChatOpenAI`` against any OpenAI-compatible server (vLLM,
  llama.cpp server, Ollama), subclassed only to turn the openai SDK's transport errors into
  :class:`~clauselens.errors.ModelUnavailableError` (server down / unreachable / unknown model)
  and other HTTP errors into :class:`~clauselens.errors.ModelResponseError`, so users see one
  line instead of an httpx traceback.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import openai
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from clauselens.config import ModelSettings
from clauselens.errors import (
    ConfigError,
    ModelBusyError,
    ModelResponseError,
    ModelTimeoutError,
    ModelUnavailableError,
)
from clauselens.llm.llamacpp_chat import ChatLlamaCppInProcess
from clauselens.llm.provision import ensure_model


def map_openai_error(e: Exception, base_url: str | None, model: str, timeout_s: float | None = None) -> Exception:
    """Our exception for an openai SDK error (returns ``e`` unchanged if it is not one).

    Three different "server" problems get three different messages (issue #22, item 9):

    * ``APITimeoutError`` → :class:`ModelTimeoutError` ("did not answer within N s", with how to
      raise the limit: ``--timeout`` / ``CLAUSELENS_<AGENT>_MODEL__REQUEST_TIMEOUT_S``);
    * HTTP 429 / 503 → :class:`ModelBusyError` ("is busy", try again or lower the load);
    * ``APIConnectionError`` (refused, DNS, reset) → ``ModelUnavailableError("cannot reach model
      server at <url>")``.

    401/403/404 → ``ModelUnavailableError``; any other HTTP status → ``ModelResponseError``.
    """
    url = base_url or "the default OpenAI endpoint"
    if isinstance(e, openai.APITimeoutError):  # subclass of APIConnectionError: test it first
        within = f" within {timeout_s:g} s" if timeout_s else ""
        return ModelTimeoutError(
            f"model server at {url} timed out: it accepted the connection but did not answer{within}. "
            "It may be overloaded or the request too long; raise the limit with --timeout SECONDS "
            "(or CLAUSELENS_<AGENT>_MODEL__REQUEST_TIMEOUT_S)"
        )
    if isinstance(e, openai.APIConnectionError):
        return ModelUnavailableError(f"cannot reach model server at {url} (is it running?): {e}")
    if isinstance(e, openai.NotFoundError):
        return ModelUnavailableError(f"model server at {url} does not serve model {model!r}: {e}")
    if isinstance(e, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return ModelUnavailableError(f"model server at {url} refused the API key: {e}")
    if isinstance(e, openai.APIStatusError) and e.status_code in (429, 503):
        what = "too many requests" if e.status_code == 429 else "service unavailable"
        return ModelBusyError(
            f"model server at {url} is busy (HTTP {e.status_code} {what}) and stayed busy after retries; "
            "try again later or send fewer requests at once"
        )
    if isinstance(e, openai.APIStatusError):
        return ModelResponseError(f"model server at {url} answered with an error (HTTP {e.status_code}): {e}")
    return e


class ServerChatModel(ChatOpenAI):
    """``ChatOpenAI`` whose transport/HTTP errors become clauselens errors (see :func:`map_openai_error`).

    Replies are never streamed token by token (``disable_streaming``): llama-cpp-python's
    server sends no token usage in a stream (it ignores ``stream_options.include_usage``), and
    a run's token ledger must stay whole; live draft text comes from the in-process model."""

    disable_streaming: bool = True

    def _raise(self, e: Exception) -> None:
        timeout = self.request_timeout if isinstance(self.request_timeout, (int, float)) else None
        mapped = map_openai_error(e, self.openai_api_base, self.model_name, timeout)
        if mapped is e:
            raise e
        raise mapped from e

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super()._generate(*args, **kwargs)
        except openai.OpenAIError as e:
            self._raise(e)

    async def _agenerate(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super()._agenerate(*args, **kwargs)
        except openai.OpenAIError as e:
            self._raise(e)

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        try:
            yield from super()._stream(*args, **kwargs)
        except openai.OpenAIError as e:
            self._raise(e)

    async def _astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        try:
            async for chunk in super()._astream(*args, **kwargs):
                yield chunk
        except openai.OpenAIError as e:
            self._raise(e)


def get_chat_model(model_settings: ModelSettings, models_dir: Path) -> BaseChatModel:
    """A ready chat model for one agent.

    Args:
        model_settings: backend, model name/path, sampling and limits (tokens, seconds).
        models_dir: where bundled GGUF files are assembled (``Settings.models_dir``).

    Returns:
        ``ChatLlamaCppInProcess`` (``backend="llamacpp"``; the GGUF is loaded lazily on the
        first call and shared between agents using the same file and ``n_ctx``) or
        ``ServerChatModel`` (``backend="openai"``; no network traffic until the first call).

    Raises:
        ModelUnavailableError: the GGUF cannot be found or assembled.
        ConfigError: ``backend="openai"`` without ``base_url``.
    """
    ms = model_settings
    if ms.backend == "llamacpp":
        path = ensure_model(ms.model, models_dir)
        return ChatLlamaCppInProcess(
            model_path=str(path),
            n_ctx=ms.n_ctx,
            n_threads=ms.n_threads,
            n_threads_batch=ms.n_threads_batch,
            temperature=ms.temperature,
            max_tokens=ms.max_tokens,
            seed=ms.seed,
            allow_amx=ms.allow_amx,
        )
    if ms.backend == "openai":
        if not ms.base_url:
            raise ConfigError(
                "backend 'openai' needs a server address: set base_url (CLI --base-url, or env "
                "CLAUSELENS_<AGENT>_MODEL__BASE_URL), e.g. http://127.0.0.1:8000/v1"
            )
        return ServerChatModel(
            base_url=ms.base_url,
            api_key=SecretStr(ms.api_key),
            model=ms.model,
            timeout=ms.request_timeout_s,
            max_retries=ms.max_retries,
            temperature=ms.temperature,
            max_completion_tokens=ms.max_tokens,  # ChatOpenAI's max_tokens field, by its alias (the __init__ name)
            seed=ms.seed,
        )
    raise ConfigError(f"unknown model backend {ms.backend!r}: use 'llamacpp' or 'openai'")
