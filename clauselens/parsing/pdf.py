"""PDF text extraction: the text layer per page (PDFium via pypdfium2, or pdfplumber), OCR
(pypdfium2 + Tesseract) for pages without real text, furniture removal, line joins and NFKC
normalisation. OCR itself (Tesseract, orientation detection, image files) is :mod:`clauselens.parsing.ocr`.

Two engines read the text layer; both give the same kind of positioned characters to the same
line, column, invisible-text and furniture code (:mod:`clauselens.parsing.pdfium_page`):

* ``pdfium``: PDFium's characters (pypdfium2). On the 21 CUAD PDFs ``load_document`` takes ~1/4
  of pdfplumber's CPU, with the same clause trees and 19 of 21 texts identical
  (``benchmarks/pdf_engines_e2e.py`` -> ``benchmarks/results/pdf_engines_e2e.json``).
  A page is read with pdfplumber instead when PDFium cannot vouch for it (:func:`_pdfium_pages`):
  Form XObjects nested too deep to check for hidden text, most characters not upright, too
  little text, or PDFium fails on it. A file PDFium cannot
  open at all goes to pdfplumber whole (which also words the errors: encrypted, corrupt).
* ``pdfplumber``: pdfminer's characters (the only engine before issue #17).

``auto`` (the default, :data:`AUTO_PDF_ENGINE`) is the engine chosen by that benchmark.

PDFium is not thread-safe: its calls here (the ``pdfium`` engine, OCR page renders) hold
:data:`clauselens.parsing.pdfium_lock.PDFIUM_LOCK`, as the web UI's page images do.

A PDF of at least :data:`PARALLEL_MIN_PAGES` pages has its PDFium pages read in
:func:`pdf_workers` worker processes (``Settings.pdf_workers``) (``concurrent.futures.ProcessPoolExecutor``, ``spawn``,
made on first use and kept; each process has its own PDFium, so nothing is shared): contiguous
page ranges in page order, each page read by the same code as in one process, so the text is
the same (issue #42; ``benchmarks/library_add_pdf.py --workers``). Two workers by default, never
more than the CPU count (``CLAUSELENS_PDF_WORKERS=1`` reads in this process): on the idle 2-core
machine the 21 CUAD PDFs (349 pages) read at 28.75 vs 19.68 pages/s wall (median of 3 rounds taking
turns, load 0.5-1.8, run ``quiet_s8``); on the busy machine (load 2-4) there was no wall gain and no
loss (ratio 1.007 [0.515, 1.498]); a lone 14-page PDF pays ~0.15 s for the pool's start.

Side effects: reads the file; runs the ``tesseract`` binary for OCR pages.
"""

from __future__ import annotations

import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Literal

from clauselens.errors import EncryptedDocumentError, IngestError, NoTextError
from clauselens.parsing.hidden import drop_invisible, mark_layers, off_layers
from clauselens.parsing.layout import Line, find_furniture, find_gutter, lines_to_text, normalize_extracted
from clauselens.parsing.ocr import LOW_OCR_CONFIDENCE, PageText, ocr_errors, ocr_pdf_page
from clauselens.parsing.visibility import mark_unshown_plumber

PdfEngine = Literal["auto", "pdfium", "pdfplumber"]
#: What ``auto`` means: the engine whose output matched pdfplumber's on the 21 CUAD PDFs (same
#: clause numbers in all 21, page texts >= 0.994 similar) at ~1/4 of the CPU
#: (benchmarks/pdf_engines_e2e.py, README "PDF text engines").
AUTO_PDF_ENGINE: Literal["pdfium", "pdfplumber"] = "pdfium"
#: Worker processes reading the PDFium pages of one large PDF (module docstring; 1: none); None:
#: ``Settings.pdf_workers`` (``CLAUSELENS_PDF_WORKERS``), read when a PDF is opened.
PDF_WORKERS: int | None = None
#: Fewer pages than this are read in this process (a worker's round trip costs more than they do).
PARALLEL_MIN_PAGES = 8
_POOL: ProcessPoolExecutor | None = None


