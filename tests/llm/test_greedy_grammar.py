"""The greedy grammar fast path gives exactly the stock sampler's tokens, on the real 0.5B model."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from llama_cpp import Llama

from clauselens.llm.greedy_grammar import GreedyGrammarSampler, install
from clauselens.reports.model import NLIReportDraft

pytestmark = pytest.mark.slow

ROBUSTNESS = Path(__file__).resolve().parents[2].parent / "shared" / "robustness"


def _messages() -> list[dict]:
    contract = (ROBUSTNESS / "two_clause_contract.txt").read_text(encoding="utf-8")
    return [{"role": "system", "content": "You are a careful contract lawyer. Answer as JSON."},
            {"role": "user", "content": f"Contract:\n{contract}\n\nHypothesis: the letter is governed by Irish law. "
                                        "Write the report as JSON with a label."}]


def _run(llm: Llama, schema: dict, max_tokens: int) -> tuple[str, int, float]:
    llm.reset()  # no KV reuse between the compared runs: the prompt is evaluated the same way
    t0 = time.perf_counter()
    out = llm.create_chat_completion(_messages(), temperature=0.0, max_tokens=max_tokens, seed=0,
                                     response_format={"type": "json_object", "schema": schema})
    return out["choices"][0]["message"]["content"], out["usage"]["completion_tokens"], time.perf_counter() - t0


def test_fast_path_returns_the_stock_tokens_and_valid_json(small_model_path: Path) -> None:
    llm = Llama(model_path=str(small_model_path), n_ctx=2048, n_threads=2, verbose=False)
    schema = NLIReportDraft.model_json_schema()
    stock_text, stock_n, stock_s = _run(llm, schema, 160)
    install(llm)
    made: list[GreedyGrammarSampler] = []
    original = llm._init_sampler

    def spy(**kw):
        s = original(**kw)
        made.append(s)
        return s
    llm._init_sampler = spy
    fast_text, fast_n, fast_s = _run(llm, schema, 160)
    assert fast_text == stock_text and fast_n == stock_n > 50
    assert made and all(isinstance(s, GreedyGrammarSampler) for s in made)
    assert made[-1].sampled in (fast_n, fast_n + 1)  # + the end-of-generation token
    assert made[-1].rejected < fast_n // 2  # most argmax tokens pass the first check
    print(f"stock {stock_s:.1f} s, fast path {fast_s:.1f} s for {fast_n} tokens; "
          f"{made[-1].rejected} full-vocabulary passes")
    # a complete (untruncated) reply is valid JSON of the schema
    full_text, _, _ = _run(llm, schema, 700)
    NLIReportDraft.model_validate(json.loads(full_text, strict=False))


def test_other_sampling_keeps_the_stock_chain(small_model_path: Path) -> None:
    llm = install(Llama(model_path=str(small_model_path), n_ctx=512, n_threads=2, verbose=False))
    assert install(llm) is llm  # idempotent
    from llama_cpp import LlamaGrammar

    g = LlamaGrammar.from_string('root ::= "yes" | "no"', verbose=False)
    assert isinstance(llm._init_sampler(temp=0.0, grammar=g), GreedyGrammarSampler)
    for kw in ({"temp": 0.7, "grammar": g}, {"temp": 0.0, "grammar": None},
               {"temp": 0.0, "grammar": g, "repeat_penalty": 1.1}):
        assert not isinstance(llm._init_sampler(**kw), GreedyGrammarSampler)
