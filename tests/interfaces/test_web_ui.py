"""Issue #19 item 5, the web UI's routes (FastAPI TestClient): removing a document from a session,
the session history, and a PDF citation's page image with the quoted words' boxes, on the real
bundled PDF (``examples/contracts/driven_deliveries_consulting_agreement.pdf``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from clauselens.errors import ClauselensError
from clauselens.interfaces.web.app import create_app
from clauselens.interfaces.web.document_routes import parse_spans

from .conftest import ROBUST

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "contracts"
PDF = EXAMPLES / "driven_deliveries_consulting_agreement.pdf"
CONTRACT = ROBUST / "four_clause_contract.txt"
QUOTE = "“Confidential Information” means any nonpublic information that relates to the actual or anticipated business"


@pytest.fixture
def client(service):
    with TestClient(create_app(service, pick_dirs=(ROBUST, EXAMPLES))) as c:
        yield c


def _sid(client) -> str:
    return client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]


def _ask(client, sid: str, question: str) -> list[dict]:
    job = client.post(f"/s/{sid}/ask", data={"message": question}).json()["job"]
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        return [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: ")]


def _pick(client, sid: str, path: Path) -> list[dict]:
    r = client.post(f"/s/{sid}/pick", data={"path": str(path)})
    assert r.status_code == 200, r.text
    return r.json()["documents"]


def test_remove_document_stops_searching_it_and_unknown_ids_are_refused(client, service):
    sid = _sid(client)
    up = client.post(f"/s/{sid}/upload", files={"file": ("services.txt", CONTRACT.read_bytes())})
    assert up.status_code == 200, up.text
    docs = _pick(client, sid, PDF)
    assert [d["file_name"] for d in docs] == ["services.txt", PDF.name]
    assert docs[1]["pages"] == 7 and docs[0]["pages"] is None  # the document list shows a PDF's pages
    services = docs[0]["doc_id"]
    uploaded = service.store.uploads_dir(sid) / "services.txt"
    assert uploaded.is_file()

    r = client.delete(f"/s/{sid}/documents/{services}")
    assert r.status_code == 200 and [d["file_name"] for d in r.json()["documents"]] == [PDF.name]
    assert not uploaded.exists()  # the session's own upload goes with it; a picked file stays
    assert [d["doc_id"] for d in client.get(f"/s/{sid}/state").json()["documents"]] == [docs[1]["doc_id"]]

    # asking afterwards searches only the PDF (the services agreement's termination clause is gone)
    rep = _ask(client, sid, "How can this agreement be terminated?")[-2]["report"]
    assert rep["citations"] and {c["doc_id"] for c in rep["citations"]} == {docs[1]["doc_id"]}
    assert rep["documents"] == ["Consulting Agreement"]  # the report lists only the PDF

    for doc_id in (services, "no-such-doc"):  # removed twice, or never there: a clear 404
        r = client.delete(f"/s/{sid}/documents/{doc_id}")
        assert r.status_code == 404
        assert r.json()["error"].startswith(f"no document '{doc_id}' in this session")
        assert PDF.name in r.json()["error"]  # names what the session does hold
    assert client.get(f"/s/{sid}/documents/{services}").status_code == 404
    assert PDF.is_file()


def test_session_history_lists_sessions_with_first_question_and_reports(client):
    assert client.get("/sessions").json() == {"sessions": []}
    first, second = _sid(client), _sid(client)
    _pick(client, first, CONTRACT)
    _ask(client, first, "How can this agreement be terminated?")
    _ask(client, first, "Which law governs this agreement?")
    _pick(client, second, CONTRACT)  # documents but no question yet
    listed = client.get("/sessions").json()["sessions"]
    assert [s["session"] for s in listed] == [second, first]  # most recently updated first
    assert listed[0]["first_question"] is None and listed[0]["documents"] == [CONTRACT.name]
    assert listed[1]["first_question"] == "How can this agreement be terminated?" and listed[1]["questions"] == 2
    assert all(s["updated"][:4].isdigit() and "T" in s["updated"] for s in listed)
    reps = client.get(f"/s/{first}/state").json()["reports"]
    assert [r["question"] for r in reps] == ["How can this agreement be terminated?", "Which law governs this agreement?"]
    assert all(r["generated"] and r["verification"] for r in reps)
    # each is reachable: the list's entries open their reports
    assert "laws of Scotland" in client.get(f"/s/{first}/reports/1/fragment").text


def _pdf_text_in(box: list[float], page_number: int) -> str:
    """The PDF's own text under a highlight box (fractions of the page -> PDF units)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(PDF))
    try:
        page = pdf[page_number - 1]
        w, h = page.get_size()
        x0, y0, x1, y1 = box
        tp = page.get_textpage()
        return tp.get_text_bounded(left=x0 * w, bottom=h - y1 * h, right=x1 * w, top=h - y0 * h)
    finally:
        pdf.close()


