"""A PDF page read by pypdfium2 (PDFium), shaped like the part of a pdfplumber page that
:mod:`clauselens.parsing.pdf` uses: ``chars`` and ``rects`` as pdfplumber-style dicts (top-left
origin, points), ``bbox``/``cropbox``, ``crop``, ``filter`` and ``extract_text_lines``. Line and
word grouping is pdfplumber's own (``pdfplumber.utils.text.chars_to_textmap``) run on PDFium's
characters, so the layout code (columns, furniture, line joins, invisible text) is shared and
only the character source differs (issue #17: pdfminer's per-character parsing was 99.5 % of the
CPU of a text PDF; ``benchmarks/pdf_text_engines.py``).

Per character, from PDFium's text page (``fpdf_text.h``): the Unicode value
(``FPDFText_GetUnicode``), the loose box (``FPDFText_GetLooseCharBox``: the font's ascent to
descent, like pdfminer's box), the font size (``FPDFText_GetFontSize``) times the vertical scale
of the character's matrix (``FPDFText_GetMatrix``; pdfminer's ``size`` is the same product), and
the fill colour (``FPDFText_GetFillColor``, RGB); size, matrix and colour are read once per text
object (``FPDFText_GetTextObject``), as PDFium takes them from the object. So are the text render
mode (``FPDFTextObj_GetTextRenderMode``): a character in render mode 3 (invisible, ISO 32000-1
§9.3.6) whose centre lies on no image of the page is marked ``render_invisible`` (an OCR'd scan's
text layer is mode 3 text over the page image and stays), and the layer (optional-content group,
§8.11) the object is marked with, when the PDF's default configuration hides it: the character is
marked ``hidden_layer`` (issue #22 item 10; pdfplumber's characters carry neither). Then, with
``check_ink`` (the default), every character is checked against the rendered page
(:func:`clauselens.parsing.visibility.mark_unshown`): one that paints no ink is marked
``not_shown`` (alpha 0, covered, clipped, the background's colour; issue #41 item 1); the
characters of an OCR'd scan's layer are marked ``ocr_layer`` and kept.
Characters PDFium generates (``FPDFText_IsGenerated``: the spaces and line breaks it infers) are
left out; pdfplumber infers spaces from gaps instead. PDFium reports a hyphen that ends a line as
U+0002; it is given back as "-" (what the page shows, and what pdfminer reads), so the line-join
rules treat it like any other hyphen. ``top`` is ``bottom + size`` (pdfminer's
box height is the font size); ``upright`` follows pdfminer's rule on the matrix
(``a*d > 0 and b*c <= 0``). Coordinates are PDFium's: the page's user space before ``/Rotate``
(text drawn upright and turned by ``/Rotate`` reads upright here, with no de-rotation step).

``rects`` are the page's filled paths that are axis-aligned rectangles (PDFium path objects:
``FPDFPath_GetDrawMode`` fill mode set, 4-5 segments whose points are the corners of a box), the
shapes pdfplumber reports as filled ``rects`` and :func:`~clauselens.parsing.pdf._hidden_reason`
looks under a character for its background; they are collected inside Form XObjects too (most
SEC filings draw each page through one), mapped to page space by the path's and the forms'
matrices (``FPDFPageObj_GetMatrix``). Forms nested deeper than :data:`MAX_FORM_DEPTH` set
``unchecked_forms``, and the caller reads that page with pdfplumber instead. ``images`` are the
bounding boxes of the page's image objects, collected the same way.

Side effects: none (reads an already open PDFium page).
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any, Callable

#: A fill colour PDFium cannot give as RGB (a pattern): pdfplumber's ``_rgb`` reads an empty tuple as unknown.
UNKNOWN_COLOUR: tuple = ()


def _rgb255(r: int, g: int, b: int) -> tuple[float, float, float]:
    return (r / 255.0, g / 255.0, b / 255.0)


@functools.cache
def _by_address(name: str, restype: Any, *argtypes: Any) -> Callable[..., Any]:
    """PDFium's function ``name`` called with plain ints for pointers (``ctypes.c_void_p``
    arguments): pypdfium2's binding converts a typed pointer argument per call, which is most of
    the cost of a call made once per character (issue #42)."""
    import pypdfium2.raw as pr

    address = ctypes.cast(getattr(pr, name), ctypes.c_void_p).value
    if address is None:
        raise RuntimeError(f"pypdfium2 has no {name}")
    return ctypes.CFUNCTYPE(restype, *argtypes)(address)


def _text_object_address() -> Callable[[Any, int], int | None]:
    """``FPDFText_GetTextObject(text_page, index)`` returning the object's address as an int (a dict
    key; pypdfium2's binding returns a ctypes pointer, whose address costs a ``ctypes.cast`` per character)."""
    return _by_address("FPDFText_GetTextObject", ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


def _loose_char_box() -> Callable[[int, int, int], int]:
    """``FPDFText_GetLooseCharBox(text_page, index, rect)`` with the text page's and the
    ``FS_RECTF``'s addresses as ints."""
    return _by_address("FPDFText_GetLooseCharBox", ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)


def _off_layer(tp: Any, index: int, off_layers: frozenset[str]) -> str | None:
    """The name of the optional-content group (ISO 32000-1 §8.11) in ``off_layers`` that the text
    object of character ``index`` is marked with (``/OC /name BDC ... EMC``), or None. PDFium gives
    an ``OC`` mark's parameters as the OCG dictionary's entries, so its ``/Name`` is readable."""
    import pypdfium2.raw as pr

    obj = pr.FPDFText_GetTextObject(tp, index)
    if not obj:
        return None
    buf = (ctypes.c_ushort * 256)()
    n = ctypes.c_ulong()

    def text(got: int) -> str:
        return bytes(buf)[:max(0, n.value - 2)].decode("utf-16-le", "replace") if got else ""

    for k in range(pr.FPDFPageObj_CountMarks(obj)):
        mark = pr.FPDFPageObj_GetMark(obj, k)
        if text(pr.FPDFPageObjMark_GetName(mark, buf, ctypes.sizeof(buf), ctypes.byref(n))) != "OC":
            continue
        name = text(pr.FPDFPageObjMark_GetParamStringValue(mark, b"Name", buf, ctypes.sizeof(buf), ctypes.byref(n)))
        if name in off_layers:
            return name
    return None


def _object_info(tp: Any, index: int) -> tuple[float, bool, tuple, bool]:
    """(size, upright, fill colour, invisible) shared by every character of one text object:
    PDFium's per-character font size, matrix and fill colour are the object's (``CPDF_TextPage``);
    ``invisible`` is text render mode 3 (neither filled nor stroked, ISO 32000-1 §9.3.6)."""
    import pypdfium2.raw as pr

    obj = pr.FPDFText_GetTextObject(tp, index)
    invisible = bool(obj) and pr.FPDFTextObj_GetTextRenderMode(obj) == pr.FPDF_TEXTRENDERMODE_INVISIBLE

    m = pr.FS_MATRIX()
    pr.FPDFText_GetMatrix(tp, index, m)
    size = pr.FPDFText_GetFontSize(tp, index) * (m.c * m.c + m.d * m.d) ** 0.5
    upright = m.a * m.d > 0 and m.b * m.c <= 0
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    colour = _rgb255(r.value, g.value, b.value) if pr.FPDFText_GetFillColor(tp, index, r, g, b, a) else UNKNOWN_COLOUR
    return size, upright, colour, invisible


Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: Form XObjects nested deeper than this are not searched for background shapes (pypdfium2's
#: ``PdfPage.get_objects`` stops at the same depth); the caller then reads the page with pdfplumber.
MAX_FORM_DEPTH = 15


def _mul(m1: Matrix, m2: Matrix) -> Matrix:
    """``m1`` then ``m2`` (PDF row-vector convention, ISO 32000-1 §8.3.4)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])


def _is_box(pts: list[tuple[float, float]], tol: float = 0.5) -> bool:
    """The path's points are the corners of an axis-aligned rectangle (at most two distinct x and y)."""
    xs = sorted(p[0] for p in pts)
    ys = sorted(p[1] for p in pts)
    return all(min(abs(x - xs[0]), abs(x - xs[-1])) <= tol for x in xs) and \
        all(min(abs(y - ys[0]), abs(y - ys[-1])) <= tol for y in ys) and xs[-1] - xs[0] > tol and ys[-1] - ys[0] > tol


class PdfiumPage:
    """One page's characters and filled rectangles (see the module docstring).

    Args:
        page: an open ``pypdfium2.PdfPage``; ``number``: its 1-based page number.
    """

    def __init__(self, page: Any, number: int, *, chars: list[dict] | None = None,
                 rects: list[dict] | None = None, bbox: tuple[float, float, float, float] | None = None,
                 cropbox: tuple[float, float, float, float] | None = None, unchecked_forms: bool = False,
                 off_layers: frozenset[str] = frozenset(), check_ink: bool = True) -> None:
        self.page_number = number
        self.rotation = 0
        if page is None:  # a crop or filter of another PdfiumPage
            self.chars, self.rects = chars or [], rects or []
            self.bbox: tuple[float, float, float, float] = bbox or (0.0, 0.0, 0.0, 0.0)
            self.cropbox: tuple[float, float, float, float] = cropbox or self.bbox
            self.unchecked_forms = unchecked_forms
            return
        mx0, my0, mx1, my1 = page.get_mediabox()
        self._ox, self._top = mx0, my1
        self.bbox = (0.0, 0.0, mx1 - mx0, my1 - my0)
        cx0, cy0, cx1, cy1 = page.get_cropbox()
        self.cropbox = (cx0 - mx0, my1 - cy1, cx1 - mx0, my1 - cy0)
        self.unchecked_forms = False
        self.images: list[dict] = []  # bounding boxes of image objects, filled by _filled_rects
        self.rects = self._filled_rects(page)
        self.chars = self._chars(page, off_layers)
        if check_ink:
            from clauselens.parsing.visibility import mark_unshown

            mark_unshown(page, self.chars, self._ox, self._top, self._over_image)

    # ------------------------------------------------------------ reading
    def _chars(self, page: Any, off_layers: frozenset[str] = frozenset()) -> list[dict]:
        """The page's characters; one in a text object marked with a layer of ``off_layers`` (hidden
        by default) carries that layer's name as ``hidden_layer``."""
        import pypdfium2.raw as pr

        tp = page.get_textpage()
        try:
            n = pr.FPDFText_CountChars(tp)
            box = pr.FS_RECTF()
            get_unicode = pr.FPDFText_GetUnicode
            is_generated = _by_address("FPDFText_IsGenerated", ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
            text_object, get_box = _text_object_address(), _loose_char_box()
            objs: dict[int, tuple[float, bool, tuple, bool, str | None]] = {}
            out: list[dict] = []
            ox, top = self._ox, self._top
            raw, box_at = int(ctypes.cast(tp.raw, ctypes.c_void_p).value or 0), ctypes.addressof(box)
            pending_high = 0
            # the page's text in one call; it lines up with the character list when the lengths
            # agree (PDFium can leave characters out of it: then one call per character)
            whole = tp.get_text_range(0, n) if n else ""
            codes = [ord(ch) for ch in whole] if len(whole) == n else None
            for i in range(n):
                u = codes[i] if codes is not None else 0xFFFE
                if u == 0xFFFE:  # not in the bulk text (PDFium's page text shows U+0002 as U+FFFE)
                    u = get_unicode(tp, i)
                if u <= 0x20 and is_generated(raw, i):  # PDFium's inferred spaces and line breaks
                    continue
                if 0xD800 <= u < 0xDC00:  # high surrogate: joined to the low one that follows
                    pending_high = u
                    continue
                if 0xDC00 <= u < 0xE000:
                    if not pending_high:
                        continue
                    u = 0x10000 + ((pending_high - 0xD800) << 10) + (u - 0xDC00)
                pending_high = 0
                if u == 0:
                    continue
                if u == 2:  # PDFium's mark for a hyphen that ends a line (FPDFText_IsHyphen): the glyph is "-"
                    u = 0x2D
                addr = text_object(raw, i)
                info = objs.get(addr) if addr else None
                if info is None:
                    info = (*_object_info(tp, i), _off_layer(tp, i, off_layers) if off_layers else None)
                    if addr:
                        objs[addr] = info
                size, upright, colour, invisible, layer = info
                get_box(raw, i, box_at)
                bottom = top - box.bottom
                ctop = bottom - size if upright else top - box.top
                out.append({
                    "text": chr(u), "x0": box.left - ox, "x1": box.right - ox, "top": ctop, "bottom": bottom,
                    "doctop": ctop, "size": size, "upright": upright, "non_stroking_color": colour,
                    "object_type": "char",
                })
                if layer:
                    out[-1]["hidden_layer"] = layer
                if invisible:
                    out[-1]["ocr_layer" if self._over_image(out[-1]) else "render_invisible"] = True
            return out
        finally:
            tp.close()

    def _over_image(self, c: dict) -> bool:
        """Whether the centre of character ``c`` lies on an image of the page (an OCR'd scan's text
        layer is invisible text over the page image: what the reader sees is the image)."""
        x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
        return any(im["x0"] <= x <= im["x1"] and im["top"] <= y <= im["bottom"] for im in self.images)

    def _filled_rects(self, page: Any) -> list[dict]:
        import pypdfium2.raw as pr

        out: list[dict] = []
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        px, py = ctypes.c_float(), ctypes.c_float()
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        fm = pr.FS_MATRIX()
        bounds = tuple(ctypes.c_float() for _ in range(4))

        def matrix(obj: Any) -> Matrix:
            if not pr.FPDFPageObj_GetMatrix(obj, fm):
                return IDENTITY
            return (fm.a, fm.b, fm.c, fm.d, fm.e, fm.f)

        def walk(count: int, get: Callable[[int], Any], outer: Matrix, depth: int) -> None:
            for k in range(count):
                obj = get(k)
                kind = pr.FPDFPageObj_GetType(obj)
                if kind == pr.FPDF_PAGEOBJ_FORM:
                    if depth >= MAX_FORM_DEPTH:
                        self.unchecked_forms = True
                        continue
                    inner = _mul(matrix(obj), outer)
                    walk(pr.FPDFFormObj_CountObjects(obj), functools.partial(pr.FPDFFormObj_GetObject, obj),
                         inner, depth + 1)
                    continue
                if kind == pr.FPDF_PAGEOBJ_IMAGE:
                    if pr.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in bounds)):
                        left, low, right, high = (v.value for v in bounds)
                        pts = [_apply(outer, x, y) for x in (left, right) for y in (low, high)]
                        self.images.append({"x0": min(p[0] for p in pts) - self._ox, "x1": max(p[0] for p in pts) - self._ox,
                                            "top": self._top - max(p[1] for p in pts),
                                            "bottom": self._top - min(p[1] for p in pts)})
                    continue
                if kind != pr.FPDF_PAGEOBJ_PATH:
                    continue
                if not pr.FPDFPath_GetDrawMode(obj, fill, stroke) or fill.value == pr.FPDF_FILLMODE_NONE:
                    continue
                nseg = pr.FPDFPath_CountSegments(obj)
                if not 4 <= nseg <= 5:
                    continue
                pts = []
                for j in range(nseg):
                    if not pr.FPDFPathSegment_GetPoint(pr.FPDFPath_GetPathSegment(obj, j), px, py):
                        break
                    pts.append((px.value, py.value))
                if len(pts) != nseg or not _is_box(pts):
                    continue
                m = _mul(matrix(obj), outer)
                corners = [_apply(m, x, y) for x in (min(p[0] for p in pts), max(p[0] for p in pts))
                           for y in (min(p[1] for p in pts), max(p[1] for p in pts))]
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                colour = _rgb255(r.value, g.value, b.value) if pr.FPDFPageObj_GetFillColor(obj, r, g, b, a) else UNKNOWN_COLOUR
                out.append({"x0": min(xs) - self._ox, "x1": max(xs) - self._ox, "top": self._top - max(ys),
                            "bottom": self._top - min(ys), "fill": True, "non_stroking_color": colour,
                            "object_type": "rect"})

        walk(pr.FPDFPage_CountObjects(page), lambda k: pr.FPDFPage_GetObject(page, k), IDENTITY, 0)
        return out

    # ------------------------------------------------------------ the pdfplumber subset
    def _copy(self, chars: list[dict], rects: list[dict], bbox: tuple[float, float, float, float]) -> "PdfiumPage":
        return PdfiumPage(None, self.page_number, chars=chars, rects=rects, bbox=bbox, cropbox=self.cropbox,
                          unchecked_forms=self.unchecked_forms)

    def filter(self, keep: Callable[[dict], bool]) -> "PdfiumPage":
        """The page with only the characters and rects for which ``keep`` is true (pdfplumber ``Page.filter``)."""
        return self._copy([c for c in self.chars if keep(c)], [r for r in self.rects if keep(r)], self.bbox)

    def crop(self, bbox: tuple[float, float, float, float], strict: bool = False) -> "PdfiumPage":
        """The part of the page inside ``bbox``, characters clipped to it as pdfplumber's ``crop`` does
        (``pdfplumber.utils.crop_to_bbox``)."""
        from pdfplumber.utils import crop_to_bbox

        return self._copy(crop_to_bbox(self.chars, bbox), crop_to_bbox(self.rects, bbox), bbox)

    def extract_text_lines(self, *, layout: bool = False, strip: bool = True, return_chars: bool = True,
                           **kwargs: Any) -> list[dict]:
        """pdfplumber's ``Page.extract_text_lines`` over these characters (same text map)."""
        from pdfplumber.utils.text import chars_to_textmap

        if not self.chars:
            return []
        x0, top, x1, bottom = self.bbox
        tm = chars_to_textmap(self.chars, layout=layout, layout_bbox=self.bbox, layout_width=x1 - x0,
                              layout_height=bottom - top, **kwargs)
        return tm.extract_text_lines(strip=strip, return_chars=return_chars)

    def close(self) -> None:
        """Nothing to release (the PDFium page is closed by its reader)."""
