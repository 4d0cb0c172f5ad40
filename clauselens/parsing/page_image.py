"""A PDF page as a picture, and where a span of ``Document.text`` lies on it (issue #19 item 5:
a citation opens the cited page with the quoted words highlighted).

* :func:`render_page_png` renders one page with pypdfium2 (PDFium's ``FPDF_RenderPageBitmap``:
  the crop box, the page's ``/Rotate`` applied) to PNG bytes of a given width.
* :func:`span_boxes` finds the characters of given ``[start, end)`` ranges of a page's text
  (``Document.text[page.start:page.end]``) among the page's PDF characters and returns their
  boxes, merged per line, as fractions of the rendered page (top-left origin), so they lie over
  the picture at any size.
* :func:`ocr_span_boxes` does the same for a page whose text the parser read by OCR (a scan:
  no text layer, so no PDF characters to match): the boxes come from Tesseract's own word boxes.

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

An OCR'd page is rendered again exactly as the parser's OCR step renders it (the same dpi, the
same pypdfium2 call) and read again by Tesseract the same way (``--psm 3``, told the dpi, a
sideways scan turned upright first), giving the same words: Tesseract's TSV output
(``pytesseract.image_to_data(..., output_type=Output.DICT)``: per word its text, ``left``, ``top``,
``width`` and ``height`` in pixels and its block/paragraph/line numbers) is the source of the
boxes. The words, in the order the parser made the page text from them (lines top to bottom),
are joined and matched by the same key, nearest occurrence and approximate anchor as PDF
characters; so a span whose text differs a little (furniture dropped, hyphens joined, another
OCR's reading of the same scan) still lands on its words. Matched words are merged per
Tesseract line into one box (whole words: a span starting mid-word boxes that word), a box of
the turned image turned back, and divided by the rendered image's size. Tesseract takes ~4 s a
300-dpi page, so a page's words are kept in a bounded in-memory cache (:data:`MAX_OCR_PAGES`
pages, least recently used dropped, made on first use) keyed by the file's path, size and
modification time, the page and the dpi: a second citation of the page is boxed at once.

PDFium is not thread-safe: every call here holds the package's one PDFium lock
(:data:`clauselens.parsing.pdfium_lock.PDFIUM_LOCK`, which the parser holds too).

Side effects: reads the PDF file; runs the ``tesseract`` binary for an OCR'd page not in the
cache; nothing is written.
"""

from __future__ import annotations

import ctypes
import difflib
import io
import threading
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cachetools import LRUCache

from clauselens.errors import IngestError
from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

#: Widest rendering served (pixels), to bound memory for a huge page.
MAX_WIDTH_PX = 2400
#: The shortest common run (key characters) that anchors an approximate highlight.
MIN_ANCHOR = 12
#: Resolution of the device space the boxes are computed in (pixels per PDF unit).
_DEVICE_SCALE = 8.0
#: OCR'd pages whose word boxes are kept in memory (some hundreds of words, ~50 KB, each); the
#: least recently used go first.
MAX_OCR_PAGES = 64


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


def _matched(doc_key: str, doc_where: list[int], page_key: str, page_where: list[int], start: int,
             end: int) -> list[int]:
    """Indices of the page's source characters that ``[start, end)`` of the parser's page text
    (its key ``doc_key``/``doc_where``) matches in the page key (:func:`_locate`), in order;
    empty when it is not found."""
    ks = next((k for k, i in enumerate(doc_where) if i >= start), len(doc_where))
    ke = next((k for k, i in enumerate(doc_where) if i >= end), len(doc_where))
    found = _locate(page_key, doc_key[ks:ke], ks / max(len(doc_key), 1))
    return [] if found is None else sorted({page_where[k] for k in range(*found)})


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
            rects = []
            for i in _matched(doc_key, doc_where, page_key, page_where, start, end):
                left, bottom, right, top = pdf_boxes[i]
                xs, ys = zip(device(left, top), device(right, bottom))
                rects.append((min(xs), min(ys), max(xs), max(ys)))
            out.extend(Box(max(0.0, x0 / dw), max(0.0, y0 / dh), min(1.0, x1 / dw), min(1.0, y1 / dh))
                       for x0, y0, x1, y1 in _merge_lines(rects))
    return out


@dataclass(frozen=True)
class OcrWords:
    """The words Tesseract read on one page, in the order the OCR'd page text is made in
    (:func:`clauselens.parsing.ocr.ocr_line_words`): ``(text, x0, y0, x1, y1, line)``, the box in
    pixels of the page rendered upright at ``width`` x ``height`` (top-left origin), ``line`` the
    index of its Tesseract line."""

    width: int
    height: int
    words: tuple[tuple[str, int, int, int, int, int], ...]


def _unturn(box: tuple[int, int, int, int], turned: int, width: int, height: int) -> tuple[int, int, int, int]:
    """A box ``(x0, y0, x1, y1)`` in pixels of a ``width`` x ``height`` image turned ``turned``
    degrees clockwise (PIL ``rotate(-turned, expand=True)``, as the OCR step turns a sideways
    scan) back in pixels of the image as it was."""
    u0, v0, u1, v1 = box
    if turned == 90:
        return v0, height - u1, v1, height - u0
    if turned == 180:
        return width - u1, height - v1, width - u0, height - v0
    if turned == 270:
        return width - v1, u0, width - v0, u1
    return box


