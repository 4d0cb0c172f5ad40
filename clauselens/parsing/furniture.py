"""Page furniture inside a text layer that survived into a document's text: the banner SEC EDGAR
prints on every page of a filed exhibit ("Source: KITOV PHARMA LTD., 20-F, 3/26/2019"; 3,308 in the
CUAD texts, each ending in the filing date) and bare page-number lines ("18", "- 7 -", "Page 3 of 9").
A quote shown as a fact is one contiguous stretch of the document's own text; :func:`clean_stretch`
picks the longest stretch of a window that holds none of this furniture, so a quote never ends in
"18 Source: FUSE MEDICAL, INC., 10-K, 3/21/2019"."""

from __future__ import annotations

import re

#: The EDGAR page banner.
EDGAR_BANNER = re.compile(r"Source: [^\n]{1,150}?, \d{1,2}/\d{1,2}/\d{4}")
#: A line that is only a page number.
PAGE_NUMBER_LINE = re.compile(r"(?m)^[ \t]*(?:page[ \t]*)?[-–—]?[ \t]*\d{1,4}[ \t]*[-–—]?(?:[ \t]*of[ \t]+\d{1,4})?[ \t]*$",
                              re.IGNORECASE)


def furniture_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` spans of page furniture in ``text[start:end]``, in order, merged where they touch."""
    end = len(text) if end is None else end
    found = sorted([(m.start(), m.end()) for rx in (EDGAR_BANNER, PAGE_NUMBER_LINE)
                    for m in rx.finditer(text, start, end) if m.end() > m.start()])
    merged: list[tuple[int, int]] = []
    for a, b in found:
        if merged and a <= merged[-1][1] + 2 and not text[merged[-1][1]:a].strip():
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def clean_stretch(text: str, start: int, end: int) -> tuple[int, int]:
    """The longest part of ``text[start:end]`` between page furniture, whitespace trimmed; the window
    itself when it holds none (or nothing but furniture)."""
    cuts = furniture_spans(text, start, end)
    if not cuts:
        return start, end
    bounds = [start, *[x for c in cuts for x in c], end]
    parts = []
    for a, b in zip(bounds[0::2], bounds[1::2]):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            parts.append((a, b))
    return max(parts, key=lambda ab: ab[1] - ab[0]) if parts else (start, end)


__all__ = ["EDGAR_BANNER", "PAGE_NUMBER_LINE", "clean_stretch", "furniture_spans"]
