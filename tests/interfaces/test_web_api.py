"""The web UI's HTTP API (FastAPI TestClient): uploads, safety checks, streaming, downloads."""

import json

import pytest
from fastapi.testclient import TestClient

from clauselens.interfaces.web.app import create_app

from .conftest import ROBUST

CONTRACT = ROBUST / "four_clause_contract.txt"


@pytest.fixture
def client(service):
    app = create_app(service, pick_dirs=(ROBUST,), max_upload_bytes=64 * 1024)
    with TestClient(app) as c:
        yield c


def _sid(client) -> str:
    r = client.get("/", follow_redirects=False)
    assert r.status_code == 303
    return r.headers["location"].rsplit("/", 1)[-1]


def _events(client, sid, job) -> list[dict]:
    out = []
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
    return out


def _upload(client, sid, name, data):
    return client.post(f"/s/{sid}/upload", files={"file": (name, data)})


def test_upload_ask_stream_report_download(client):
    sid = _sid(client)
    assert client.get(f"/s/{sid}").status_code == 200
    r = _upload(client, sid, "four_clause_contract.txt", CONTRACT.read_bytes())
    assert r.status_code == 200, r.text
    doc = r.json()["documents"][0]
    job = client.post(f"/s/{sid}/ask", data={"message": "How can this agreement be terminated?"}).json()["job"]
    evs = _events(client, sid, job)
    kinds = [e["type"] for e in evs]
    assert "round" in kinds and kinds[-2:] == ["report", "done"]
    rep = evs[-2]["report"]
    cit = rep["citations"][0]
    # the document view serves the text the citation spans point into
    d = client.get(f"/s/{sid}/documents/{doc['doc_id']}").json()
    assert "\n".join(d["text"][s["start"]:s["end"]] for s in cit["spans"]) == cit["quote"]
    frag = client.get(f"/s/{sid}/reports/0/fragment").text
    assert 'class="citation"' in frag and f'data-doc="{doc["doc_id"]}"' in frag
    md = client.get(f"/s/{sid}/reports/0.md")
    assert md.status_code == 200 and "attachment" in md.headers["content-disposition"] and cit["quote"] in md.text
    assert client.get(f"/s/{sid}/reports/0.json").json()["citations"][0]["quote"] == cit["quote"]
    assert "<html" in client.get(f"/s/{sid}/reports/0.html").text.lower()
    assert client.get(f"/s/{sid}/reports/1.md").status_code == 404
    st = client.get(f"/s/{sid}/state").json()
    assert [m["role"] for m in st["messages"]] == ["user", "assistant"]


def test_bad_uploads_are_refused_and_session_stays_usable(client):
    sid = _sid(client)
    r = _upload(client, sid, "whitespace_only.txt", (ROBUST / "whitespace_only.txt").read_bytes())
    assert r.status_code == 400 and "whitespace_only.txt: no text found" in r.json()["error"]
    r = _upload(client, sid, "contract.pdf", b"\x00\x01binary, not a pdf")  # the CLI's message (#41 item 6)
    assert r.status_code == 400 and "binary file of an unknown type, not text" in r.json()["error"]
    r = _upload(client, sid, "tool.exe", b"MZ\x90\x00")
    assert r.status_code == 400 and "this is a Windows executable" in r.json()["error"]
    r = _upload(client, sid, "big.txt", b"a" * (64 * 1024 + 1))
    assert r.status_code == 400 and "upload limit" in r.json()["error"]
    assert client.get(f"/s/{sid}/state").json()["documents"] == []
    assert _upload(client, sid, "c.txt", CONTRACT.read_bytes()).status_code == 200
    job = client.post(f"/s/{sid}/ask", data={"message": "Which law governs this agreement?"}).json()["job"]
    assert _events(client, sid, job)[-2]["type"] == "report"


def test_paths_outside_the_store_are_refused(client, tmp_path):
    sid = _sid(client)
    for path in ("/etc/hostname", str(ROBUST / ".." / ".." / "main" / "pyproject.toml"), str(tmp_path / "nope.txt")):
        r = client.post(f"/s/{sid}/pick", data={"path": path})
        assert r.status_code in (400, 403), (path, r.text)
    r = client.post(f"/s/{sid}/pick", data={"path": "/etc/hostname"})
    assert r.status_code == 403 and "outside the document store" in r.json()["error"]
    assert client.get("/s/..%2F..%2Fetc/state").status_code in (400, 404)
    # another session's upload is outside this session's store
    other = _sid(client)
    _upload(client, other, "c.txt", CONTRACT.read_bytes())
    other_file = client.app.state.runner.service.store.uploads_dir(other) / "c.txt"
    assert other_file.is_file()
    assert client.post(f"/s/{sid}/pick", data={"path": str(other_file)}).status_code == 403
    r = client.post(f"/s/{sid}/pick", data={"path": str(CONTRACT)})
    assert r.status_code == 200 and r.json()["documents"][0]["file_name"] == CONTRACT.name


def test_model_down_shows_message_and_retry_works(client, fake_model):
    sid = _sid(client)
    _upload(client, sid, "c.txt", CONTRACT.read_bytes())
    fake_model.down = True
    job = client.post(f"/s/{sid}/ask", data={"message": "Which law governs this agreement?"}).json()["job"]
    err = _events(client, sid, job)[-2]
    assert err["type"] == "error" and err["retry"] is True and "not available" in err["message"]
    fake_model.down = False
    job = client.post(f"/s/{sid}/retry").json()["job"]
    assert _events(client, sid, job)[-2]["type"] == "report"
    assert client.post(f"/s/{sid}/retry").status_code == 400  # nothing left to retry


def test_two_tabs_asking_at_once_do_not_corrupt_the_session(client):
    import concurrent.futures

    sid = _sid(client)
    _upload(client, sid, "c.txt", CONTRACT.read_bytes())
    qs = ["Which law governs this agreement?", "How can this agreement be terminated?"]
    jobs = [client.post(f"/s/{sid}/ask", data={"message": q}).json()["job"] for q in qs]
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda j: _events(client, sid, j), jobs))
    assert all(r[-2]["type"] == "report" for r in results)
    msgs = client.get(f"/s/{sid}/state").json()["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant"] * 2
    assert sorted(m["content"] for m in msgs if m["role"] == "user") == sorted(qs)
    assert len(client.get(f"/s/{sid}/state").json()["reports"]) == 2
