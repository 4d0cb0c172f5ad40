"""Issue #19 item 3 (web part) and item 4 in the web UI: a turn keeps running on the server when
the page goes away, and a reloaded page finds it (``/state``'s ``job``) and re-opens its event
stream, which replays the whole history and then the rest, up to the report; the browser's own
reconnect (``Last-Event-ID``) gets only what it missed. The report fragment carries the header,
the notice and the unverified banner; the Word download opens with python-docx. A deterministic
chat model (``ContractFakeChatModel``) on a real CUAD contract, held at its draft call by a gate
so the reload happens mid-run."""

from __future__ import annotations

import io
import json
import threading
import time
from typing import Any

import docx
import pytest
from fastapi.testclient import TestClient

from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from clauselens.reports.model import NOTICE
from tests.fakes import ContractFakeChatModel, schema_title

from .conftest import SHARED, make_settings

DRIVEN = SHARED / "data" / "cuad" / "full_contract_txt" / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
GATE = threading.Event()


class GatedChat(ContractFakeChatModel):
    """The fake model, but its report-draft call (its reading at quick depth) waits until :data:`GATE` is set."""

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        if schema_title(messages) in ("ReportDraft", "LeadReading"):
            assert GATE.wait(60), "the test never opened the gate"
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture
def client(tmp_path):
    GATE.clear()
    service = build_service(make_settings(tmp_path), models=GatedChat(calls=[]))
    with TestClient(create_app(service, max_upload_bytes=256 * 1024)) as c:
        yield c
    GATE.set()  # never leave a worker thread waiting


def _sse(lines) -> Any:
    """Parse ``text/event-stream`` lines into ``(id, data)`` pairs as they arrive."""
    eid = None
    for line in lines:
        if line.startswith("id: "):
            eid = int(line[4:])
        elif line.startswith("data: "):
            yield eid, json.loads(line[6:])


def test_reloaded_page_reattaches_to_the_running_turn_and_gets_the_whole_history(client):
    sid = client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
    r = client.post(f"/s/{sid}/upload", files={"file": ("consulting.txt", DRIVEN.read_bytes())})
    assert r.status_code == 200, r.text
    assert client.get(f"/s/{sid}/state").json()["job"] is None
    job = client.post(f"/s/{sid}/ask", data={"message": "How can either party terminate this agreement?"}).json()["job"]

    # the first page: follows the stream until the research round, then goes away (reload)
    first: list[tuple[int, dict]] = []
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        for eid, ev in _sse(r.iter_lines()):
            first.append((eid, ev))
            if ev["type"] == "round":
                break
    assert [e for e, _ in first] == list(range(1, len(first) + 1))

    # the turn is still running on the server (held at its draft call), with no page attached
    runner = client.app.state.runner
    time.sleep(0.5)
    assert not runner.jobs[job].done
    st = client.get(f"/s/{sid}/state").json()
    assert st["job"]["id"] == job and st["job"]["done"] is False  # what the reloaded page re-attaches to
    assert "follow(st.job.id)" in client.get("/static/app.js").text

    # the reloaded page opens the stream again: the whole history, then the rest of the run
    GATE.set()
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        second = list(_sse(r.iter_lines()))
    assert second[:len(first)] == first
    kinds = [ev["type"] for _, ev in second]
    assert kinds[-2:] == ["report", "done"] and "round" in kinds
    assert second == [(i + 1, ev) for i, ev in enumerate(runner.jobs[job].events)]
    report = second[-2][1]["report"]
    assert report["run"]["documents"][0]["file_name"] == "consulting.txt" and report["notice"] == NOTICE
    assert client.get(f"/s/{sid}/state").json()["job"] == {"id": job, "done": True, "events": len(second)}

    # the browser's own reconnect sends Last-Event-ID and gets only the events after it
    k = len(first)
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events", headers={"Last-Event-ID": str(k)}) as r:
        rest = list(_sse(r.iter_lines()))
    assert rest == second[k:]


def test_report_fragment_and_word_download(client):
    GATE.set()
    sid = client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
    client.post(f"/s/{sid}/upload", files={"file": ("consulting.txt", DRIVEN.read_bytes())})
    job = client.post(f"/s/{sid}/ask", data={"message": "How can either party terminate this agreement?"}).json()["job"]
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        evs = [ev for _, ev in _sse(r.iter_lines())]
    rep = evs[-2]["report"]
    assert rep["citations"], "the fake model quotes the first retrieved passage"
    frag = client.get(f"/s/{sid}/reports/0/fragment").text
    assert NOTICE in frag and "consulting.txt" in frag and "Generated" in frag and ".docx" in frag
    assert ">none<" not in frag and "chars [" not in frag
    d = client.get(f"/s/{sid}/reports/0.docx")
    assert d.status_code == 200 and "attachment" in d.headers["content-disposition"]
    assert d.headers["content-type"].startswith("application/vnd.openxmlformats-officedocument.wordprocessingml")
    text = "\n".join(p.text for p in docx.Document(io.BytesIO(d.content)).paragraphs)
    assert NOTICE in text and all(c["quote"] in text for c in rep["citations"])
    if rep["verification"] in ("unverified", "partial"):
        assert rep["verification_note"] in text and rep["verification_note"] in frag
