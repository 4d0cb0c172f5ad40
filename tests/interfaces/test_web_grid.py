"""Issue #21 (web part): the review grid's routes (FastAPI TestClient, the deterministic fake model).

Start a grid on a session's documents with typed questions; its events stream from the job's SSE
route (``grid``, one ``cell`` per cell with done / total and ETA, ``grid_done``); a cell's quote
spans index the document text the document view serves (and, for a PDF, the page highlight route
boxes it); the four exports download and hold the cells; a contract whose file has gone is a row
of error cells while the others are answered; starting the grid again reuses the stored cells;
bad input gets a clear 400/404, never a traceback. Also typed-question parsing and a library
session's grid."""

from __future__ import annotations

import csv
import io
import json

import pytest
from fastapi.testclient import TestClient

from clauselens.config import RetrievalSettings, Settings
from clauselens.errors import ConfigError
from clauselens.grid.jobs import questions_from_text
from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from clauselens.reports.verify import normalize
from tests.fakes import ContractFakeChatModel

from .conftest import ROBUST
from .test_browser import PDF

QUESTIONS = "Which law governs this agreement?\nCan either party terminate this agreement on written notice?\nIs there a zebra?"


@pytest.fixture
def client(service):
    with TestClient(create_app(service, pick_dirs=(ROBUST, PDF.parent))) as c:
        yield c


def _sid(client) -> str:
    return client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]


def _events(client, sid: str, job: str) -> list[dict]:
    out = []
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
    return out


def _upload(client, sid: str, name: str, data: bytes) -> dict:
    r = client.post(f"/s/{sid}/upload", files={"file": (name, data)})
    assert r.status_code == 200, r.text
    return r.json()["documents"][-1]


def test_grid_start_events_cells_citation_exports_and_a_failing_contract(client, service):
    service.settings.grid_yes_no_model = True  # the fake model answers the yes/no cells the rules leave open (default: unverified)
    from openpyxl import load_workbook

    sid = _sid(client)
    txt = _upload(client, sid, "four_clause_contract.txt", (ROBUST / "four_clause_contract.txt").read_bytes())
    pdf = client.post(f"/s/{sid}/pick", data={"path": str(PDF)}).json()["documents"][-1]
    gone = _upload(client, sid, "two_clause_contract.txt", (ROBUST / "two_clause_contract.txt").read_bytes())
    (service.store.uploads_dir(sid) / "two_clause_contract.txt").unlink()  # its file is gone since it was added

    opts = client.get(f"/s/{sid}/grid/options").json()
    assert [a["doc_id"] for a in opts["agreements"]] == [txt["doc_id"], pdf["doc_id"], gone["doc_id"]]
    assert {"name": "cuad", "questions": 41} in opts["presets"]

    r = client.post(f"/s/{sid}/grids", data={"questions": QUESTIONS})
    assert r.status_code == 200, r.text
    gid = r.json()["grid"]
    evs = _events(client, sid, gid)
    kinds = [e["type"] for e in evs]
    assert kinds[0] == "grid" and kinds[-2:] == ["grid_done", "done"] and kinds.count("cell") == 9
    assert "error" not in kinds  # a failing contract is error cells, not a failed grid
    first = evs[0]["grid"]
    assert [r["file"] for r in first["rows"]] == ["four_clause_contract.txt", PDF.name, "two_clause_contract.txt"]
    assert [q["type"] for q in first["questions"]] == ["text", "yes_no", "yes_no"]
    cells = [e for e in evs if e["type"] == "cell"]
    assert [e["progress"]["done"] for e in cells] == list(range(1, 10)) and {e["progress"]["total"] for e in cells} == {9}
    assert cells[0]["progress"]["eta_s"] is not None and cells[-1]["progress"]["eta_s"] == 0
    done = evs[-2]["grid"]["progress"]
    assert done["state"] == "done" and done["counts"] == {"answered": 4, "not found": 2, "unverified": 0, "error": 3}
    assert done["cells_per_minute"] > 0

    by = {(e["cell"]["row"], e["cell"]["question_id"]): e["cell"] for e in cells}
    law, term, zebra = (q["id"] for q in first["questions"])
    assert by[(0, law)]["status"] == "answered" and by[(0, law)]["answer"] == "Scotland"
    assert by[(1, law)]["answer"] == "California" and by[(1, law)]["page"] == 6 and by[(1, law)]["clause"] == "12.1"
    assert by[(0, term)]["answer"] == "Yes" and by[(0, zebra)]["status"] == "not found" and by[(0, zebra)]["answer"] == "No"
    for q in (law, term, zebra):
        assert by[(2, q)]["status"] == "error" and "could not read this contract" in by[(2, q)]["reason"]

    # a cell's citation: its spans index the text the document view serves; on the PDF, the page is boxed
    for row, doc in ((0, txt), (1, pdf)):
        cell = client.get(f"/s/{sid}/grids/{gid}/cells/{row}/{law}").json()
        assert cell["doc_id"] == doc["doc_id"] and cell["quote_spans"]
        text = client.get(f"/s/{sid}/documents/{doc['doc_id']}").json()["text"]
        assert normalize(" ".join(text[s:e] for s, e in cell["quote_spans"])) == normalize(cell["quote"])
    spans = ",".join(f"{s}-{e}" for s, e in cell["quote_spans"])
    hl = client.get(f"/s/{sid}/documents/{pdf['doc_id']}/highlight?spans={spans}").json()
    assert hl["found"] and [p["number"] for p in hl["pages"]] == [6] and hl["pages"][0]["boxes"]

    snap = client.get(f"/s/{sid}/grids/{gid}").json()
    assert len(snap["cells"]) == 9 and snap["progress"]["done"] == 9
    st = client.get(f"/s/{sid}/state").json()
    assert st["grid"] == {"id": gid, "state": "done", "done": True} and st["job"] is None  # a grid is no turn

    # downloads: the grid exporters, one row per agreement
    x = client.get(f"/s/{sid}/grids/{gid}/export.xlsx")
    assert x.status_code == 200 and f"clauselens-grid-{gid}.xlsx" in x.headers["content-disposition"]
    wb = load_workbook(io.BytesIO(x.content))
    review = [[c.value for c in r] for r in wb["Review"].iter_rows()]
    assert review[1][2] == "Scotland" and review[2][2] == "California" and review[3][2] == "error"
    rows = list(csv.DictReader(io.StringIO(client.get(f"/s/{sid}/grids/{gid}/export.csv").text)))
    assert [r[f"{law} status"] for r in rows] == ["answered", "answered", "error"]
    assert "<table>" in client.get(f"/s/{sid}/grids/{gid}/export.html").text
    j = client.get(f"/s/{sid}/grids/{gid}/export.json").json()
    assert j["rows"][1]["cells"][law]["quote"] == by[(1, law)]["quote"] and j["stats"]["by_status"]["error"] == 3
    assert client.get(f"/s/{sid}/grids/{gid}/export.docx").status_code == 404

    # again, on the two good contracts: every cell comes from the session's cell store
    calls = len(service.interrogate.models.model("interrogator").calls)
    again = client.post(f"/s/{sid}/grids", data={"questions": QUESTIONS, "agreements": [txt["doc_id"], pdf["doc_id"]]}).json()["grid"]
    evs2 = _events(client, sid, again)
    assert evs2[-2]["grid"]["progress"]["reused"] == 6 and len(service.interrogate.models.model("interrogator").calls) == calls


