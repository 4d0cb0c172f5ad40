"""inject: whole corpus in context, refused with a clear message when it would not fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from clauselens.errors import ContextOverflowError, RetrievalError
from clauselens.parsing import load_document
from clauselens.retrieval.ledger import Ledger
from clauselens.retrieval.navigate.inject import InjectRetriever, answer_inject
from clauselens.retrieval.types import RetrievalMethod

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
FED = "FEDERATEDGOVERNMENTINCOMESECURITIESINC_04_28_2020-EX-99.SERV AGREE-SERVICES AGREEMENT"


class EchoChat(BaseChatModel):
    """Answers with a fixed text; usage = characters/4; window ``n_ctx``."""

    n_ctx: int = 8192
    seen: list = []

    @property
    def _llm_type(self) -> str:
        return "echo"

    def _generate(self, messages, stop=None, run_manager=None, **kw: Any) -> ChatResult:
        self.seen.append(messages)
        n = sum(len(m.content) for m in messages) // 4
        return ChatResult(generations=[ChatGeneration(message=AIMessage(
            content="Pennsylvania law governs [SERVICES AGREEMENT] Clause 7.",
            usage_metadata={"input_tokens": n, "output_tokens": 12, "total_tokens": n + 12}))])


@pytest.fixture(scope="module")
def docs():
    return [load_document(CUAD / f"{FED}{s}.txt") for s in ("", "_AMENDMENT", "_SECONDAMENDMENT", "_POWEROF")]


def test_small_set_fits_and_is_answered_from_whole_corpus(docs):
    model = EchoChat(seen=[])
    ledger = Ledger()
    r = InjectRetriever(model, ledger)
    assert isinstance(r, RetrievalMethod)
    r.index(docs[:3])
    res = r.search("Which law governs?", query_id="f01")
    assert [p.doc_id for p in res.passages] == [d.id for d in docs[:3]]
    assert all(p.text == d.text and p.spans[0].end == len(d.text) for p, d in zip(res.passages, docs))
    ans = answer_inject(model, "Which law governs?", res.passages, ledger, r.entry_for(res))
    system = model.seen[0][0].content
    assert all(d.text in system for d in docs[:3]) and "Which law governs?" not in system  # corpus is the prefix
    e = ledger.entries[0]
    assert e.mode == "inject" and e.answering_context_tokens == ans.context_tokens > 4000
    assert e.calls[0].cacheable_tokens >= ans.context_tokens and not ans.refused


def test_overflow_is_refused_with_a_clear_message(docs):
    r = InjectRetriever(EchoChat(n_ctx=8192))
    r.index(docs)  # with the ~4 chars/token estimate the fourth document pushes it past 8,192 tokens
    with pytest.raises(ContextOverflowError, match=r"8,192-token window.*navindex"):
        r.search("Which law governs?")
    small = InjectRetriever(EchoChat(n_ctx=2048))
    small.index(docs[:1])
    with pytest.raises(ContextOverflowError):
        small.search("Which law governs?")
    with pytest.raises(RetrievalError, match="no documents"):
        InjectRetriever(EchoChat()).search("x")


@pytest.mark.slow
def test_fit_counted_with_the_real_tokenizer(docs, small_model_path):
    """Qwen2.5's tokenizer (0.5B and 1.5B share it): the three Federated documents fit the
    8,192-token window but not a 4,096-token one."""
    from clauselens.llm.llamacpp_chat import ChatLlamaCppInProcess

    model = ChatLlamaCppInProcess(model_path=str(small_model_path), n_ctx=8192)
    r = InjectRetriever(model)
    r.index(docs[:3])
    r.check_fits("Which law governs?")
    assert 3500 < r.corpus_tokens < 7000
    small = InjectRetriever(model, window=4096)
    small.index(docs[:3])
    with pytest.raises(ContextOverflowError, match="4,096-token window"):
        small.search("Which law governs?")
