"""Schema-validated (pydantic) replies from any chat model, with bounded retries.

How JSON is requested depends on the backend (checked 2026-11-30, ``../shared/MODELS.md``,
"OpenAI-compatible serving"):

==================  =======================================================================
method              request
==================  =======================================================================
``llamacpp_schema`` ``response_format={"type": "json_object", "schema": <JSON schema>}`` —
                    llama.cpp's grammar-constrained JSON. Used for the in-process GGUF model
                    and llama-cpp-python's server (which rejects ``json_schema`` with HTTP 500).
``json_schema``     OpenAI ``response_format={"type": "json_schema", ...}`` (vLLM, llama.cpp's
                    C++ ``llama-server``, OpenAI).
``function_calling`` one forced tool whose parameters are the schema (most OpenAI-compatible
                    servers; Ollama).
``text``            no constraint; the schema is put in the system prompt and the JSON is
                    parsed out of the text (code fences stripped). Used for models we do not
                    know, e.g. langchain-core's fake chat models in tests.
==================  =======================================================================

``method="auto"`` picks: in-process GGUF → ``llamacpp_schema``; ``ChatOpenAI`` → asks the
server's ``/models`` who it is (``owned_by``: ``"me"`` is llama-cpp-python → ``llamacpp_schema``;
``"vllm"``/``"llamacpp"`` → ``json_schema``; anything else → ``function_calling``); any other
model → ``text``.

Parsing uses ``json.loads(..., strict=False)``: llama-cpp-python 0.3.36's schema grammar can let
a raw newline into a JSON string. A reply that does not parse or validate is retried with
langchain-core's ``Runnable.with_retry`` (``max_retries`` extra attempts), feeding the error back
to the model so a deterministic (temperature 0) model does not repeat itself; after that a
:class:`~clauselens.errors.ModelResponseError` carries the last raw reply.
"""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Sequence
from typing import Any, Literal, TypeVar

import httpx
import openai
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableBinding, RunnableLambda
from langchain_core.utils.json import parse_json_markdown
from pydantic import BaseModel, SecretStr, ValidationError

from clauselens.errors import ModelResponseError, ModelTimeoutError, ModelUnavailableError
from clauselens.llm.llamacpp_chat import ChatLlamaCppInProcess

T = TypeVar("T", bound=BaseModel)

Method = Literal["auto", "llamacpp_schema", "json_schema", "function_calling", "text"]

#: Characters of the last raw reply quoted in a ModelResponseError.
SNIPPET_CHARS = 400

# Keep the wording "validates against this JSON schema:\n" followed by the bare schema at the end of the
# system message: tests/fakes.py reads the schema back from it.
SCHEMA_INSTRUCTION = (
    "Reply with only a JSON object (no prose, no code fences) that validates against this JSON schema:\n{schema}"
)
FEEDBACK_INSTRUCTION = (
    "Your previous reply could not be used: {error}\n"
    "Reply again with only a JSON object that validates against the schema."
)


class InvalidReply(ValueError):
    """A reply that did not parse as JSON or did not validate (internal; retried)."""

    def __init__(self, error: str, raw: str) -> None:
        super().__init__(error)
        self.error = error
        self.raw = raw


_FLAVOUR_CACHE: dict[str, str] = {}
_FLAVOUR_LOCK = threading.Lock()


def _unwrap(model: Runnable) -> Runnable:
    while isinstance(model, RunnableBinding):
        model = model.bound
    return model


def server_method(
    base_url: str, api_key: str = "none", timeout_s: float = 10.0, client: httpx.Client | None = None
) -> str:
    """The structured-output method an OpenAI-compatible server supports, from ``GET {base_url}/models``.

    ``owned_by == "me"`` (llama-cpp-python's server) → ``"llamacpp_schema"``; ``"vllm"`` or
    ``"llamacpp"`` (llama.cpp's C++ server) → ``"json_schema"``; otherwise ``"function_calling"``.
    Cached per ``base_url`` for the life of the process. ``client`` is the ``httpx.Client`` to use
    (the chat model's own ``http_client`` when it has one), else a plain ``httpx.get``.

    Raises:
        ModelUnavailableError: the server cannot be reached.
    """
    url = base_url.rstrip("/")
    with _FLAVOUR_LOCK:
        if url in _FLAVOUR_CACHE:
            return _FLAVOUR_CACHE[url]
    try:
        get = client.get if client is not None else httpx.get
        r = get(f"{url}/models", headers={"Authorization": f"Bearer {api_key}"}, timeout=timeout_s)
    except httpx.TimeoutException as e:
        raise ModelTimeoutError(
            f"model server at {base_url} timed out: it did not answer within {timeout_s:g} s. It may be "
            "overloaded; raise the limit with --timeout SECONDS (or CLAUSELENS_<AGENT>_MODEL__REQUEST_TIMEOUT_S)"
        ) from e
    except httpx.HTTPError as e:
        raise ModelUnavailableError(f"cannot reach model server at {base_url} (is it running?): {e}") from e
    owners: set[str] = set()
    if r.status_code == 200:
        try:
            owners = {str(m.get("owned_by", "")).lower() for m in r.json().get("data", [])}
        except (ValueError, AttributeError):
            owners = set()
    if "me" in owners:
        method = "llamacpp_schema"
    elif owners & {"vllm", "llamacpp"}:
        method = "json_schema"
    else:
        method = "function_calling"
    with _FLAVOUR_LOCK:
        _FLAVOUR_CACHE[url] = method
    return method


