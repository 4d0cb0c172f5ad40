"""LightRAG graph tool end to end on a real (tiny) contract, with a fake deterministic LLM
(canned extraction rows in LightRAG 1.5.7's ``<|#|>`` tuple format) and a deterministic
hashing embedder built here, so the test runs offline in seconds."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("lightrag")

from clauselens.config import Settings  # noqa: E402
from clauselens.errors import ConfigError, RetrievalError  # noqa: E402
from clauselens.parsing import build_chunks, load_document  # noqa: E402
from clauselens.retrieval.hybrid import HybridRetriever  # noqa: E402
from clauselens.retrieval.lightrag.adapter import META_FILE, GraphUnavailableError, graph_chunks  # noqa: E402
from clauselens.retrieval.lightrag.retriever import LightRAGRetriever  # noqa: E402
from clauselens.retrieval.lightrag.tool import GraphTool, HybridPlusGraph, build_graph_tool  # noqa: E402

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CONTRACT = SHARED / "robustness" / "four_clause_contract.txt"
TD, DONE = "<|#|>", "<|COMPLETE|>"
#: canned entity table: name -> (type, description); a chunk yields the names it mentions
ENTITIES = {
    "Provider": ("Organization", "The party that performs the Services."),
    "Client": ("Organization", "The party that receives the Services and pays the fees."),
    "Services": ("Concept", "The work the Provider performs."),
    "Scotland": ("Location", "The jurisdiction whose laws govern the Agreement."),
    "Agreement": ("Content", "The services agreement between Provider and Client."),
}


def _input_text(prompt: str) -> str:
    m = re.search(r"---Input Text---\s*```\n(.*?)\n```", prompt, re.DOTALL)
    return m.group(1) if m else ""


class FakeLLM:
    """LightRAG ``llm_model_func``: extraction prompt -> canned rows for the chunk's
    entities; keyword prompt -> JSON of the query's capitalised/long words; anything else
    (description summaries) -> a fixed sentence. ``fail_on`` raises for chunks containing
    that text; ``empty`` returns no rows (the zero-entity path)."""

    def __init__(self, empty: bool = False, fail_on: str | None = None) -> None:
        self.empty, self.fail_on = empty, fail_on
        self.extracted: list[str] = []
        self.calls = 0

    async def __call__(self, prompt: str, system_prompt: str | None = None, history_messages=None, **kw) -> str:
        self.calls += 1
        if "---Input Text---" in prompt:
            text = _input_text(prompt)
            if self.fail_on and self.fail_on in text:
                raise RuntimeError("model crashed")
            self.extracted.append(text)
            if self.empty:
                return DONE
            names = [n for n in ENTITIES if n.lower() in text.lower()]
            rows = [f"entity{TD}{n}{TD}{ENTITIES[n][0]}{TD}{ENTITIES[n][1]}" for n in names]
            rows += [f"relation{TD}{a}{TD}{b}{TD}contract{TD}{a} and {b} appear in the same clause."
                     for a, b in zip(names, names[1:])]
            return "\n".join([*rows, DONE])
        if "User Query:" in prompt:
            q = prompt.split("User Query:", 1)[1].split("---Output---", 1)[0]
            words = [w for w in re.findall(r"[A-Za-z]+", q) if len(w) > 4 or w[0].isupper()]
            return json.dumps({"high_level_keywords": words[:2], "low_level_keywords": words})
        return "A party to the agreement."


class HashEmbedder:
    """Deterministic bag-of-words hashing embedder (``dim`` buckets, L2-normalised)."""

    def __init__(self, dim: int = 64, name: str = "hash64") -> None:
        self.dim, self.name = dim, name

    def _e(self, texts):
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"\w+", t.lower()):
                out[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)

    embed_queries = embed_passages = _e


@pytest.fixture(scope="module")
def doc():
    return load_document(CONTRACT)


def _retriever(tmp: Path, llm, emb=None, **kw) -> LightRAGRetriever:
    return LightRAGRetriever(embedder=emb or HashEmbedder(), llm_func=llm, store_dir=tmp, **kw)


def test_graph_passages_map_back_to_our_chunks_and_spans(tmp_path, doc):
    llm, seen = FakeLLM(), []
    r = _retriever(tmp_path, llm, mode="local", progress=seen.append)
    try:
        r.index([doc])
        ours = {c.id: c for c in graph_chunks(build_chunks(doc))}
        # every Archivist node chunk went to the LLM once, as our text (not re-chunked)
        assert len(llm.extracted) == len(ours)
        assert all(any(c.text in t for t in llm.extracted) for c in ours.values())
        assert r.stats.entities == len(ENTITIES) and r.stats.relations > 0
        assert [p.done for p in seen] == list(range(1, len(ours) + 1)) and seen[-1].eta_s == 0
        res = r.search("Which laws of Scotland govern it?", k=3)
        assert not res.abstained and res.passages
        top = res.passages[0]
        assert top.clause_ref == "4" and "Scotland" in top.text
        for p in res.passages:
            assert p.chunk_id in ours and p.method == "lightrag" and p.doc_id == doc.id
            assert "\n".join(doc.text[s.start:s.end] for s in p.spans) == p.text
        assert res.trace["mode"] == "local" and "Scotland" in res.trace["entities"]
        # keywords from the query itself: no LLM call at query time, same clause found
        calls = llm.calls
        res_q = r.search("laws of Scotland", k=1, mode="hybrid", keywords="query")
        assert res_q.passages[0].clause_ref == "4" and res_q.trace["keywords_from"] == "query"
        assert llm.calls == calls
        r.search("What is the governing law?", k=1, mode="hybrid")  # keywords="llm": one call
        assert llm.calls == calls + 1
        assert [p.ranks["lightrag"] for p in res.passages] == list(range(1, len(res.passages) + 1))
    finally:
        r.close()
    # a later process reopens the stored graph without re-indexing (no LLM call)
    again = FakeLLM()
    r2 = _retriever(tmp_path, again, mode="local")
    try:
        r2.open(r.working_dir)
        assert r2.search("Which laws of Scotland govern it?", k=1).passages[0].clause_ref == "4"
        assert again.extracted == []
    finally:
        r2.close()


def test_resume_after_failure_only_redoes_unfinished_chunks(tmp_path, doc):
    bad = FakeLLM(fail_on="terminate this Agreement")
    r = _retriever(tmp_path, bad, llm_timeout_s=30)
    try:
        r.index([doc])
        assert r.stats.failed_chunks == 1 and r.stats.errors
    finally:
        r.close()
    good = FakeLLM()
    r2 = _retriever(tmp_path, good)
    try:
        r2.index([doc])
        assert len(good.extracted) == 1 and "terminate this Agreement" in good.extracted[0]
        assert r2.stats.failed_chunks == 0
        res = r2.search("Either party may terminate on notice", k=5, mode="naive")
        assert any(p.clause_ref == "3" for p in res.passages)
    finally:
        r2.close()


def test_zero_entities_is_loud_and_hybrid_takes_over(tmp_path, doc):
    r = _retriever(tmp_path, FakeLLM(empty=True))
    try:
        with pytest.raises(GraphUnavailableError, match="extraction produced 0 entities"):
            r.index([doc])
        with pytest.raises(GraphUnavailableError):
            r.search("indemnify", k=3, mode="mix")
        naive = r.search("indemnify the Client", k=3, mode="naive")  # chunk vectors still work
        assert naive.passages and "0 entities" in naive.trace["warning"]
        both = HybridPlusGraph(HybridRetriever(None), r)
        both.index([doc])
        res = both.search("indemnify", k=2)
        assert res.trace["graph"].startswith("graph retrieval unavailable: extraction produced 0 entities")
        assert res.passages and all("indemnify" in p.text for p in res.passages)
    finally:
        r.close()


def test_embedder_change_is_refused_or_rebuilt(tmp_path, doc):
    r = _retriever(tmp_path, FakeLLM())
    r.index([doc])
    r.close()
    other = HashEmbedder(dim=32, name="hash32")
    r2 = _retriever(tmp_path, FakeLLM(), emb=other)
    with pytest.raises(RetrievalError, match="built with embedder 'hash64' \\(64-d\\).*'hash32' \\(32-d\\)"):
        r2.index([doc])
    llm = FakeLLM()
    r3 = _retriever(tmp_path, llm, emb=other, rebuild=True)
    try:
        r3.index([doc])
        assert len(llm.extracted) == len(graph_chunks(build_chunks(doc)))  # built again from scratch
        meta = json.loads((r3.working_dir / META_FILE).read_text())
        assert meta["embedder"] == {"name": "hash32", "dim": 32}
        # the rebuilt 32-d vector store serves queries (a stale 64-d one would fail)
        res = r3.search("governed by the laws of Scotland", k=3, mode="naive")
        assert "4" in [p.clause_ref for p in res.passages]
    finally:
        r3.close()


def test_hybrid_plus_graph_keeps_graph_passages_in_fusion(tmp_path, doc):
    r = _retriever(tmp_path, FakeLLM(), mode="local")
    try:
        both = HybridPlusGraph(HybridRetriever(None), r, candidates=5)
        both.index([doc])
        res = both.search("Scotland", k=5)
        assert isinstance(res.trace["graph"], dict) and res.trace["graph"]["tool"] == "lightrag"
        from_graph = [p for p in res.passages if "lightrag" in p.ranks]
        assert from_graph, "graph passages must survive fusion"
        assert all(p.method == "rrf" and p.spans for p in res.passages)
    finally:
        r.close()


def test_one_retriever_moves_to_a_new_corpus(tmp_path, doc):
    r = _retriever(tmp_path, FakeLLM(), mode="local")
    try:
        r.index([doc])
        first = r.working_dir
        other = load_document(SHARED / "robustness" / "two_clause_contract.txt")
        r.index([other])
        assert r.working_dir != first
        res = r.search("laws of Ireland", k=5, mode="naive")
        assert res.passages and {p.doc_id for p in res.passages} == {other.id}
    finally:
        r.close()


def test_bad_mode_and_unbuilt_graph(tmp_path):
    with pytest.raises(ConfigError, match="unknown LightRAG mode"):
        _retriever(tmp_path, FakeLLM(), mode="graph")  # type: ignore[arg-type]
    with pytest.raises(RetrievalError, match="no LightRAG graph built"):
        _retriever(tmp_path, FakeLLM()).search("anything")


def test_researcher_tool_abstains_with_reason_when_graph_is_unavailable(tmp_path, doc, monkeypatch):
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__GRAPH_MODE", "local")
    settings = Settings(cache_dir=tmp_path)
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    # a langchain chat model (through make_llm_model_func) that extracts nothing
    chat = FakeListChatModel(responses=[DONE])
    tool = build_graph_tool(settings, chat_model=chat, embedder=HashEmbedder())
    assert isinstance(tool, GraphTool) and tool.graph.mode == "local"
    assert tool.graph.working_dir is None and tool.graph.store_dir == settings.store_dir
    tool.index([doc])  # does not raise: the run goes on with the other tools
    res = tool.search("indemnify", k=3)
    assert res.abstained and not res.passages
    assert res.reason.startswith("graph retrieval unavailable: extraction produced 0 entities from 5 chunks")
    # with the hybrid retriever as fallback the Researcher still gets passages, and the reason
    hybrid = HybridRetriever(None)
    hybrid.index([doc])
    tool.fallback = hybrid
    res = tool.search("indemnify", k=2)
    assert not res.abstained and res.passages and all("indemnify" in p.text for p in res.passages)
    assert "0 entities" in res.reason and res.reason.endswith("hybrid results instead")
    tool.graph.close()


def test_settings_tools_hybrid_lightrag_give_the_researcher_a_graph_tool(tmp_path):
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from clauselens.retrieval.registry import make_tools

    settings = Settings(cache_dir=tmp_path)
    settings = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(
        update={"tools": ["hybrid", "lightrag"], "embedder": "none", "graph_mode": "local"})})
    chat = FakeListChatModel(responses=[DONE])
    tools = make_tools(settings, chat_model=lambda: chat)
    assert set(tools) == {"hybrid", "lightrag"}
    g = tools["lightrag"]
    assert isinstance(g, GraphTool) and g.fallback is tools["hybrid"] and g.graph.mode == "local"
    assert g.graph.embedder.name == "minilm"  # LightRAG needs vectors even when hybrid is lexical-only