def pdf_workers() -> int:
    """Worker processes for one PDF's pages: :data:`PDF_WORKERS` when set, else the settings'."""
    if PDF_WORKERS is not None:
        return max(1, PDF_WORKERS)
    import os

    from clauselens.config import Settings

    return max(1, min(Settings().pdf_workers, os.cpu_count() or 1))


def resolve_pdf_engine(engine: str) -> Literal["pdfium", "pdfplumber"]:
    """``auto`` -> :data:`AUTO_PDF_ENGINE`; ``pdfium``/``pdfplumber`` as given; anything else is a ValueError."""
    if engine == "auto":
        return AUTO_PDF_ENGINE
    if engine in ("pdfium", "pdfplumber"):
        return engine  # type: ignore[return-value]
    raise ValueError(f"unknown PDF engine {engine!r}: use auto, pdfium or pdfplumber")


#: A page whose text layer has fewer alphanumeric characters than this is treated as image-only.
MIN_TEXT_CHARS = 20
#: Characters that draw rules and leaders (signature lines, dot leaders), not text: ignored when
#: looking for columns, so "By: ______   By: ______" is not mistaken for two columns of prose.
RULE_CHARS = frozenset("-_.=–—·•…")
#: pdfplumber word-gap tolerance as a share of the font size (pdfplumber ``x_tolerance_ratio``).
#: 0.15 splits words set without space glyphs (gaps ~0.25 em) yet keeps letters (gaps ~0) together.
X_TOLERANCE_RATIO = 0.15


_CLASS_NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:Exception|Error|Warning)\b:?\s*")


def backend_detail(exc: BaseException) -> str:
    """``" (detail)"`` from the innermost message of ``exc``'s chain, without Python class names
    (``PdfminerException``, ``PSEOF``...), at most 120 characters; ``""`` when nothing readable is left."""
    seen: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and e not in seen:
        seen.append(e)
        nested = [a for a in e.args if isinstance(a, BaseException)]
        e = nested[0] if nested else (e.__cause__ or e.__context__)
    for cand in reversed(seen):
        text = " ".join(str(a) for a in cand.args if not isinstance(a, BaseException)).strip()
        text = _CLASS_NAME.sub("", text).strip(" :;,.")
        if len(re.findall(r"[A-Za-z]", text)) >= 4:
            return f" ({text[:120]})"
    return ""


def _check_header(path: Path) -> None:
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if b"%PDF-" not in head:
        raise IngestError(path.name, "not a PDF file (no %PDF header); is the extension wrong?")


def _open_pdf(path: Path, password: str | None):
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError

    name = path.name
    _check_header(path)
    try:
        return pdfplumber.open(path, password=password or "")
    except PDFPasswordIncorrect:
        if password:
            raise EncryptedDocumentError(name, "encrypted, and the password given is wrong") from None
        raise EncryptedDocumentError(name, "encrypted, password required (pass --password)") from None
    except PDFSyntaxError as exc:
        raise IngestError(name, f"corrupt or truncated PDF; it cannot be parsed{backend_detail(exc)}") from None
    except Exception as exc:  # pdfplumber wraps pdfminer errors in PdfminerException
        chain = [exc, *exc.args, exc.__cause__, exc.__context__]
        if any(isinstance(e, PDFPasswordIncorrect) for e in chain):
            if password:
                raise EncryptedDocumentError(name, "encrypted, and the password given is wrong") from None
            raise EncryptedDocumentError(name, "encrypted, password required (pass --password)") from None
        if any(isinstance(e, PDFSyntaxError) for e in chain):
            raise IngestError(name, f"corrupt or truncated PDF; it cannot be parsed{backend_detail(exc)}") from None
        if "password" in str(exc).lower() or type(exc).__name__.lower().startswith("pdfencrypt"):
            raise EncryptedDocumentError(name, "encrypted, password required (pass --password)") from None
        raise IngestError(name, f"corrupt or truncated PDF; it cannot be parsed{backend_detail(exc)}") from None


