"""invoke_structured with langchain-core's fake chat models (fast, no real model)."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from clauselens.errors import ModelResponseError
from clauselens.llm import invoke_structured
from clauselens.llm.llamacpp_chat import ChatLlamaCppInProcess
from clauselens.llm.structured import parse_json_reply, resolve_method


class StopDecision(BaseModel):
    complete: bool
    reason: str
    follow_up: list[str] = []


class Label(BaseModel):
    label: Literal["Entailment", "Contradiction", "NotMentioned"]
    quote: str


class RecordingFake(GenericFakeChatModel):
    """GenericFakeChatModel that remembers the messages of every call."""

    calls: list[list[BaseMessage]] = []

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.calls.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def fake(*replies: str) -> RecordingFake:
    return RecordingFake(messages=iter([AIMessage(content=r) for r in replies]), calls=[])


ASK = [SystemMessage(content="You decide whether the answer is complete."), HumanMessage(content="Is it complete?")]


def test_valid_reply_is_parsed_and_validated() -> None:
    model = fake('{"complete": false, "reason": "governing law not found", "follow_up": ["Which law governs?"]}')
    out = invoke_structured(model, ASK, StopDecision)
    assert out == StopDecision(complete=False, reason="governing law not found", follow_up=["Which law governs?"])
    assert len(model.calls) == 1


def test_text_method_puts_schema_in_system_prompt() -> None:
    model = fake('{"complete": true, "reason": "ok"}')
    invoke_structured(model, ASK, StopDecision)
    sent = model.calls[0]
    assert isinstance(sent[0], SystemMessage)
    assert sent[0].content.startswith("You decide whether the answer is complete.")
    assert '"follow_up"' in sent[0].content  # the JSON schema was appended
    assert ASK[0].content == "You decide whether the answer is complete."  # caller's list untouched


def test_code_fence_and_raw_newline_in_string() -> None:
    # llama-cpp-python's grammar can let a raw newline into a JSON string; fences come without a schema.
    reply = '```json\n{"label": "Entailment", "quote": "The Receiving Party shall\nnot disclose"}\n```'
    out = invoke_structured(fake(reply), ASK, Label)
    assert out.label == "Entailment"
    assert out.quote == "The Receiving Party shall\nnot disclose"


def test_malformed_then_valid_retries_with_feedback() -> None:
    model = fake('{"label": "Entailment", "quote": ', '{"label": "Maybe", "quote": "x"}', '{"label": "Contradiction", "quote": "y"}')
    out = invoke_structured(model, ASK, Label, max_retries=2)
    assert out == Label(label="Contradiction", quote="y")
    assert len(model.calls) == 3
    # the second attempt shows the model its broken reply and the JSON error
    second = model.calls[1]
    assert second[-2].content == '{"label": "Entailment", "quote": '
    assert "not valid JSON" in second[-1].content
    # the third attempt names the failing field
    assert "label" in model.calls[2][-1].content and "does not match the schema" in model.calls[2][-1].content


def test_always_malformed_raises_model_response_error_after_bounded_attempts() -> None:
    model = FakeListChatModel(responses=["I think the answer is yes."])
    calls: list[int] = []
    orig = model._call

    def counting_call(*a: Any, **k: Any) -> str:
        calls.append(1)
        return orig(*a, **k)

    object.__setattr__(model, "_call", counting_call)
    with pytest.raises(ModelResponseError) as ei:
        invoke_structured(model, ASK, StopDecision, max_retries=2)
    assert len(calls) == 3
    msg = str(ei.value)
    assert "StopDecision" in msg and "3 attempt(s)" in msg
    assert "I think the answer is yes." in msg  # last raw reply quoted


def test_schema_violation_names_field() -> None:
    with pytest.raises(ModelResponseError, match="complete"):
        invoke_structured(fake('{"reason": "x"}', '{"reason": "y"}'), ASK, StopDecision, max_retries=1)


def test_zero_retries_means_one_attempt() -> None:
    model = fake("nope", '{"complete": true, "reason": "ok"}')
    with pytest.raises(ModelResponseError, match="1 attempt"):
        invoke_structured(model, ASK, StopDecision, max_retries=0)
    assert len(model.calls) == 1


def test_no_feedback_resends_same_messages() -> None:
    model = fake("nope", '{"complete": true, "reason": "ok"}')
    assert invoke_structured(model, ASK, StopDecision, feedback=False).complete is True
    assert model.calls[0] == model.calls[1]


def test_method_resolution() -> None:
    assert resolve_method(fake("{}")) == "text"
    local = ChatLlamaCppInProcess(model_path="/nonexistent.gguf")  # nothing is loaded until invoke
    assert resolve_method(local) == "llamacpp_schema"
    assert resolve_method(local, "function_calling") == "llamacpp_schema"
    assert resolve_method(local.bind(stop=["\n"])) == "llamacpp_schema"


def test_parse_json_reply_rejects_prose() -> None:
    with pytest.raises(ValueError):
        parse_json_reply("The clause is about termination.")


def test_count_tokens_is_the_one_counter_and_falls_back_to_the_estimate():
    """llm.count_tokens (the package's only token counter): ceil(len/4) with no model or a model
    without a local tokenizer, and when the in-process model's tokenizer cannot load -- a count
    sizes a prompt and must not stop a run (the model call raises instead)."""
    from clauselens.errors import ModelUnavailableError
    from clauselens.llm import count_tokens
    from clauselens.llm.llamacpp_chat import ChatLlamaCppInProcess

    text = "Either Party may terminate this Agreement."  # 42 characters -> 11
    assert count_tokens(None, text) == 11
    broken = ChatLlamaCppInProcess(model_path="/nonexistent/model.gguf")
    with pytest.raises(ModelUnavailableError):
        broken.get_num_tokens(text)
    assert count_tokens(broken, text) == 11 and count_tokens(broken.bind(max_tokens=5), text) == 11
