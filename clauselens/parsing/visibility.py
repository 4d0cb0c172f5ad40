"""Whether a PDF character shows on the page, judged from what PDFium paints (issue #41 item 1).

The rule-based checks of :func:`clauselens.parsing.pdf._hidden_reason` (render mode 3, hidden
layers, off-page, under 2 pt, the background's colour) are the fast path. They miss text hidden
by the graphics state or by later painting: a fill alpha of 0 (ExtGState ``ca 0``, ISO 32000-1
§11.3.7), a white rectangle or an opaque image drawn over it (painter's model, §8.1), a clipping
path that cuts it away (§8.5.4), colour on a background of the same colour painted in a way the
rectangle rule does not see. One rule covers them all: *differential rendering*. The page is
rendered twice by PDFium (pypdfium2), once as it is and once with every text object set to
render mode 3 (invisible, §9.3.6, ``FPDFTextObj_SetTextRenderMode``); a character whose box
differs between the two renders by less than :data:`MIN_INK` (0-255, largest channel difference)
at every pixel paints nothing the reader can see, and is marked ``not_shown``.

Kept: characters of an invisible text object over an image (an OCR'd scan's text layer: what the
reader sees is the image under it; :mod:`clauselens.parsing.pdfium_page` marks them
``ocr_layer``), text drawn under a scan's image that shows something where the text is (the
other way OCR tools lay a text layer; two CUAD PDFs are made so), whitespace, and characters whose box lies outside the rendered page (the fast
path's "outside the page" rule names those).

Cost: two renders per page at :data:`RENDER_SCALE` (``benchmarks/robustness_visibility.py``
measures ms per page); one on a page that holds nothing but text (no path, image or shading, in
Form XObjects too): with its text invisible such a page renders as the blank fill, so that render
is not made (issue #42, ``benchmarks/visibility_mark_speed.py``: identical marks). The render flags
turn anti-aliasing of text off, so a glyph's pixels are either its colour or the background's and
a thin glyph (".", "i") is not washed out.

Side effects: changes the render mode of the page's text objects and puts it back; the caller
holds :data:`~clauselens.parsing.pdfium_lock.PDFIUM_LOCK` and never saves the page.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import operator
from pathlib import Path
from typing import Any, Callable

#: Render scale (1.0 = 72 dpi). 1.5 = 108 dpi: a 10-pt glyph spans ~15 pixels, 2-pt text ~3.
RENDER_SCALE = 1.5
#: Largest per-channel difference (0-255) between the two renders under a character that counts
#: as ink. Text anti-aliasing is off, so visible glyph pixels differ by their full contrast with
#: the background; 40 leaves out text within ~15 % of the background's colour (the colour rule's
#: :data:`~clauselens.parsing.pdf.SAME_COLOUR` is 8 %).
MIN_INK = 40
#: Box rows gathered at once by :func:`_any_in_boxes` (bounds its index arrays).
MAX_BOX_ROWS = 1_000_000
#: A page with more characters than this is not rendered (the fast path alone judges it): a dense
#: page of a real contract has 3-6 thousand.
MAX_CHARS = 20000


def _text_objects(page: Any) -> tuple[list[Any], bool]:
    """Every text object of the page, inside Form XObjects too (depth-limited like pypdfium2), and
    whether the page has anything else that paints (a path, an image, a shading, or forms nested
    too deep to tell): a page of text alone renders blank once its text is made invisible."""
    import pypdfium2.raw as pr

    out: list[Any] = []
    other = [False]

    def walk(count: int, get: Callable[[int], Any], depth: int) -> None:
        for k in range(count):
            obj = get(k)
            kind = pr.FPDFPageObj_GetType(obj)
            if kind == pr.FPDF_PAGEOBJ_TEXT:
                out.append(obj)
            elif kind == pr.FPDF_PAGEOBJ_FORM and depth < 15:
                walk(pr.FPDFFormObj_CountObjects(obj), functools.partial(pr.FPDFFormObj_GetObject, obj), depth + 1)
            else:
                other[0] = True

    walk(pr.FPDFPage_CountObjects(page.raw), lambda k: pr.FPDFPage_GetObject(page.raw, k), 0)
    return out, other[0]


#: The pixel buffers of the two renders of a page (:func:`_render` slot 0 and 1), kept from page to
#: page: a fresh zeroed buffer per render cost about as much CPU as the render itself (issue #42).
#: Used under :data:`~clauselens.parsing.pdfium_lock.PDFIUM_LOCK` only (the caller holds it).
_BUFFERS: list[Any] = [None, None]


def _bitmap_in(slot: int) -> Callable[..., Any]:
    """A ``bitmap_maker`` for ``PdfPage.render`` whose bitmap uses the kept buffer ``slot`` (grown
    when a page needs more); the render fills it before painting, so what it held does not matter."""
    import pypdfium2 as pdfium
    import pypdfium2.internal as pdfium_i

    def make(width: int, height: int, format: int, rev_byteorder: bool = False) -> Any:
        need = width * pdfium_i.BitmapTypeToNChannels[format] * height
        if _BUFFERS[slot] is None or len(_BUFFERS[slot]) < need:
            _BUFFERS[slot] = (ctypes.c_ubyte * need)()
        return pdfium.PdfBitmap.new_native(width, height, format, rev_byteorder=rev_byteorder, buffer=_BUFFERS[slot])
    return make


def _render(page: Any, scale: float, keep: list[Any]) -> Any:
    """The page rendered at ``scale`` as a BGRx numpy array (rows top to bottom), text not
    anti-aliased: a view of a kept buffer (:data:`_BUFFERS`, slot ``len(keep)``: the first and
    second render of a page use different ones), whose bitmap is appended to ``keep`` and must be
    closed by the caller once the array is no longer used (before the next page is rendered)."""
    bitmap = page.render(scale=scale, draw_annots=False, no_smoothtext=True, prefer_bgrx=True,
                         bitmap_maker=_bitmap_in(len(keep)))
    keep.append(bitmap)
    return bitmap.to_numpy()


def _ink(shown: Any, bare: Any | None) -> Any:
    """Boolean mask of the pixels where the two BGRx renders differ by :data:`MIN_INK` or more in
    some channel (only the pixels that differ at all are compared channel by channel). ``bare``
    None: the page without text is blank (white, what the render's fill leaves), so a pixel has
    ink when some channel of ``shown`` is at most ``255 - MIN_INK``."""
    import numpy as np

    if bare is None:
        return shown[:, :, :3].min(axis=2) <= 255 - MIN_INK
    s32, b32 = shown.view(np.uint32)[:, :, 0], bare.view(np.uint32)[:, :, 0]  # one BGRx pixel per 32-bit word
    differ = np.flatnonzero(s32 != b32)
    ys, xs = np.divmod(differ, s32.shape[1])
    sv, bv = s32[ys, xs], b32[ys, xs]  # one gather of packed pixels, not three of channels (issue #42)
    keep = np.zeros(len(differ), dtype=bool)
    for shift in (0, 8, 16):  # B, G, R
        d = ((sv >> shift) & 0xFF).astype(np.int16) - ((bv >> shift) & 0xFF).astype(np.int16)
        keep |= np.abs(d) >= MIN_INK
    ink = np.zeros(s32.size, dtype=bool)
    ink[differ[keep]] = True
    return ink.reshape(s32.shape)


Affine = tuple[tuple[float, float], tuple[float, float], tuple[float, float]]


def _device_map(page: Any, width: int, height: int) -> Affine:
    """Page user space -> pixel (x, y) of a render ``width`` x ``height`` (PDFium's own transform,
    ``FPDF_PageToDevice``, so /Rotate and the crop box are honoured): an affine map from 3 points,
    as ``(origin, d/dx, d/dy)``: pixel = origin + x * d/dx + y * d/dy."""
    import pypdfium2.raw as pr

    dx, dy = ctypes.c_int(), ctypes.c_int()

    def dev(x: float, y: float) -> tuple[float, float]:
        pr.FPDF_PageToDevice(page.raw, 0, 0, width, height, 0, x, y, dx, dy)
        return float(dx.value), float(dy.value)

    big = 1000.0
    o, ex, ey = dev(0.0, 0.0), dev(big, 0.0), dev(0.0, big)
    ax, ay = ((ex[0] - o[0]) / big, (ex[1] - o[1]) / big), ((ey[0] - o[0]) / big, (ey[1] - o[1]) / big)
    return o, ax, ay


def _pixel_boxes(affine: Affine, chars: list[dict], ox: float, top: float, w: int, h: int) -> Any:
    """Each character's pixel box ``(x0, x1, y0, y1)`` (ends exclusive, clipped to the render) from
    its four corners under ``affine`` (:func:`_device_map`); vectorised with numpy (issue #42: this was a
    Python loop per character, the largest part of a PDF's parse)."""
    import numpy as np

    o, ax, ay = affine
    b = np.fromiter(itertools.chain.from_iterable(map(operator.itemgetter("x0", "x1", "top", "bottom"), chars)),
                    dtype=np.float64, count=4 * len(chars)).reshape(-1, 4)
    xs, ys = b[:, :2] + ox, top - b[:, 2:]
    cx = o[0] + ax[0] * xs[:, [0, 0, 1, 1]] + ay[0] * ys[:, [0, 1, 0, 1]]
    cy = o[1] + ax[1] * xs[:, [0, 0, 1, 1]] + ay[1] * ys[:, [0, 1, 0, 1]]
    px0 = np.maximum(np.trunc(cx.min(axis=1)), 0)
    px1 = np.minimum(np.trunc(cx.max(axis=1)) + 1, w)
    py0 = np.maximum(np.trunc(cy.min(axis=1)), 0)
    py1 = np.minimum(np.trunc(cy.max(axis=1)) + 1, h)
    return np.stack([px0, px1, py0, py1], axis=1).astype(np.int64)


def _any_in_boxes(mask: Any, boxes: Any) -> Any:
    """Whether ``mask`` has a True pixel inside each box (empty boxes: False): per box and row of the
    box, that row's stretch of the mask reduced by one ``np.maximum.reduceat`` over the flattened mask
    for all boxes' rows at once, so only the pixels under characters are read (issue #42: row prefix
    sums over every pixel of the area took ~1.5x as long). Boxes taller than :data:`MAX_BOX_ROWS`
    rows in all are done in parts."""
    import numpy as np

    h, w = mask.shape
    x0, x1, y0, y1 = (np.asarray(boxes[:, i], dtype=np.int64) for i in range(4))
    ok = (x1 > x0) & (y1 > y0)
    hit = np.zeros(len(boxes), dtype=bool)
    if not ok.any():
        return hit
    # one byte per pixel, and one more: a box ending at the last pixel keeps reduceat's indices in range
    flat = np.concatenate([np.ascontiguousarray(mask, dtype=bool).reshape(-1).view(np.uint8), np.zeros(1, np.uint8)])
    heights = np.where(ok, y1 - y0, 0)
    ends = np.cumsum(heights)
    step = max(1, MAX_BOX_ROWS // max(int(heights.max()), 1))
    for lo in range(0, len(boxes), step):
        hs = heights[lo:lo + step]
        box = np.repeat(np.arange(lo, lo + len(hs)), hs)  # one entry per (box, row of the box)
        if not len(box):
            continue
        first = ends[lo] - hs[0]  # position of this part's first row among all boxes' rows
        rows = y0[box] + (np.arange(first, first + len(box)) - (ends[box] - heights[box]))
        at = np.empty(2 * len(box), dtype=np.int64)  # [start, stop) of each box row; the odd results are unused
        at[0::2] = rows * w + x0[box]
        at[1::2] = rows * w + x1[box]
        inked = np.maximum.reduceat(flat, at)[0::2] > 0
        hit[box[inked]] = True
    return hit


def _mark(page: Any, todo: list[dict], shown: Any, bare: Any | None, ox: float, top: float,
          on_image: Callable[[dict], bool]) -> int:
    """:func:`mark_unshown`'s marking of ``todo`` from the two renders (``bare`` None: blank, see
    :func:`_ink`); returns how many are ``not_shown``. Only the part of the page the characters'
    boxes cover is compared (issue #42: the margins hold no character, so no pixel there decides)."""
    import numpy as np

    h, w = shown.shape[:2]
    boxes = _pixel_boxes(_device_map(page, w, h), todo, ox, top, w, h)
    on_page = (boxes[:, 1] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 2])  # off it: the fast path's "outside the page" rule
    if not on_page.any():
        return 0
    lx, hx = int(boxes[on_page, 0].min()), int(boxes[on_page, 1].max())
    ly, hy = int(boxes[on_page, 2].min()), int(boxes[on_page, 3].max())
    ink = _ink(shown[ly:hy, lx:hx], None if bare is None else bare[ly:hy, lx:hx])
    local = boxes - np.asarray([lx, lx, ly, ly], dtype=np.int64)
    has_ink = _any_in_boxes(ink, np.where(on_page[:, None], local, 0))
    marked = 0
    for k in np.flatnonzero(on_page & ~has_ink).tolist():  # only the few without ink are looked at one by one
        c = todo[k]
        px0, px1, py0, py1 = boxes[k].tolist()
        if bare is None:
            c["not_shown"] = True  # nothing but text on the page: no image under it
            marked += 1
            continue
        under = bare[py0:py1, px0:px1, :3]
        if on_image(c) and int(under.max()) - int(under.min()) >= MIN_INK:
            c["ocr_layer"] = True  # under a scan's image that shows something there: its text layer
        else:
            c["not_shown"] = True
            marked += 1
    return marked


def mark_unshown(page: Any, chars: list[dict], ox: float, top: float, on_image: Callable[[dict], bool],
                 scale: float = RENDER_SCALE) -> int:
    """Mark ``not_shown`` on the characters of ``chars`` (pdfplumber-style dicts from
    :class:`~clauselens.parsing.pdfium_page.PdfiumPage`: top-left origin, offset by the media box's
    ``ox`` and ``top``) that paint no ink on the rendered page (module docstring). Returns how many
    were marked. ``page``: the open ``pypdfium2.PdfPage`` they were read from; ``on_image``: whether
    a character lies on an image of the page. A character without ink that lies on an image which
    shows something under it (the render without text is not blank in its box) is a scan's text
    layer drawn under the scan (OCR tools do both: mode-3 text over the image, or any text under
    it) and is marked ``ocr_layer`` instead; text under a blank (white) image is ``not_shown``."""
    import pypdfium2.raw as pr

    todo = [c for c in chars if c["text"].strip() and not c.get("ocr_layer") and not c.get("render_invisible")
            and not c.get("hidden_layer")]
    if not todo or len(chars) > MAX_CHARS:
        return 0
    bitmaps: list[Any] = []
    try:
        shown = _render(page, scale, bitmaps)
        objs, painted = _text_objects(page)
        bare = None  # text alone on the page: without it the render is the blank fill (not rendered)
        if painted:
            modes = [pr.FPDFTextObj_GetTextRenderMode(o) for o in objs]
            try:
                for o in objs:
                    pr.FPDFTextObj_SetTextRenderMode(o, pr.FPDF_TEXTRENDERMODE_INVISIBLE)
                bare = _render(page, scale, bitmaps)
            finally:
                for o, m in zip(objs, modes):
                    if m >= 0:
                        pr.FPDFTextObj_SetTextRenderMode(o, m)
            if shown.shape != bare.shape:
                return 0
        marked = _mark(page, todo, shown, bare, ox, top, on_image)
    finally:
        for b in bitmaps:
            b.close()
    if marked:  # a space between hidden characters is hidden with them (the warning quotes words)
        for prev, c, nxt in zip(chars, chars[1:], chars[2:]):
            if not c["text"].strip() and prev.get("not_shown") and nxt.get("not_shown"):
                c["not_shown"] = True
    return marked


def mark_unshown_plumber(page: Any, path: Path, password: str | None) -> None:
    """The rendered-visibility rule (:mod:`clauselens.parsing.visibility`) on a pdfplumber page's
    characters: PDFium renders the same page (under the PDFium lock) and characters that paint no
    ink are marked ``not_shown``. Pages with ``/Rotate`` or a PDF PDFium cannot open keep the fast
    path's rules only."""
    if page.rotation % 360 or not page.chars:
        return
    import pypdfium2 as pdfium

    from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

    images = [(im["x0"], im["x1"], im["top"], im["bottom"]) for im in page.images]

    def on_image(c: dict) -> bool:
        x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
        return any(x0 <= x <= x1 and t <= y <= b for x0, x1, t, b in images)

    x0, _, _, y1 = (float(v) for v in page.mediabox)
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path), password=password or None)
        except Exception:
            return
        try:
            pp = pdf[page.page_number - 1]
            try:
                mark_unshown(pp, page.chars, x0, y1, on_image)
            finally:
                pp.close()
        except Exception:  # a page PDFium cannot render: the fast path's rules stand
            return
        finally:
            pdf.close()