def _api_key_text(key: object) -> str:
    """The bearer key of a ``ChatOpenAI``'s ``openai_api_key`` for the ``/models`` probe: a
    ``SecretStr``'s value; a plain (sync) key function's result, as the openai client would send;
    ``"none"`` when the key is empty, absent or comes from an async function (not awaited here)."""
    if isinstance(key, SecretStr):
        return key.get_secret_value() or "none"
    if callable(key) and not inspect.iscoroutinefunction(key):
        return str(key()) or "none"
    return "none"


def resolve_method(model: Runnable, method: str = "auto") -> str:
    """The concrete method :func:`invoke_structured` will use for ``model`` (see module docs).

    The in-process GGUF model always uses ``llamacpp_schema`` (it has no tool calling; its
    grammar-constrained JSON is the reliable path) unless ``text`` is asked for.
    """
    base = _unwrap(model)
    if isinstance(base, ChatLlamaCppInProcess):
        return "text" if method == "text" else "llamacpp_schema"
    if method != "auto":
        return method
    from langchain_openai import ChatOpenAI

    if isinstance(base, ChatOpenAI):
        key = _api_key_text(base.openai_api_key)
        client = base.http_client if isinstance(base.http_client, httpx.Client) else None
        rt = base.request_timeout
        timeout_s = float(rt) if isinstance(rt, (int, float)) and rt > 0 else 10.0
        return server_method(base.openai_api_base or "https://api.openai.com/v1", key,
                             timeout_s=min(timeout_s, 30.0), client=client)
    return "text"


def _bind(model: Runnable, schema: type[BaseModel], method: str) -> Runnable:
    js = schema.model_json_schema()
    if method == "llamacpp_schema":
        return model.bind(response_format={"type": "json_object", "schema": js})
    if method == "json_schema":
        return model.bind(
            response_format={"type": "json_schema", "json_schema": {"name": schema.__name__, "schema": js, "strict": False}}
        )
    if method == "function_calling":
        return model.bind_tools([schema], tool_choice=schema.__name__)  # type: ignore[attr-defined]
    if method == "text":
        return model
    raise ValueError(f"unknown structured-output method {method!r}")


def _with_schema_instruction(messages: Sequence[BaseMessage], schema: type[BaseModel]) -> list[BaseMessage]:
    note = SCHEMA_INSTRUCTION.format(schema=json.dumps(schema.model_json_schema()))
    msgs = list(messages)
    if msgs and isinstance(msgs[0], SystemMessage) and isinstance(msgs[0].content, str):
        return [SystemMessage(content=msgs[0].content + "\n\n" + note), *msgs[1:]]
    return [SystemMessage(content=note), *msgs]


def parse_json_reply(text: str) -> Any:
    """The JSON value in a model reply: the whole text, or the content of a ```json fence.

    Uses langchain-core's ``parse_json_markdown`` with ``json.loads(strict=False)`` (raw control
    characters allowed inside strings). Raises ``ValueError`` (incl. ``json.JSONDecodeError``).
    """
    return parse_json_markdown(text, parser=lambda s: json.loads(s, strict=False))


