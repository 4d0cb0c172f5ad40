"""A langchain-core chat model over an in-process ``llama_cpp.Llama`` (GGUF file).

Why not langchain-community's ``ChatLlamaCpp``: it builds its own ``Llama`` in every instance
(three agents on the same model would load it three times), it reports no token usage
(``usage_metadata`` stays empty, so the run's token ledger would see nothing), and it would
add langchain-community and its dependency tree for ~100 lines of glue. This class is a thin
:class:`~langchain_core.language_models.chat_models.BaseChatModel` around
``Llama.create_chat_completion`` (llama-cpp-python 0.3.x, OpenAI-style dicts in and out):

* the chat template comes from the GGUF metadata (llama-cpp-python's default behaviour);
* ``response_format={"type": "json_object", "schema": {...}}`` (llama.cpp's grammar-constrained
  JSON) and any other ``create_chat_completion`` argument can be passed via ``.bind(...)`` or
  call kwargs;
* token usage goes to ``AIMessage.usage_metadata`` (``input_tokens``/``output_tokens``/
  ``total_tokens``) and ``response_metadata["token_usage"]`` (``prompt_tokens``/
  ``completion_tokens``/``total_tokens``), as langchain-openai does;
* the ``Llama`` is loaded on first use and shared in-process per ``(path, n_ctx, n_threads,
  n_threads_batch)`` (thread counts as resolved by :func:`resolve_threads`); calls on one shared
  instance are serialised with a lock (a ``Llama`` is not thread-safe);
* greedy JSON-schema generation checks the grammar on the argmax token first, as llama.cpp's
  own sampler does (:mod:`clauselens.llm.greedy_grammar`: same tokens, ~30% faster generation here).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence, cast

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from clauselens.errors import ContextOverflowError, ModelUnavailableError
from clauselens.llm.greedy_grammar import install as install_greedy_grammar

if TYPE_CHECKING:
    from llama_cpp.llama_types import ChatCompletionRequestMessage

_CACHE_LOCK = threading.Lock()
# (path, n_ctx, n_threads, n_threads_batch) -> (Llama, lock serialising calls on it)
_LLAMAS: dict[tuple[str, int, int, int], tuple[Any, threading.Lock]] = {}


#: how ``scripts/setup.sh`` builds llama-cpp-python without the AMX kernels (see :func:`amx_risk`)
AMX_FREE_BUILD = (
    'CMAKE_ARGS=\'-DCMAKE_C_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16" '
    '-DCMAKE_CXX_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"\' '
    "pip install --no-cache-dir --force-reinstall --no-deps llama-cpp-python==0.3.36"
)


def amx_risk(system_info: str, cpu_flags: str) -> bool:
    """Whether llama.cpp would run its Intel AMX matmul kernels here: the build reports
    ``AMX_INT8 = 1`` (``llama_cpp.llama_print_system_info()``) and the CPU has ``amx_int8``
    (``/proc/cpuinfo`` flags). On such machines ``ggml_backend_amx_mul_mat`` segfaulted in
    the first decode (llama.cpp issue #20824; seen on this project's Sapphire-Rapids-class VM
    with llama-cpp-python 0.3.36), killing the process with no Python error. Pure function.
    """
    return "AMX_INT8 = 1" in system_info and "amx_int8" in cpu_flags.split()


def _cpu_flags() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return next((line.split(":", 1)[1] for line in f if line.startswith("flags")), "")
    except OSError:  # not Linux: no AMX check possible
        return ""


def shared_llama(model_path: str, n_ctx: int, n_threads: int | None, allow_amx: bool = False,
                 n_threads_batch: int | None = None) -> tuple[Any, threading.Lock]:
    """The process-wide ``llama_cpp.Llama`` for these settings and the lock guarding it.

    Loads the GGUF on first request (seconds, ~0.6–2 GB RAM for the bundled models).
    ``n_threads`` (generation) and ``n_threads_batch`` (prompt reading) go through
    :func:`resolve_threads` (``None`` = this project's default policy).
    ``allow_amx`` (``ModelSettings.allow_amx``) skips the :func:`amx_risk` check.

    Raises:
        ModelUnavailableError: llama-cpp-python is not installed, the file cannot be loaded, or
            the build would use the AMX kernels that crash (instead of a segfault: rebuild with
            :data:`AMX_FREE_BUILD`, which ``scripts/setup.sh`` does).
    """
    n_threads, n_threads_batch = resolve_threads(n_threads, n_threads_batch)
    key = (str(model_path), int(n_ctx), n_threads, n_threads_batch)
    with _CACHE_LOCK:
        if key not in _LLAMAS:
            try:
                import llama_cpp
                from llama_cpp import Llama
            except ImportError as e:  # pragma: no cover - a broken install
                raise ModelUnavailableError(
                    f"llama-cpp-python is not installed ({e}); install it with: pip install 'llama-cpp-python==0.3.36'"
                ) from e
            if not allow_amx and amx_risk(llama_cpp.llama_print_system_info().decode(errors="replace"), _cpu_flags()):
                raise ModelUnavailableError(
                    "this llama-cpp-python build uses Intel AMX kernels, which crash on this CPU "
                    "(llama.cpp issue #20824); rebuild it without them: " + AMX_FREE_BUILD
                    + " (scripts/setup.sh does this), or set CLAUSELENS_<AGENT>_MODEL__ALLOW_AMX=1 to try anyway"
                )
            try:
                llm = Llama(model_path=str(model_path), n_ctx=n_ctx, n_threads=n_threads,
                            n_threads_batch=n_threads_batch, verbose=False)
            except (ValueError, OSError, RuntimeError) as e:
                raise ModelUnavailableError(f"cannot load model file {model_path}: {e}") from e
            install_greedy_grammar(llm)  # same tokens as the stock sampler, grammar checked lazily
            _LLAMAS[key] = (llm, threading.Lock())
        return _LLAMAS[key]


def available_cpus() -> int:
    """CPUs this process may run on (``os.sched_getaffinity``; ``os.cpu_count()`` where absent).

    The input of :func:`default_threads` (thread settings left at ``None``).
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def default_threads(cpus: int) -> tuple[int, int]:
    """The default ``(n_threads, n_threads_batch)`` on ``cpus`` CPUs: half of them (at least one)
    generate, all of them read prompts.

    Generation evaluates one token at a time, and llama.cpp's worker threads meet at a barrier
    several times per layer, so one descheduled thread stalls the rest; prompt reading does large
    matrix products between barriers and tolerates it. ``benchmarks/llm_threads.py``
    (``benchmarks/results/llm_threads.json``; 1.5B model, 2 vCPUs, medians of 3, measured side by
    side): with one competing CPU-bound process, 2 generation threads made 0.48 tokens/s against
    4.9-5.7 for 1 thread (10-12x slower), and were already slower than 1 thread with only
    low-priority background jobs (2.2-3.2 vs 4.6-5.9); 2 were faster only on a quiet machine (9.1
    vs 5.7, 1.6x). 2 prompt threads beside 1 generation thread stayed faster than 1 under the
    competitor (19.2 vs 11.0 tokens/s) and idle (29.0 vs 17.2). Half the CPUs (llama-cpp-python's
    own default for generation) leaves room for as many competitors as threads, and generation is
    memory-bound, so more threads add little.
    """
    return max(1, cpus // 2), max(1, cpus)


def resolve_threads(n_threads: int | None, n_threads_batch: int | None, cpus: int | None = None) -> tuple[int, int]:
    """``(n_threads, n_threads_batch)`` for ``llama_cpp.Llama``. Explicit values win; an explicit
    ``n_threads`` alone caps both (``N_THREADS=1`` means one core); what is left unset (``None``,
    or <= 0 as in llama.cpp) comes from :func:`default_threads` of ``cpus`` (default
    :func:`available_cpus`)."""
    nt = n_threads if n_threads is not None and n_threads > 0 else None
    nb = n_threads_batch if n_threads_batch is not None and n_threads_batch > 0 else None
    if nt is None:
        d_nt, d_nb = default_threads(cpus if cpus is not None else available_cpus())
        return d_nt, nb if nb is not None else d_nb
    return nt, nb if nb is not None else nt


def release_shared_llamas() -> int:
    """Forget every shared ``Llama`` (memory is freed once no chat model holds one); returns how many."""
    with _CACHE_LOCK:
        n = len(_LLAMAS)
        _LLAMAS.clear()
    return n


def _role_and_content(m: BaseMessage) -> dict[str, Any]:
    """One langchain message as an OpenAI-style dict for ``create_chat_completion``."""
    content = m.content if isinstance(m.content, str) else m.text
    if isinstance(m, SystemMessage):
        return {"role": "system", "content": content}
    if isinstance(m, HumanMessage):
        return {"role": "user", "content": content}
    if isinstance(m, AIMessage):
        return {"role": "assistant", "content": content}
    if isinstance(m, ToolMessage):
        return {"role": "tool", "content": content, "tool_call_id": m.tool_call_id}
    if isinstance(m, ChatMessage):
        return {"role": m.role, "content": content}
    return {"role": "user", "content": content}


class ChatLlamaCppInProcess(BaseChatModel):
    """Chat model running a GGUF file in this process with llama-cpp-python.

    Fields mirror :class:`clauselens.config.ModelSettings`: ``model_path`` (a ``.gguf`` file),
    ``n_ctx`` (context window, tokens), ``n_threads`` / ``n_threads_batch`` (generation / prompt
    threads; ``None`` = :func:`default_threads`, see :func:`resolve_threads`),
    ``temperature``, ``max_tokens`` (generation cap, tokens), ``seed`` and ``allow_amx``.

    Raises (from ``invoke``): :class:`ModelUnavailableError` if the file cannot be loaded,
    :class:`ContextOverflowError` if the prompt does not fit ``n_ctx``.
    """

    model_path: str
    n_ctx: int = 8192
    n_threads: int | None = None
    n_threads_batch: int | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int = 0
    allow_amx: bool = False

    @property
    def _llm_type(self) -> str:
        return "llamacpp-inprocess"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_path": self.model_path,
            "n_ctx": self.n_ctx,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }

    @property
    def model_name(self) -> str:
        """File stem of the GGUF, e.g. ``qwen2.5-coder-0.5b``."""
        return Path(self.model_path).stem

    def _llama(self) -> tuple[Any, threading.Lock]:
        return shared_llama(self.model_path, self.n_ctx, self.n_threads, self.allow_amx, self.n_threads_batch)

    def get_num_tokens(self, text: str) -> int:
        """Exact token count of ``text`` with the model's own tokenizer (loads the model)."""
        llm, lock = self._llama()
        with lock:
            return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _prompt_tokens(self, llm: Any, dicts: list[dict[str, Any]]) -> list[int]:
        """The prompt's tokens as ``create_chat_completion`` builds them: the GGUF's own chat
        template (llama-cpp-python's Jinja2 formatter), then the model's tokenizer."""
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        template = llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelUnavailableError(f"{self.model_name}: the GGUF has no chat template")
        eos_id, bos_id = llm.token_eos(), llm.token_bos()
        fmt = Jinja2ChatFormatter(template=template, eos_token=llm._model.token_get_text(eos_id) if eos_id != -1 else "",
                                  bos_token=llm._model.token_get_text(bos_id) if bos_id != -1 else "")
        # the dicts have the OpenAI message shapes llama-cpp's TypedDicts describe (built untyped)
        res = fmt(messages=cast("list[ChatCompletionRequestMessage]", dicts))
        return list(llm.tokenize(res.prompt.encode("utf-8"), add_bos=not res.added_special, special=True))

    def choice_logprobs(self, messages: list[BaseMessage], options: Sequence[str]) -> dict[str, float]:
        """Log-probability of each of ``options`` as the first answer token after
        ``messages`` (its first token, case and a leading space both tried, the best kept),
        from one forward pass over the prompt -- no generation. llama-cpp-python only
        returns ``logprobs`` from a model built with ``logits_all=True`` (a vocabulary-wide row
        per prompt token: ~5 GB at 8,192 tokens for Qwen's 152k vocabulary), so this reads the
        last position's logits from the context directly (``llama_get_logits``). The prompt is
        formatted with the GGUF's own chat template, as ``create_chat_completion`` does; the
        longest prefix shared with the previous call is kept in the KV cache."""
        import numpy as np

        llm, lock = self._llama()
        with lock:
            toks = self._prompt_tokens(llm, [_role_and_content(m) for m in messages])
            if len(toks) >= self.n_ctx:
                raise ContextOverflowError(f"the prompt ({len(toks)} tokens) does not fit the context window of {self.n_ctx}")
            keep = min(llm.longest_token_prefix(llm._input_ids.tolist(), toks), len(toks) - 1)
            llm.n_tokens = keep
            llm.eval(toks[keep:])
            logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).astype(np.float64)
        logz = float(np.log(np.exp(logits - logits.max()).sum()) + logits.max())
        out: dict[str, float] = {}
        for opt in options:
            best = -float("inf")
            for variant in {opt, opt.lower(), opt.capitalize(), " " + opt, " " + opt.lower(), " " + opt.capitalize()}:
                ids = llm.tokenize(variant.encode("utf-8"), add_bos=False, special=False)
                if ids:
                    best = max(best, float(logits[ids[0]]) - logz)
            out[opt] = best
        return out

    def _params(self, stop: list[str] | None, kwargs: dict[str, Any]) -> dict[str, Any]:
        params: dict[str, Any] = {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }
        params.update(kwargs)
        if stop:
            params["stop"] = stop
        return params

    def _overflow(self, e: ValueError) -> Exception:
        if "exceed context window" in str(e):
            return ContextOverflowError(
                f"the prompt does not fit the model's context window of {self.n_ctx} tokens ({e}); "
                "raise n_ctx or send fewer passages"
            )
        return e

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        llm, lock = self._llama()
        params = self._params(stop, kwargs)
        dicts = [_role_and_content(m) for m in messages]
        try:
            with lock:
                out = llm.create_chat_completion(messages=dicts, **params)
        except ValueError as e:
            raise self._overflow(e) from e
        return self._to_result(out)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """Token by token, for a caller that watches the text as it is written (LangChain calls
        this instead of :meth:`_generate` only when a streaming callback is attached, e.g.
        LangGraph's ``stream_mode="messages"``; every other call is unchanged). Same sampler and
        grammar as :meth:`_generate`. llama-cpp-python's stream carries no token counts, so the
        last chunk's usage is computed: input tokens = the prompt built and tokenized as
        ``create_chat_completion`` does, output tokens = the context's tokens (``Llama.n_tokens``:
        prompt + output) minus those (re-tokenizing the text would not do: grammar-constrained
        output is not in the tokenizer's canonical split). A call
        asking for tool calls or log-probabilities is answered whole, as one chunk."""
        if kwargs.get("tools") or kwargs.get("logprobs"):
            res = self._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
            msg = res.generations[0].message
            yield ChatGenerationChunk(message=AIMessageChunk(
                content=msg.content, tool_call_chunks=[
                    {"name": tc["name"], "args": json.dumps(tc["args"]), "id": tc.get("id"), "index": i}
                    for i, tc in enumerate(getattr(msg, "tool_calls", []) or [])],
                usage_metadata=getattr(msg, "usage_metadata", None), response_metadata=msg.response_metadata))
            return
        llm, lock = self._llama()
        params = self._params(stop, kwargs)
        dicts = [_role_and_content(m) for m in messages]
        parts: list[str] = []
        finish = None
        with lock:
            try:
                for chunk in llm.create_chat_completion(messages=dicts, stream=True, **params):
                    choice = chunk["choices"][0]
                    text = (choice.get("delta") or {}).get("content") or ""
                    finish = choice.get("finish_reason") or finish
                    if text:
                        parts.append(text)
                        gen = ChatGenerationChunk(message=AIMessageChunk(content=text))
                        if run_manager is not None:
                            run_manager.on_llm_new_token(text, chunk=gen)
                        yield gen
            except ValueError as e:
                raise self._overflow(e) from e
            prompt = len(self._prompt_tokens(llm, dicts))
            completion = max(0, int(llm.n_tokens) - prompt)
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        yield ChatGenerationChunk(
            message=AIMessageChunk(
                content="", usage_metadata=UsageMetadata(input_tokens=prompt, output_tokens=completion,
                                                         total_tokens=prompt + completion),
                response_metadata={"token_usage": usage, "model_name": self.model_name, "finish_reason": finish}),
            generation_info={"finish_reason": finish})

    def _to_result(self, out: dict[str, Any]) -> ChatResult:
        choice = out["choices"][0]
        msg = choice.get("message") or {}
        usage = out.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens", 0))
        completion_tokens = int(usage.get("completion_tokens", 0))
        total = int(usage.get("total_tokens", prompt_tokens + completion_tokens))
        tool_calls = []
        for tc in msg.get("tool_calls") or []:
            fn = tc.get("function", {})
            try:
                args = json.loads(fn.get("arguments") or "{}", strict=False)
            except json.JSONDecodeError:
                args = {}
            tool_calls.append({"name": fn.get("name", ""), "args": args, "id": tc.get("id")})
        message = AIMessage(
            content=msg.get("content") or "",
            tool_calls=tool_calls,
            usage_metadata=UsageMetadata(
                input_tokens=prompt_tokens, output_tokens=completion_tokens, total_tokens=total
            ),
            response_metadata={
                "token_usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": total,
                },
                "model_name": self.model_name,
                "finish_reason": choice.get("finish_reason"),
                # OpenAI-format token log-probabilities when the call asked for them
                # (``logprobs=True, top_logprobs=N``), as ChatOpenAI reports them
                **({"logprobs": choice["logprobs"]} if choice.get("logprobs") else {}),
            },
        )
        return ChatResult(
            generations=[ChatGeneration(message=message, generation_info={"finish_reason": choice.get("finish_reason")})],
            llm_output={"token_usage": message.response_metadata["token_usage"], "model_name": self.model_name},
        )
