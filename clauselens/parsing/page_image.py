"""A PDF page as a picture, and where a span of ``Document.text`` lies on it (issue #19 item 5:
a citation opens the cited page with the quoted words highlighted).

* :func:`render_page_png` renders one page with pypdfium2 (PDFium's ``FPDF_RenderPageBitmap``:
  the crop box, the page's ``/Rotate`` applied) to PNG bytes of a given width.
* :func:`span_boxes` finds the characters of given ``[start, end)`` ranges of a page's text
  (``Document.text[page.start:page.end]``) among the page's PDF characters and returns their
  boxes, merged per line, as fractions of the rendered page (top-left origin), so they lie over
  the picture at any size.

The parser does not keep per-character boxes (``Document`` keeps page text ranges only), and
its text is not the PDF's character stream: layout clean-up drops running headers and footers,
joins hyphenated line ends, expands ligatures and re-orders two-column pages. So the match is
made on a *key*: the NFKC-folded, lower-cased letters and digits of each side (spaces,
punctuation, hyphens and PDFium's generated characters left out), each key character keeping
the index of the character it came from. The quoted range's key is searched in the page's key;
of several occurrences the one at the nearest relative position on the page wins; with none
(a text layer that differs, e.g. OCR'd text), the longest common run anchors an approximate
range, and with no run of :data:`MIN_ANCHOR` characters there are no boxes (the caller shows the
page without them and says so). Character boxes are PDFium's loose boxes
(``FPDFText_GetLooseCharBox``: the font's ascent to descent, like pdfplumber's/pdfminer's
character boxes), mapped to the rendered bitmap with ``FPDF_PageToDevice``, the transform the
renderer uses.

PDFium is not thread-safe: every call here holds the package's one PDFium lock
(:data:`clauselens.parsing.pdfium_lock.PDFIUM_LOCK`, which the parser holds too).

Side effects: reads the PDF file; nothing is written.
"""

from __future__ import annotations

import ctypes
import difflib
import io
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauselens.errors import IngestError
from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

#: Widest rendering served (pixels), to bound memory for a huge page.
MAX_WIDTH_PX = 2400
#: The shortest common run (key characters) that anchors an approximate highlight.
MIN_ANCHOR = 12
#: Resolution of the device space the boxes are computed in (pixels per PDF unit).
_DEVICE_SCALE = 8.0


@dataclass(frozen=True)
class Box:
    """A highlight rectangle, in fractions of the rendered page's width and height (0-1, origin
    top-left): ``x0 < x1``, ``y0 < y1``."""

    x0: float
    y0: float
    x1: float
    y1: float

    def as_list(self) -> list[float]:
        """``[x0, y0, x1, y1]`` rounded to 5 digits (JSON)."""
        return [round(v, 5) for v in (self.x0, self.y0, self.x1, self.y1)]


@contextmanager
def _open_page(path: Path, number: int, password: str | None) -> Iterator[tuple[Any, Any]]:
    """(document, page) for 1-based ``number``, under :data:`PDFIUM_LOCK`; closed afterwards.

    Raises :class:`IngestError` for a file PDFium cannot open or a page it does not have."""
    import pypdfium2 as pdfium

    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path), password=password)
        except (pdfium.PdfiumError, OSError) as e:
            raise IngestError(path.name, f"the PDF cannot be opened to show its page ({e})") from None
        try:
            if not 1 <= number <= len(pdf):
                raise IngestError(path.name, f"no page {number}: the PDF has {len(pdf)} page(s)")
            page = pdf[number - 1]
            try:
                yield pdf, page
            finally:
                page.close()
        finally:
            pdf.close()


