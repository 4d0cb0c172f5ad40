"""get_chat_model: backends, configuration errors, a model server that is down."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from clauselens.config import ModelSettings
from clauselens.errors import ConfigError, ModelUnavailableError
from clauselens.llm import get_chat_model, invoke_structured
from clauselens.llm.factory import ServerChatModel
from clauselens.llm.llamacpp_chat import ChatLlamaCppInProcess


class Answer(BaseModel):
    answer: str


def closed_port() -> int:
    """A localhost port nobody listens on (bound then released; connection is refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_openai_backend_needs_base_url(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="base_url"):
        get_chat_model(ModelSettings(backend="openai", model="local"), tmp_path)


def test_openai_backend_builds_without_network(tmp_path: Path) -> None:
    ms = ModelSettings(backend="openai", model="qwen", base_url="http://127.0.0.1:9/v1", request_timeout_s=12, max_retries=1)
    model = get_chat_model(ms, tmp_path)
    assert isinstance(model, ServerChatModel)
    assert model.model_name == "qwen" and model.openai_api_base == "http://127.0.0.1:9/v1"
    assert model.request_timeout == 12 and model.max_retries == 1


def test_llamacpp_backend_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailableError, match="not found"):
        get_chat_model(ModelSettings(model=str(tmp_path / "nope.gguf")), tmp_path)


def test_llamacpp_backend_is_lazy_and_carries_settings(tmp_path: Path) -> None:
    gguf = tmp_path / "not-really.gguf"
    gguf.write_bytes(b"GGUF")
    model = get_chat_model(ModelSettings(model=str(gguf), n_ctx=2048, max_tokens=64, seed=7), tmp_path)
    assert isinstance(model, ChatLlamaCppInProcess)
    assert (model.model_path, model.n_ctx, model.max_tokens, model.seed) == (str(gguf), 2048, 64, 7)
    # the broken file only fails when first used, and with our error, not a llama.cpp traceback
    with pytest.raises(ModelUnavailableError, match="cannot load model file"):
        model.invoke("hi")


def test_server_down_is_model_unavailable_quickly(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    model = get_chat_model(ModelSettings(backend="openai", model="local", base_url=url, max_retries=0), tmp_path)
    t0 = time.monotonic()
    with pytest.raises(ModelUnavailableError, match=f"cannot reach model server at {url}"):
        model.invoke([HumanMessage(content="hello")])
    with pytest.raises(ModelUnavailableError, match="cannot reach model server"):
        invoke_structured(model, [HumanMessage(content="hello")], Answer)
    assert time.monotonic() - t0 < 10
