"""PDF text extraction: pdfplumber text layer per page, OCR (pypdfium2 + Tesseract) for pages
without real text, furniture removal, line joins and NFKC normalisation.

Side effects: reads the file; runs the ``tesseract`` binary for OCR pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from clauselens.errors import EncryptedDocumentError, IngestError, NoTextError
from clauselens.parsing.layout import Line, find_furniture, lines_to_text, normalize_extracted

#: A page whose text layer has fewer alphanumeric characters than this is treated as image-only.
MIN_TEXT_CHARS = 20
#: Mean Tesseract word confidence (0-100) below which a page gets a warning.
LOW_OCR_CONFIDENCE = 60.0
#: pdfplumber word-gap tolerance as a share of the font size (pdfplumber ``x_tolerance_ratio``).
#: 0.15 splits words set without space glyphs (gaps ~0.25 em) yet keeps letters (gaps ~0) together.
X_TOLERANCE_RATIO = 0.15


@dataclass
class PageText:
    """Extracted text of one page (normalised, furniture removed)."""

    number: int
    text: str
    method: str  # "text" | "ocr"
    ocr_confidence: float | None = None
    furniture: list[str] = field(default_factory=list)


def _open_pdf(path: Path, password: str | None):
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError

    name = path.name
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if b"%PDF-" not in head:
        raise IngestError(name, "not a PDF file (no %PDF header); is the extension wrong?")
    try:
        return pdfplumber.open(path, password=password or "")
    except PDFPasswordIncorrect:
        if password:
            raise EncryptedDocumentError(name, "encrypted, and the password given is wrong") from None
        raise EncryptedDocumentError(name, "encrypted, password required (pass --password)") from None
    except PDFSyntaxError as exc:
        raise IngestError(name, f"corrupt or truncated PDF ({exc})") from None
    except Exception as exc:  # pdfplumber wraps pdfminer errors in PdfminerException
        chain = [exc, *exc.args, exc.__cause__, exc.__context__]
        if any(isinstance(e, PDFPasswordIncorrect) for e in chain):
            if password:
                raise EncryptedDocumentError(name, "encrypted, and the password given is wrong") from None
            raise EncryptedDocumentError(name, "encrypted, password required (pass --password)") from None
        if any(isinstance(e, PDFSyntaxError) for e in chain):
            raise IngestError(name, "corrupt or truncated PDF") from None
        if "password" in str(exc).lower() or type(exc).__name__.lower().startswith("pdfencrypt"):
            raise EncryptedDocumentError(name, "encrypted, password required (pass --password)") from None
        raise IngestError(name, f"corrupt or unreadable PDF ({type(exc).__name__}: {exc})") from None


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


def _text_lines(page) -> list[Line]:
    """Lines of a pdfplumber page in reading order (upright coordinates)."""
    rows = page.extract_text_lines(
        layout=False, strip=True, return_chars=False,
        x_tolerance_ratio=X_TOLERANCE_RATIO, y_tolerance=3,
    )
    return [Line(r["text"], r["x0"], r["x1"], r["top"], r["bottom"]) for r in rows]


def _ocr_lines(pdf_path: Path, index: int, dpi: int, password: str | None) -> tuple[list[Line], float | None]:
    """OCR one page: render with pypdfium2 at ``dpi`` and run Tesseract with ``--dpi``.

    Returns (lines in pixel coordinates, mean word confidence 0-100 or None).
    """
    import pypdfium2 as pdfium
    import pytesseract

    pdf = pdfium.PdfDocument(str(pdf_path), password=password)
    try:
        page = pdf[index]
        image = page.render(scale=dpi / 72.0).to_pil()
        page.close()
    finally:
        pdf.close()
    data = pytesseract.image_to_data(image, config=f"--dpi {dpi} --psm 3", output_type=pytesseract.Output.DICT)
    groups: dict[tuple[int, int, int], list[int]] = {}
    confs: list[float] = []
    for i, word in enumerate(data["text"]):
        if not word or not word.strip():
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        groups.setdefault(key, []).append(i)
        c = float(data["conf"][i])
        if c >= 0:
            confs.append(c)
    lines = []
    for idx in groups.values():
        text = " ".join(data["text"][i].strip() for i in idx)
        x0 = min(data["left"][i] for i in idx)
        x1 = max(data["left"][i] + data["width"][i] for i in idx)
        top = min(data["top"][i] for i in idx)
        bottom = max(data["top"][i] + data["height"][i] for i in idx)
        lines.append(Line(text, x0, x1, top, bottom))
    lines.sort(key=lambda ln: (ln.top, ln.x0))
    return lines, (sum(confs) / len(confs) if confs else None)


def _real_text(lines: list[Line]) -> bool:
    return sum(len(re.findall(r"[A-Za-z0-9]", ln.text)) for ln in lines) >= MIN_TEXT_CHARS


def extract_pdf(
    path: Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300, max_pages: int | None = None,
) -> tuple[list[PageText], list[str]]:
    """Extract every page of a PDF.

    Per page: the text layer when it holds at least :data:`MIN_TEXT_CHARS` alphanumerics,
    else OCR at ``ocr_dpi`` (>= 300 recommended; Tesseract is told the DPI) when ``ocr``.
    Running headers/footers are removed per :func:`find_furniture` and kept in
    ``PageText.furniture``. ``max_pages`` reads only the first pages (previews, tests).

    Returns:
        (pages, warnings).

    Raises:
        IngestError: not a PDF / corrupt; EncryptedDocumentError: user password needed;
        NoTextError: zero pages, or no page has text (and OCR disabled or found nothing).
    """
    name = path.name
    warnings: list[str] = []
    pdf = _open_pdf(path, password)
    page_lines: list[list[Line]] = []
    methods: list[str] = []
    confs: list[float | None] = []
    try:
        if len(pdf.pages) == 0:
            raise NoTextError(name, "the PDF has zero pages")
        image_only: list[int] = []
        sideways: list[int] = []
        for i, page in enumerate(pdf.pages[:max_pages] if max_pages else pdf.pages):
            try:
                lines = _text_lines(page)
                if page.rotation % 360 and page.chars and _upright_share(page) < 0.5:
                    sideways.append(i)
            except Exception as exc:  # a broken page must not sink the document
                warnings.append(f"page {i + 1}: text layer unreadable ({type(exc).__name__}); trying OCR")
                lines = []
            page.close()
            if _real_text(lines):
                page_lines.append(lines)
                methods.append("text")
                confs.append(None)
            else:
                image_only.append(i)
                page_lines.append([])
                methods.append("ocr" if ocr else "text")
                confs.append(None)
    finally:
        pdf.close()
    if sideways:
        copy = _derotated_copy(path, password, sideways)
        try:
            for i in sideways:
                page = copy.pages[i]
                if _upright_share(page) >= 0.5:
                    page_lines[i] = _text_lines(page)
                page.close()
        finally:
            copy.close()
    if image_only and not ocr:
        if len(image_only) == len(page_lines):
            raise NoTextError(name, "no text layer (image-only PDF) and OCR is disabled; enable OCR to read it")
        warnings.append(f"pages {', '.join(str(i + 1) for i in image_only)} have no text layer and OCR is disabled: their text is missing")
    if image_only and ocr:
        try:
            for i in image_only:
                page_lines[i], confs[i] = _ocr_lines(path, i, ocr_dpi, password)
        except (OSError, RuntimeError) as exc:
            raise IngestError(name, f"OCR failed ({exc}); is the tesseract-ocr package installed?") from None
        except ImportError as exc:
            raise IngestError(name, f"OCR needs pytesseract and pypdfium2 ({exc})") from None
        except Exception as exc:
            if type(exc).__name__ == "TesseractNotFoundError":
                raise IngestError(name, "OCR needs the tesseract binary: apt-get install tesseract-ocr") from None
            raise
    for i in image_only if ocr else []:
        if confs[i] is not None and confs[i] < LOW_OCR_CONFIDENCE:
            warnings.append(f"page {i + 1}: OCR confidence {confs[i]:.0f}/100 is low; check the text against the scan")
    drops = find_furniture(page_lines)
    pages: list[PageText] = []
    for i, (lines, drop) in enumerate(zip(page_lines, drops)):
        body = [ln for j, ln in enumerate(lines) if j not in drop]
        furniture = [normalize_extracted(lines[j].text.strip()) for j in sorted(drop)]
        text = normalize_extracted(lines_to_text(body))
        pages.append(PageText(i + 1, text, methods[i], confs[i], furniture))
    if not any(p.text.strip() for p in pages):
        raise NoTextError(name, f"no text found in {name} (OCR found nothing readable)" if ocr else f"no text found in {name}")
    return pages, warnings
