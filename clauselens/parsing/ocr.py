"""OCR (Tesseract through pytesseract) of scanned pages and images (split from :mod:`clauselens.parsing.pdf`
for issue #43): a page image's words with their boxes (:func:`tesseract_words`, grouped into lines by
:func:`ocr_line_words`), orientation detection run for every page and a turned page read upright
(:func:`ocr_words`; issue #41 item 4), a PDF page rendered for OCR under the PDFium lock
(:func:`ocr_pdf_page`), scanned image files read as pages (:func:`extract_image`), and the one
wording of OCR backend failures (:func:`ocr_errors`). :class:`PageText` is one extracted page, for
the text layer (:mod:`clauselens.parsing.pdf`) and OCR alike.

Side effects: runs the ``tesseract`` binary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from clauselens.errors import IngestError, NoTextError
from clauselens.parsing.layout import Line, find_furniture, lines_to_text, normalize_extracted

#: Mean Tesseract word confidence (0-100) below which a page gets a warning.
LOW_OCR_CONFIDENCE = 60.0
#: A reading of the page turned as Tesseract's orientation detection says is kept unless its mean
#: word confidence is this much below the unturned reading's (:func:`ocr_words`).
ROTATED_CONFIDENCE_SLACK = 10.0
#: A reading of the turned page at this mean word confidence or more is kept without reading the
#: unturned page too (an upright 300-dpi contract scan reads at 85-95; scanned_nda_page1.pdf ~90).
GOOD_OCR_CONFIDENCE = 80.0
#: Minimum Tesseract "Orientation confidence" to act on a detected rotation. OCRmyPDF's
#: ``--rotate-pages-threshold`` defaults to 14 and calls 2 aggressive (OCRmyPDF docs, cookbook,
#: "Correct page rotation"); a clean 300-dpi page turned 90° scored 14-16 here. We take 5 because a
#: rotated reading is kept only when its OCR confidence beats the unrotated one (ocr_image).
OSD_MIN_CONFIDENCE = 5.0


@dataclass
class PageText:
    """Extracted text of one page (normalised, furniture removed)."""

    number: int
    text: str
    method: str  # "text" | "ocr"
    ocr_confidence: float | None = None
    furniture: list[str] = field(default_factory=list)


def tesseract_words(image, dpi: int) -> dict[str, list]:
    """Tesseract (``--psm 3``, told the DPI) on a PIL image: its TSV output as a dict of columns
    (``pytesseract.image_to_data(..., output_type=Output.DICT)``: ``text``, ``conf``, ``left``,
    ``top``, ``width``, ``height`` in pixels, ``block_num``/``par_num``/``line_num``; one row per
    page, block, paragraph, line and word)."""
    import pytesseract

    return pytesseract.image_to_data(image, config=f"--dpi {dpi} --psm 3", output_type=pytesseract.Output.DICT)


def ocr_line_words(data: dict[str, list]) -> list[list[int]]:
    """The rows of :func:`tesseract_words` output that are words (non-blank text), grouped per
    Tesseract line (block, paragraph, line) in reading order, the lines sorted top to bottom
    then left to right: the order the OCR'd page text is made in."""
    groups: dict[tuple[int, int, int], list[int]] = {}
    for i, word in enumerate(data["text"]):
        if word and word.strip():
            groups.setdefault((data["block_num"][i], data["par_num"][i], data["line_num"][i]), []).append(i)
    return sorted(groups.values(), key=lambda idx: (min(data["top"][i] for i in idx), min(data["left"][i] for i in idx)))


def _data_lines(data: dict[str, list]) -> tuple[list[Line], float | None]:
    """:func:`tesseract_words` output as lines in pixel coordinates and the mean word confidence
    0-100 (``None`` when no word was read)."""
    lines = []
    confs = [c for c in (float(data["conf"][i]) for i, w in enumerate(data["text"]) if w and w.strip()) if c >= 0]
    for idx in ocr_line_words(data):
        text = " ".join(data["text"][i].strip() for i in idx)
        x0 = min(data["left"][i] for i in idx)
        x1 = max(data["left"][i] + data["width"][i] for i in idx)
        top = min(data["top"][i] for i in idx)
        bottom = max(data["top"][i] + data["height"][i] for i in idx)
        lines.append(Line(text, x0, x1, top, bottom))
    return lines, (sum(confs) / len(confs) if confs else None)


