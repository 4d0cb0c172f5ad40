"""PDF text extraction: the text layer per page (PDFium via pypdfium2, or pdfplumber), OCR
(pypdfium2 + Tesseract) for pages without real text, furniture removal, line joins and NFKC
normalisation.

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

Side effects: reads the file; runs the ``tesseract`` binary for OCR pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clauselens.errors import EncryptedDocumentError, IngestError, NoTextError
from clauselens.parsing.layout import Line, find_furniture, find_gutter, lines_to_text, normalize_extracted
from clauselens.parsing.visibility import mark_unshown_plumber

PdfEngine = Literal["auto", "pdfium", "pdfplumber"]
#: What ``auto`` means: the engine whose output matched pdfplumber's on the 21 CUAD PDFs (same
#: clause numbers in all 21, page texts >= 0.994 similar) at ~1/4 of the CPU
#: (benchmarks/pdf_engines_e2e.py, README "PDF text engines").
AUTO_PDF_ENGINE: Literal["pdfium", "pdfplumber"] = "pdfium"


def resolve_pdf_engine(engine: str) -> Literal["pdfium", "pdfplumber"]:
    """``auto`` -> :data:`AUTO_PDF_ENGINE`; ``pdfium``/``pdfplumber`` as given; anything else is a ValueError."""
    if engine == "auto":
        return AUTO_PDF_ENGINE
    if engine in ("pdfium", "pdfplumber"):
        return engine  # type: ignore[return-value]
    raise ValueError(f"unknown PDF engine {engine!r}: use auto, pdfium or pdfplumber")


#: A page whose text layer has fewer alphanumeric characters than this is treated as image-only.
MIN_TEXT_CHARS = 20
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
#: Characters that draw rules and leaders (signature lines, dot leaders), not text: ignored when
#: looking for columns, so "By: ______   By: ______" is not mistaken for two columns of prose.
RULE_CHARS = frozenset("-_.=–—·•…")
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


#: Characters smaller than this (points) are invisible on the page (issue #22 item 10).
MIN_VISIBLE_SIZE = 2.0
#: Colour distance (RGB, 0..1 per channel, max over channels) under which a character's fill is
#: taken to be the background's.
SAME_COLOUR = 0.08


def _rgb(color) -> tuple[float, float, float] | None:
    """A pdfplumber colour (gray, RGB or CMYK tuple of 0..1 floats) as RGB; None if unknown (pattern)."""
    if color is None:
        return (0.0, 0.0, 0.0)  # the PDF default fill is black
    if isinstance(color, (int, float)):
        color = (color,)
    try:
        v = tuple(float(x) for x in color)
    except (TypeError, ValueError):
        return None
    if len(v) == 1:
        return (v[0],) * 3
    if len(v) == 3:
        return v
    if len(v) == 4:
        c, m, y, k = v
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return None


def _background(c: dict, fills: list[dict]) -> tuple[float, float, float]:
    """The colour under a character's centre: the last filled rectangle drawn there, else white paper."""
    x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
    for r in reversed(fills):
        if r["x0"] <= x <= r["x1"] and r["top"] <= y <= r["bottom"]:
            rgb = _rgb(r.get("non_stroking_color"))
            if rgb is not None:
                return rgb
    return (1.0, 1.0, 1.0)


def _near(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) < SAME_COLOUR


def _colour_entry(col, fills: list[dict]) -> tuple[tuple[float, float, float] | None, bool]:
    """(RGB of a character colour, whether any possible background - white paper or a fill - is near it)."""
    rgb = _rgb(col)
    if rgb is None:
        return None, False
    grounds = [(1.0, 1.0, 1.0)] + [g for f in fills if (g := _rgb(f.get("non_stroking_color"))) is not None]
    return rgb, any(_near(rgb, g) for g in grounds)


