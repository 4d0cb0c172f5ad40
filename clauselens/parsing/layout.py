"""From positioned text lines (PDF text layer or OCR) to clean page text.

Pure functions: furniture (running header/footer) detection by repetition across pages,
column (gutter) detection for two-column pages, line-wrap and hyphenation joins driven by
line geometry, NFKC normalisation (expands typographic ligatures such as U+FB01 "fi",
Unicode UAX #15), and a check for implausibly long tokens that betray lost word spaces.

Columns: a text-layer line extractor reads a two-column page row by row across the gutter
(pdfplumber's ``extract_text_lines``, like any y-sorted reader). :func:`find_gutter` looks
for a vertical band, in the middle 60 % of the text's width, that many rows leave empty
while (almost) no row crosses it, with long lines on both sides (tables and signature
blocks have short cells and are left alone) or a side that is itself set in columns (three
columns: :func:`clauselens.parsing.pdf._text_lines` cuts again inside each side, a recursive
XY-cut). The same idea as the whitespace-cover
"gutter" of Breuel, "Two Geometric Algorithms for Layout Analysis" (DAS 2002), restricted
to one vertical cut. Two cases the share-of-rows rule misses (issue #41, generated 3:1:1 and
Courier layouts): a column beside a short last one -- the last column's few lines start the
block and lie beyond every other line's end (:func:`_short_column`; read in columns, warned) --
and a line of a column that comes within a narrow gap of the next one, which is no heading
across the gutter (:func:`_narrow_inside`).
"""

from __future__ import annotations

import math
import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