def pdf_page_count(path: Path, password: str | None = None) -> int:
    """Number of pages of a PDF, read from the page tree's ``/Count`` (no page is parsed),
    falling back to walking the page tree when ``/Count`` is missing or not an integer.

    Raises the same errors as :func:`extract_pdf` for a file that is not a PDF, corrupt or
    encrypted (so a huge file can be refused before any page is read).
    """
    from pdfminer.pdftypes import resolve1

    pdf = _open_pdf(path, password)
    try:
        try:
            count = resolve1(resolve1(pdf.doc.catalog.get("Pages")).get("Count"))
        except Exception:  # a broken catalog: count the pages the slow way below
            count = None
        if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            return count
        return len(pdf.pages)
    finally:
        pdf.close()


def _upright_share(page) -> float:
    chars = page.chars
    return sum(1 for c in chars if c.get("upright")) / len(chars) if chars else 1.0


def _derotated_copy(path: Path, password: str | None, indices: list[int]):
    """A pdfplumber PDF over an in-memory copy (pypdf) whose pages ``indices`` have
    ``/Rotate 0``: for pages whose ``/Rotate`` leaves the text running sideways."""
    import io

    import pdfplumber
    import pypdf

    reader = pypdf.PdfReader(str(path))
    if reader.is_encrypted:
        reader.decrypt(password or "")
    writer = pypdf.PdfWriter()
    for i, page in enumerate(reader.pages):
        if i in indices:
            page.rotation = 0
        writer.add_page(page)
    buf = io.BytesIO()
    writer.write(buf)
    buf.seek(0)
    return pdfplumber.open(buf)


def _rows(page) -> list[dict]:
    return page.extract_text_lines(
        layout=False, strip=True, return_chars=True,
        x_tolerance_ratio=X_TOLERANCE_RATIO, y_tolerance=3,
    )


def _as_lines(rows: list[dict], column: int = 0) -> list[Line]:
    return [Line(r["text"], r["x0"], r["x1"], r["top"], r["bottom"], column) for r in rows]


#: Levels of column splitting (:func:`_text_lines`): 2 reads up to four columns side by side.
MAX_COLUMN_DEPTH = 2


def _text_lines(page) -> tuple[list[Line], str | None]:
    """Lines of a pdfplumber page in reading order (upright coordinates), and a warning when
    the column layout is uncertain. Invisible characters must be dropped first
    (:func:`drop_invisible`).

    Recursive XY-cut (Nagy & Seth, "Hierarchical representation of optically scanned documents",
    ICPR 1984) with whitespace gutters as the vertical cuts: a page (or a column of it) with a
    gutter (:func:`~clauselens.parsing.layout.find_gutter`) is read band by band: rows that run
    across the gutter (a full-width title or heading) as they are, and between them the left part,
    then the right one, each cropped at the gutter and read the same way (so a right part that
    holds two columns is split again, up to :data:`MAX_COLUMN_DEPTH` levels: 1-3 columns of
    unequal widths). Each column read gets its own :attr:`Line.column` number.
    """
    warnings: list[str] = []
    lines = _read_region(page, _rows(page), 0, [0], warnings)
    return lines, (warnings[0] if warnings else None)


def _read_region(page, rows: list[dict], depth: int, ids: list[int], warnings: list[str]) -> list[Line]:
    """:func:`_text_lines` on one region (``page`` cropped to it, ``rows`` its text rows);
    ``ids`` holds the last column number given out; warnings are appended to ``warnings``."""
    ids[0] += 1
    own = ids[0] if depth else 0
    boxes = [[(c["x0"], c["x1"]) for c in r.get("chars", []) if c["text"].strip() and c["text"] not in RULE_CHARS]
             for r in rows]
    gutter = find_gutter(boxes, spans=[(r["top"], r["bottom"]) for r in rows]) if depth <= MAX_COLUMN_DEPTH else None
    if gutter is None:
        return _as_lines(rows, own)
    if not gutter.split:
        warnings.append(f"page {page.page_number}: may be set in columns ({gutter.why}); "
                        "read line by line, check the reading order")
        return _as_lines(rows, own)
    x = gutter.x
    out: list[Line] = []
    band: list[int] = []
    x0, y0, x1, y1 = page.bbox

    def flush(lo: int, hi: int) -> None:
        if not band:
            return
        top = (rows[lo - 1]["bottom"] + rows[lo]["top"]) / 2 if lo > 0 else y0
        bottom = (rows[hi]["bottom"] + rows[hi + 1]["top"]) / 2 if hi + 1 < len(rows) else y1
        top, bottom = max(top, y0), min(max(bottom, top + 1), y1)
        for a, b in ((x0, x), (x, x1)):
            part = page.crop((a, top, b, bottom), strict=False)
            out.extend(_read_region(part, _rows(part), depth + 1, ids, warnings))
        band.clear()

    # rows above the first row split by the gutter are outside the column block (a title that
    # starts over the gutter, not across it): read whole
    whole = gutter.crossing | set(range(min(gutter.split)))
    for i, r in enumerate(rows):
        if i in whole:
            if band:
                flush(band[0], band[-1])
            out.append(_as_lines([r], own)[0])
        else:
            band.append(i)
    if band:
        flush(band[0], band[-1])
    if not gutter.certain:
        warnings.append(f"page {page.page_number}: read in columns split at x={x:.0f}, but the layout is uncertain "
                        f"({gutter.why}); check the reading order")
    return out


