"""What invoke_structured sends to OpenAI-compatible servers we cannot run here (vLLM, generic),
checked at the HTTP level with httpx.MockTransport under the real ChatOpenAI + openai SDK.
(llama-cpp-python's own server is tested for real in test_real_models.py.)"""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from clauselens.errors import ModelResponseError
from clauselens.llm import invoke_structured
from clauselens.llm.factory import ServerChatModel
from clauselens.llm.structured import resolve_method


class Term(BaseModel):
    term: str
    clause: str


def completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def fake_server(owned_by: str, reply: dict[str, Any] | None, status: int = 200) -> tuple[ServerChatModel, list[dict]]:
    """A ServerChatModel whose HTTP goes to an in-memory handler; returns it and the recorded request bodies."""
    seen: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/models"):
            return httpx.Response(200, json={"object": "list", "data": [{"id": "m", "object": "model", "owned_by": owned_by}]})
        seen.append(json.loads(request.content))
        if status != 200:
            return httpx.Response(status, json={"error": {"message": "boom", "type": "server_error"}})
        return httpx.Response(200, json=completion(reply or {}))

    model = ServerChatModel(
        base_url=f"http://{owned_by}-{uuid.uuid4().hex[:6]}.test/v1", api_key="none", model="m", max_retries=0,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )
    return model, seen


def test_vllm_gets_json_schema_response_format() -> None:
    model, seen = fake_server("vllm", {"content": '{"term": "Confidential Information", "clause": "1.2"}'})
    assert resolve_method(model) == "json_schema"
    out = invoke_structured(model, [HumanMessage(content="Which term?")], Term)
    assert out == Term(term="Confidential Information", clause="1.2")
    rf = seen[0]["response_format"]
    assert rf["type"] == "json_schema"
    assert rf["json_schema"]["name"] == "Term"
    assert set(rf["json_schema"]["schema"]["properties"]) == {"term", "clause"}


def test_generic_server_gets_forced_tool_call() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "Term", "arguments": '{"term": "Affiliate", "clause": "1.1"}'}}
    model, seen = fake_server("organization-owner", {"content": None, "tool_calls": [call]})
    assert resolve_method(model) == "function_calling"
    assert invoke_structured(model, [HumanMessage(content="Which term?")], Term) == Term(term="Affiliate", clause="1.1")
    body = seen[0]
    assert body["tools"][0]["function"]["name"] == "Term"
    assert body["tool_choice"]["function"]["name"] == "Term"
    assert "response_format" not in body


def test_server_http_error_is_model_response_error_not_retried() -> None:
    model, seen = fake_server("vllm", None, status=500)
    with pytest.raises(ModelResponseError, match="HTTP 500"):
        invoke_structured(model, [HumanMessage(content="x")], Term, max_retries=2)
    assert len(seen) == 1


def test_resolve_method_with_a_key_function_probes_with_its_key() -> None:
    """ChatOpenAI takes the key as a function too; the /models probe sends what it returns (it raised
    AttributeError: the probe called .get_secret_value() on any key). An async key function is not
    awaited here: the probe goes without a key."""
    auth: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        auth.append(request.headers.get("Authorization"))
        return httpx.Response(200, json={"object": "list", "data": [{"id": "m", "object": "model", "owned_by": "vllm"}]})

    async def async_key() -> str:
        return "async-key"

    for key, expected in [(lambda: "sync-key", "Bearer sync-key"), (async_key, "Bearer none")]:
        model = ServerChatModel(
            base_url=f"http://keyfn-{uuid.uuid4().hex[:6]}.test/v1", api_key=key, model="m", max_retries=0,
            http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        )
        assert resolve_method(model) == "json_schema"
        assert auth[-1] == expected
