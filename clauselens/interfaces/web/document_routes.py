"""The web UI's report and document routes (split from :func:`clauselens.interfaces.web.app.create_app`
for issue #43; the routes are listed in :mod:`clauselens.interfaces.web.app`'s docstring): a
session's reports as an HTML fragment or a download (md, html, json, docx), its documents' text and
pages, a span's boxes on a PDF page (:func:`highlight`), a page image (:class:`PageImages`), and
removing a document.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cachetools import LRUCache
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.templating import Jinja2Templates

from clauselens.errors import ClauselensError, IngestError
from clauselens.interfaces.session import UnknownDocumentError
from clauselens.parsing.page_image import ocr_span_boxes, render_page_png, span_boxes
from clauselens.parsing.sniff import sniff_file
from clauselens.parsing.types import Document
from clauselens.reports.render import (
    NO_CITATIONS,
    finding_groups,
    gaps_note,
    header_fields,
    no_findings_note,
    reading_label,
    section_titles,
    show_conclusion,
    to_html,
    to_json,
    to_markdown,
    verification_banner,
)
from clauselens.reports.render_docx import to_docx

log = logging.getLogger("clauselens.interfaces.web.app")  # one logger for the web UI's messages

#: Rendered PDF pages kept in memory (about 100-250 KB each); the least recently used go first.
MAX_PAGE_IMAGES = 48
#: Width (pixels) pages are rendered at for the document view.
PAGE_WIDTH_PX = 1100
#: Ranges one highlight request may ask for.
MAX_HIGHLIGHT_SPANS = 32


class PageImages:
    """A bounded, thread-safe LRU of rendered pages: (file sha256, page) -> PNG bytes."""

    def __init__(self, limit: int = MAX_PAGE_IMAGES) -> None:
        self.limit = limit
        self._png: LRUCache[tuple[str, int], bytes] = LRUCache(maxsize=limit)
        self._guard = threading.Lock()

    def get(self, doc: Document, number: int) -> bytes:
        """Page ``number`` of ``doc`` (a PDF) as PNG, rendered on the first request."""
        key = (doc.sha256, number)
        with self._guard:
            png = self._png.get(key)
        if png is None:
            png = render_page_png(doc.source_path, number, width_px=PAGE_WIDTH_PX)
            with self._guard:
                self._png[key] = png  # the least recently used page goes when the cache is full
        return png


def parse_spans(spans: str, text_len: int) -> list[tuple[int, int]]:
    """``"S-E,S-E"`` -> ``[(S, E), ...]``; raises :class:`ClauselensError` for anything else, an
    empty or reversed range, one past the end of the text, or more than :data:`MAX_HIGHLIGHT_SPANS`."""
    out = []
    for part in (p.strip() for p in spans.split(",") if p.strip()):
        a, sep, b = part.partition("-")
        if not (sep and a.isdigit() and b.isdigit()):
            raise ClauselensError(f"spans: {part!r} is not START-END (two character offsets, e.g. 120-180)")
        lo, hi = int(a), int(b)
        if not lo < hi <= text_len:
            raise ClauselensError(f"spans: {part!r} is not a range inside the document's {text_len} characters")
        out.append((lo, hi))
    if not out:
        raise ClauselensError("spans: give at least one START-END range")
    if len(out) > MAX_HIGHLIGHT_SPANS:
        raise ClauselensError(f"spans: at most {MAX_HIGHLIGHT_SPANS} ranges")
    return out


def is_pdf(doc: Document) -> bool:
    """True if the document's file is a PDF (by its first bytes) that is still there."""
    try:
        return sniff_file(doc.source_path).kind == "pdf"
    except (OSError, ClauselensError):
        return False


def highlight(doc: Document, spans: list[tuple[int, int]], image_url: Callable[[int], str], *,
              ocr_dpi: int = 300) -> dict:
    """The pages of PDF ``doc`` that ``spans`` (offsets into ``doc.text``) fall on, in order,
    each ``{"number", "image", "method", "boxes": [[x0, y0, x1, y1], ...]}`` (fractions of the
    page, top-left origin). A page read from its text layer is boxed from its PDF characters, one
    read by OCR from Tesseract's word boxes of it rendered at ``ocr_dpi`` (the first request for
    such a page runs Tesseract, ~4 s; later ones are served from memory). ``found`` is False when
    no box could be placed (the text not matched on the page, or OCR failing here)."""
    by_page: dict[int, list[tuple[int, int]]] = {}
    for lo, hi in spans:
        for p in doc.pages:
            if p.start < hi and lo < p.end:
                by_page.setdefault(p.number, []).append((max(lo, p.start) - p.start, min(hi, p.end) - p.start))
    pages = []
    for p in doc.pages:
        if p.number not in by_page:
            continue
        text = doc.text[p.start:p.end]
        boxes = []
        if p.method == "text":
            boxes = span_boxes(doc.source_path, p.number, text, by_page[p.number])
        elif p.method == "ocr":
            try:
                boxes = ocr_span_boxes(doc.source_path, p.number, text, by_page[p.number], dpi=ocr_dpi)
            except IngestError as e:  # e.g. Tesseract gone since the parse: the page is shown unboxed
                log.warning("no highlight on page %d of %s: %s", p.number, doc.source_path, e)
        pages.append({"number": p.number, "image": image_url(p.number), "method": p.method,
                      "boxes": [b.as_list() for b in boxes]})
    return {"doc_id": doc.id, "pages": pages, "found": any(pg["boxes"] for pg in pages)}


