"""Tiny PDF writer for test inputs: text runs placed at given positions in Helvetica (a standard-14
font, so no font file is embedded and pdfminer knows its widths). Enough for layout tests
(columns, furniture, hidden text) without reportlab. PDF syntax per ISO 32000-1 §7 (objects, xref
table, trailer), §9.4 (text objects: BT, Tf, Td, Tj, ET), §8.5.3 (filled rectangles) and §8.10
(Form XObjects)."""

from __future__ import annotations

import textwrap
from pathlib import Path

#: One text run: (x, y from the page bottom, font size, text), optionally followed by an RGB fill
#: colour (0..1 each; default black), the name of the layer (optional-content group) it is in, its
#: text render mode (``Tr``, §9.3.6; 3 = invisible), and graphics-state operators drawn around it
#: inside ``q ... Q`` (e.g. ``"/GS0 gs"`` for the fill alpha 0 of ``gstates``, or a clipping path
#: ``"0 0 10 10 re W n"``, §8.5.4).
Run = tuple


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(path: Path, pages: list[list[Run]], size: tuple[float, float] = (612, 792), *,
              fills: list[list[tuple]] | None = None, in_form: bool = False,
              layers: dict[str, bool] | None = None, images: list[list[tuple]] | None = None,
              over: list[list[tuple]] | None = None, rotate: int = 0, font: str = "Helvetica") -> Path:
    """Write a PDF with one page per list of runs; returns ``path``.

    ``fills``: per page, filled rectangles ``(x, y, width, height, (r, g, b))`` drawn before the
    text (``re f``, §8.5.3). ``in_form``: each page's content is drawn through one Form XObject
    (``/Fm1 Do``, §8.10, placed with a 0.8 scale and an offset) instead of directly. ``layers``:
    layer name -> shown by default; a run naming a layer is drawn inside ``/OC /Ln BDC ... EMC``
    (optional content, §8.11: the OCGs listed in ``/OCProperties``, hidden ones in ``/D /OFF``).
    ``images``: per page, boxes ``(x, y, width, height)`` each painted with a 1x1 light-grey inline
    image (``BI ... ID ... EI``, §8.9.7) before the text, like a scan under its OCR text layer.
    ``over``: per page, shapes painted *after* the text: ``("rect", x, y, w, h, (r, g, b))`` or
    ``("image", x, y, w, h)`` (an opaque 1x1 white image). Every page has ``/ExtGState /GS0`` with
    fill and stroke alpha 0 (``ca``/``CA``, §11.6.4.4). ``rotate``: the pages' ``/Rotate``. ``font``:
    the standard-14 font of every run (Helvetica, Times-Roman, Courier, ...)."""
    objs: list[bytes] = [b"", b""]  # 1: catalog, 2: pages, filled in below
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % font.encode("ascii"))  # 3
    ocg: dict[str, int] = {}
    for name in layers or {}:
        objs.append(b"<< /Type /OCG /Name (%s) >>" % _esc(name).encode("latin-1"))
        ocg[name] = len(objs)
    props = (b" /Properties << %s >>" % b" ".join(b"/L%d %d 0 R" % (n, n) for n in ocg.values())) if ocg else b""

    def run(r: Run) -> str:
        mode = f"{r[6]} Tr " if len(r) > 6 and r[6] is not None else ""
        body = (f"BT {' '.join(f'{v:g}' for v in (r[4] if len(r) > 4 and r[4] else (0, 0, 0)))} rg {mode}"
                f"/F1 {r[2]:g} Tf {r[0]:.2f} {r[1]:.2f} Td ({_esc(r[3])}) Tj ET")
        wrap = r[7] if len(r) > 7 and r[7] else ""
        if mode or wrap:
            body = f"q {wrap} {body} Q"  # the render mode is graphics state: it must not leak into later runs
        return f"/OC /L{ocg[r[5]]} BDC {body} EMC\n" if len(r) > 5 and r[5] else body + "\n"

    kids = []
    for n, runs in enumerate(pages):
        rects = "".join(f"{' '.join(f'{v:g}' for v in f[4])} rg {f[0]:g} {f[1]:g} {f[2]:g} {f[3]:g} re f\n"
                        for f in (fills[n] if fills and n < len(fills) else []))
        pics = "".join(f"q {w:g} 0 0 {h:g} {x:g} {y:g} cm BI /W 1 /H 1 /CS /G /BPC 8 ID \xe0 EI Q\n"
                       for x, y, w, h in (images[n] if images and n < len(images) else []))
        post = "".join(
            f"{' '.join(f'{v:g}' for v in o[5])} rg {o[1]:g} {o[2]:g} {o[3]:g} {o[4]:g} re f\n" if o[0] == "rect"
            else f"q {o[3]:g} 0 0 {o[4]:g} {o[1]:g} {o[2]:g} cm BI /W 1 /H 1 /CS /G /BPC 8 ID \xff EI Q\n"
            for o in (over[n] if over and n < len(over) else []))
        stream = (pics + rects + "".join(run(r) for r in runs) + post).encode("latin-1")
        resources = b"<< /Font << /F1 3 0 R >> /ExtGState << /GS0 << /ca 0 /CA 0 >> >>%s >>" % props
        if in_form:
            objs.append(b"<< /Type /XObject /Subtype /Form /BBox [0 0 %g %g] /Resources %s /Length %d >>\nstream\n"
                        % (size[0], size[1], resources, len(stream)) + stream + b"endstream")
            resources = b"<< /XObject << /Fm1 %d 0 R >> >>" % len(objs)
            stream = b"q 0.8 0 0 0.8 40 60 cm /Fm1 Do Q\n"  # scaled, so the form's placement matters
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream")
        content = len(objs)
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Resources %s "
                    b"/Contents %d 0 R%s >>" % (size[0], size[1], resources, content, b" /Rotate %d" % rotate if rotate else b""))
        kids.append(len(objs))
    oc = b""
    if ocg:
        refs = {name: b"%d 0 R" % n for name, n in ocg.items()}
        oc = (b" /OCProperties << /OCGs [%s] /D << /OFF [%s] >> >>"
              % (b" ".join(refs.values()), b" ".join(refs[n] for n, shown in (layers or {}).items() if not shown)))
    objs[0] = b"<< /Type /Catalog /Pages 2 0 R%s >>" % oc
    objs[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def two_column_pages(title: str, paragraphs: list[str], *, wrap: int = 42, top: float = 700, bottom: float = 72,
                     leading: float = 12, font: float = 10, left_x: float = 72, right_x: float = 324) -> list[list[Run]]:
    """Lay ``paragraphs`` out in two columns (left column filled first, then the right, then the
    next page), with ``title`` across the top of the first page. Each paragraph is wrapped at
    ``wrap`` characters and followed by a blank line."""
    lines: list[str] = []
    for p in paragraphs:
        lines += textwrap.wrap(p, wrap) + [""]
    pages: list[list[Run]] = []
    runs: list[Run] = [(200, 740, 14, title)]
    col, y = 0, top
    for ln in lines:
        if y < bottom:
            if col == 0:
                col, y = 1, top
            else:
                pages.append(runs)
                runs, col, y = [], 0, top
        if ln:
            runs.append((left_x if col == 0 else right_x, y, font, ln))
        y -= leading
    pages.append(runs)
    return pages