def test_pdf_citation_page_image_and_boxes_over_the_quoted_words(client):
    from PIL import Image

    sid = _sid(client)
    doc = _pick(client, sid, PDF)[0]
    d = client.get(f"/s/{sid}/documents/{doc['doc_id']}").json()
    assert d["pdf"] is True and len(d["pages"]) == 7
    start = d["text"].index(QUOTE)
    end = start + len(QUOTE)
    r = client.get(f"/s/{sid}/documents/{doc['doc_id']}/highlight", params={"spans": f"{start}-{end}"})
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["found"] and [p["number"] for p in h["pages"]] == [2]
    boxes = h["pages"][0]["boxes"]
    assert len(boxes) == 2  # the quote wraps onto a second line: one box per line
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1 and y1 - y0 < 0.03  # inside the page, one line high
    under = " ".join(_pdf_text_in(b, 2) for b in boxes)
    for word in ("Confidential", "Information", "nonpublic", "anticipated", "business"):
        assert word in under, (word, under)
    assert "Definition" not in under  # the clause heading before the quote is not boxed

    png = client.get(h["pages"][0]["image"])
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    img = Image.open(io.BytesIO(png.content))
    assert img.width == 1100 and abs(img.height / img.width - 842 / 595) < 0.01  # an A4 page
    assert len(png.content) < 300_000
    assert client.get(h["pages"][0]["image"]).content == png.content  # served from the cache
    assert len(client.app.state.page_images._png) == 1

    # a span across a page break highlights both pages
    p2 = d["pages"][1]
    r = client.get(f"/s/{sid}/documents/{doc['doc_id']}/highlight", params={"spans": f"{p2['end'] - 40}-{p2['end'] + 40}"})
    assert [p["number"] for p in r.json()["pages"]] == [2, 3] and all(p["boxes"] for p in r.json()["pages"])


def test_page_and_highlight_errors_are_specific(client):
    sid = _sid(client)
    pdf = _pick(client, sid, PDF)[0]["doc_id"]
    txt = _pick(client, sid, CONTRACT)[-1]["doc_id"]
    base = f"/s/{sid}/documents"
    r = client.get(f"{base}/{pdf}/pages/8.png")
    assert r.status_code == 404 and r.json()["error"] == f"no page 8 in {PDF.name} (7 page(s))"
    r = client.get(f"{base}/{txt}/pages/1.png")
    assert r.status_code == 400 and "four_clause_contract.txt is not a PDF" in r.json()["error"]
    r = client.get(f"{base}/{txt}/highlight", params={"spans": "0-10"})
    assert r.status_code == 400 and "is not a PDF" in r.json()["error"]
    for spans, msg in (("x-1", "is not START-END"), ("10-5", "not a range inside"), ("0-99999999", "not a range inside"),
                       ("", "at least one")):
        r = client.get(f"{base}/{pdf}/highlight", params={"spans": spans})
        assert r.status_code == 400 and msg in r.json()["error"], (spans, r.text)
    r = client.get(f"{base}/nope/highlight", params={"spans": "0-10"})
    assert r.status_code == 404 and "no document 'nope' in this session" in r.json()["error"]


def test_parse_spans():
    assert parse_spans("0-5, 7-9", 10) == [(0, 5), (7, 9)]
    with pytest.raises(ClauselensError, match="at most"):
        parse_spans(",".join(["0-1"] * 33), 10)


def test_scanned_pdf_citation_boxes_come_from_ocr_words(client, monkeypatch):
    """A page read by OCR (robustness/scanned_nda_page1.pdf: no text layer) is boxed from
    Tesseract's word boxes; the page's words are read once, a second citation of it is served from
    memory; with OCR failing the page is still served, without boxes (``found`` False)."""
    from clauselens.errors import IngestError
    from clauselens.parsing import page_image

    scan = ROBUST / "scanned_nda_page1.pdf"
    if not scan.exists():
        pytest.skip(f"needs {scan}")
    monkeypatch.setattr(page_image, "_OCR_CACHE", page_image._OcrCache(4))
    sid = _sid(client)
    doc = _pick(client, sid, scan)[0]
    d = client.get(f"/s/{sid}/documents/{doc['doc_id']}").json()
    assert d["pdf"] is True and [p["method"] for p in d["pages"]] == ["ocr"]
    quote = "The Receiving Party shall use the Confidential Information solely for the Purpose"
    start = d["text"].index(quote)
    url = f"/s/{sid}/documents/{doc['doc_id']}/highlight"
    h = client.get(url, params={"spans": f"{start}-{start + len(quote)}"}).json()
    assert h["found"] and [p["method"] for p in h["pages"]] == ["ocr"]
    (box,) = h["pages"][0]["boxes"]  # one line of the scan
    x0, y0, x1, y1 = box
    assert 0.1 < x0 < x1 < 0.9 and 0.7 < y0 < y1 < 0.8 and y1 - y0 < 0.02  # clause 2.2, three quarters down the page
    assert client.get(h["pages"][0]["image"]).status_code == 200

    # another quote on the same page: its words come from the cache, not from Tesseract again
    monkeypatch.setattr(page_image, "_read_ocr_words", lambda *a: pytest.fail("the page was OCR'd again"))
    other = '"Business Day" means a day other than a Saturday'
    start = d["text"].index(other)
    h2 = client.get(url, params={"spans": f"{start}-{start + len(other)}"}).json()
    assert h2["found"] and h2["pages"][0]["boxes"][0][1] < y0  # clause 1.1's definition, higher up

    def broken(*a):
        raise IngestError(scan.name, "OCR needs the tesseract binary: apt-get install tesseract-ocr")

    monkeypatch.setattr(page_image, "_OCR_CACHE", page_image._OcrCache(4))
    monkeypatch.setattr(page_image, "_read_ocr_words", broken)
    h3 = client.get(url, params={"spans": f"{start}-{start + len(other)}"})
    assert h3.status_code == 200 and h3.json()["found"] is False and h3.json()["pages"][0]["boxes"] == []