def _parse(ai: AIMessage, schema: type[T], method: str) -> T:
    raw = ai.text if not isinstance(ai.content, str) else ai.content
    cut = (ai.response_metadata or {}).get("finish_reason") == "length"
    suffix = " (the reply was cut off at max_tokens)" if cut else ""
    if method == "function_calling" and (ai.tool_calls or ai.invalid_tool_calls):
        if ai.tool_calls:
            obj: Any = ai.tool_calls[0]["args"]
            raw = json.dumps(obj)
        else:
            bad = ai.invalid_tool_calls[0]
            raise InvalidReply(f"tool-call arguments are not valid JSON: {bad.get('error')}{suffix}", str(bad.get("args")))
    else:
        try:
            obj = parse_json_reply(raw)
        except ValueError as e:
            raise InvalidReply(f"not valid JSON ({e}){suffix}", raw) from e
    try:
        return schema.model_validate(obj)
    except ValidationError as e:
        errors = "; ".join(f"{'.'.join(map(str, err['loc'])) or '<root>'}: {err['msg']}" for err in e.errors()[:5])
        raise InvalidReply(f"does not match the schema ({errors}){suffix}", raw) from e


def invoke_structured(
    model: BaseChatModel | Runnable,
    messages: list[BaseMessage],
    schema: type[T],
    *,
    method: str = "auto",
    max_retries: int = 2,
    feedback: bool = True,
) -> T:
    """Ask ``model`` for a reply that validates as ``schema`` and return the validated object.

    Args:
        model: any langchain chat model (in-process GGUF, ``ChatOpenAI``, fake models).
        messages: the conversation; not modified.
        schema: a pydantic model class; its JSON schema is sent to the model.
        method: ``auto`` or one of ``llamacpp_schema``/``json_schema``/``function_calling``/``text``
            (``ModelSettings.structured_method``; see module docs).
        max_retries: extra attempts after an unparsable/invalid reply (total ``max_retries + 1``).
        feedback: on a retry, show the model its previous reply and the error.

    Returns:
        An instance of ``schema``.

    Raises:
        ModelResponseError: every attempt failed to parse/validate; names the schema, the last
            error and quotes the last raw reply (first :data:`SNIPPET_CHARS` characters).
        ModelUnavailableError: the model server cannot be reached.
    """
    chosen = resolve_method(model, method)
    bound = _bind(model, schema, chosen)
    base_messages = _with_schema_instruction(messages, schema) if chosen == "text" else list(messages)
    last: dict[str, InvalidReply | None] = {"error": None}

    def attempt(msgs: list[BaseMessage]) -> T:
        prev = last["error"]
        if feedback and prev is not None:
            msgs = [*msgs, AIMessage(content=prev.raw), HumanMessage(content=FEEDBACK_INSTRUCTION.format(error=prev.error))]
        ai = bound.invoke(msgs)
        try:
            return _parse(ai, schema, chosen)
        except InvalidReply as e:
            last["error"] = e
            raise

    runnable = RunnableLambda(attempt).with_retry(
        retry_if_exception_type=(InvalidReply,),
        stop_after_attempt=max(1, max_retries + 1),
        wait_exponential_jitter=False,
    )
    try:
        return runnable.invoke(base_messages)
    except InvalidReply as e:
        snippet = e.raw[:SNIPPET_CHARS] + ("…" if len(e.raw) > SNIPPET_CHARS else "")
        raise ModelResponseError(
            f"the model's reply did not match {schema.__name__} after {max(1, max_retries + 1)} attempt(s): "
            f"{e.error}. Last reply: {snippet!r}"
        ) from e
    except (openai.APIConnectionError, httpx.TransportError) as e:
        raise ModelUnavailableError(f"cannot reach model server: {e}") from e


def count_tokens(model: Runnable | None, text: str) -> int:
    """Tokens in ``text`` for ``model``: exact for the in-process GGUF model (its tokenizer),
    otherwise ``ceil(len(text) / 4)`` — OpenAI's rule of thumb of ~4 characters per English
    token (an estimate; servers' tokenizers are not available offline). The estimate is also
    the answer with no model, and when the tokenizer fails (loading the model, say): a count
    only sizes a prompt, so it must not stop a run; the model call itself then raises.

    The one token counter of the package: the agents' prompt budgets and the retrieval tools'
    (navindex, inject) windows and ledgers all count with it."""
    base = _unwrap(model) if model is not None else None
    if isinstance(base, ChatLlamaCppInProcess):
        try:
            return base.get_num_tokens(text)
        except Exception:  # noqa: BLE001 - the estimate below (see above)
            return _estimate_tokens(text)
    return _estimate_tokens(text)


def _estimate_tokens(text: str) -> int:
    """``ceil(len(text) / 4)``: the ~4 characters per English token rule of thumb."""
    return -(-len(text) // 4)
