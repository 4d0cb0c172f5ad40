"""Token ledger: per-call recording through LangChain callbacks, cost maths with the
study's price card, the caching crossover, and the JSON written for a run."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from clauselens.retrieval.ledger import CallUsage, Ledger, LedgerEntry, PriceCard, caching_crossover


class UsageChat(BaseChatModel):
    """Replies "ok" reporting fixed token usage (and a backend cache read)."""

    n_in: int = 1000
    n_out: int = 50

    @property
    def _llm_type(self) -> str:
        return "usage"

    def _generate(self, messages, stop=None, run_manager=None, **kw: Any) -> ChatResult:
        msg = AIMessage(content="ok", usage_metadata={"input_tokens": self.n_in, "output_tokens": self.n_out,
                                                      "total_tokens": self.n_in + self.n_out,
                                                      "input_token_details": {"cache_read": 600}})
        return ChatResult(generations=[ChatGeneration(message=msg)])


def test_cost_maths_with_default_price_card():
    e = LedgerEntry(query_id="q", mode="inject", calls=[
        CallUsage(stage="answer", input_tokens=10_000, cacheable_tokens=9_000, output_tokens=200)])
    p = PriceCard()
    assert (p.input_per_m, p.cache_write_per_m, p.cache_read_per_m, p.output_per_m) == (3.0, 3.75, 0.30, 15.0)
    assert e.cost(p, "none") == pytest.approx((10_000 * 3.0 + 200 * 15.0) / 1e6)
    assert e.cost(p, "warm") == pytest.approx((1_000 * 3.0 + 9_000 * 0.30 + 200 * 15.0) / 1e6)
    assert e.cost(p, "cold") == pytest.approx((1_000 * 3.0 + 9_000 * 3.75 + 200 * 15.0) / 1e6)
    assert e.uncached_tokens == 1_000 and e.cacheable_tokens == 9_000
    with pytest.raises(ValueError):
        e.cost(p, "hot")


def test_caching_crossover_is_ten_times_payload_at_default_prices():
    assert caching_crossover(2_000) == pytest.approx(20_000)
    assert caching_crossover(2_000, PriceCard(input_per_m=1.0, cache_read_per_m=0.5)) == pytest.approx(4_000)
    with pytest.raises(ValueError):
        caching_crossover(1, PriceCard(cache_read_per_m=0))


def test_recording_captures_calls_inside_the_block_only(tmp_path):
    model = UsageChat()
    ledger = Ledger(run_info={"command": "test"})
    a = ledger.start("q1", "navindex")
    model.invoke([HumanMessage("outside")])  # no active entry: not recorded
    with ledger.recording(a, "scan", cacheable_tokens=700):
        model.invoke([HumanMessage("scan")])
        with ledger.recording(a, "answer", cacheable_tokens=50):
            model.invoke([HumanMessage("answer")])
        model.invoke([HumanMessage("scan again")])
    assert [c.stage for c in a.calls] == ["scan", "answer", "scan"]
    assert [c.cacheable_tokens for c in a.calls] == [700, 50, 700]
    assert a.input_tokens == 3000 and a.output_tokens == 150 and a.llm_calls == 3
    assert all(c.observed_cache_read == 600 for c in a.calls) and a.wall_s > 0
    b = ledger.start("q1", "inject")
    with ledger.recording(b, "answer", cacheable_tokens=5000):  # prefix larger than the prompt is capped
        model.invoke([HumanMessage("x")])
    assert b.cacheable_tokens == 1000
    out = json.loads(ledger.write(tmp_path / "ledger.json").read_text())
    assert out["run"] == {"command": "test"} and set(out["totals"]) == {"inject", "navindex"}
    assert out["totals"]["navindex"]["input_tokens"] == 3000 and len(out["entries"]) == 2
    assert out["entries"][0]["cost_usd"]["none"] == pytest.approx((3000 * 3 + 150 * 15) / 1e6)


def test_nested_recordings_reach_the_enclosing_ledger_under_the_inner_stage():
    """A tool's own ledger (e.g. navindex's index scan) and the whole run's ledger both see
    the tool's calls; the run's ledger names them ``<tool>:<stage>`` with the tool's
    cacheable prefix, and its own calls keep its stage."""
    model = UsageChat()
    run, tool = Ledger(), Ledger(label="navindex")
    outer = run.start("run", "navindex")
    with run.recording(outer, "researcher"):
        model.invoke([HumanMessage("plan")])
        inner = tool.start("q1", "navindex")
        with tool.recording(inner, "scan", cacheable_tokens=700):
            model.invoke([HumanMessage("scan")])
        model.invoke([HumanMessage("draft")])
    assert [c.stage for c in inner.calls] == ["scan"] and inner.cacheable_tokens == 700
    assert [c.stage for c in outer.calls] == ["researcher", "navindex:scan", "researcher"]
    assert [c.cacheable_tokens for c in outer.calls] == [0, 700, 0]
    assert outer.input_tokens == 3 * model.n_in and outer.output_tokens == 3 * model.n_out
