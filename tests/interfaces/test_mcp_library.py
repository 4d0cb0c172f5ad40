"""The MCP library tools (issue #46) driven over stdio by the official SDK's client: list with a
filter, clause search, add (a bad file listed and skipped), remove; and a second front end on the
same library (a web server's service, in this process) sees what the MCP server wrote."""

import shutil
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from clauselens.library import Library
from clauselens.library.service import LibraryService

from .conftest import KITOV, MW, OTHERS, ROBUST

pytestmark = pytest.mark.skipif(not all(p.exists() for p in [MW, KITOV, *OTHERS]), reason="needs the CUAD corpus in ../shared/data")
HERE = Path(__file__).parent
SERVER = f"""
import sys
sys.path.insert(0, {str(HERE.parents[1])!r}); sys.path.append({str(HERE.parent)!r})
from pathlib import Path
from fakes import ContractFakeChatModel
from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.commands import build_service
from clauselens.interfaces.mcp_server import create_mcp_server
settings = Settings(cache_dir=Path(sys.argv[1]), retrieval=RetrievalSettings(embedder="none"))
service = build_service(settings, models=ContractFakeChatModel(), library=sys.argv[2])
create_mcp_server(service, roots=(Path(sys.argv[3]),)).run()
"""


async def _calls(cache: Path, library: Path, root: Path, web: LibraryService) -> dict:
    params = StdioServerParameters(command=sys.executable, args=["-c", SERVER, str(cache), str(library), str(root)],
                                   env={"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})
    out: dict = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            out["tools"] = sorted(t.name for t in (await s.list_tools()).tools)
            out["list"] = await s.call_tool("library_list", {"filter": "party:dexcel"})
            out["all"] = await s.call_tool("library_list", {"sort": "title", "limit": 1})
            out["search"] = await s.call_tool("library_search", {"query": "termination for convenience", "k": 3})
            out["add"] = await s.call_tool("library_add", {"paths": [str(root / "new"), "/etc/hostname"]})
            out["web_after_add"] = web.page().total  # the web server's service, another process
            out["d1"] = (await s.call_tool("library_list", {"filter": "file:d1"})).structured_content
            d1 = next((a["doc_id"] for a in out["d1"]["agreements"]), "none")
            out["pinned"] = await s.call_tool("library_search", {"query": "joint venture", "agreement": d1})
            out["remove"] = await s.call_tool("library_remove", {"keys": [d1]})
            out["remove_bad"] = await s.call_tool("library_remove", {"keys": ["nope.txt"]})
            out["web_after_remove"] = web.page().total
    return out


def test_mcp_library_tools_over_stdio(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "contracts").mkdir(parents=True)
    (root / "new").mkdir()
    shutil.copy(MW, root / "contracts" / "a.txt")
    shutil.copy(KITOV, root / "contracts" / "c.txt")
    shutil.copy(OTHERS[1], root / "new" / "d1.txt")
    shutil.copy(ROBUST / "whitespace_only.txt", root / "new" / "empty.txt")
    lib = Library.open(tmp_path / "lib", embedder_name="none", create=True)
    assert len(lib.add([root / "contracts"]).added) == 2
    web = LibraryService(Library.open(tmp_path / "lib", embedder_name="none", create=False))
    r = anyio.run(_calls, tmp_path / "cache", tmp_path / "lib", root, web)

    assert {"library_add", "library_list", "library_remove", "library_search"} <= set(r["tools"])
    lst = r["list"].structured_content
    assert lst["total"] == 1 and lst["library_total"] == 2 and lst["agreements"][0]["file_name"] == "c.txt"
    assert lst["agreements"][0]["parties"][0] == "DEXCEL LTD."
    assert r["all"].structured_content["total"] == 2 and len(r["all"].structured_content["agreements"]) == 1
    hits = r["search"].structured_content["hits"]
    assert hits and all(h["matched"] for h in hits)
    assert any(h["text"][a:b].lower() == "convenience" for h in hits for a, b in h["matched"])
    add = r["add"].structured_content
    assert not r["add"].is_error and add["added"] == ["d1.txt"] and add["agreements"] == 3
    failed = {Path(f["path"]).name: f["message"] for f in add["failed"]}
    assert set(failed) == {"empty.txt", "hostname"} and "outside" in failed["hostname"] and "no text" in failed["empty.txt"]
    assert r["web_after_add"] == 3  # the other front end sees the whole new agreement
    d1 = r["d1"]["agreements"][0]["doc_id"]
    assert r["d1"]["total"] == 1 and {h["doc_id"] for h in r["pinned"].structured_content["hits"]} == {d1}
    assert r["remove"].structured_content == {"removed": ["d1.txt"], "agreements": 2}
    assert r["remove_bad"].is_error and "nope.txt" in r["remove_bad"].content[0].text
    assert r["web_after_remove"] == 2
