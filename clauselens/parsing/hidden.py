"""Hidden text in a PDF's text layer by rule (split from :mod:`clauselens.parsing.pdf` for issue #43):
characters too small to see, drawn in the background's colour, invisible render modes, outside the
page or under a shape of the background's colour (:func:`hidden_reason`, :func:`drop_invisible`),
and text in optional-content layers that are off by default (:func:`off_layers`, :func:`mark_layers`).
The check by rendering (what the page actually shows) is :mod:`clauselens.parsing.visibility`;
these rules are its fast path.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

#: Characters smaller than this (points) are invisible on the page (issue #22 item 10).
MIN_VISIBLE_SIZE = 2.0
#: A character narrower than this share of its font size is squeezed out of sight (horizontal scaling
#: ``Tz``, ISO 32000-1 §9.3.4, or a text matrix that shrinks only the width): on the 28 real PDFs of
#: ``benchmarks/robustness_visibility.py`` (920,700 printed characters) the narrowest is 0.095.
MIN_WIDTH_EM = 0.05
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


def mark_layers(page, off: frozenset[str]) -> str | None:
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


def _printed(text: str) -> bool:
    """Whether a character has a width of its own (not a combining mark or a format character); spaces
    count (on the real PDFs above the narrowest of 172,530 is 0.12 of the font size)."""
    return bool(text) and all(unicodedata.category(ch)[0] not in "MC" and ch != "\u00ad" for ch in text)


def hidden_reason(c: dict, box: tuple[float, float, float, float], fills: list[dict],
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
    if c["x1"] - c["x0"] < MIN_WIDTH_EM * float(c["size"]) and _printed(c["text"]):
        return "text squeezed to almost no width"
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


def drop_invisible(page) -> tuple[Any, list[str]]:
    """``page`` without characters nobody can see (see :func:`hidden_reason`) and one warning
    per hidden line, naming page, position and the start of the text. Hidden text is a known
    way to slip instructions to AI tools (prompt injection): it must not reach retrieval or a
    prompt, and the user should know it was there."""
    chars = page.chars
    if not chars:
        return page, []
    box = tuple(getattr(page, "cropbox", None) or page.bbox)
    fills = [r for r in page.rects if r.get("fill")]
    colours: dict = {}
    hidden = [(c, why) for c in chars if (why := hidden_reason(c, box, fills, colours))]
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
    visible = page.filter(lambda o: o.get("object_type") != "char" or not hidden_reason(o, box, fills))
    return visible, warnings


__all__ = ["MIN_VISIBLE_SIZE", "MIN_WIDTH_EM", "NOT_SHOWN", "SAME_COLOUR", "drop_invisible", "hidden_reason", "mark_layers", "off_layers"]
