"""``--library`` for chat, the web UI and the MCP server (issue #17 item 1), on a tiny lexical
library built from real CUAD contracts under neutral file names (resolution reads the text):
a question naming one agreement is answered from it alone; a question two agreements tie on
gets one clarifying question listing them (chat, web) or the candidates in the result (MCP),
and the answer picks one; a question naming none searches the whole library. Every run writes
its transcript and token ledger under the session."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import anyio
import pytest
from fastapi.testclient import TestClient
from rich.console import Console

from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.chat import run_chat
from clauselens.interfaces.commands import build_service
from clauselens.interfaces.mcp_server import create_mcp_server
from clauselens.interfaces.web.app import create_app
from tests.fakes import ContractFakeChatModel

from .conftest import LIBRARY_FILES_PRESENT, MW

pytestmark = pytest.mark.skipif(not LIBRARY_FILES_PRESENT, reason="needs the CUAD corpus in ../shared/data")

NAMED = "What does the Dexcel / Kitov manufacturing agreement say about recalls?"
#: the supply agreement is filed twice (the signed copy and a copy with a filing note): a tie
TIED = "How is 'Facility' defined in the MediWound / Challenge Bioproducts supply agreement?"
UNNAMED = "Which party must keep records and for how long?"


@pytest.fixture
def service(tmp_path: Path, library_root: Path):
    settings = Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none"))
    return build_service(settings, models=ContractFakeChatModel(calls=[]), library=str(library_root))


def _file(service, doc_id: str) -> str:
    return next(Path(a.path).name for a in service.library.agreements() if a.doc_id == doc_id)


def _transcript(service, sid: str, n: int) -> dict:
    runs = service.runs_dir(sid)
    assert (runs / f"report{n}.ledger.json").exists()
    return json.loads((runs / f"report{n}.transcript.json").read_text())


def test_chat_named_agreement_is_searched_alone(service) -> None:
    sid = service.new_session()
    r = service.turn(sid, NAMED)
    assert r.kind == "report"
    res = next(e for e in r.events if e["type"] == "resolution")
    assert res["status"] == "resolved" and [_file(service, d) for d in res["chosen"]] == ["c.txt"]
    t = _transcript(service, sid, 0)
    assert t["passages"] and {Path(p["source_path"]).name for p in t["passages"].values()} == {"c.txt"}
    assert [Path(d["source_path"]).name for d in t["documents"]] == ["c.txt"]
    assert r.report.citations  # the fake model quotes a retrieved sentence; it was verified


def test_chat_tie_asks_which_agreement_then_answers_from_the_pick(service) -> None:
    sid = service.new_session()
    r1 = service.turn(sid, TIED)
    assert r1.kind == "clarify" and "Which agreement do you mean?" in r1.text
    assert sorted(_file(service, c["doc_id"]) for c in r1.candidates) == ["a.txt", "b.txt"]
    assert all(c["label"] in r1.text for c in r1.candidates)
    first = r1.candidates[0]["doc_id"]
    r2 = service.turn(sid, "1")
    assert r2.kind == "report" and r2.report.question == TIED
    res = next(e for e in r2.events if e["type"] == "resolution")
    assert res["status"] == "clarified" and res["chosen"] == [first]
    t = _transcript(service, sid, 0)
    assert {p["doc_id"] for p in t["passages"].values()} == {first}
    assert any('"Facility" means' in p["text"] for p in t["passages"].values())


def test_chat_unnamed_question_searches_the_whole_library_and_repl_shows_it(service) -> None:
    sid = service.new_session()
    buf = io.StringIO()
    lines = iter([UNNAMED, "/quit"])
    run_chat(service, sid, console=Console(file=buf, width=160), input_fn=lambda _: next(lines))
    out = buf.getvalue()
    assert "Library: firm (5 agreements)" in out
    assert "no agreement named; searching the whole library" in out
    assert f"--resume {sid} --library {service.library.root}" in out  # a library outside the cache: its folder
    t = _transcript(service, sid, 0)
    assert t["documents"] == [] and t["passages"]
    with pytest.raises(Exception, match="answers from the library 'firm'"):
        service.ingest(sid, [MW])


def test_web_library_session(service) -> None:
    with TestClient(create_app(service)) as client:
        sid = client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
        page = client.get(f"/s/{sid}").text
        assert "firm" in page and "5 agreements" in page and 'id="upload-form"' not in page
        assert client.get(f"/s/{sid}/state").json()["library"]["agreements"] == 5
        up = client.post(f"/s/{sid}/upload", files={"file": ("x.txt", b"1. Term. One year.")})
        assert up.status_code == 400 and "library add" in up.json()["error"]
        assert not service.store.list_uploads(sid)

        def turn(message: str) -> list[dict]:
            job = client.post(f"/s/{sid}/ask", data={"message": message}).json()["job"]
            with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as resp:
                return [json.loads(x[6:]) for x in resp.iter_lines() if x.startswith("data: ")]

        evs = turn(TIED)
        clarify = next(e for e in evs if e["type"] == "clarify")
        assert len(clarify["candidates"]) == 2 and "Which agreement" in clarify["text"]
        evs = turn("the second one")
        assert [e["type"] for e in evs][-2:] == ["report", "done"]
        picked = clarify["candidates"][1]["doc_id"]
        assert next(e for e in evs if e["type"] == "resolution")["chosen"] == [picked]
        cit = evs[-2]["report"]["citations"][0]
        assert cit["doc_id"] == picked
        d = client.get(f"/s/{sid}/documents/{picked}").json()  # the citation opens the library agreement
        assert "\n".join(d["text"][s["start"]:s["end"]] for s in cit["spans"]) == cit["quote"]


def test_mcp_library_session(service) -> None:
    server = create_mcp_server(service)

    def call(name: str, args: dict):
        return anyio.run(server.call_tool, name, args)

    amb = call("ask", {"question": TIED})
    out = amb.structured_content
    assert not amb.is_error and out["kind"] == "clarify" and len(out["candidates"]) == 2
    sid = out["session_id"]
    assert sorted(_file(service, c["doc_id"]) for c in out["candidates"]) == ["a.txt", "b.txt"]
    rep = call("ask", {"question": "1", "session_id": sid}).structured_content
    assert rep["kind"] == "report" and Path(rep["files"]["transcript"]).exists()

    found = call("search_clauses", {"query": NAMED, "k": 3}).structured_content
    assert found["resolution"]["status"] == "resolved" and len(found["resolution"]["chosen"]) == 1
    doc = found["resolution"]["chosen"][0]["doc_id"]
    assert _file(service, doc) == "c.txt" and all(p["doc_id"] == doc for p in found["passages"])
    ref = next(p["clause_ref"] for p in found["passages"] if p["clause_ref"] and re.fullmatch(r"[\d.]+", p["clause_ref"]))
    clause = call("fetch_clause", {"ref": ref, "doc_id": doc})
    assert not clause.is_error and clause.structured_content["clause_ref"] == ref
    # called in-process the SDK raises the ToolError it turns into an is_error result over stdio
    with pytest.raises(Exception, match="needs doc_id"):
        call("fetch_clause", {"ref": ref})
    with pytest.raises(Exception, match="library add"):
        call("ingest", {"paths": [str(MW)]})


def test_chat_cli_library_option(tmp_path: Path, library_root: Path) -> None:
    from typer.testing import CliRunner

    from clauselens.cli import app

    env = {"CLAUSELENS_CACHE_DIR": str(tmp_path), "CLAUSELENS_RETRIEVAL__EMBEDDER": "none"}
    for agent in ("ARCHIVIST", "RESEARCHER", "INTERROGATOR"):  # a server that is only contacted on a question
        env[f"CLAUSELENS_{agent}_MODEL__BACKEND"] = "openai"
        env[f"CLAUSELENS_{agent}_MODEL__BASE_URL"] = "http://127.0.0.1:9/v1"
    runner = CliRunner()
    r = runner.invoke(app, ["chat", "--library", str(library_root)], input="/quit\n", env=env)
    assert r.exit_code == 0, r.output
    assert "Library: firm (5 agreements)" in r.output and "--library" in r.output
    r = runner.invoke(app, ["chat", "--library", "nosuchlibrary"], input="/quit\n", env=env)
    assert r.exit_code == 3 and "nosuchlibrary" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["chat", str(MW), "--library", str(library_root)], env=env)
    assert r.exit_code == 3 and "either files or --library" in r.output