def off_layers(path: Path, password: str | None = None) -> frozenset[str]:
    """Names of the PDF's optional-content groups (layers, ISO 32000-1 §8.11.4) that its default
    configuration hides: the ``/OFF`` array of ``/OCProperties /D``, or every group not in
    ``/ON`` when ``/BaseState`` is ``/OFF``. Text in them is not shown on the page, so it is
    treated as invisible (issue #22 item 10). Empty for a PDF without layers or one pypdf cannot
    read (~4 ms per file: pypdf reads the catalog only)."""
    import pypdf

    try:
        reader = pypdf.PdfReader(str(path))
        if reader.is_encrypted:
            reader.decrypt(password or "")
        root: Any = reader.trailer["/Root"].get_object()  # pypdf's dictionaries are untyped PdfObjects
        props: Any = root.get("/OCProperties")
        if props is None:
            return frozenset()
        props = props.get_object()
        d: Any = props.get("/D")
        d = d.get_object() if d is not None else {}

        def names(refs: Any) -> set[str]:
            return {str(o.get_object().get("/Name", "")) for o in (refs.get_object() if refs is not None else [])}

        if str(d.get("/BaseState", "/ON")) == "/OFF":
            return frozenset(names(props.get("/OCGs")) - names(d.get("/ON")))
        return frozenset(names(d.get("/OFF")) - {""})
    except Exception:  # a damaged catalog: the other readers word the error, layers are not checked
        return frozenset()


def _mark_layers(page, off: frozenset[str]) -> str | None:
    """pdfplumber's characters carry the marked-content tag (``"OC"`` for a layer) but not which
    layer: when every layer of the page's ``/Properties`` is hidden by default, its ``OC`` text is
    marked ``hidden_layer``; when the page mixes shown and hidden layers the text is kept and the
    warning returned says so (the PDFium engine, the default, tells the layers apart)."""
    if not off or not any(c.get("tag") == "OC" for c in page.chars):
        return None
    from pdfminer.pdftypes import resolve1
    from pdfminer.utils import decode_text

    layers: set[str] = set()
    try:
        for ref in (resolve1(resolve1(page.page_obj.resources or {}).get("Properties")) or {}).values():
            name = resolve1(ref).get("Name")
            if name is not None:
                layers.add(decode_text(name) if isinstance(name, bytes) else str(name))
    except Exception:  # damaged resources: nothing is told apart (and nothing dropped)
        layers = set()
    hidden = layers & off
    if hidden and hidden == layers:
        name = ", ".join(sorted(hidden))
        for c in page.chars:
            if c.get("tag") == "OC":
                c["hidden_layer"] = name
        return None
    if hidden:
        return (f"page {page.page_number}: text in layers, some hidden by default ({', '.join(sorted(hidden))}), could "
                "not be told apart from shown text and was kept - check the original")
    return None


#: Why a character the rendered page does not show is left out (:mod:`clauselens.parsing.visibility`).
NOT_SHOWN = "not shown on the rendered page: transparent, covered, clipped or the background's colour"


def _hidden_reason(c: dict, box: tuple[float, float, float, float], fills: list[dict],
                   colours: dict | None = None) -> str | None:
    """Why a character cannot be seen on the page (None if it can): outside the page box, under
    :data:`MIN_VISIBLE_SIZE` points, or filled in the background's colour (the fast path), else
    no ink on the rendered page (``not_shown``, PDFium pages only: :mod:`~clauselens.parsing.visibility`). ``colours`` caches,
    per colour value across the characters of one page (same ``fills``), :func:`_colour_entry`:
    a colour no background comes near needs no look under the character."""
    if c.get("render_invisible"):
        return "invisible text (render mode 3) with no image under it"
    if c.get("hidden_layer"):
        return f"in the layer \"{c['hidden_layer']}\", which is hidden by default"
    x0, top, x1, bottom = box
    if c["x1"] <= x0 or c["x0"] >= x1 or c["bottom"] <= top or c["top"] >= bottom:
        return "outside the page"
    if float(c.get("size") or 0) < MIN_VISIBLE_SIZE:
        return f"{float(c.get('size') or 0):.1f} pt text"
    col = c.get("non_stroking_color")
    try:
        rgb, maybe = colours[col] if colours is not None else _colour_entry(col, fills)
    except KeyError:
        rgb, maybe = colours[col] = _colour_entry(col, fills)  # type: ignore[index]
    except TypeError:  # an unhashable colour value
        rgb, maybe = _colour_entry(col, fills)
    if rgb is not None and maybe and _near(rgb, _background(c, fills) if fills else (1.0, 1.0, 1.0)):
        return "text in the background colour"
    if c.get("not_shown"):
        return NOT_SHOWN
    return None