#: A line that starts like a clause/heading marker must never be joined to the previous one.
MARKER_START = re.compile(
    r"""^\s*(?:
        (?:ARTICLE|Article|SECTION|Section|SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix)\b
      | \((?:[a-zA-Z]{1,2}|[ivxlcdmIVXLCDM]{1,6}|\d{1,3})\)
      | \d{1,3}(?:\.\d{1,3})*\.?\s
      | \d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]?)*\.?\s+[A-Z"“(]   # inserted clauses "2A PRIORITY", "2A.1 The" (not "8A of")
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
    column: int = 0  # 0 full width, 1 left column, 2 right column (see find_gutter)


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
    lower case. Margins are measured per :attr:`Line.column`; moving to another column
    continues a sentence left open (no end punctuation, next line lower case) and otherwise
    starts a new paragraph.
    """
    lines = [ln for ln in lines if ln.text.strip()]
    if not lines:
        return ""
    heights = [max(ln.bottom - ln.top, 1e-6) for ln in lines]
    h = statistics.median(heights)
    limits: dict[int, float] = {}
    for col in {ln.column for ln in lines}:
        left = min(ln.x0 for ln in lines if ln.column == col)
        right = max(ln.x1 for ln in lines if ln.column == col)
        limits[col] = right - 0.12 * max(right - left, 1e-6)
    parts = [lines[0].text.strip()]
    for prev, cur in zip(lines, lines[1:]):
        t = cur.text.strip()
        gap = cur.top - prev.bottom
        if cur.column != prev.column:
            open_sentence = not re.search(r"[.:;!?\"”)]$", parts[-1]) and t[:1].islower()
            parts.append((" " if open_sentence else "\n\n") + t)
        elif gap > 0.6 * h:
            parts.append("\n\n" + t)
        elif MARKER_START.match(t) or prev.x1 < limits[prev.column]:
            parts.append("\n" + t)
        elif re.search(r"[A-Za-z]-$", parts[-1]) and t[:1].islower():
            parts[-1] = parts[-1][:-1]
            parts.append(t)
        else:
            parts.append(" " + t)
    return "".join(parts)


@dataclass(frozen=True)
class Gutter:
    """A vertical gap between two text columns, found by :func:`find_gutter`.

    ``x0``/``x1``: the empty band (page units); ``split``: indices of rows that have text on
    both sides of it; ``crossing``: rows whose text runs across it (full-width headings);
    ``certain``: False when the evidence is mixed (then the caller warns).
    """

    x0: float
    x1: float
    split: frozenset[int]
    crossing: frozenset[int]
    certain: bool
    why: str = ""

    @property
    def x(self) -> float:
        return (self.x0 + self.x1) / 2


#: Share of text rows that must have text on both sides of the gutter.
MIN_SPLIT_SHARE = 0.25
#: Below this share the page is read row by row; between it and MIN_SPLIT_SHARE the caller warns.
MAYBE_SPLIT_SHARE = 0.15
#: Columns hold running text: the median part of a split row must fill this share of its column.
MIN_COLUMN_FILL = 0.5
#: A page whose split rows (this share of all rows, >= 10) fill one side to this median share but not the
#: other is a wide column beside narrow ones too short to read apart: the caller warns.
WIDE_BESIDE_SHORT_SHARE = 0.75
WIDE_COLUMN_FILL = 0.7


def find_gutter(rows: list[list[tuple[float, float]]], *, char_width: float | None = None,
                spans: list[tuple[float, float]] | None = None, _depth: int = 0) -> Gutter | None:
    """Find the gutter of a page in two or more columns (the best-supported one; the caller cuts
    again inside each side).

    Args:
        rows: per text row (top to bottom), the ``(x0, x1)`` boxes of its visible characters.
        char_width: typical character width (default: median of the boxes); a gap must be
            at least ``max(2.5 * char_width, 8)`` wide to count as a gutter (word spaces
            are ~0.25-1 em).
        spans: per row its ``(top, bottom)``; with them a one-sided row set off by blank space
            above and below, inside the column block, is a heading between two column blocks
            (:func:`_separators`) and is read whole, like a row across the gutter.
        _depth: recursion depth of the check that a side with short lines is itself in
            columns (internal).

    A gap must be wider than word spaces: ``max(2.5 * char_width, 8)``; when no gutter is
    found so, a narrow one (``max(1.5 * char_width, 6)``, a 10-12 pt gutter beside 11 pt text) is
    looked for when none is found or rows run across it (a line of the left column that comes
    close to the right one), and taken when the columns are certain and fewer rows run across it.

    Returns:
        ``None`` for a one-column page (or too few rows, < 6), else a :class:`Gutter`;
        ``Gutter.split`` is empty when the page only *may* have columns (a share of rows
        between :data:`MAYBE_SPLIT_SHARE` and :data:`MIN_SPLIT_SHARE`): read it row by row,
        but warn.
    """
    rows = [sorted(r) for r in rows]
    if sum(1 for r in rows if r) < 6:
        return None
    widths = sorted(x1 - x0 for r in rows for x0, x1 in r if x1 > x0)
    cw = char_width or (widths[len(widths) // 2] if widths else 5.0)
    found = _find_gutter(rows, cw, max(2.5 * cw, 8.0), _depth)
    if _depth == 0 and (found is None or found.crossing):
        narrow = _find_gutter(rows, cw, max(1.5 * cw, 6.0), _depth)
        if narrow is not None and narrow.certain and (found is None or len(narrow.crossing) < len(found.crossing)):
            found = narrow
    if found is not None and found.split and spans is not None:
        extra = _separators(rows, spans, found)
        if extra:
            found = Gutter(found.x0, found.x1, found.split - extra, found.crossing | extra, found.certain, found.why)
    return found


def _separators(rows: list[list[tuple[float, float]]], spans: list[tuple[float, float]], g: Gutter) -> frozenset[int]:
    """Rows with text on one side of gutter ``g`` only, set off from the rows above and below by more than
    1.5 times the median line pitch, while the other side has split-row text both above and below: a heading
    between two blocks of columns ("PART 2 - ..." over the next block), not a line of one column."""
    text_rows = [i for i, r in enumerate(rows) if r]
    tops = [spans[i][0] for i in text_rows]
    pitches = sorted(b - a for a, b in zip(tops, tops[1:]) if b > a)
    if not pitches:
        return frozenset()
    gap = 1.5 * pitches[len(pitches) // 2]
    out = set()
    for k, i in enumerate(text_rows[1:-1], start=1):
        left = all(x1 <= g.x for _, x1 in rows[i])
        right = all(x0 >= g.x for x0, _ in rows[i])
        if not (left or right) or i in g.split:
            continue
        if tops[k] - tops[k - 1] <= gap or tops[k + 1] - tops[k] <= gap:
            continue

        other = [j for j in g.split if any((x0 >= g.x) if left else (x1 <= g.x) for x0, x1 in rows[j])]
        if other and min(other) < i < max(other):
            out.add(i)
    return frozenset(out)


def _find_gutter(rows: list[list[tuple[float, float]]], cw: float, min_gap: float, _depth: int) -> Gutter | None:
    """:func:`find_gutter` with gaps of at least ``min_gap`` (``cw``: the typical character width)."""
    text_rows = [i for i, r in enumerate(rows) if r]
    segs: dict[int, list[tuple[float, float]]] = {}
    for i in text_rows:
        merged: list[list[float]] = []
        for x0, x1 in rows[i]:
            if merged and x0 - merged[-1][1] < min_gap:
                merged[-1][1] = max(merged[-1][1], x1)
            else:
                merged.append([x0, x1])
        segs[i] = [(a, b) for a, b in merged]
    left = min(s[0][0] for s in segs.values())
    right = max(s[-1][1] for s in segs.values())
    width = right - left
    if width <= 4 * min_gap:
        return None
    lo_x, hi_x = left + 0.2 * width, left + 0.8 * width
    gaps = [(a[1], b[0]) for ss in segs.values() for a, b in zip(ss, ss[1:]) if a[1] < hi_x and b[0] > lo_x]
    multi = sorted(i for i, ss in segs.items() if len(ss) > 1)
    if len(multi) < max(3, MAYBE_SPLIT_SHARE * len(text_rows)) and not (_depth <= 1 and _block_starts(multi, text_rows)):
        return None  # fast path: a one-column page has (almost) no wide gaps (a short column's are its first rows)

    def classify(x: float) -> tuple[set[int], set[int]]:
        split, cross = set(), set()
        for i, ss in segs.items():
            if any(a < x < b for a, b in ss):
                cross.add(i)
            elif ss[0][0] < x < ss[-1][1]:
                split.add(i)
        return split, cross

    best: tuple[float, float, set[int], set[int]] | None = None  # (score, x, split, cross)
    run: list[float] = []
    x = lo_x
    while x <= hi_x:
        if not any(g0 < x < g1 for g0, g1 in gaps):
            x += 1.0
            continue
        split, cross = classify(x)
        score = len(split) - 3 * len(cross)
        if best is None or score > best[0]:
            best, run = (score, x, split, cross), [x]
        elif score == best[0] and run and x - run[-1] <= 1.01:
            run.append(x)
        x += 1.0
    if best is None or not best[2]:
        return None
    _, _, split, cross = best
    gx0, gx1 = run[0], run[-1]
    gx = (gx0 + gx1) / 2
    share = len(split) / len(text_rows)

    def short() -> Gutter | None:  # too few rows, or too short, for columns: a column beside a short last one?
        why = _short_column(segs, split, text_rows, gx, cw) if _depth <= 1 and not cross else None
        return None if why is None else Gutter(gx0, gx1, frozenset(split), frozenset(), False, why)

    if share < MAYBE_SPLIT_SHARE or len(split) < 3:
        return short()
    # running text on both sides: the parts next to the gutter fill their column, or the side is
    # itself set in columns (three columns: the side of two has a gutter of its own)
    # (a column's width runs from its outer edge to the gutter's near edge, not to the gutter's middle;
    # and a gutter is narrower than the wider of its columns: short cells far apart are a table or a
    # signature block)
    if gx1 - gx0 > max(gx0 - left, right - gx1):
        return None
    lfill = sorted(sum(b - a for a, b in segs[i] if b <= gx) / max(gx0 - left, 1.0) for i in split)
    rfill = sorted(sum(b - a for a, b in segs[i] if a >= gx) / max(right - gx1, 1.0) for i in split)

    def columns_inside(keep: Callable[[tuple[float, float]], bool]) -> bool:
        if _depth >= 2:
            return False
        side = [[bx for bx in rows[i] if keep(bx)] if i in split else [] for i in text_rows]  # not headings
        inner = find_gutter(side, char_width=cw, _depth=_depth + 1)
        return inner is not None and bool(inner.split)

    for fill, keep, other in ((lfill, lambda bx: bx[1] <= gx, rfill), (rfill, lambda bx: bx[0] >= gx, lfill)):
        if fill[len(fill) // 2] < MIN_COLUMN_FILL and not columns_inside(keep):
            if (_depth == 0 and share >= WIDE_BESIDE_SHORT_SHARE and len(split) >= 10
                    and other[len(other) // 2] >= WIDE_COLUMN_FILL):
                # nearly every row has running text filling one side and short text on the other: a wide
                # column beside narrow ones too short to tell apart (3:1:1 with a 1-2-line column), not
                # a table (on the 31 real PDFs no page has this): read row by row, but warn
                return Gutter(gx0, gx1, frozenset(), frozenset(cross), False,
                              f"{len(split)} of {len(text_rows)} rows have short text beside a gap at x≈{gx:.0f}")
            return short()
    if share < MIN_SPLIT_SHARE:
        return short() or Gutter(gx0, gx1, frozenset(), frozenset(cross), False,
                                 f"{len(split)} of {len(text_rows)} rows have a gap at x≈{gx:.0f}")
    if cross:  # a row of a column that comes within a wide gap of the next one is no heading
        split, cross = _narrow_inside(rows, split, cross, gx, cw)
    lo, hi = min(split), max(split)
    inside = [i for i in cross if lo < i < hi]
    between = [i for i in text_rows if lo <= i <= hi]
    certain = len(inside) <= 0.1 * len(between) and share >= 0.4
    why = "" if certain else (f"{len(inside)} row(s) run across the gap inside the columns" if inside
                              else f"only {len(split)} of {len(text_rows)} rows have text on both sides")
    return Gutter(gx0, gx1, frozenset(split), frozenset(cross), certain, why)


#: A gap a row leaves at the gutter is still a gap between columns when it is this many typical character widths
#: wide (a 10 pt gutter beside full lines of 11 pt Courier), though narrower than the gutter search's.
NARROW_GAP_CHARS = 1.5


def _narrow_inside(rows: list[list[tuple[float, float]]], split: set[int], cross: set[int], x: float,
                   cw: float) -> tuple[set[int], set[int]]:
    """``(split, cross)`` with the rows inside the column block (between the first and last split row) that run
    across ``x`` only because their gap there is narrower than the search's moved to ``split``: a gap of at least
    :data:`NARROW_GAP_CHARS` character widths at ``x`` with text on both sides (a line of the left column that comes
    close to the right one; reading it whole cut the block in two). A heading across the block has no such gap."""
    lo, hi = min(split), max(split)
    gap = max(NARROW_GAP_CHARS * cw, 6.0)
    moved = set()
    for i in cross:
        if not lo < i < hi:
            continue
        left = [b for a, b in rows[i] if b <= x]
        right = [a for a, b in rows[i] if a >= x]
        if left and right and min(right) - max(left) >= gap and not any(a < x < b for a, b in rows[i]):
            moved.add(i)
    return split | moved, cross - moved


def _block_starts(rows: Iterable[int], text_rows: list[int]) -> bool:
    """Whether ``rows`` are, in each block of ``text_rows`` (a run of consecutive row numbers: a heading read
    whole, left out of a side, ends one), the block's first rows, one after another."""
    chosen = set(rows)
    inside = True  # still in the run of chosen rows that starts the block
    for k, i in enumerate(text_rows):
        if k and i != text_rows[k - 1] + 1:
            inside = True
        if i in chosen and not inside:
            return False
        inside = inside and i in chosen
    return bool(chosen)


def _short_column(segs: dict[int, list[tuple[float, float]]], split: set[int], text_rows: list[int], x: float,
                  cw: float) -> str | None:
    """Why a region is a column beside a short last one (the caller reads it in columns, and warns), or ``None``:
    the rows split by the gap at ``x`` are the region's first rows, one after another (a column starts at the top
    of its block; a 3:1:1 page's last column may hold one or two lines of the clause broken across it), no row runs
    across the gap, no other row has text beyond it, and the split rows' right parts start at one edge (within two
    character widths). A table or a signature block with a cell beyond the others' right edge in its first rows
    only is read this way too, but is warned. Asked of a region the caller reads (depth 0) and of a side whose
    columns the fill check looks for (depth 1: a 3-column side whose last column is short in its first block).
    No real PDF page of the 31 (371 pages) changes (``benchmarks/robustness_real_layout.py``)."""
    n = len(split)
    if not n or not _block_starts(split, text_rows):
        return None
    if any(ss[-1][1] > x for i, ss in segs.items() if i not in split):
        return None
    starts = [min(a for a, _ in segs[i] if a >= x) for i in split]
    if max(starts) - min(starts) > 2 * cw:
        return None
    return f"a column of {n} line(s) beside the one at its left, split at x≈{x:.0f}"


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