def document_router(service: Any, *, sid_ok: Callable[[str], str], templates: Jinja2Templates, images: PageImages) -> APIRouter:
    """The report and document routes over the chat-session ``service``."""
    r = APIRouter()

    def report_or_404(sid: str, n: int):
        reps = service.reports(sid)
        if not 0 <= n < len(reps):
            raise HTTPException(404, f"no report {n} in this session")
        return reps[n]

    def find_document(sid: str, doc_id: str) -> Document:
        """A document of the session (or of its library); raises UnknownDocumentError."""
        if service.library is not None:  # citations of a library session point into its agreements
            return service.library_document(doc_id)
        for d in service.parsed_documents(sid_ok(sid)):
            if d.id == doc_id:
                return d
        raise UnknownDocumentError(f"no document {doc_id!r} in this session (was it removed?)")

    def pdf_document(sid: str, doc_id: str) -> Document:
        d = find_document(sid, doc_id)
        if not is_pdf(d):
            raise ClauselensError(f"{Path(d.source_path).name} is not a PDF: it has no page images; open it as text")
        return d

    @r.get("/s/{sid}/reports/{n}/fragment", response_class=HTMLResponse)
    def report_fragment(request: Request, sid: str, n: int) -> HTMLResponse:
        rep = report_or_404(sid_ok(sid), n)
        return templates.TemplateResponse(request, "report_fragment.html", {
            "r": rep, "n": n, "sid": sid, "header": header_fields(rep), "banner": verification_banner(rep),
            "gaps_note": gaps_note(rep), "no_findings": no_findings_note(rep), "no_citations": NO_CITATIONS,
            "show_conclusion": show_conclusion(rep), "titles": section_titles(rep), "reading_label": lambda f: reading_label(rep, f),
            "groups": finding_groups(rep)})

    @r.get("/s/{sid}/reports/{n}.{fmt}")
    def report_download(sid: str, n: int, fmt: str) -> Response:
        rep = report_or_404(sid_ok(sid), n)
        name = f"clauselens-{sid}-report{n}.{fmt}"
        disp = {"Content-Disposition": f'attachment; filename="{name}"'}
        if fmt == "md":
            return PlainTextResponse(to_markdown(rep), media_type="text/markdown; charset=utf-8", headers=disp)
        if fmt == "html":
            return HTMLResponse(to_html(rep), headers=disp)
        if fmt == "json":
            return Response(to_json(rep), media_type="application/json", headers=disp)
        if fmt == "docx":
            return Response(to_docx(rep), headers=disp,
                            media_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        raise HTTPException(404, "formats: md, html, json, docx")

    @r.get("/s/{sid}/documents/{doc_id}")
    def document(sid: str, doc_id: str) -> dict:
        d = find_document(sid, doc_id)
        return {"doc_id": d.id, "title": d.title or Path(d.source_path).name, "file_name": Path(d.source_path).name,
                "text": d.text, "pdf": is_pdf(d),
                "pages": [{"number": p.number, "start": p.start, "end": p.end, "method": p.method} for p in d.pages]}

    @r.delete("/s/{sid}/documents/{doc_id}")
    async def remove_document(sid: str, doc_id: str) -> dict:
        sid_ok(sid)
        return {"documents": await asyncio.to_thread(service.remove_document, sid, doc_id)}

    @r.get("/s/{sid}/documents/{doc_id}/highlight")
    async def document_highlight(sid: str, doc_id: str, spans: str = "") -> dict:
        d = pdf_document(sid, doc_id)
        ranges = parse_spans(spans, len(d.text))
        url = f"/s/{sid}/documents/{quote(doc_id, safe='')}/pages/{{}}.png"
        return await asyncio.to_thread(highlight, d, ranges, url.format, ocr_dpi=service.settings.ocr_dpi)

    @r.get("/s/{sid}/documents/{doc_id}/pages/{number}.png")
    async def page_image(sid: str, doc_id: str, number: int) -> Response:
        d = pdf_document(sid, doc_id)
        if not any(p.number == number for p in d.pages):
            raise UnknownDocumentError(f"no page {number} in {Path(d.source_path).name} ({len(d.pages)} page(s))")
        png = await asyncio.to_thread(images.get, d, number)
        return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    return r


__all__ = ["MAX_HIGHLIGHT_SPANS", "MAX_PAGE_IMAGES", "PAGE_WIDTH_PX", "PageImages", "document_router", "highlight", "is_pdf",
           "parse_spans"]