def _drop_invisible(page) -> tuple[Any, list[str]]:
    """``page`` without characters nobody can see (see :func:`_hidden_reason`) and one warning
    per hidden line, naming page, position and the start of the text. Hidden text is a known
    way to slip instructions to AI tools (prompt injection): it must not reach retrieval or a
    prompt, and the user should know it was there."""
    chars = page.chars
    if not chars:
        return page, []
    box = tuple(getattr(page, "cropbox", None) or page.bbox)
    fills = [r for r in page.rects if r.get("fill")]
    colours: dict = {}
    hidden = [(c, why) for c in chars if (why := _hidden_reason(c, box, fills, colours))]
    if not any(c["text"].strip() for c, _ in hidden):
        return page, []
    lines: dict[tuple[int, str], list[dict]] = {}
    for c, why in hidden:
        lines.setdefault((round(c["top"] / 3), why), []).append(c)
    warnings = []
    for (_, why), cs in sorted(lines.items(), key=lambda kv: kv[1][0]["top"]):
        cs.sort(key=lambda c: c["x0"])
        text = " ".join("".join(c["text"] for c in cs).split())
        if not text or (why == NOT_SHOWN and not any(ch.isalnum() for ch in text)):
            continue  # a stray "," or "_" a scan's text layer misplaced carries no words: left out unsaid
        preview = text if len(text) <= 120 else text[:117] + "..."
        warnings.append(f"page {page.page_number}: invisible text left out ({why}, at x={cs[0]['x0']:.0f}, "
                        f"y={cs[0]['top']:.0f}): \"{preview}\" - hidden text can carry instructions to AI tools; "
                        "check the original")
    visible = page.filter(lambda o: o.get("object_type") != "char" or not _hidden_reason(o, box, fills))
    return visible, warnings


#: Levels of column splitting (:func:`_text_lines`): 2 reads up to four columns side by side.
MAX_COLUMN_DEPTH = 2


def _text_lines(page) -> tuple[list[Line], str | None]:
    """Lines of a pdfplumber page in reading order (upright coordinates), and a warning when
    the column layout is uncertain. Invisible characters must be dropped first
    (:func:`_drop_invisible`).

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
    gutter = find_gutter(boxes) if depth <= MAX_COLUMN_DEPTH else None
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


def _ocr_lines(pdf_path: Path, index: int, dpi: int, password: str | None) -> tuple[list[Line], float | None, int]:
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
        raise NoTextError(name, f"no text found in {name} ({what}; OCR found nothing readable)")
    return pages, warnings


def _real_text(lines: list[Line]) -> bool:
    return sum(len(re.findall(r"[A-Za-z0-9]", ln.text)) for ln in lines) >= MIN_TEXT_CHARS


#: One page's text layer as read by an engine: (lines in reading order, warnings, whether the text
#: runs sideways under ``/Rotate`` and needs the de-rotated copy).
_PageRead = tuple[list[Line], list[str], bool]


def _plumber_page(page, i: int, off: frozenset[str] = frozenset(), path: Path | None = None,
                  password: str | None = None) -> _PageRead:
    """Read one pdfplumber page: invisible text dropped (text of layers in ``off`` included, see
    :func:`_mark_layers`; with ``path``, text the rendered page does not show,
    :func:`~clauselens.parsing.visibility.mark_unshown_plumber`),
    columns, warnings."""
    warnings: list[str] = []
    sideways = False
    try:
        if (mixed := _mark_layers(page, off)) is not None:
            warnings.append(mixed)
        if path is not None:
            mark_unshown_plumber(page, path, password)
        visible, hidden = _drop_invisible(page)
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
    from clauselens.parsing.pdfium_page import PdfiumPage

    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path), password=password or None)
        except Exception:
            return None
    out: list[_PageRead | str] = []
    try:
        with PDFIUM_LOCK:
            n = len(pdf)
        for i in range(min(n, max_pages) if max_pages else n):
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
                visible, hidden = _drop_invisible(pp)
                lines, col_warning = _text_lines(visible)
                if not _real_text(lines):
                    out.append("no text")
                    continue
                out.append((lines, hidden + ([col_warning] if col_warning else []), False))
            except Exception as exc:  # pdfplumber gets the page (and says if it is damaged)
                out.append(f"PDFium error: {exc}")
    finally:
        with PDFIUM_LOCK:
            pdf.close()
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
                    visible, _ = _drop_invisible(page)  # already reported from the original page
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
                page_lines[i], confs[i], turned = _ocr_lines(path, i, ocr_dpi, password)
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
        raise NoTextError(name, f"no text found in {name} (OCR found nothing readable)" if ocr else f"no text found in {name}")
    return pages, warnings
