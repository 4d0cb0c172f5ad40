"""navindex: detectors, Config-6 serialisation, S1 id validation and batching, S2 fetch
with the one-hop cross-reference, S3 refusal — on real parsed CUAD documents, with a
scripted fake chat model for the LLM steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ValidationError

from clauselens.parsing import load_document
from clauselens.retrieval.ledger import Ledger
from clauselens.retrieval.navigate.answer import answer_from_passages, provisions_block
from clauselens.retrieval.navigate.fetch import fetch
from clauselens.retrieval.navigate.index import (
    NavCorpus,
    build_nav_index,
    has_condition,
    has_date,
    has_liability_limit,
    has_money,
    has_party,
    has_percentage,
    is_definition_text,
    is_toc_entry,
    keywords,
    serialize_index,
    write_nav_files,
)
from clauselens.retrieval.navigate.navindex import NavIndexRetriever
from clauselens.retrieval.navigate.prompts import REFUSAL
from clauselens.retrieval.navigate.scan import ScanPick, ScanSelection, plan_scan_batches, scan, validate_picks
from clauselens.retrieval.types import RetrievalMethod

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
FED = "FEDERATEDGOVERNMENTINCOMESECURITIESINC_04_28_2020-EX-99.SERV AGREE-SERVICES AGREEMENT"
ADMA = "ADMA BioManufacturing, LLC -  Amendment #3 to Manufacturing Agreement .txt"


class ScriptedChat(BaseChatModel):
    """Returns the scripted replies in order, with token usage; records the prompts."""

    replies: list[str]
    n_ctx: int = 8192
    seen: list = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages, stop=None, run_manager=None, **kw: Any) -> ChatResult:
        self.seen.append(messages)
        text = self.replies[min(len(self.seen) - 1, len(self.replies) - 1)]
        n_in = sum(len(m.content) for m in messages) // 4
        msg = AIMessage(content=text, usage_metadata={"input_tokens": n_in, "output_tokens": 7, "total_tokens": n_in + 7})
        return ChatResult(generations=[ChatGeneration(message=msg)])


@pytest.fixture(scope="module")
def fed_docs():
    return [load_document(CUAD / f"{FED}{s}.txt") for s in ("", "_AMENDMENT", "_SECONDAMENDMENT")]


@pytest.fixture(scope="module")
def adma():
    return load_document(CUAD / ADMA)


def _node_with(doc, needle: str):
    return next(n for n in doc.nodes[1:] if needle in doc.text[n.body_span.start:n.body_span.end])


def test_detectors_on_real_clauses(fed_docs, adma):
    sa = fed_docs[0]
    text = lambda d, needle: d.text[_node_with(d, needle).body_span.start:_node_with(d, needle).body_span.end]  # noqa: E731
    fee = text(adma, "7,000,000 USD")
    law = text(sa, "Commonwealth of Pennsylvania")
    assert has_money(fee) and not has_money(law)
    assert has_date(text(adma, "on March 1, 2018")) and has_date(text(sa, "January 1, 2004")) and not has_date(law)
    cap = text(adma, "6.5 Limitation of Liability")
    assert has_liability_limit(cap) and not has_liability_limit(law)
    assert has_condition(text(sa, "FASC shall in no event compromise")) and not has_condition(law)
    assert is_definition_text(text(sa, '"Applicable Margin" is 0.10')) and not is_definition_text(law)
    assert is_definition_text('"Operating Costs" means all operating expenses')
    assert is_definition_text(text(sa, "dated and effective as of January 1, 2004"))  # (this "Agreement")
    assert has_party(law, ["Adviser", "FASC"]) is False and has_party(fee, ["ADMA"])
    assert has_percentage("a fee of 2.5% of Net Sales") and not has_percentage(fee)
    assert is_toc_entry("5. Duration and Termination ........ 3") and not is_toc_entry(law)
    assert keywords("Fees fees FEES payable monthly in arrears; fees are payable", 2) == ["fees", "payable"]


def test_index_and_provision_store_are_verbatim(fed_docs, tmp_path):
    sa = fed_docs[0]
    index, full = build_nav_index(sa)
    ids = index.node_ids()
    assert "n0" not in ids and ids == set(full)
    for nid, text in full.items():
        n = sa.node(nid)
        assert text == sa.text[n.body_span.start:n.body_span.end]
    exhibit_b = _node_with(sa, '"Applicable Margin" is 0.10')
    nb = next(n for n in index.nodes if n.id == exhibit_b.id)
    assert nb.is_definition and nb.text_length == len(full[nb.id])
    assert any(n.has_liability_limit for n in index.nodes if n.ref == "4(a)")
    idx_path, full_path = write_nav_files(sa, tmp_path)
    assert json.loads(full_path.read_text(encoding="utf-8")) == full
    assert json.loads(idx_path.read_text(encoding="utf-8"))["doc_id"] == sa.id


def test_config6_serialisation_is_compact_and_lossless_on_ids(fed_docs):
    index, _ = build_nav_index(fed_docs[0])
    s = serialize_index(index, "D1")
    data = json.loads(s)
    assert data["d"] == "D1" and json.dumps(data, separators=(",", ":"), ensure_ascii=False) == s  # no whitespace
    assert [n["i"] for n in data["n"]] == [n.id for n in index.nodes]
    for n in data["n"]:
        assert all(v not in (False, None, "", [], 0) or k == "l" for k, v in n.items())
        assert set(n) <= set("irhskxclDMTPLCYO")
    verbose = json.dumps(index.model_dump(), indent=1)
    assert len(s) * 2 < len(verbose)


def test_invented_ids_rejected_and_counted(fed_docs):
    corpus = NavCorpus.build(fed_docs)
    sa_id = fed_docs[0].id
    sel = ScanSelection(nodes=[ScanPick(doc="D1", node="n19"), ScanPick(doc=sa_id, node="n12"),
                               ScanPick(doc="D1", node="n999"), ScanPick(doc="D9", node="n1"),
                               ScanPick(doc="D1", node="n19")])
    valid, rejected = validate_picks(sel, corpus)
    assert valid == [(sa_id, "n19"), (sa_id, "n12")]
    assert rejected == [{"doc": "D1", "node": "n999"}, {"doc": "D9", "node": "n1"}]
    many = ScanSelection(nodes=[ScanPick(doc="D1", node=f"n{i}") for i in range(1, 11)])
    assert len(validate_picks(many, corpus, max_nodes=5)[0]) == 5


def test_scan_validates_model_output_and_fills_ledger(fed_docs):
    corpus = NavCorpus.build(fed_docs)
    reply = json.dumps({"nodes": [{"doc": "D1", "node": "n19"}, {"doc": "D2", "node": "n77"}]})
    model = ScriptedChat(replies=[reply], seen=[])
    ledger = Ledger()
    entry = ledger.start("q", "navindex")
    res = scan(model, corpus, "Which law governs?", ledger=ledger, entry=entry)
    assert res["picks"] == [(fed_docs[0].id, "n19")] and res["rejected"] == [{"doc": "D2", "node": "n77"}]
    assert entry.invented_ids == 1 and entry.llm_calls == 1 and res["batches"] == 1
    prompt = model.seen[0][1].content
    assert '"d":"D1"' in prompt and '"d":"D3"' in prompt and "Which law governs?" in prompt
    assert "Commonwealth of Pennsylvania" not in prompt  # only indices, never full text
    assert 0 < entry.calls[0].cacheable_tokens < entry.calls[0].input_tokens


def test_scan_batches_when_indices_exceed_window(fed_docs):
    corpus = NavCorpus.build(fed_docs)
    counter = lambda s: len(s) // 4  # noqa: E731
    total = sum(counter(serialize_index(i)) for i in corpus.indices.values())
    batches = plan_scan_batches(corpus, total // 3, counter)
    assert len(batches) >= 3 and all(counter(b) <= total // 3 for b in batches)
    got = {n["i"] + "@" + obj["d"] for b in batches for line in b.splitlines() for obj in [json.loads(line)] for n in obj["n"]}
    assert len(got) == sum(len(i.nodes) for i in corpus.indices.values())  # nothing lost
    picks = [json.dumps({"nodes": [{"doc": "D1", "node": f"n{i}"} for i in range(4, 14)]})] * 10
    model = ScriptedChat(replies=picks, n_ctx=1500, seen=[])
    res = scan(model, corpus, "What are the fees?")
    assert res["batches"] > 1 and len(res["picks"]) <= 10 and len(model.seen) == res["batches"]


def test_fetch_follows_cross_reference_one_hop(fed_docs):
    sa = fed_docs[0]
    corpus = NavCorpus.build(fed_docs)
    fees = _node_with(sa, "Services Fees calculated and payable in accordance with Exhibit B")
    exhibit_b = _node_with(sa, "payable monthly in arrears")
    assert exhibit_b.id in fees.cross_referenced_ids
    ps = fetch(corpus, [(sa.id, fees.id)])
    assert [p.node_id for p in ps][:2] == [fees.id, exhibit_b.id] and ps[1].scores.get("hop") == 1.0
    assert "monthly in arrears" in ps[1].text
    assert [p.node_id for p in fetch(corpus, [(sa.id, fees.id)], hop=False)] == [fees.id]
    # a short parent node (a heading over (a)-(c)) is fetched with its children
    head = _node_with(sa, "Limitation of Liability and Indemnification")
    p = fetch(corpus, [(sa.id, head.id)], hop=False)[0]
    assert "willful malfeasance" in p.text and p.text == sa.text[p.spans[0].start:p.spans[0].end]
    block = provisions_block(ps)
    assert f'node="{exhibit_b.id}"' in block and 'doc="SERVICES AGREEMENT"' in block and 'clause="Clause 2"' in block


def test_answer_refuses_exactly_and_retriever_protocol(fed_docs, adma):
    model = ScriptedChat(replies=[REFUSAL], seen=[])
    r = NavIndexRetriever(model)
    assert isinstance(r, RetrievalMethod)
    r.index([adma])
    assert answer_from_passages(model, "anything?", []).refused and not model.seen  # no call on nothing
    nid = _node_with(adma, "7,000,000 USD").id
    model.replies = [json.dumps({"nodes": [{"doc": "D1", "node": nid}]}), REFUSAL]
    res = r.search("What is the governing law?", query_id="x")
    assert [p.node_id for p in res.passages][0] == nid and res.passages[0].spans
    ans = answer_from_passages(model, "What is the governing law?", res.passages, r.ledger, r.entry_for(res))
    assert ans.refused and ans.context_tokens > 0
    e = r.ledger.entries[0]
    assert e.query_id == "x" and [c.stage for c in e.calls] == ["scan", "answer"] and e.answering_context_tokens == ans.context_tokens
    model.replies = [json.dumps({"nodes": []})]
    model.seen = []
    assert r.search("nothing").abstained


def test_build_nav_tool_by_name(tmp_path):
    from clauselens.config import Settings
    from clauselens.errors import ConfigError
    from clauselens.retrieval.navigate.inject import InjectRetriever
    from clauselens.retrieval.navigate.tools import build_nav_tool

    s = Settings(cache_dir=tmp_path)
    model = ScriptedChat(replies=["{}"], seen=[])
    assert isinstance(build_nav_tool("navindex", s, model), NavIndexRetriever)
    assert isinstance(build_nav_tool("inject", s, model), InjectRetriever)
    with pytest.raises(ConfigError, match="needs a chat model"):
        build_nav_tool("navindex", s)
    with pytest.raises(ConfigError, match="unknown navigation tool"):
        build_nav_tool("navx", s, model)


def test_scan_schema_caps_the_list_for_grammar_backends():
    schema = ScanSelection.model_json_schema()
    assert schema["properties"]["nodes"]["maxItems"] == 10
    with pytest.raises(ValidationError):
        ScanSelection.model_validate({"nodes": [{"doc": "D1", "node": f"n{i}"} for i in range(11)]})