def test_grid_bad_input_is_a_clear_error(client):
    sid = _sid(client)
    r = client.post(f"/s/{sid}/grids", data={"questions": QUESTIONS})
    assert r.status_code == 400 and "no documents in this session" in r.json()["error"]
    _upload(client, sid, "four_clause_contract.txt", (ROBUST / "four_clause_contract.txt").read_bytes())
    for data, msg in (({}, "give a question preset"), ({"preset": "cuad", "questions": "Why?"}, "not both"),
                      ({"preset": "nope"}, "unknown question preset 'nope'"),
                      ({"questions": "Which law? | colour"}, "line 1"),
                      ({"questions": "Which law?", "agreements": ["nope"]}, "unknown agreement(s) nope")):
        r = client.post(f"/s/{sid}/grids", data=data)
        assert r.status_code == 400 and msg in r.json()["error"], (data, r.text)
        assert "Traceback" not in r.text
    assert client.get(f"/s/{sid}/grids/abc").status_code == 404
    assert "no grid 'abc'" in client.get(f"/s/{sid}/grids/abc").json()["error"]
    assert client.get(f"/s/{sid}/grids/abc/export.xlsx").status_code == 404
    gid = client.post(f"/s/{sid}/grids", data={"questions": "Which law governs this agreement?"}).json()["grid"]
    _events(client, sid, gid)
    assert client.get(f"/s/{sid}/grids/{gid}/cells/5/x").status_code == 404
    assert "no question 'x'" in client.get(f"/s/{sid}/grids/{gid}/cells/0/x").json()["error"]
    other = _sid(client)
    assert client.get(f"/s/{other}/grids/{gid}").status_code == 404  # another session's grid


def test_questions_typed_one_per_line():
    qs = questions_from_text("# my review\nWhich law governs?\n\nDoes it have a non-compete?\nWhen does it end? | date\n"
                             "Which law governs?\n")
    assert [(q.id, q.type) for q in qs] == [("which_law_governs", "text"), ("does_it_have_a_non_compete", "yes_no"),
                                            ("when_does_it_end", "date"), ("which_law_governs_2", "text")]
    assert qs[2].question == "When does it end?"
    with pytest.raises(ConfigError, match="no questions"):
        questions_from_text("\n# nothing\n")
    with pytest.raises(ConfigError, match="at most"):
        questions_from_text("\n".join(f"Question number {i}?" for i in range(101)))


def test_library_session_grid(library_root, tmp_path):
    """``serve --library``: the grid's agreements are the library's; a cell's citation opens the agreement."""
    service = build_service(Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none")),
                            models=ContractFakeChatModel(calls=[]), library=str(library_root))
    with TestClient(create_app(service)) as c:
        sid = _sid(c)
        opts = c.get(f"/s/{sid}/grid/options").json()
        assert len(opts["agreements"]) == 5 and opts["library"]["agreements"] == 5
        kitov = next(a for a in opts["agreements"] if a["file_name"] == "c.txt")
        gid = c.post(f"/s/{sid}/grids", data={"agreements": [kitov["doc_id"]],
                                              "questions": "Which law governs this agreement? | text"}).json()["grid"]
        evs = _events(c, sid, gid)
        cell = next(e["cell"] for e in evs if e["type"] == "cell")
        # the fake model's sentence may miss the topic (issue #45 checks every question's topic): then the cell is
        # unverified with its quote withheld, and the cell still opens the agreement at the passage it read
        assert cell["status"] in ("answered", "unverified") and cell["doc_id"] == kitov["doc_id"], cell
        text = c.get(f"/s/{sid}/documents/{kitov['doc_id']}").json()["text"]
        if cell["status"] == "answered":
            assert normalize(" ".join(text[s:e] for s, e in cell["quote_spans"])) == normalize(cell["quote"])
        else:
            assert not cell["quote"] and "topic" in cell["reason"]
            assert cell["top_spans"] and all(text[s:e].strip() for s, e in cell["top_spans"])