def _real_text(lines: list[Line]) -> bool:
    return sum(len(re.findall(r"[A-Za-z0-9]", ln.text)) for ln in lines) >= MIN_TEXT_CHARS


#: One page's text layer as read by an engine: (lines in reading order, warnings, whether the text
#: runs sideways under ``/Rotate`` and needs the de-rotated copy).
_PageRead = tuple[list[Line], list[str], bool]


def _plumber_page(page, i: int, off: frozenset[str] = frozenset(), path: Path | None = None,
                  password: str | None = None) -> _PageRead:
    """Read one pdfplumber page: invisible text dropped (text of layers in ``off`` included, see
    :func:`mark_layers`; with ``path``, text the rendered page does not show,
    :func:`~clauselens.parsing.visibility.mark_unshown_plumber`),
    columns, warnings."""
    warnings: list[str] = []
    sideways = False
    try:
        if (mixed := mark_layers(page, off)) is not None:
            warnings.append(mixed)
        if path is not None:
            mark_unshown_plumber(page, path, password)
        visible, hidden = drop_invisible(page)
        warnings.extend(hidden)
        lines, col_warning = _text_lines(visible)
        if page.rotation % 360 and page.chars and _upright_share(page) < 0.5:
            sideways = True
        elif col_warning:
            warnings.append(col_warning)
    except Exception:  # a broken page must not sink the document
        warnings.append(f"page {i + 1}: the text layer is damaged and cannot be read; trying OCR")
        lines = []
    page.close()
    return lines, warnings, sideways


def _pdfium_pages(path: Path, password: str | None, max_pages: int | None,
                  off: frozenset[str] = frozenset()) -> list[_PageRead | str] | None:
    """Read every page's text layer with PDFium (:class:`~clauselens.parsing.pdfium_page.PdfiumPage`),
    through the same invisible-text and column code as pdfplumber pages.

    Returns one entry per page, a reason (str) for a page pdfplumber must read: it nests Form
    XObjects deeper than PDFium's reader searches for backgrounds of hidden text, fewer than half of its
    characters are upright, it has less than :data:`MIN_TEXT_CHARS` alphanumerics of visible text
    (pdfplumber decides, then OCR), or PDFium fails on it. ``None`` instead of a list when PDFium
    cannot open the file (pdfplumber then reads it, or words the error: encrypted, corrupt).

    PDFium runs under :data:`~clauselens.parsing.pdfium_lock.PDFIUM_LOCK`, taken per step (the
    open, each page's read, the close) so a page image rendered in another thread waits for one
    page, not the whole document; the layout work on a page's characters runs outside it.
    """
    import pypdfium2 as pdfium

    from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path), password=password or None)
        except Exception:
            return None
    try:
        with PDFIUM_LOCK:
            n = len(pdf)
        n = min(n, max_pages) if max_pages else n
        workers = pdf_workers() if n >= PARALLEL_MIN_PAGES else 1
        if workers > 1:
            with PDFIUM_LOCK:
                pdf.close()
            pdf = None
            return _pdfium_pages_parallel(path, password, n, off, workers)
        return _pdfium_read(pdf, range(n), off)
    finally:
        if pdf is not None:
            with PDFIUM_LOCK:
                pdf.close()