def _read_ocr_words(path: Path, number: int, dpi: int, password: str | None) -> OcrWords:
    """Page ``number`` rendered at ``dpi`` and read by Tesseract, exactly as the parser's OCR step
    does (:func:`clauselens.parsing.ocr.render_for_ocr`, :func:`~clauselens.parsing.ocr.ocr_words`:
    the same picture, the same reading, turned upright the same way); ~4 s for a 300-dpi page."""
    from clauselens.parsing.ocr import ocr_errors, ocr_line_words, ocr_words, render_for_ocr

    with _open_page(path, number, password) as (_pdf, page):
        image = render_for_ocr(page, dpi)
    with ocr_errors(path.name):
        data, turned = ocr_words(image, dpi)
    width, height = image.size
    words = []
    for line, idx in enumerate(ocr_line_words(data)):
        for i in idx:
            left, top = int(data["left"][i]), int(data["top"][i])
            box = _unturn((left, top, left + int(data["width"][i]), top + int(data["height"][i])), turned, width, height)
            words.append((str(data["text"][i]).strip(), *box, line))
    return OcrWords(width, height, tuple(words))


class _OcrCache:
    """A bounded, thread-safe LRU of pages' :class:`OcrWords`; a page is read once even when two
    requests for it come together (the second waits for the first)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pages: LRUCache[tuple[str, int, int, int, int], OcrWords] = LRUCache(maxsize=limit)
        self._reading: dict[tuple[str, int, int, int, int], threading.Lock] = {}
        self._guard = threading.Lock()

    def _hit(self, key: tuple[str, int, int, int, int]) -> OcrWords | None:
        with self._guard:
            return self.pages.get(key)

    def get(self, key: tuple[str, int, int, int, int], read: Callable[[], OcrWords]) -> OcrWords:
        got = self._hit(key)
        if got is not None:
            return got
        with self._guard:
            lock = self._reading.setdefault(key, threading.Lock())
        with lock:
            got = self._hit(key)
            if got is not None:
                return got
            try:
                got = read()
            finally:
                with self._guard:
                    self._reading.pop(key, None)
            with self._guard:
                self.pages[key] = got  # the least recently used page goes when the cache is full
        return got


_OCR_CACHE: _OcrCache | None = None
_OCR_CACHE_GUARD = threading.Lock()


def ocr_cache() -> _OcrCache:
    """The process's cache of OCR'd pages' words (made on first use)."""
    global _OCR_CACHE
    with _OCR_CACHE_GUARD:
        if _OCR_CACHE is None:
            _OCR_CACHE = _OcrCache(MAX_OCR_PAGES)
        return _OCR_CACHE


def page_ocr_words(path: str | Path, number: int, *, dpi: int = 300, password: str | None = None) -> OcrWords:
    """Tesseract's words of page ``number`` of the PDF at ``path`` rendered at ``dpi``, from the
    cache (keyed by the file's path, size and modification time, the page and the dpi) or read
    now. Raises :class:`IngestError` for an unreadable file, a page out of range, or OCR failing
    (Tesseract missing)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        raise IngestError(p.name, f"the PDF cannot be opened to show its page ({e})") from None
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns, int(number), int(dpi))
    return ocr_cache().get(key, lambda: _read_ocr_words(p, number, dpi, password))


def ocr_span_boxes(path: str | Path, number: int, page_text: str, ranges: Sequence[tuple[int, int]], *,
                   dpi: int = 300, password: str | None = None) -> list[Box]:
    """Highlight boxes of ``ranges`` (``[start, end)`` offsets into ``page_text``, the parser's
    OCR text of page ``number``) on that page of the PDF at ``path``, from Tesseract's word
    boxes of the page rendered at ``dpi`` (the dpi it was OCR'd at; see module docstring).

    Returns one :class:`Box` per OCR line of each range found, in reading order (whole words);
    an empty list when the text cannot be matched. Raises :class:`IngestError` for an unreadable
    file, a page out of range, or OCR failing."""
    ocr = page_ocr_words(path, number, dpi=dpi, password=password)
    chars: list[str] = []
    owner: list[int] = []  # per character of the joined words: the index of its word
    for w, word in enumerate(ocr.words):
        chars.append(word[0] + " ")
        owner.extend([w] * (len(word[0]) + 1))
    page_key, page_where = _key("".join(chars))
    doc_key, doc_where = _key(page_text)
    out: list[Box] = []
    for start, end in ranges:
        lines: list[list[int]] = []  # per line of the match: x0, y0, x1, y1, line
        for w in sorted({owner[i] for i in _matched(doc_key, doc_where, page_key, page_where, start, end)}):
            _text, x0, y0, x1, y1, line = ocr.words[w]
            if lines and lines[-1][4] == line:
                cur = lines[-1]
                lines[-1] = [min(cur[0], x0), min(cur[1], y0), max(cur[2], x1), max(cur[3], y1), line]
            else:
                lines.append([x0, y0, x1, y1, line])
        out.extend(Box(max(0.0, x0 / ocr.width), max(0.0, y0 / ocr.height), min(1.0, x1 / ocr.width),
                       min(1.0, y1 / ocr.height)) for x0, y0, x1, y1, _line in lines)
    return out
