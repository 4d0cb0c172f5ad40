"""The MCP server, driven over stdio by the official SDK's own client."""

import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ROBUST = SHARED / "robustness"
SERVER = Path(__file__).parent / "mcp_fake_server.py"


async def _session_calls(cache: Path) -> dict:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER), str(cache), str(ROBUST)],
                                   env={"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})
    out: dict = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
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
    assert r["tools"] == ["ask", "fetch_clause", "ingest", "search_clauses"]
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
    assert r["bad"].is_error and "no text found in whitespace_only.txt" in r["bad"].content[0].text
    mixed = r["mixed"]  # issue #22: the good file is added, the bad one named, not a failed call
    assert not mixed.is_error
    assert "two_clause_contract.txt" in [d["file_name"] for d in mixed.structured_content["documents"]]
    assert mixed.structured_content["left_out"] == ["no text found in whitespace_only.txt"]