def detect_rotation(image, dpi: int) -> tuple[int, float] | None:
    """Tesseract's orientation detection (``--psm 0``, needs ``osd.traineddata``):
    (clockwise degrees that make the page upright: 0/90/180/270, orientation confidence),
    or ``None`` when detection fails (too few characters, OSD data missing)."""
    import pytesseract

    try:
        osd = pytesseract.image_to_osd(image, config=f"--psm 0 --dpi {dpi}", output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:
        return None
    try:
        return int(osd["rotate"]) % 360, float(osd["orientation_conf"])
    except (KeyError, TypeError, ValueError):
        return None


def ocr_words(image, dpi: int) -> tuple[dict[str, list], int]:
    """OCR one page image, turning a sideways or upside-down scan upright first.

    Tesseract's orientation detection (OSD) runs for every page (issue #41 item 4: a page turned
    270° read at confidence 95.6 in reverse line order, so a high confidence does not prove the
    page upright; OSD costs a fraction of the OCR). When it reports a rotation with confidence
    >= :data:`OSD_MIN_CONFIDENCE`, the turned image is read; that reading is kept unless its
    mean word confidence is more than :data:`ROTATED_CONFIDENCE_SLACK` below the unturned one's
    (then OSD was wrong: the page read well as it was). Detection failing (too little text)
    leaves the page as it is.

    Returns (:func:`tesseract_words` output, degrees the image was turned clockwise before the
    reading: its word boxes are in the turned image's pixels).
    """
    found = detect_rotation(image, dpi)
    if found is None or found[0] == 0 or found[1] < OSD_MIN_CONFIDENCE:
        return tesseract_words(image, dpi), 0
    turned = image.rotate(-found[0], expand=True)  # PIL turns counter-clockwise
    data2 = tesseract_words(turned, dpi)
    _, conf2 = _data_lines(data2)
    if conf2 is not None and conf2 >= GOOD_OCR_CONFIDENCE:
        return data2, found[0]  # a good reading of the turned page: the unturned one is not needed
    data = tesseract_words(image, dpi)
    _, conf = _data_lines(data)
    if conf2 is not None and (conf is None or conf2 >= conf - ROTATED_CONFIDENCE_SLACK):
        return data2, found[0]
    return data, 0


def ocr_image(image, dpi: int) -> tuple[list[Line], float | None, int]:
    """:func:`ocr_words` as lines: (lines, mean word confidence or None, degrees the image was
    turned clockwise)."""
    data, turned = ocr_words(image, dpi)
    lines, conf = _data_lines(data)
    return lines, conf, turned


def render_for_ocr(page, dpi: int):
    """A pypdfium2 page rendered at ``dpi`` as a PIL image, the picture OCR reads (the caller
    holds the PDFium lock)."""
    bitmap = page.render(scale=dpi / 72.0)
    image = bitmap.to_pil()
    bitmap.close()  # native bitmap: the pixel buffer stays the image's
    return image


def ocr_pdf_page(pdf_path: Path, index: int, dpi: int, password: str | None) -> tuple[list[Line], float | None, int]:
    """OCR one PDF page: render with pypdfium2 at ``dpi`` (under the PDFium lock), then
    :func:`ocr_image` (outside it)."""
    import pypdfium2 as pdfium

    from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(str(pdf_path), password=password)
        try:
            page = pdf[index]
            try:
                image = render_for_ocr(page, dpi)
            finally:
                page.close()
        finally:
            pdf.close()
    return ocr_image(image, dpi)


def ocr_errors(name: str):
    """Context manager turning OCR backend failures into one clear :class:`IngestError`."""
    import contextlib

    @contextlib.contextmanager
    def guard():
        try:
            yield
        except ImportError as exc:
            raise IngestError(name, f"OCR needs pytesseract and pypdfium2 ({exc})") from None
        except Exception as exc:
            if type(exc).__name__ == "TesseractNotFoundError":
                raise IngestError(name, "OCR needs the tesseract binary: apt-get install tesseract-ocr") from None
            if isinstance(exc, (OSError, RuntimeError)) or type(exc).__name__ == "TesseractError":
                raise IngestError(name, f"OCR failed ({exc}); is the tesseract-ocr package installed?") from None
            raise

    return guard()


def extract_image(path: Path, *, what: str, ocr: bool = True, ocr_dpi: int = 300) -> tuple[list[PageText], list[str]]:
    """OCR a scanned image file (PNG, JPEG, TIFF with one page per frame, ...) as pages.

    The image's own resolution is passed to Tesseract when the file records one (else
    ``ocr_dpi`` is assumed). Raises :class:`NoTextError` when OCR is off or reads nothing,
    :class:`IngestError` when the image cannot be decoded.
    """
    name = path.name
    lead = "not a PDF: " if path.suffix.lower() == ".pdf" else ""
    if not ocr:
        raise NoTextError(name, f"{lead}this is {what}; it can only be read with OCR, which is disabled (drop --no-ocr)")
    from PIL import Image, ImageSequence, UnidentifiedImageError

    warnings: list[str] = []
    pages: list[PageText] = []
    page_lines: list[list[Line]] = []
    confs: list[float | None] = []
    try:
        with Image.open(path) as im:
            frames = [(f.convert("RGB"), f.info.get("dpi")) for f in ImageSequence.Iterator(im)]
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise IngestError(name, f"{lead}this is {what}, but it is damaged or truncated and cannot be decoded") from None
    with ocr_errors(name):
        for image, dpi_info in frames:
            dpi = int(round(float(dpi_info[0]))) if dpi_info and float(dpi_info[0]) >= 70 else ocr_dpi
            lines, conf, turned = ocr_image(image, dpi)
            page_lines.append(lines)
            confs.append(conf)
            n = len(page_lines)
            if turned:
                warnings.append(f"page {n}: the scan is turned; rotated {turned}° clockwise before OCR "
                                "(Tesseract orientation detection)")
            if conf is not None and conf < LOW_OCR_CONFIDENCE:
                warnings.append(f"page {n}: OCR confidence {conf:.0f}/100 is low; check the text against the scan")
    drops = find_furniture(page_lines)
    for i, (lines, drop) in enumerate(zip(page_lines, drops)):
        body = [ln for j, ln in enumerate(lines) if j not in drop]
        furniture = [normalize_extracted(lines[j].text.strip()) for j in sorted(drop)]
        pages.append(PageText(i + 1, normalize_extracted(lines_to_text(body)), "ocr", confs[i], furniture))
    if not any(p.text.strip() for p in pages):
        raise NoTextError(name, f"no text found ({what}; OCR found nothing readable)")
    return pages, warnings


__all__ = ["GOOD_OCR_CONFIDENCE", "LOW_OCR_CONFIDENCE", "OSD_MIN_CONFIDENCE", "ROTATED_CONFIDENCE_SLACK", "PageText", "detect_rotation",
           "extract_image", "ocr_errors", "ocr_image", "ocr_line_words", "ocr_pdf_page", "ocr_words", "render_for_ocr",
           "tesseract_words"]
