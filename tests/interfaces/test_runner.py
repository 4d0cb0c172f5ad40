"""One runner for every front end (issue #18): chat, the web UI and the MCP server make the
Researcher's tools with the registry from ``RetrievalSettings.tools`` (not a hybrid-only
factory of their own), run the agents through :func:`clauselens.pipeline.ask`, and write
each run's report, transcript and token ledger under the session."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from fastapi.testclient import TestClient

from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.commands import build_service
from clauselens.interfaces.mcp_server import create_mcp_server
from clauselens.interfaces.web.app import create_app
from clauselens.retrieval import registry
from clauselens.retrieval.rerank import LLMReranker
from clauselens.retrieval.types import SearchResult
from tests.fakes import ContractFakeChatModel

from .conftest import ROBUST

CONTRACT = ROBUST / "four_clause_contract.txt"


class SpyTool:
    """A retrieval tool that records what it was given and finds nothing."""

    name = "navembed"

    def __init__(self) -> None:
        self.indexed: list[str] = []
        self.queries: list[str] = []

    def index(self, documents) -> None:
        self.indexed = [Path(d.source_path).name for d in documents]

    def search(self, query: str, k: int = 8) -> SearchResult:
        self.queries.append(query)
        return SearchResult(query=query, passages=[], abstained=True, reason="spy")


@pytest.fixture
def spies(monkeypatch) -> list[SpyTool]:
    made: list[SpyTool] = []

    def factory(ctx):
        made.append(SpyTool())
        return made[-1]

    monkeypatch.setitem(registry.TOOL_FACTORIES, "navembed", factory)
    return made


@pytest.fixture
def service(tmp_path, spies):
    settings = Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none", tools=["hybrid", "navembed"]))
    return build_service(settings, models=ContractFakeChatModel(calls=[]))


def _check_run(service, sid: str, spies: list[SpyTool], n: int = 0) -> dict:
    assert len(spies) == 1 and spies[0].indexed == ["four_clause_contract.txt"] and spies[0].queries
    runs = service.runs_dir(sid)
    transcript = json.loads((runs / f"report{n}.transcript.json").read_text())
    ledger = json.loads((runs / f"report{n}.ledger.json").read_text())
    assert transcript["retrieval"]["tools"] == ["hybrid", "navembed"]
    assert ledger["run"]["tools"] == ["hybrid", "navembed"] and ledger["run"]["question"]
    assert transcript["documents"][0]["source_path"].endswith("four_clause_contract.txt")
    assert any(e["type"] == "llm_call" for e in transcript["events"])
    assert (runs / f"report{n}.md").read_text().strip()
    # one DocumentSummary: the session keeps what the run's transcript records
    assert transcript["documents"] == service.documents(sid)
    return ledger


def test_chat_turn_uses_configured_tools_and_writes_transcript_and_ledger(service, spies):
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    r = service.turn(sid, "How can this agreement be terminated?")
    assert r.kind == "report" and "60 days' written notice" in r.report.answer
    ledger = _check_run(service, sid, spies)
    assert ledger and Path(r.files["ledger"]).name == "report0.ledger.json"


def test_web_turn_uses_configured_tools_and_writes_transcript_and_ledger(service, spies):
    with TestClient(create_app(service, pick_dirs=(ROBUST,))) as client:
        sid = client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
        assert client.post(f"/s/{sid}/pick", data={"path": str(CONTRACT)}).status_code == 200
        job = client.post(f"/s/{sid}/ask", data={"message": "How can this agreement be terminated?"}).json()["job"]
        with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as resp:
            evs = [json.loads(line[6:]) for line in resp.iter_lines() if line.startswith("data: ")]
    assert [e["type"] for e in evs][-2:] == ["report", "done"]
    _check_run(service, sid, spies)


def test_mcp_ask_uses_configured_tools_and_writes_transcript_and_ledger(service, spies):
    sid = service.new_session()
    server = create_mcp_server(service, roots=(ROBUST,), session_id=sid)
    ing = anyio.run(server.call_tool, "ingest", {"paths": [str(CONTRACT)]})
    assert not ing.is_error
    out = anyio.run(server.call_tool, "ask", {"question": "How can this agreement be terminated?"})
    assert not out.is_error and out.structured_content["kind"] == "report"
    _check_run(service, sid, spies)


def test_llm_reranker_works_in_chat_sessions(tmp_path):
    """reranker="llm" used to raise ConfigError in chat/web/MCP (their factory passed no model)."""
    model = ContractFakeChatModel(calls=[])
    settings = Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none", reranker="llm"))
    service = build_service(settings, models=model)
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    tools = service.interrogate.tools_for(service.parsed_documents(sid))
    assert isinstance(tools["hybrid"].reranker, LLMReranker) and tools["hybrid"].reranker.chat_model is model


def test_every_event_type_is_in_the_one_vocabulary(service, spies):
    from clauselens.events import EVENT_TYPES

    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    r = service.turn(sid, "How can this agreement be terminated?")
    t = json.loads((service.runs_dir(sid) / "report0.transcript.json").read_text())
    turn_types, run_types = {e["type"] for e in r.events}, {e["type"] for e in t["events"]}
    assert {"status", "request", "round", "report"} <= turn_types <= set(EVENT_TYPES)
    assert {"ingest", "llm_call", "decompose", "retrieval", "draft", "report"} <= run_types <= set(EVENT_TYPES)
    assert all(type(e["type"]) is str for e in t["events"])  # plain JSON strings, whatever the constants are
