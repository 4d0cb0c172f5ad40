"""The MCP server, driven over stdio by the official SDK's own client."""

import contextlib
import gzip
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from clauselens.interfaces.commands import build_service
from clauselens.interfaces.grids import GridRuns
from clauselens.interfaces.mcp_server import create_mcp_server

from .conftest import make_settings
from .test_web_grid_persist import ServerStopped, StoppingChat

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ROBUST = SHARED / "robustness"
SERVER = Path(__file__).parent / "mcp_fake_server.py"


async def _session_calls(cache: Path) -> dict:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER), str(cache), str(ROBUST)],
                                   env={"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})
    out: dict = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            out["server"] = (init.server_info.name, init.server_info.version)
            out["tools"] = sorted(t.name for t in (await s.list_tools()).tools)
            out["ingest"] = await s.call_tool("ingest", {"paths": [str(ROBUST / "clause_number_lookup.txt")]})
            out["search"] = await s.call_tool("search_clauses", {"query": "What does clause 3.2 say?", "k": 3})
            out["fetch"] = await s.call_tool("fetch_clause", {"ref": "§3.2"})
            out["fetch_missing"] = await s.call_tool("fetch_clause", {"ref": "9.9"})
            out["ask"] = await s.call_tool("ask", {"question": "When is rent increased?"})
            out["outside"] = await s.call_tool("ingest", {"paths": ["/etc/hostname"]})
            out["bad"] = await s.call_tool("ingest", {"paths": [str(ROBUST / "whitespace_only.txt")]})
            out["mixed"] = await s.call_tool("ingest", {"paths": [str(ROBUST / "whitespace_only.txt"),
                                                                  str(ROBUST / "two_clause_contract.txt")]})
    return out


def test_mcp_tools_over_stdio(tmp_path):
    r = anyio.run(_session_calls, tmp_path)
    from clauselens import __version__

    assert r["server"] == ("clauselens", __version__)  # the tryout saw an empty server version
    assert r["tools"] == ["ask", "fetch_clause", "grid_cell", "grid_progress", "ingest", "resume_grid", "review_agreement",
                          "search_clauses", "start_grid"]
    text = (ROBUST / "clause_number_lookup.txt").read_text(encoding="utf-8")

    ing = r["ingest"]
    assert not ing.is_error
    doc = ing.structured_content["documents"][0]
    assert doc["file_name"] == "clause_number_lookup.txt"

    hits = r["search"].structured_content["passages"]
    assert hits[0]["clause_ref"] == "3.2"
    s, e = hits[0]["spans"][0]
    assert "Consumer Prices Index" in text[s:e]

    f = r["fetch"].structured_content
    assert f["clause_ref"] == "3.2"
    assert text[f["span"][0]:f["span"][1]] == f["text"]
    assert f["text"].startswith("3.2 Rent shall be increased")
    assert r["fetch_missing"].is_error and "9.9 not found" in r["fetch_missing"].content[0].text

    ask = r["ask"].structured_content
    assert ask["kind"] == "report"
    rep = ask["report"]
    assert rep["citations"], rep
    c = rep["citations"][0]
    assert "\n".join(text[sp["start"]:sp["end"]] for sp in c["spans"]) == c["quote"]
    assert "## 5. Cited sources" in ask["markdown"] and c["quote"].split()[0] in ask["markdown"]

    assert r["outside"].is_error and "outside" in r["outside"].content[0].text
    assert r["bad"].is_error and "whitespace_only.txt: no text found" in r["bad"].content[0].text
    mixed = r["mixed"]  # issue #22: the good file is added, the bad one named, not a failed call
    assert not mixed.is_error
    assert "two_clause_contract.txt" in [d["file_name"] for d in mixed.structured_content["documents"]]
    assert mixed.structured_content["left_out"] == ["whitespace_only.txt: no text found"]


def test_mcp_ingest_records_files_left_out_in_the_session(service, tmp_path):
    """Issue #22: ingest with good and bad files adds the good one, names each bad file and its
    problem (no traceback), and records them in the session, so the session's reports list them
    as chat's do. Bad inputs: robustness files (whitespace only, password-protected) and ones
    made from them (0 bytes, a truncated .docx, a gzip archive named .pdf), a missing file and a
    path outside the server's roots."""
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    truncated = tmp_path / "tables.docx"
    truncated.write_bytes((ROBUST / "contract_with_tables.docx").read_bytes()[:5000])
    archive = tmp_path / "rent.pdf"
    archive.write_bytes(gzip.compress((ROBUST / "two_clause_contract.txt").read_bytes()))
    good = ROBUST / "four_clause_contract.txt"
    paths = [str(ROBUST / "whitespace_only.txt"), str(empty), str(good), str(ROBUST / "encrypted_user_pw.pdf"),
             str(truncated), str(archive), str(tmp_path / "missing.txt"), "/etc/hostname"]
    sid = service.new_session()
    server = create_mcp_server(service, roots=(ROBUST, tmp_path), session_id=sid)

    def call(name: str, args: dict):
        return anyio.run(server.call_tool, name, args)

    ing = call("ingest", {"paths": paths})
    assert not ing.is_error
    out = ing.structured_content
    assert [d["file_name"] for d in out["documents"]] == [good.name]
    left = out["left_out"]
    assert len(left) == 7 and "Traceback" not in out["message"]
    expect = [("whitespace_only.txt", "no text found"), ("empty.pdf", "empty (0 bytes)"),
              ("encrypted_user_pw.pdf", "password"), ("tables.docx", "truncated or damaged Word document"),
              ("rent.pdf", "gzip archive"), ("missing.txt", "no such file"), ("/etc/hostname", "outside")]
    for msg, (name, problem) in zip(left, expect):  # one message per file, in order: the file and its problem
        assert name in msg and problem in msg, (name, problem, msg)
    assert out["message"].startswith("read 1 of 8 file(s); left out (cannot be read): ")
    assert service.left_out(sid) == left  # recorded in the session

    rep = call("ask", {"question": "How can this agreement be terminated?"}).structured_content
    assert rep["kind"] == "report" and rep["report"]["left_out"] == left  # the report names them, as chat's does
    assert "Files left out (7" in rep["markdown"] and "empty.pdf" in rep["markdown"]

    # a second session given only bad files: one clear error naming each, nothing recorded
    sid2 = service.new_session()
    with pytest.raises(Exception, match=r"none of the 2 files could be read: .*whitespace_only.txt.*empty.pdf"):
        call("ingest", {"paths": paths[:2], "session_id": sid2})
    assert service.left_out(sid2) == [] and service.documents(sid2) == []


def test_mcp_grid_start_poll_and_cells(service, tmp_path):
    service.settings.grid_yes_no_model = True  # the fake model answers the yes/no cells the rules leave open (default: unverified)
    """Issue #21 (MCP part): start a grid over the session's contracts (one named by file name),
    poll its progress until done, fetch one cell (answer, verified quote, clause, page, status); a
    contract whose file has gone is a row of error cells; unknown grid ids, agreements, questions
    and bad input are clear tool errors, never tracebacks."""
    import time

    gone = tmp_path / "gone.txt"
    gone.write_text("LEASE\n\n1. This Lease is governed by the laws of Wales.\n", encoding="utf-8")
    sid = service.new_session()
    server = create_mcp_server(service, roots=(ROBUST, tmp_path), session_id=sid)

    def call(name: str, args: dict):
        return anyio.run(server.call_tool, name, args)

    def error_text(name: str, args: dict) -> str:
        return _tool_error(server, name, args)

    assert "no documents in this session" in error_text("start_grid", {"questions": ["Which law governs?"]})
    call("ingest", {"paths": [str(ROBUST / "four_clause_contract.txt"), str(ROBUST / "two_clause_contract.txt"), str(gone)]})
    gone.unlink()
    assert "give a question preset" in error_text("start_grid", {})
    assert "unknown question preset 'nope'" in error_text("start_grid", {"preset": "nope"})
    assert "unknown agreement(s) x.txt" in error_text("start_grid", {"questions": ["Which law governs?"], "agreements": ["x.txt"]})

    out = call("start_grid", {"questions": ["Which law governs this agreement? | text", "Is there a zebra?"]}).structured_content
    gid = out["grid_id"]
    assert [r["file"] for r in out["rows"]] == ["four_clause_contract.txt", "two_clause_contract.txt", "gone.txt"]
    assert [q["type"] for q in out["questions"]] == ["text", "yes_no"]
    law = out["questions"][0]["id"]
    deadline = time.time() + 60
    while True:
        prog = call("grid_progress", {"grid_id": gid}).structured_content
        if prog["progress"]["state"] in ("done", "failed") or time.time() > deadline:
            break
        time.sleep(0.1)
    p = prog["progress"]
    assert p["state"] == "done" and p["done"] == p["total"] == 6, prog
    assert p["counts"] == {"answered": 2, "not found": 2, "unverified": 0, "error": 2}
    assert len(prog["cells"]) == 6 and prog["message"].startswith(f"grid {gid}: 6 of 6 cells, done")

    cell = call("grid_cell", {"grid_id": gid, "agreement": "four_clause_contract.txt", "question_id": law}).structured_content
    text = (ROBUST / "four_clause_contract.txt").read_text(encoding="utf-8")
    assert cell["status"] == "answered" and cell["answer"] == "Scotland" and cell["clause"] == "4"
    assert cell["quote"] == "This Agreement is governed by the laws of Scotland."  # widened to its sentence
    assert [text[s:e] for s, e in cell["quote_spans"]] == [cell["quote"]]
    by_row = call("grid_cell", {"grid_id": gid, "agreement": "1", "question_id": law}).structured_content
    assert by_row["answer"] == "Ireland" and by_row["agreement"] == "LETTER OF INTENT"
    bad = call("grid_cell", {"grid_id": gid, "agreement": "gone.txt", "question_id": law}).structured_content
    assert bad["status"] == "error" and "could not read this contract" in bad["reason"]

    assert "no grid 'nope'" in error_text("grid_progress", {"grid_id": "nope"})
    assert "no agreement 'x.pdf'" in error_text("grid_cell", {"grid_id": gid, "agreement": "x.pdf", "question_id": law})
    assert "no question 'q9'" in error_text("grid_cell", {"grid_id": gid, "agreement": "0", "question_id": "q9"})


class DyingGridRuns(GridRuns):
    """Runs a grid in the calling thread and stops where the model raises :class:`ServerStopped`, as
    if the server process had died mid-grid (its grid file still says ``running``)."""

    def start(self, grid, emit=None):
        with contextlib.suppress(ServerStopped):  # the "dead" server: the grid file still says running
            self.run(grid, emit)


def _tool_error(server, name: str, args: dict) -> str:
    """The message of a tool call that must fail (raised or returned as an error result), never a traceback."""
    with pytest.raises(Exception) as e:
        res = anyio.run(server.call_tool, name, args)
        if getattr(res, "is_error", False):  # an SDK that returns the error instead of raising it
            raise RuntimeError(res.content[0].text)
    assert "Traceback" not in str(e.value)
    return str(e.value)


def test_mcp_resume_grid_computes_only_the_missing_cells(tmp_path):
    """An MCP server stops during a grid's third cell; a new server over the same data directory reads
    the grid back as ``interrupted``, and ``resume_grid`` finishes it computing only the two missing
    cell (the fake model's cell calls are counted); resuming a done grid, an unknown grid or session
    is a clear tool error."""
    import time

    stopping = StoppingChat(calls=[], stop_at=2)
    first_service = build_service(make_settings(tmp_path), models=stopping)
    first_runs = DyingGridRuns(first_service)
    first = create_mcp_server(first_service, roots=(ROBUST,), grids=first_runs)
    ing = anyio.run(first.call_tool, "ingest", {"paths": [str(ROBUST / "four_clause_contract.txt"),
                                                         str(ROBUST / "two_clause_contract.txt")]})
    sid = ing.structured_content["session_id"]
    out = anyio.run(first.call_tool, "start_grid", {"questions": ["Which law governs this agreement?",
                                                                  "Can either party terminate this agreement on written notice?"]})
    gid = out.structured_content["grid_id"]
    assert stopping.cells == 2 and first_runs.get(gid).state == "running"  # it never ended
    assert (tmp_path / "sessions" / sid / "grid" / "grids" / f"{gid}.json").is_file()

    model = StoppingChat(calls=[])  # the restart: a new service and server over the same directory
    second = create_mcp_server(build_service(make_settings(tmp_path), models=model), roots=(ROBUST,))

    def call(name: str, args: dict) -> dict:
        return anyio.run(second.call_tool, name, args).structured_content

    before = call("grid_progress", {"grid_id": gid})
    # one cell answered by the model, and two decided without it (issue #45: the yes/no column is read from the
    # contracts' sentences; the letter of intent has none on termination: "not found") before the second model call
    assert before["progress"]["state"] == "interrupted" and before["progress"]["done"] == 3 and len(before["cells"]) == 3
    assert [c["status"] for c in before["cells"]].count("not found") == 1

    assert "no grid 'nope'" in _tool_error(second, "resume_grid", {"grid_id": "nope", "session_id": sid})
    assert "no session 'nosuch' with grids" in _tool_error(second, "resume_grid", {"grid_id": gid, "session_id": "nosuch"})
    assert "invalid session id" in _tool_error(second, "resume_grid", {"grid_id": gid, "session_id": "../x"})

    res = call("resume_grid", {"grid_id": gid, "session_id": sid})
    assert res["grid_id"] == gid and res["session_id"] == sid
    assert res["rows"] == before["rows"] and res["questions"] == before["questions"]
    assert res["progress"]["total"] == 4 and res["progress"]["state"] in ("preparing", "running", "done")
    assert res["message"] == f"resumed grid {gid}: 3 of 4 cells already stored, computing the 1 missing"
    deadline = time.time() + 60
    while True:
        prog = call("grid_progress", {"grid_id": gid})
        if prog["progress"]["state"] in ("done", "failed") or time.time() > deadline:
            break
        time.sleep(0.1)
    p = prog["progress"]
    assert (p["state"], p["done"], p["total"], p["reused"], p["computed"]) == ("done", 4, 4, 3, 1), prog
    assert model.cells == 1  # only the missing cell asked the model
    assert sorted(c["status"] for c in prog["cells"]) == ["answered"] * 3 + ["not found"]

    done = _tool_error(second, "resume_grid", {"grid_id": gid, "session_id": sid})
    assert f"grid {gid} is done: only an interrupted or failed grid can be resumed" in done
    assert model.cells == 1
