"""The whole graph with the real 0.5B model on a real CUAD contract (slow: loads a GGUF).

Checks structure, not wording: a small model's prose varies, but every kept quote must be
verbatim in the source document at its recorded spans, and the transcript must record the
model calls with token usage."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.pipeline import ask
from clauselens.reports.verify import normalize
from clauselens.retrieval.hybrid import HybridRetriever

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CONTRACT = SHARED / "data/cuad/full_contract_pdf/Part_III/Endorsement Agreement/MOVADOGROUPINC_04_30_2003-EX-10.28-ENDORSEMENT AGREEMENT.PDF"


@pytest.mark.slow
def test_whole_graph_real_small_model_quotes_verbatim(small_model_path):
    # a 4k window keeps the draft prompt short (test speed); 1,536-token replies fit a full draft
    # (the draft schema bounds its strings to ~1,000 tokens)
    settings = Settings().with_model(model=str(small_model_path), n_ctx=4096, max_tokens=1536)
    doc = load_document(CONTRACT)
    tools = {"hybrid": HybridRetriever(None)}  # lexical: keeps the test to the model's time
    res = ask([str(CONTRACT)], "When does this agreement terminate, and can either party end it early?",
              settings, tools=tools, max_turns=1, context="I represent Movado.")
    r = res.report
    assert r.title and r.question and r.turns == 1
    assert r.documents_silent or r.answer
    events = res.transcript["events"]
    calls = [e for e in events if e["type"] == "llm_call"]
    assert calls and all(c["usage"]["output_tokens"] > 0 for c in calls)
    assert any(e["type"] == "retrieval" and e["new_passage_ids"] for e in events)
    for c in r.citations:
        assert c.spans, c
        src = "\n".join(doc.text[s.start:s.end] for s in c.spans)
        assert normalize(src) == normalize(c.quote)
        assert normalize(c.quote) in normalize(res.transcript["passages"][c.passage_id]["text"])
    for d in r.dropped_quotes:
        assert any(d.quote in g for g in r.knowledge_gaps)
    # issue #19: every finding's (claim, quote) pair was judged -- by the rules or by the model's
    # structured verdict -- and only supported findings are cited facts
    ev = next(e for e in events if e["type"] == "report")
    assert ev["verification"] == r.verification and len(ev["support"]) == len(r.key_findings)
    verdict_calls = [c for c in calls if c["step"] == "support"]
    assert len(verdict_calls) == sum(1 for x in ev["support"] if x["source"] == "model")
    for f in r.key_findings:
        assert f.cited_fact == (f.grounded and bool(f.citation_ids) and f.support in ("supported", "unchecked"))
        assert f.support != "unchecked" or not f.citation_ids or "failed" in f.support_note
    assert (r.verification == "unverified") == (not r.documents_silent and not any(f.cited_fact for f in r.key_findings))