def render_page_png(path: str | Path, number: int, *, width_px: int = 1100, password: str | None = None) -> bytes:
    """Page ``number`` (1-based) of the PDF at ``path`` as PNG bytes, ``width_px`` wide (at most
    :data:`MAX_WIDTH_PX`), greyscale (a contract page; a quarter of the bytes of RGB).

    Raises :class:`IngestError` for an unreadable file or a page out of range."""
    p = Path(path)
    width_px = max(100, min(int(width_px), MAX_WIDTH_PX))
    with _open_page(p, number, password) as (_pdf, page):
        w, _h = page.get_size()
        bitmap = page.render(scale=width_px / w if w > 0 else 1.0, grayscale=True, may_draw_forms=True)
        image = bitmap.to_pil()
        bitmap.close()  # under the lock (not by a finalizer in another thread); the pixel buffer stays the image's
    buf = io.BytesIO()
    image.convert("L").save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _key(text: str) -> tuple[str, list[int]]:
    """The matching key of ``text`` and, per key character, the index of its source character."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        for k in unicodedata.normalize("NFKC", ch).lower():
            if k.isalnum():
                out.append(k)
                where.append(i)
    return "".join(out), where


def _pdf_chars(page: Any) -> tuple[str, list[tuple[float, float, float, float]]]:
    """The page's characters (PDFium's generated spaces and line breaks left out, line-end hyphen
    U+0002 given back as "-") and their loose boxes (left, bottom, right, top; PDF units)."""
    import pypdfium2.raw as pr

    tp = page.get_textpage()
    try:
        chars: list[str] = []
        boxes: list[tuple[float, float, float, float]] = []
        rect = pr.FS_RECTF()
        for i in range(tp.count_chars()):
            if pr.FPDFText_IsGenerated(tp, i) == 1:
                continue
            u = pr.FPDFText_GetUnicode(tp, i)
            ch = "-" if u == 2 else chr(u) if 0 < u < 0x110000 else ""
            if not ch or not pr.FPDFText_GetLooseCharBox(tp, i, rect):
                continue
            chars.append(ch)
            boxes.append((rect.left, rect.bottom, rect.right, rect.top))
        return "".join(chars), boxes
    finally:
        tp.close()


def _locate(page_key: str, quote_key: str, rel: float) -> tuple[int, int] | None:
    """``[i, j)`` in ``page_key`` matching ``quote_key``: the exact occurrence nearest relative
    position ``rel`` (0-1), else a range anchored on the longest common run, else None."""
    if not quote_key:
        return None
    hits, at = [], page_key.find(quote_key)
    while at >= 0:
        hits.append(at)
        at = page_key.find(quote_key, at + 1)
    n = max(len(page_key), 1)
    if hits:
        best = min(hits, key=lambda h: abs(h / n - rel))
        return best, best + len(quote_key)
    m = difflib.SequenceMatcher(None, quote_key, page_key, autojunk=False).find_longest_match(
        0, len(quote_key), 0, len(page_key))
    if m.size < min(MIN_ANCHOR, len(quote_key)):
        return None
    start = max(0, m.b - m.a)
    return start, min(len(page_key), start + len(quote_key))


def _merge_lines(rects: Sequence[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """Device rectangles (x0, y0, x1, y1) of consecutive characters merged into one per line: a
    character joins the current rectangle when it overlaps it by half its height and is not far
    to its left (a horizontal line), or by half its width and is not far above it (text drawn
    sideways, on a page turned by its content rather than by ``/Rotate``)."""
    out: list[list[float]] = []
    runs: list[str] = []  # per rectangle: "" (one character), "across" or "down"
    for x0, y0, x1, y1 in rects:
        if out:
            cx0, cy0, cx1, cy1 = out[-1]
            w, h = x1 - x0, y1 - y0
            across = min(cy1, y1) - max(cy0, y0) >= 0.5 * min(cy1 - cy0, h) and x0 >= cx0 - 2 * h
            down = (cx1 - cx0 <= 1.5 * w and min(cx1, x1) - max(cx0, x0) >= 0.5 * w
                    and max(y0 - cy1, cy0 - y1) <= 2 * w)
            way = "across" if across and runs[-1] != "down" else "down" if down and runs[-1] != "across" else None
            if way:
                out[-1] = [min(cx0, x0), min(cy0, y0), max(cx1, x1), max(cy1, y1)]
                runs[-1] = way
                continue
        out.append([x0, y0, x1, y1])
        runs.append("")
    return [(a, b, c, d) for a, b, c, d in out]


def span_boxes(path: str | Path, number: int, page_text: str, ranges: Sequence[tuple[int, int]], *,
               password: str | None = None) -> list[Box]:
    """Highlight boxes of ``ranges`` (``[start, end)`` offsets into ``page_text``, the parser's
    text of page ``number``) on that page of the PDF at ``path`` (see module docstring).

    Returns one :class:`Box` per line of each range found, in reading order; an empty list when
    the page has no text layer or the text cannot be matched. Raises :class:`IngestError` for an
    unreadable file or a page out of range."""
    import pypdfium2.raw as pr

    p = Path(path)
    doc_key, doc_where = _key(page_text)
    with _open_page(p, number, password) as (_pdf, page):
        chars, pdf_boxes = _pdf_chars(page)
        w, h = page.get_size()
        dw, dh = max(1, round(w * _DEVICE_SCALE)), max(1, round(h * _DEVICE_SCALE))
        dx, dy = ctypes.c_int(), ctypes.c_int()

        def device(x: float, y: float) -> tuple[int, int]:
            pr.FPDF_PageToDevice(page, 0, 0, dw, dh, 0, x, y, ctypes.byref(dx), ctypes.byref(dy))
            return dx.value, dy.value

        page_key, page_where = _key(chars)
        out: list[Box] = []
        for start, end in ranges:
            ks = next((k for k, i in enumerate(doc_where) if i >= start), len(doc_where))
            ke = next((k for k, i in enumerate(doc_where) if i >= end), len(doc_where))
            found = _locate(page_key, doc_key[ks:ke], ks / max(len(doc_key), 1))
            if found is None:
                continue
            idx = sorted({page_where[k] for k in range(*found)})
            rects = []
            for i in idx:
                left, bottom, right, top = pdf_boxes[i]
                xs, ys = zip(device(left, top), device(right, bottom))
                rects.append((min(xs), min(ys), max(xs), max(ys)))
            out.extend(Box(max(0.0, x0 / dw), max(0.0, y0 / dh), min(1.0, x1 / dw), min(1.0, y1 / dh))
                       for x0, y0, x1, y1 in _merge_lines(rects))
    return out
