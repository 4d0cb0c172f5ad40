"""The library room of the web UI (issue #46) over HTTP, and the library service's single writer:
a lexical library of real CUAD contracts (no model weights), the page's routes driven by
Starlette's TestClient, and readers that never see a half-added agreement."""

import io
import json
import shutil
import threading
import time
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from clauselens.library import Library
from clauselens.library.service import LibraryService, parse_filter
from tests.fakes import ContractFakeChatModel

from .conftest import CUAD, KITOV, MW, OTHERS, ROBUST, make_settings

pytestmark = pytest.mark.skipif(not all(p.exists() for p in [MW, KITOV, *OTHERS]), reason="needs the CUAD corpus in ../shared/data")


def make_library(root: Path, files: dict[str, Path]) -> Path:
    folder = root / "contracts"
    folder.mkdir(parents=True)
    for name, src in files.items():
        shutil.copy(src, folder / name)
    lib = Library.open(root / "lib", embedder_name="none", create=True)
    assert not lib.add([folder]).failed
    return root / "lib"


@pytest.fixture
def client(tmp_path):
    root = make_library(tmp_path, {"a.txt": MW, "c.txt": KITOV, "d0.txt": OTHERS[0]})
    service = build_service(make_settings(tmp_path / "cache"), models=ContractFakeChatModel(calls=[]), library=str(root))
    with TestClient(create_app(service)) as c:
        sid = c.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
        yield c, sid, service


def follow(c: TestClient, sid: str, job: str) -> list[dict]:
    """The job's events (the SSE stream, read to its end)."""
    events = []
    with c.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    return events


def test_page_filter_sort_paging(client) -> None:
    c, sid, _ = client
    page = c.get(f"/s/{sid}").text
    assert 'id="library-card"' in page and "/static/library.js" in page
    p = c.get(f"/s/{sid}/library/agreements").json()
    assert p["total"] == 3 and p["library_total"] == 3
    assert [r["file_name"] for r in p["rows"]] == ["a.txt", "c.txt", "d0.txt"]  # in the order added
    assert c.get(f"/s/{sid}/library/agreements", params={"filter": "party:dexcel"}).json()["total"] == 1
    mw = c.get(f"/s/{sid}/library/agreements", params={"filter": "mediwound 2010"}).json()
    assert [r["file_name"] for r in mw["rows"]] == ["a.txt"] and mw["rows"][0]["parties"][0] == "MediWound Ltd."
    assert c.get(f"/s/{sid}/library/agreements", params={"filter": "year:1999"}).json()["total"] == 0
    by_title = c.get(f"/s/{sid}/library/agreements", params={"sort": "title", "desc": True}).json()["rows"]
    titles = [r["title"] for r in by_title]
    assert titles == sorted(titles, key=str.lower, reverse=True)
    second = c.get(f"/s/{sid}/library/agreements", params={"offset": 1, "limit": 1}).json()
    assert second["total"] == 3 and [r["file_name"] for r in second["rows"]] == ["c.txt"]
    bad = c.get(f"/s/{sid}/library/agreements", params={"sort": "colour"})
    assert bad.status_code == 400 and "colour" in bad.json()["error"]
    assert c.get(f"/s/{sid}/library/agreements", params={"filter": 'party:"acme'}).status_code == 400
    one = c.get(f"/s/{sid}/library/agreements/{mw['rows'][0]['doc_id']}").json()
    assert one["outline"] and any(n["label"] for n in one["outline"])


def test_parse_filter() -> None:
    assert parse_filter('party:"Acme Corp" supply 2014') == (["supply", "2014"], {"party": ["Acme Corp"]})
    with pytest.raises(Exception, match="unknown field 'colour'"):
        parse_filter("colour:red")


def test_search_marks_matched_words_and_pins(client) -> None:
    c, sid, service = client
    res = c.get(f"/s/{sid}/library/search", params={"q": "termination for convenience", "k": 5}).json()
    assert res["hits"] and not res["abstained"]
    for h in res["hits"]:
        words = {h["text"][s:e].lower() for s, e in h["marks"]}
        assert words and words <= {"termination", "terminate", "terminated", "terminates", "convenience", "terminating"}, words
    a = service.library.agreements()[0].doc_id
    pinned = c.get(f"/s/{sid}/library/search", params={"q": "termination", "agreement": a}).json()
    assert {h["doc_id"] for h in pinned["hits"]} == {a}
    # the hit's spans index the agreement's text, as a citation's do
    h = pinned["hits"][0]
    doc = c.get(f"/s/{sid}/documents/{a}").json()
    assert doc["text"][h["spans"][0][0]:h["spans"][0][1]] == h["text"]
    assert c.get(f"/s/{sid}/library/search", params={"q": " "}).status_code == 400
    assert c.get(f"/s/{sid}/library/search", params={"q": "x", "agreement": "nope"}).status_code == 400


