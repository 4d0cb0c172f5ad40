"""The real 0.5B model, in-process and behind llama-cpp-python's OpenAI-compatible server."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from langchain_core.callbacks import get_usage_metadata_callback
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from clauselens.config import ModelSettings
from clauselens.llm import get_chat_model, invoke_structured
from clauselens.llm.llamacpp_chat import shared_llama
from clauselens.llm.structured import resolve_method

pytestmark = pytest.mark.slow

ROBUSTNESS = Path(__file__).resolve().parents[2].parent / "shared" / "robustness"


class GoverningLaw(BaseModel):
    """What the model must return about the letter of intent."""

    clause_number: str = Field(description="number of the clause that names the governing law")
    country: Literal["Ireland", "England", "France", "Germany", "not stated"]
    binding: bool = Field(description="whether the letter as a whole is legally binding")


def question() -> list:
    contract = (ROBUSTNESS / "two_clause_contract.txt").read_text(encoding="utf-8")
    return [
        SystemMessage(content="You read contracts and answer in JSON."),
        HumanMessage(content=f"Contract:\n{contract}\n\nWhich clause sets the governing law, which country's law, "
                             "and is the letter legally binding as a whole?"),
    ]


def test_in_process_chat_reports_usage(small_model_path: Path) -> None:
    ms = ModelSettings(model=str(small_model_path), n_ctx=2048, n_threads=2, max_tokens=24)
    model = get_chat_model(ms, small_model_path.parent)
    with get_usage_metadata_callback() as cb:  # what the run's token ledger uses
        reply = model.invoke([HumanMessage(content="Say hello in one word.")])
    assert isinstance(reply.content, str) and reply.content.strip()
    usage = reply.usage_metadata
    assert cb.usage_metadata == {small_model_path.stem: usage}
    assert usage is not None and usage["input_tokens"] > 5 and 0 < usage["output_tokens"] <= 24
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert reply.response_metadata["token_usage"]["prompt_tokens"] == usage["input_tokens"]
    # a second model on the same file and n_ctx shares the loaded Llama
    other = get_chat_model(ms.model_copy(update={"temperature": 0.5}), small_model_path.parent)
    assert other._llama()[0] is model._llama()[0]
    assert shared_llama(str(small_model_path), 2048, 2)[0] is model._llama()[0]


def test_in_process_structured(small_model_path: Path) -> None:
    # by bundled name: ensure_model re-uses the assembled file in models_dir
    model = get_chat_model(ModelSettings(model="qwen2.5-coder-0.5b", n_ctx=2048, n_threads=2, max_tokens=128),
                           small_model_path.parent)
    assert model.model_path == str(small_model_path)
    assert resolve_method(model) == "llamacpp_schema"
    out = invoke_structured(model, question(), GoverningLaw)
    assert isinstance(out, GoverningLaw)
    assert out.country == "Ireland"


def test_server_plain_chat(llama_server_url: str, tmp_path: Path) -> None:
    ms = ModelSettings(backend="openai", model="local", base_url=llama_server_url, max_tokens=24, request_timeout_s=120)
    reply = get_chat_model(ms, tmp_path).invoke([HumanMessage(content="Say hello in one word.")])
    assert reply.content.strip()
    assert reply.usage_metadata and reply.usage_metadata["output_tokens"] > 0


@pytest.mark.parametrize("method", ["auto", "function_calling"])
def test_server_structured(llama_server_url: str, tmp_path: Path, method: str) -> None:
    ms = ModelSettings(backend="openai", model="local", base_url=llama_server_url, max_tokens=128, request_timeout_s=120)
    model = get_chat_model(ms, tmp_path)
    if method == "auto":
        assert resolve_method(model) == "llamacpp_schema"  # llama-cpp-python's server reports owned_by "me"
    out = invoke_structured(model, question(), GoverningLaw, method=method)
    assert isinstance(out, GoverningLaw)
    assert out.country == "Ireland"


def test_in_process_prompt_too_long_is_context_overflow(small_model_path: Path) -> None:
    from clauselens.errors import ContextOverflowError

    contract = (ROBUSTNESS / "four_clause_contract.txt").read_text(encoding="utf-8")
    model = get_chat_model(ModelSettings(model=str(small_model_path), n_ctx=128, n_threads=2, max_tokens=8),
                           small_model_path.parent)
    with pytest.raises(ContextOverflowError, match="context window of 128 tokens"):
        model.invoke([HumanMessage(content=contract * 3)])


def test_in_process_streaming_gives_the_same_text_and_usage_token_by_token(small_model_path: Path) -> None:
    """Issue #19 item 3 (draft text streamed as it is written): ``stream`` yields the reply in
    several pieces, whose text is exactly :meth:`invoke`'s (same greedy sampler and grammar), and
    its last chunk carries the same token usage the ledger reads from a whole reply."""
    from clauselens.llm.structured import _bind

    ms = ModelSettings(model=str(small_model_path), n_ctx=2048, n_threads=2, max_tokens=96)
    model = get_chat_model(ms, small_model_path.parent)
    bound = _bind(model, GoverningLaw, "llamacpp_schema")
    whole = bound.invoke(question())
    chunks = list(bound.stream(question()))
    assert len([c for c in chunks if c.content]) > 5
    text = "".join(str(c.content) for c in chunks)
    assert text == whole.content and GoverningLaw.model_validate_json(text).country == "Ireland"
    usage = next(c.usage_metadata for c in reversed(chunks) if c.usage_metadata)
    assert usage == whole.usage_metadata


def test_server_replies_whole_even_when_streamed_so_usage_is_kept(llama_server_url: str, tmp_path: Path) -> None:
    """llama-cpp-python's server sends no token usage in a stream, so a server model answers a
    streaming caller with one whole reply (``disable_streaming``) that carries its usage."""
    ms = ModelSettings(backend="openai", model="local", base_url=llama_server_url, max_tokens=24, request_timeout_s=120)
    chunks = list(get_chat_model(ms, tmp_path).stream([HumanMessage(content="Say hello in one word.")]))
    assert len(chunks) == 1 and str(chunks[0].content).strip()
    assert chunks[0].usage_metadata and chunks[0].usage_metadata["output_tokens"] > 0
