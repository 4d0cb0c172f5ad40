"""The clause tree: nodes with normalised references, headings, paths and exact spans.

Deterministic and line-based. Each line that starts with a clause marker
(:mod:`clauselens.parsing.numbering`) opens a node; nodes nest by scheme and numbering
continuity (``5.17`` under ``5``, ``(b)`` under the clause it follows, a new ``(a)`` list
under the current item, a repeated scheme closes back to its sibling). A marker that breaks
numbering continuity and does not start a block (previous line neither blank nor ending a
sentence) is taken for wrapped text, not a heading. Text with fewer than
:data:`MIN_STRUCTURE` markers falls back to size-bounded paragraph nodes
(``structured=False``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from clauselens.parsing.contents import TOC_RUN, TOC_RUN_ENTRIES, toc_line
from clauselens.parsing.numbering import Marker, alpha_value, is_caps_heading, match_marker, paren_candidates, split_heading
from clauselens.parsing.types import Node, NodeKind, Span

#: Fewer numbered nodes than this → paragraph fallback (unless they cover >= 80 % of the text).
MIN_STRUCTURE = 3
#: Paragraph-fallback node size bound (characters).
FALLBACK_MAX_CHARS = 1500



@dataclass
class _Open:
    """A node on the nesting stack."""

    idx: int  # index in the draft list
    scheme: str  # article | num | top | recital | signature | caps | alpha | roman | ...
    value: tuple[float, ...] | int
    ref: str | None


@dataclass
class _Draft:
    start: int
    kind: NodeKind
    ref: str | None
    heading: str | None
    parent: int  # draft index, -1 = root
    heading_end: int  # end of the marker line
    children: list[int] = field(default_factory=list)


#: Inside a line, a run of 3+ spaces before a marker acts as a line break: CUAD/EDGAR text
#: often packs "4. Reserved.   5. Certain Agreements …" or "…Entities.   (a) …" on one line.
_SOFT_BREAK = re.compile(
    r"(?<=\S)[ \t]{3,}(?=(?:\((?:[a-zA-Z]{1,2}|[ivxlcdmIVXLCDM]{1,7}|\d{1,3})\)|\d{1,3}(?:\.\d{1,3})*\.?\s"
    r"|\d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]?)*\.?\s+[A-Z]|(?:ARTICLE|Article|SECTION|Section)\s+[\dIVXL]|WHEREAS\b|IN\s+WITNESS\b)\S*)"
)


#: After a sentence end, a clause marker starts a new segment even mid-line (strict
#: continuity applies to such inline markers): EDGAR text often runs a whole page on one
#: line, "… of this Agreement. 2.1. Definition of Confidential Information. …".
_INLINE_BREAK = re.compile(
    r"(?<=[A-Z]{3})[ \t]{1,2}(?=\d{1,3}(?:\.\d{1,3})+\.?[ \t]+[\"“(]?[A-Z])"  # "6. REMUNERATION 6.1 The …"
    r"|(?<=[.:;])[ \t]{1,2}(?=(?:\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.)[ \t]+[\"“(]?[A-Z]"
    r"|\((?:[a-z]{1,2}|[ivx]{1,6}|[A-Z]|\d{1,2})\)[ \t]+\S"
    r"|(?:ARTICLE|Article|SECTION|Section)[ \t]+[\dIVX]+\.?[ \t]+[A-Z])"
)


#: After a sentence end, an unpunctuated number, its title-case heading and that number's first clause: EDGAR
#: text such as "... at Delivery. 5 Term and Termination 5.1 The Agreement shall ..." (CUAD's Kitov manufacturing
#: agreement, where clauses 5.1-5.3 were read as items of 4.6). Both the number and the first clause start a
#: segment (inline: strict continuity applies).
_INLINE_ARTICLE = re.compile(
    r"(?<=[.:;])[ \t]{1,2}(?P<n>\d{1,3})[ \t]+[A-Z][A-Za-z]+(?:[;,]?[ \t]+(?:and|of|or|the|to|for|&|[A-Z][A-Za-z]+)){0,6}"
    r"[ \t]+(?=(?P=n)\.1\.?[ \t]+[\"“(]?[A-Z])"
)


#: Mid-line after a word, not a sentence end: a clause number, its short title-case heading and the heading's full stop
#: ("... ATTN: Tim Orr 5. Entire Agreement. A. Amendment ...": CUAD's Gridiron supply agreement, whose clause 5 --
#: governing law among it -- was read as part of 4. Notices, a new user's tryout). Inline: strict continuity applies,
#: so only the next number of the list opens a clause ("... clauses 4 and 5. The Company ..." has no full stop after
#: its would-be heading).
_INLINE_HEADED = re.compile(
    r"(?<=[A-Za-z0-9)])[ \t]{1,2}(?=\d{1,3}\.[ \t]+[A-Z][A-Za-z]+(?:[ \t]+(?:and|of|or|the|to|for|&|[A-Z][A-Za-z]+)){0,4}"
    r"\.[ \t]+[\"“(]?[A-Z])"
)


#: The inline state of a :data:`_INLINE_HEADED` segment: it opens a clause only as the very next top-level number.
NEXT_ONLY = "next"

#: After a sentence end, a capital letter item with its short title-case heading and the heading's full stop: the
#: lettered items of a clause run on one line ("5. Entire Agreement. A. Amendment, Waiver, Assignment. This ... B.
#: Governing Law. This Agreement ...": CUAD's Gridiron supply agreement, whose governing law could only be cited as the
#: whole of clause 5, a new user's tryout).
_INLINE_ITEM = re.compile(
    r"(?<=[.:;])[ \t]{1,2}(?=[A-Z]\.[ \t]+[A-Z][A-Za-z]+(?:,?[ \t]+(?:and|of|or|the|to|for|in|on|&|[A-Z][A-Za-z]+)){0,5}"
    r"\.[ \t]+[\"“(]?[A-Z])"
)

#: The inline state of an :data:`_INLINE_ITEM` segment: it opens a lettered item only as "A." (a new list inside the
#: open clause) or as the next letter of the open list.
ITEM_ONLY = "item"
_LABEL_WORD_BEFORE = re.compile(r"(?i)\b(?:section|article|clause|paragraph|schedule|exhibit|annex|appendix|part|§)$")


#: A page of contents in one line (:data:`clauselens.parsing.contents.TOC_RUN`; switched off by ``benchmarks.parse_census``).
_TOC_RUN = TOC_RUN


def _lines(text: str):
    """(start offset of the left-stripped segment, stripped segment, end offset, inline) for
    every line; lines are split further at :data:`_SOFT_BREAK` (inline=False),
    :data:`_INLINE_BREAK` (inline=True) and :data:`_INLINE_HEADED` (inline=:data:`NEXT_ONLY`)."""
    pos = 0
    for raw in text.split("\n"):
        if not raw.strip():
            yield pos, "", pos, False
            pos += len(raw) + 1
            continue
        if len(_TOC_RUN.findall(raw)) >= TOC_RUN_ENTRIES:  # a page of contents in one line: one segment, no clause in it
            stripped = raw.lstrip()
            yield pos + len(raw) - len(stripped), stripped.rstrip(), pos + len(raw.rstrip()), False
            pos += len(raw) + 1
            continue
        cuts: dict[int, bool | str] = {0: False, len(raw): False}
        for m in _SOFT_BREAK.finditer(raw):
            cuts[m.end()] = False
        for m in _INLINE_BREAK.finditer(raw):
            cuts.setdefault(m.end(), True)
        for m in _INLINE_HEADED.finditer(raw):
            if not _LABEL_WORD_BEFORE.search(raw, max(0, m.start() - 12), m.start()):  # "SECTION 1.": the marker's word
                cuts.setdefault(m.end(), NEXT_ONLY)
        for m in _INLINE_ITEM.finditer(raw):
            cuts.setdefault(m.end(), ITEM_ONLY)
        for m in _INLINE_ARTICLE.finditer(raw):
            cuts.setdefault(m.start("n"), True)
            cuts.setdefault(m.end(), True)
        keys = sorted(cuts)
        for a, b in zip(keys, keys[1:]):
            seg = raw[a:b]
            stripped = seg.lstrip().lstrip("\ufeff").lstrip()
            lead = len(seg) - len(stripped)
            if stripped:
                yield pos + a + lead, stripped.rstrip(), pos + a + len(seg.rstrip()), cuts[a]
        pos += len(raw) + 1


_NUM_KIND: dict[int, NodeKind] = {1: "section", 2: "clause"}

#: The node kind of a ``top`` marker's word.
_TOP_KIND: dict[str, NodeKind] = {"Schedule": "schedule", "Exhibit": "exhibit", "Annex": "annex", "Appendix": "annex"}


def _num_kind(depth: int) -> NodeKind:
    return _NUM_KIND.get(depth, "subclause")


def _ref_of(drafts: list[_Draft], parent: int) -> str | None:
    while parent >= 0:
        r = drafts[parent].ref
        if r and drafts[parent].kind not in ("recital", "signature", "heading"):
            return r
        parent = drafts[parent].parent
    return None


class _Builder:
    def __init__(self, text: str) -> None:
        self.text = text
        self.drafts: list[_Draft] = []
        self.stack: list[_Open] = []
        self.seen_numbered = False
        self.last_num: tuple[float, ...] | None = None
        self.last_article: int | tuple[float, ...] | None = None

    # -- helpers -----------------------------------------------------------------
    def _find(self, scheme: str) -> int | None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].scheme == scheme:
                return i
        return None

    def _parent_idx(self) -> int:
        return self.stack[-1].idx if self.stack else -1

    def _open(self, start: int, end: int, kind: NodeKind, ref: str | None, heading: str | None, scheme: str,
              value: tuple[float, ...] | int) -> None:
        d = _Draft(start, kind, ref, heading, self._parent_idx(), end)
        self.drafts.append(d)
        self.stack.append(_Open(len(self.drafts) - 1, scheme, value, ref))

    # -- continuity --------------------------------------------------------------
    def _num_continuous(self, t: tuple[float, ...]) -> bool:
        """Is ``t`` a plausible next number after the last accepted one (next sibling, first
        child, next item of an ancestor level, a gap of up to 3 allowed), or a restart at 1?"""
        last = self.last_num
        if last is None:
            return t[-1] <= 2
        for k in range(1, min(len(t), len(last)) + 1):
            if t[: k - 1] == last[: k - 1] and last[k - 1] < t[k - 1] <= last[k - 1] + 3 and all(x <= 1 for x in t[k:]):
                return True
        if len(t) > len(last) and t[: len(last)] == last and all(x <= 2 for x in t[len(last):]):
            return True
        return t == (1,) or t == (1, 1)

    # -- placement ---------------------------------------------------------------
    def add_root_level(self, start: int, end: int, kind: NodeKind, ref: str | None, heading: str | None, scheme: str,
                       value: tuple[float, ...] | int) -> None:
        self.stack.clear()
        self._open(start, end, kind, ref, heading, scheme, value)

    def add_num(self, start: int, end: int, m: Marker, heading: str | None) -> None:
        t = m.value
        assert isinstance(t, tuple)
        while self.stack:
            o = self.stack[-1]
            if o.scheme in ("article", "top") or (o.scheme == "caps" and _heads(o.value, t, heading)):
                break
            if o.scheme == "num" and isinstance(o.value, tuple) and len(o.value) < len(t) and t[: len(o.value)] == o.value:
                break
            self.stack.pop()
        # the number as printed ("Section 1.01" is 1.01, not 1.1; ``num_value`` still orders it)
        self._open(start, end, _num_kind(len(t)), m.label, heading, "num", t)
        self.seen_numbered = True
        self.last_num = t

    def add_paren(self, start: int, end: int, scheme: str, value: int, label: str, heading: str | None) -> None:
        i = self._find(scheme)
        if i is not None:
            del self.stack[i:]
        else:
            while self.stack and self.stack[-1].scheme == "caps":
                self.stack.pop()
        base = _ref_of(self.drafts, self._parent_idx())
        ref = f"{base or ''}({label})"
        self._open(start, end, "subclause", ref, heading, scheme, value)
        self.seen_numbered = True

    def add_caps(self, start: int, end: int, heading: str, first: tuple[float, ...] | None = None) -> None:
        """An unnumbered capitals heading (issue #41 item 5): the heading of what follows it. With
        ``first``, the number of the clause that follows, it sits where that clause would (under
        the clause whose sub-clauses it heads: "5.1 ... NOTICES 5.2 ..." puts NOTICES under 5) and
        heads the clauses of that level after it, until a clause of a higher level; without, it
        heads everything up to the next heading or article."""
        while self.stack and self.stack[-1].scheme not in ("article", "top"):
            o = self.stack[-1]
            if first is not None and o.scheme == "num" and isinstance(o.value, tuple) and len(o.value) < len(first) \
                    and first[: len(o.value)] == o.value:
                break
            self.stack.pop()
        self._open(start, end, "heading", None, heading, "caps", first if first is not None else 0)

    def paren_reading(self, label: str) -> tuple[str, int] | None:
        """Pick the scheme of ``(label)`` by continuity with open lists."""
        cands = paren_candidates(label)
        if not cands:
            return None
        for scheme, v in cands:  # continues an open list?
            i = self._find(scheme)
            if i is not None and self.stack[i].value == v - 1:
                return scheme, v
        for scheme, v in cands:  # starts a new list?
            if v == 1:
                return scheme, v
        for scheme, v in cands:  # skips an item of an open list
            i = self._find(scheme)
            if i is None:
                continue
            cur = self.stack[i].value
            if isinstance(cur, int) and cur < v <= cur + 3:
                return scheme, v
        return None


def _heads(caps: tuple[float, ...] | int, t: tuple[float, ...], heading: str | None = None) -> bool:
    """Does a capitals heading whose first clause was numbered ``caps`` (0: not known) head clause
    ``t`` (with ``heading``): a clause of the same level under the same parent, or deeper -- but not
    a clause of its level with a capitals heading of its own ("3. GENERAL": a heading's peer)?"""
    if not isinstance(caps, tuple):
        return True
    if len(t) == len(caps) and t != caps and heading and is_caps_heading(heading):
        return False
    return len(t) >= len(caps) and t[: len(caps) - 1] == caps[: len(caps) - 1]


def _next_number(lines, li: int) -> tuple[float, ...] | None:
    """The number of the next numbered clause within a few lines after line ``li`` (a capitals
    heading), None when another heading or a non-numbered marker comes first."""
    seen = 0
    for j in range(li + 1, len(lines)):
        t = lines[j][1]
        if not t:
            continue
        seen += 1
        if seen > 6:
            return None
        m = None if toc_line(t) else match_marker(t)
        if m is not None:
            return m.value if m.scheme == "num" and isinstance(m.value, tuple) else None
        if is_caps_heading(t):
            return None
    return None


def _block_start(prev_line: str | None) -> bool:
    """Does a line after ``prev_line`` start a block: previous line blank, ending a
    sentence, a capitals heading, or a short (<= 60 chars) heading-like line."""
    if prev_line is None or prev_line == "":
        return True
    return bool(re.search(r"[.:;!?\"”)]$", prev_line)) or is_caps_heading(prev_line) or (len(prev_line) <= 60 and prev_line[:1].isupper())


def build_tree(text: str) -> tuple[list[Node], bool]:
    """Build the clause tree of ``text``.

    Returns:
        (nodes in document order with ``nodes[0]`` the root, structured). Every node's
        ``span`` covers it and its descendants, ``body_span`` its own text up to its first
        child; both are right-stripped of whitespace. ``page_start``/``page_end`` are left
        for the caller (it knows the pages). Nodes cover all non-whitespace text: text
        before the first marker becomes a ``preamble`` node.
    """
    b = _Builder(text)
    lines = list(_lines(text))
    prev: str | None = None
    consumed: set[int] = set()
    title: tuple[int, str] | None = None  # a stand-alone Title-Case line just before
    for li, (start, line, end, inline) in enumerate(lines):
        if li in consumed:
            continue
        if not line:
            prev = ""
            continue
        m = None if toc_line(line) else match_marker(line)
        handled = False
        if m is not None:
            n_before = len(b.drafts)
            handled = _place(b, m, start, end, li, lines, prev, consumed, inline)
            if handled and title and len(b.drafts) > n_before and b.drafts[-1].heading is None and m.scheme in ("num", "paren"):
                b.drafts[-1].heading = title[1]  # "Notices\n\n4.1 Any notice…": the line is 4.1's heading
                b.drafts[-1].start = title[0]
        title = None
        if m is None and not inline and prev == "" and _standalone_title(line) and (li + 1 >= len(lines) or not lines[li + 1][1]):
            title = (start, line.strip())
        in_signature = bool(b.stack) and b.stack[0].scheme == "signature"
        # a capitals heading only once a clause was seen: before the first clause such lines are front
        # matter far more often than headings (on the 462 CUAD texts, 27 would have become headings of
        # clause 1: "TABLE OF CONTENTS", "AGREEMENT", "THE PARTIES HEREBY AGREE AS FOLLOWS", ...)
        if not handled and not inline and m is None and b.seen_numbered and not in_signature and is_caps_heading(line) \
                and _block_start(prev):
            nxt = _next_nonblank(lines, li)
            if nxt is None or not re.match(r"^(?:By|Name|Title|Signature|Per)\b\s*:?", nxt[1]):
                b.add_caps(start, end, line.strip().rstrip(".:"), _next_number(lines, li))
        prev = line
    drafts = b.drafts
    numbered = [d for d in drafts if d.kind not in ("recital", "signature", "heading")]
    covered = len(text[numbered[0].start:].strip()) / max(len(text.strip()), 1) if numbered else 0.0
    if len(numbered) < MIN_STRUCTURE and not (numbered and covered >= 0.8):
        return _fallback(text), False
    return _finish(text, drafts), True


#: An EDGAR filing's page line ("Source: SOUPMAN, INC., 8-K, 8/14/2015"): the filing's furniture, no clause's heading.
_FILING_LINE = re.compile(r"Source:\s")


def _standalone_title(line: str) -> bool:
    """A short (<= 60 chars) Title-Case line without closing punctuation, e.g. "Time of
    Essence" (not all capitals: those are :func:`is_caps_heading` nodes)."""
    s = line.strip()
    if not (3 <= len(s) <= 60) or re.search(r"[.,;:]$", s) or is_caps_heading(s) or not s[:1].isupper() or _FILING_LINE.match(s):
        return False
    words = re.findall(r"[A-Za-z']+", s)
    big = [w for w in words if len(w) >= 4]
    return bool(big) and all(w[0].isupper() for w in big) and len(words) <= 8


def _next_nonblank(lines, li: int):
    for j in range(li + 1, min(li + 4, len(lines))):
        if lines[j][3]:
            return None
        if lines[j][1]:
            return j, lines[j][1]
    return None


def _take_next_heading(m: Marker, lines, li: int, consumed: set[int]) -> str | None:
    """For a marker alone on its line (``ARTICLE V``), use the next short line as heading."""
    if m.rest:
        return None
    nxt = _next_nonblank(lines, li)
    if nxt is None:
        return None
    j, t = nxt
    if len(t) <= 80 and match_marker(t) is None and not _FILING_LINE.match(t) and (is_caps_heading(t) or not t.endswith((".", ",", ";"))):
        consumed.add(j)
        return t.strip().rstrip(".:")
    return None


def _place(b: _Builder, m: Marker, start: int, end: int, li: int, lines, prev: str | None, consumed: set[int],
           inline: bool | str = False) -> bool:
    """Open a node for marker ``m`` if it passes the continuity/block rules; ``inline``
    markers (mid-line, after a sentence end) need strict numbering continuity, and :data:`NEXT_ONLY` ones (after a
    word) the next top-level number exactly."""
    if inline == NEXT_ONLY and not (m.scheme == "num" and isinstance(m.value, tuple) and len(m.value) == 1
                                    and b.last_num is not None and m.value[0] == b.last_num[0] + 1):
        return False
    if inline == ITEM_ONLY:
        return _place_inline_item(b, m, start, end)
    block = _block_start(prev)
    if inline and m.scheme in ("top", "recital", "signature"):
        return False
    if m.scheme == "recital":
        b.add_root_level(start, end, "recital", None, None, "recital", 0)
        return True
    if m.scheme == "signature":
        b.add_root_level(start, end, "signature", None, None, "signature", 0)
        return True
    if m.scheme == "article":
        if inline and not (m.value == 1 or (isinstance(b.last_article, int) and m.value == b.last_article + 1)):
            return False
        if not (block or m.rest == "" or m.rest.isupper()):
            return False
        heading = split_heading(m.rest) or _take_next_heading(m, lines, li, consumed)
        b.add_root_level(start, end, "article", f"{m.word} {m.label}", heading, "article", m.value)
        b.last_article = m.value
        b.seen_numbered = True
        return True
    if m.scheme == "top":
        if not b.seen_numbered or not block or (m.rest[:1].islower()) or len(m.rest) > 100:
            return False
        kind = _TOP_KIND[m.word]
        heading = split_heading(m.rest) or _take_next_heading(m, lines, li, consumed)
        b.add_root_level(start, end, kind, f"{m.word} {m.label}", heading, "top", 0)
        return True
    if m.scheme == "num":
        t = m.value
        assert isinstance(t, tuple)
        if t[0] > 300:
            return False
        continuous = b._num_continuous(t)
        if inline and not (continuous and (b.last_num is not None or t[-1] == 1)):
            return False
        heading_like = m.rest == "" or m.rest[:1].isupper() or m.rest[:1] in "(\"“'"
        if not continuous and not (block and heading_like):
            return False
        if m.explicit and (m.rest[:1].islower() or (not block and not continuous)):
            return False  # "Section 2.2 of this Agreement" wrapped to a line start
        heading = split_heading(m.rest) or _take_next_heading(m, lines, li, consumed)
        b.add_num(start, end, m, heading)
        return True
    if m.scheme == "dotalpha":
        # "A." / "a." items: their own lists (not merged with "(a)" lists), only at a block start, a
        # list opened by its first letter and continued letter by letter (a gap of up to 3)
        scheme, v = ("ALPHAdot" if m.label.isupper() else "alphadot"), alpha_value(m.label) or 0
        i = b._find(scheme)
        cur = b.stack[i].value if i is not None else None
        if inline or not block or not (v == 1 or (isinstance(cur, int) and cur < v <= cur + 3)):
            return False
        b.add_paren(start, end, scheme, v, m.label, split_heading(m.rest))
        return True
    if m.scheme == "paren":
        if m.word and (b.last_num is None or int(b.last_num[0]) != int(m.word)):
            return False  # "7(a)" outside clause 7
        reading = b.paren_reading(m.label)
        if reading is None:
            return False
        scheme, v = reading
        if inline and v != 1 and b._find(scheme) is None:
            return False
        if v != 1 and b._find(scheme) is None and not block:
            return False
        # a printed clause number ("7(a) ...", checked above against the open clause) opens a list anywhere
        if v == 1 and not block and b._find(scheme) is None and prev and not prev.endswith(":") and not m.word:
            return False
        b.add_paren(start, end, scheme, v, m.label, split_heading(m.rest))
        return True
    return False


def _place_inline_item(b: _Builder, m: Marker, start: int, end: int) -> bool:
    """An :data:`ITEM_ONLY` segment's "A." / "B." item: a capital letter inside an open numbered clause, opening its list
    ("A.") or the next letter of it, with a heading of its own."""
    if m.scheme != "dotalpha" or not m.label.isupper() or b.last_num is None:
        return False
    v = alpha_value(m.label) or 0
    i = b._find("ALPHAdot")
    cur = b.stack[i].value if i is not None else None
    heading = split_heading(m.rest)
    if heading is None or not (v == 1 or (isinstance(cur, int) and v == cur + 1)):
        return False
    b.add_paren(start, end, "ALPHAdot", v, m.label, heading)
    return True


def _rstrip_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _finish(text: str, drafts: list[_Draft]) -> list[Node]:
    n = len(drafts)
    depth = [0] * n
    for i, d in enumerate(drafts):
        depth[i] = 1 if d.parent < 0 else depth[d.parent] + 1
    ends = [len(text)] * n  # a node ends where the next node at its depth or shallower starts
    open_: list[int] = []
    for j in range(n):
        while open_ and depth[open_[-1]] >= depth[j]:
            ends[open_.pop()] = drafts[j].start
        open_.append(j)
    kids: dict[int, list[int]] = {}
    for j, d in enumerate(drafts):
        kids.setdefault(d.parent, []).append(j)
    nodes: list[Node] = []
    first = drafts[0].start if drafts else len(text)
    root = Node(id="n0", kind="root", level=0, span=Span(start=0, end=len(text)), body_span=Span(start=0, end=_rstrip_end(text, 0, first)))
    nodes.append(root)
    offset = 1
    pre_end = _rstrip_end(text, 0, first)
    if text[:pre_end].strip():
        pre_start = len(text[:pre_end]) - len(text[:pre_end].lstrip())
        nodes.append(Node(id="n1", kind="preamble", level=1, parent_id="n0", span=Span(start=pre_start, end=pre_end),
                          body_span=Span(start=pre_start, end=pre_end)))
        root.children.append("n1")
        offset = 2
    ids = [f"n{i + offset}" for i in range(n)]
    for i, d in enumerate(drafts):
        end = _rstrip_end(text, d.start, ends[i])
        children = kids.get(i, [])
        body_end = _rstrip_end(text, d.start, drafts[children[0]].start) if children else end
        parent_id = "n0" if d.parent < 0 else ids[d.parent]
        node = Node(
            id=ids[i], kind=d.kind, ref=d.ref, heading=d.heading, level=depth[i], parent_id=parent_id,
            children=[ids[j] for j in children], span=Span(start=d.start, end=end), body_span=Span(start=d.start, end=body_end),
        )
        nodes.append(node)
        if d.parent < 0:
            root.children.append(node.id)
    by_id = {nd.id: nd for nd in nodes}
    for nd in nodes[1:]:
        path: list[str] = []
        p = nd.parent_id
        while p and p != "n0":
            q = by_id[p]
            path.append(q.path_label)  # "Recital", not an id
            p = by_id[p].parent_id
        nd.path = list(reversed(path))
    return nodes


def _fallback(text: str) -> list[Node]:
    """Paragraph nodes of at most :data:`FALLBACK_MAX_CHARS` characters (a paragraph longer
    than that is split at sentence ends, or hard at the bound)."""
    paras: list[tuple[int, int]] = []
    for m in re.finditer(r"\S(?:.|\n(?!\s*\n))*", text):
        s, e = m.start(), _rstrip_end(text, m.start(), m.end())
        while e - s > FALLBACK_MAX_CHARS:
            cut = text.rfind(". ", s, s + FALLBACK_MAX_CHARS)
            cut = cut + 1 if cut > s + FALLBACK_MAX_CHARS // 3 else s + FALLBACK_MAX_CHARS
            paras.append((s, _rstrip_end(text, s, cut)))
            s = cut
            while s < e and text[s].isspace():
                s += 1
        if e > s:
            paras.append((s, e))
    groups: list[tuple[int, int]] = []
    for s, e in paras:
        if groups and e - groups[-1][0] <= FALLBACK_MAX_CHARS:
            groups[-1] = (groups[-1][0], e)
        else:
            groups.append((s, e))
    root = Node(id="n0", kind="root", level=0, span=Span(start=0, end=len(text)), body_span=Span(start=0, end=0))
    nodes = [root]
    for i, (s, e) in enumerate(groups, start=1):
        nodes.append(Node(id=f"n{i}", kind="paragraph", level=1, parent_id="n0", span=Span(start=s, end=e), body_span=Span(start=s, end=e)))
        root.children.append(f"n{i}")
    return nodes
