"""From positioned text lines (PDF text layer or OCR) to clean page text.

Pure functions: furniture (running header/footer) detection by repetition across pages,
line-wrap and hyphenation joins driven by line geometry, NFKC normalisation (expands
typographic ligatures such as U+FB01 "fi", Unicode UAX #15), and a check for implausibly
long tokens that betray lost word spaces.
"""

from __future__ import annotations

import math
import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass

#: A line that starts like a clause/heading marker must never be joined to the previous one.
MARKER_START = re.compile(
    r"""^\s*(?:
        (?:ARTICLE|Article|SECTION|Section|SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix)\b
      | \((?:[a-zA-Z]{1,2}|[ivxlcdmIVXLCDM]{1,6}|\d{1,3})\)
      | \d{1,3}(?:\.\d{1,3})*\.?\s
      | WHEREAS\b | IN\s+WITNESS\b | NOW,?\s+THEREFORE\b
    )""",
    re.VERBOSE,
)

_PAGE_NUMBER = re.compile(r"^\s*(?:page\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?\s*(?:of\s+\d{1,4})?\s*$", re.IGNORECASE)
_SOFT_HYPHEN = "\u00ad"


@dataclass(frozen=True)
class Line:
    """One text line with its box in page units (points for PDF, pixels for OCR)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float


def normalize_extracted(text: str) -> str:
    """NFKC-normalise extracted text (ligatures ``ﬁ``/``ﬂ``/``ﬀ``/``ﬃ`` expand to letters,
    compatibility spaces become spaces) and drop soft hyphens (U+00AD). Unicode UAX #15."""
    return unicodedata.normalize("NFKC", text).replace(_SOFT_HYPHEN, "")


def furniture_key(line: str) -> str:
    """Comparison key for running-header/footer detection: lower case, digits → ``#``,
    whitespace collapsed (so "Page 2 of 3" and "Page 3 of 3" share a key)."""
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", line.strip().lower()))


def find_furniture(pages: list[list[Line]], zone: int = 3, min_share: float = 0.5) -> list[set[int]]:
    """Indices of furniture lines per page.

    A line in the top or bottom ``zone`` lines of a page is furniture when its
    :func:`furniture_key` occurs in those zones on at least ``max(2, ceil(min_share * n))``
    of the ``n`` pages, or when it is a bare page number ("3", "- 3 -", "Page 3 of 9").
    One-off headings are kept.

    Returns:
        one set of line indices per page (same order as ``pages``).
    """
    n = len(pages)
    zones: list[list[int]] = []
    counts: Counter[str] = Counter()
    for lines in pages:
        idx = list(range(min(zone, len(lines)))) + list(range(max(zone, len(lines) - zone), len(lines)))
        zones.append(idx)
        for key in {furniture_key(lines[i].text) for i in idx}:
            counts[key] += 1
    need = max(2, math.ceil(min_share * n))
    out: list[set[int]] = []
    for lines, idx in zip(pages, zones):
        drop = set()
        for i in idx:
            t = lines[i].text
            if _PAGE_NUMBER.match(t) or (n >= 2 and counts[furniture_key(t)] >= need and t.strip()):
                drop.add(i)
        out.append(drop)
    return out


def lines_to_text(lines: list[Line]) -> str:
    """Join a page's lines into paragraphs.

    Rules (geometry, not language): a vertical gap larger than 0.6 x the median line height
    starts a new paragraph (``"\\n\\n"``); a line that starts with a clause marker
    (:data:`MARKER_START`) or follows a line ending well short of the right margin starts a
    new line (``"\\n"``); otherwise the line continues the previous one, joined by a space, or
    with the hyphen removed when the previous line ends in ``letter-`` and this one starts in
    lower case.
    """
    lines = [ln for ln in lines if ln.text.strip()]
    if not lines:
        return ""
    heights = [max(ln.bottom - ln.top, 1e-6) for ln in lines]
    h = statistics.median(heights)
    left = min(ln.x0 for ln in lines)
    right = max(ln.x1 for ln in lines)
    short_limit = right - 0.12 * max(right - left, 1e-6)
    parts = [lines[0].text.strip()]
    for prev, cur in zip(lines, lines[1:]):
        t = cur.text.strip()
        gap = cur.top - prev.bottom
        if gap > 0.6 * h:
            parts.append("\n\n" + t)
        elif MARKER_START.match(t) or prev.x1 < short_limit:
            parts.append("\n" + t)
        elif re.search(r"[A-Za-z]-$", parts[-1]) and t[:1].islower():
            parts[-1] = parts[-1][:-1]
            parts.append(t)
        else:
            parts.append(" " + t)
    return "".join(parts)


_URLISH = re.compile(r"(?:https?://|www\.|@|/|\\|_)")


def long_tokens(text: str, min_len: int = 30) -> list[str]:
    """Whitespace-separated tokens of ``min_len``+ characters that are not URLs, paths or
    e-mail addresses, and mostly (>= 70 %) letters (rules of dashes or underscores are not
    words): a sign that extraction lost the spaces between words (the longest
    English words in contracts, e.g. "indemnification", have ~15 letters)."""
    return [
        t for t in text.split()
        if len(t) >= min_len and not _URLISH.search(t) and sum(c.isalpha() for c in t) >= 0.7 * len(t)
    ]