def test_add_upload_and_zip_with_progress_then_remove(client) -> None:
    c, sid, service = client
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.write(OTHERS[1], "folder/d1.txt")
        z.writestr("folder/.hidden.txt", "x")
        z.writestr("folder/notes.csv", "a,b")
    files = [("files", ("k2.txt", KITOV.read_bytes(), "text/plain")),
             ("files", ("whitespace_only.txt", (ROBUST / "whitespace_only.txt").read_bytes(), "text/plain")),
             ("files", ("batch.zip", zbuf.getvalue(), "application/zip"))]
    job = c.post(f"/s/{sid}/library/add", files=files).json()["job"]
    events = follow(c, sid, job)
    stages = {e["stage"] for e in events if e["type"] == "library_progress"}
    assert {"parse", "add", "index"} <= stages
    rep = next(e for e in events if e["type"] == "library_added")["report"]
    assert sorted(rep["added"]) == ["d1.txt", "k2.txt"], rep
    assert [f["file_name"] for f in rep["failed"]] == ["whitespace_only.txt"] and "no text" in rep["failed"][0]["message"]
    assert rep["agreements"] == 5 and c.get(f"/s/{sid}/state").json()["library"]["agreements"] == 5
    kept = sorted(p.name for p in (service.library.root / "uploads").rglob("*") if p.is_file())
    assert kept == ["d1.txt", "k2.txt"]  # the bad file is not kept
    # the same file again: unchanged (sha256), nothing re-indexed
    again = follow(c, sid, c.post(f"/s/{sid}/library/add", files=[files[0]]).json()["job"])
    rep2 = next(e for e in again if e["type"] == "library_added")["report"]
    assert rep2["unchanged"] == ["k2.txt"] and not rep2["added"]
    # the new agreement is searchable by its party at once
    p = c.get(f"/s/{sid}/library/agreements", params={"filter": "file:d1"}).json()
    d1 = p["rows"][0]["doc_id"]
    hits = c.get(f"/s/{sid}/library/search", params={"q": "joint venture", "agreement": d1}).json()["hits"]
    assert hits and hits[0]["doc_id"] == d1
    # remove (the page confirms first); an unknown key is named
    r = c.post(f"/s/{sid}/library/remove", data={"keys": [d1]}).json()
    assert r == {"removed": ["d1.txt"], "agreements": 4}
    bad = c.post(f"/s/{sid}/library/remove", data={"keys": ["nope"]})
    assert bad.status_code == 400 and "nope" in bad.json()["error"]
    assert c.post(f"/s/{sid}/library/add", files=[("files", (".x.txt", b"x", "text/plain"))]).status_code == 200


def test_readers_never_see_a_half_added_agreement(tmp_path) -> None:
    """A reader thread lists and checks the library while a writer adds eight agreements: every
    agreement it sees has all its passages in the catalogue and in the BM25 index, and the count
    only grows; a second service (another front end) on the same folder sees the final state."""
    root = make_library(tmp_path, {"a.txt": MW})
    new = tmp_path / "new"
    new.mkdir()
    for p in sorted(CUAD.glob("*.txt"))[:8]:
        shutil.copy(p, new / p.name)
    svc = LibraryService(Library.open(root, embedder_name="none", create=False))
    other = LibraryService(Library.open(root, embedder_name="none", create=False))
    seen: list[int] = []
    problems: list[str] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            with svc.reading() as lib:
                recs = lib.agreements()
                for r in recs:
                    rows = lib.catalogue.rows_of([r.doc_id])
                    if hasattr(lib.lexical, "indexed_count"):  # tantivy: scores only the passages a term matches
                        n_indexed = lib.lexical.indexed_count(r.doc_id)
                    else:  # bm25s: every row of the index gets a score
                        n_indexed = len(lib.lexical.passage_scores(["agreement"], rows)[0])
                    if len(rows) != r.passages or n_indexed != len(rows):
                        problems.append(f"{r.path}: {len(rows)} rows, {n_indexed} indexed, {r.passages} passages")
                seen.append(len(recs))
            time.sleep(0.005)

    t = threading.Thread(target=reader)
    t.start()
    rep = svc.add([new])
    stop.set()
    t.join(10)
    assert len(rep.added) == 8 and not rep.failed
    assert not problems, problems[:3]
    assert seen == sorted(seen) and seen[0] == 1 and len(seen) > 3
    assert len(svc.page().rows) == 9
    assert other.page().total == 9  # the other service noticed the new generation and swapped
    assert other.search("governing law", 3)[0].passages