def _pool(workers: int) -> ProcessPoolExecutor:
    """The kept pool of ``workers`` processes (a pool of another size is shut down first)."""
    global _POOL
    if _POOL is not None and getattr(_POOL, "_max_workers", workers) != workers:
        _POOL.shutdown()
        _POOL = None
    if _POOL is None:
        import multiprocessing

        _POOL = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    return _POOL


def _pdfium_pages_parallel(path: Path, password: str | None, n: int, off: frozenset[str],
                           workers: int) -> list[_PageRead | str] | None:
    """:func:`_pdfium_pages` over ``n`` pages split into ``workers`` contiguous ranges,
    each read in a worker process; in page order. A worker that cannot open the file (``None``)
    makes the whole answer ``None``, as in one process."""
    size = -(-n // workers)
    parts = [(s, min(s + size, n)) for s in range(0, n, size)]
    done = list(_pool(workers).map(_pdfium_range, [(str(path), password, a, b, off) for a, b in parts]))
    if any(d is None for d in done):
        return None
    return [r for d in done for r in d]  # type: ignore[union-attr]


def _pdfium_range(job: tuple[str, str | None, int, int, frozenset[str]]) -> list[_PageRead | str] | None:
    """In a worker process: pages ``[start, stop)`` of one PDF (see :func:`_pdfium_pages`)."""
    import pypdfium2 as pdfium

    from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

    path, password, start, stop, off = job
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(path, password=password or None)
        except Exception:
            return None
    try:
        return _pdfium_read(pdf, range(start, stop), off)
    finally:
        with PDFIUM_LOCK:
            pdf.close()


def _pdfium_read(pdf: Any, pages: range, off: frozenset[str]) -> list[_PageRead | str]:
    """The pages ``pages`` of an open PDFium document (see :func:`_pdfium_pages`)."""
    from clauselens.parsing.pdfium_lock import PDFIUM_LOCK
    from clauselens.parsing.pdfium_page import PdfiumPage

    out: list[_PageRead | str] = []
    for i in pages:
        with PDFIUM_LOCK:
            try:
                page = pdf[i]
            except Exception as exc:
                out.append(f"PDFium cannot load the page: {exc}")
                continue
            try:
                pp = PdfiumPage(page, i + 1, off_layers=off)  # reads every character and rectangle now
            except Exception as exc:  # pdfplumber gets the page (and says if it is damaged)
                out.append(f"PDFium error: {exc}")
                continue
            finally:
                page.close()
        try:
            if pp.unchecked_forms:
                out.append("form XObjects nested too deep")
                continue
            if pp.chars and sum(1 for c in pp.chars if c["upright"]) < 0.5 * len(pp.chars):
                out.append("text not upright")
                continue
            visible, hidden = drop_invisible(pp)
            lines, col_warning = _text_lines(visible)
            if not _real_text(lines):
                out.append("no text")
                continue
            out.append((lines, hidden + ([col_warning] if col_warning else []), False))
        except Exception as exc:  # pdfplumber gets the page (and says if it is damaged)
            out.append(f"PDFium error: {exc}")
    return out


def pdfium_routes(path: Path, password: str | None = None) -> list[str | None]:
    """Diagnostics: per page, why the ``pdfium`` engine hands it to pdfplumber (``"text not upright"``,
    ``"no text"``, deeply nested forms, a PDFium error), or ``None`` when PDFium reads it; every
    page gets ``"PDFium cannot open the file"`` when that is the case."""
    got = _pdfium_pages(path, password, None)
    if got is None:
        return ["PDFium cannot open the file"] * max(pdf_page_count(path, password), 1)
    return [None if isinstance(r, tuple) else r for r in got]


def extract_pdf(
    path: Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300, max_pages: int | None = None,
    engine: PdfEngine = "auto",
) -> tuple[list[PageText], list[str]]:
    """Extract every page of a PDF.

    Per page: the text layer when it holds at least :data:`MIN_TEXT_CHARS` alphanumerics,
    else OCR at ``ocr_dpi`` (>= 300 recommended; Tesseract is told the DPI) when ``ocr``.
    ``engine`` reads the text layer (module docstring; ``auto`` = :data:`AUTO_PDF_ENGINE`).
    Running headers/footers are removed per :func:`find_furniture` and kept in
    ``PageText.furniture``. ``max_pages`` reads only the first pages (previews, tests).

    Returns:
        (pages, warnings).

    Raises:
        IngestError: not a PDF / corrupt; EncryptedDocumentError: user password needed;
        NoTextError: zero pages, or no page has text (and OCR disabled or found nothing).
        ValueError: an unknown ``engine``.
    """
    name = path.name
    warnings: list[str] = []
    reads: list[_PageRead | None] | None = None
    off = off_layers(path, password)
    if resolve_pdf_engine(engine) == "pdfium":
        _check_header(path)
        got = _pdfium_pages(path, password, max_pages, off)
        reads = [r if isinstance(r, tuple) else None for r in got] if got else None  # zero pages: pdfplumber says so
    if reads is None or None in reads:
        try:
            pdf = _open_pdf(path, password)
        except IngestError:
            if reads is None or not any(reads):
                raise
            pdf = None  # PDFium read the file but pdfminer cannot: the pages left to it count as image-only
        if pdf is None:
            reads = [r if r is not None else ([], [], False) for r in reads]  # type: ignore[union-attr]
        else:
            try:
                if len(pdf.pages) == 0:
                    raise NoTextError(name, "the PDF has zero pages")
                todo = pdf.pages[:max_pages] if max_pages else pdf.pages
                if reads is None or len(reads) != len(todo):
                    reads = [None] * len(todo)
                for i, page in enumerate(todo):
                    if reads[i] is None:
                        reads[i] = _plumber_page(page, i, off, path, password)
            finally:
                pdf.close()
    page_lines: list[list[Line]] = []
    methods: list[str] = []
    confs: list[float | None] = []
    image_only: list[int] = []
    sideways: list[int] = []
    for i, read in enumerate(reads):
        lines, page_warnings, turned_page = read  # type: ignore[misc]
        warnings.extend(page_warnings)
        if turned_page:
            sideways.append(i)
        if _real_text(lines):
            page_lines.append(lines)
            methods.append("text")
            confs.append(None)
        else:
            image_only.append(i)
            page_lines.append([])
            methods.append("ocr" if ocr else "text")
            confs.append(None)
    if sideways:
        copy = _derotated_copy(path, password, sideways)
        try:
            for i in sideways:
                page = copy.pages[i]
                if _upright_share(page) >= 0.5:
                    visible, _ = drop_invisible(page)  # already reported from the original page
                    page_lines[i], col_warning = _text_lines(visible)
                    if col_warning:
                        warnings.append(col_warning)
                page.close()
        finally:
            copy.close()
    if image_only and not ocr:
        if len(image_only) == len(page_lines):
            raise NoTextError(name, "no text layer (image-only PDF) and OCR is disabled; enable OCR to read it")
        warnings.append(f"pages {', '.join(str(i + 1) for i in image_only)} have no text layer and OCR is disabled: their text is missing")
    if image_only and ocr:
        with ocr_errors(name):
            for i in image_only:
                page_lines[i], confs[i], turned = ocr_pdf_page(path, i, ocr_dpi, password)
                if turned:
                    warnings.append(f"page {i + 1}: the scan is turned; rotated {turned}° clockwise before OCR "
                                    "(Tesseract orientation detection)")
    for i in image_only if ocr else []:
        conf = confs[i]
        if conf is not None and conf < LOW_OCR_CONFIDENCE:
            warnings.append(f"page {i + 1}: OCR confidence {conf:.0f}/100 is low; check the text against the scan")
    drops = find_furniture(page_lines)
    pages: list[PageText] = []
    for i, (lines, drop) in enumerate(zip(page_lines, drops)):
        body = [ln for j, ln in enumerate(lines) if j not in drop]
        furniture = [normalize_extracted(lines[j].text.strip()) for j in sorted(drop)]
        text = normalize_extracted(lines_to_text(body))
        pages.append(PageText(i + 1, text, methods[i], confs[i], furniture))
    if not any(p.text.strip() for p in pages):
        raise NoTextError(name, "no text found (OCR found nothing readable)" if ocr else "no text found")
    return pages, warnings
