"""Sentence-level spans of a text (pure function, no model).

ContractNLI's own segmentation (Koreeda & Manning, 2021, §3) splits a contract into
sentences and list items; the precedent retriever (:mod:`clauselens.retrieval.precedents`)
matches a contract against labelled ContractNLI spans, so it needs units of the same size.
Rules: a new unit starts at every line break and after ``.``, ``!``, ``?`` or ``;``
followed by white space and an upper-case letter, a digit, a quote or an opening bracket, and
before an inline enumerator (`` (a) ``, `` (ii) ``, `` (3) ``, as ContractNLI does);
common abbreviations (``e.g.``, ``i.e.``, ``Inc.``, ``No.``, ``Sec.`` ...) and enumerators
(``1.``, ``(a)``) do not end a sentence.
"""

from __future__ import annotations

import re

from clauselens.parsing.types import Span

_BOUNDARY = re.compile(r"(?<=[.!?;])[\"'”’)]*\s+(?=[\"“(\[A-Z0-9])"
                       r"|\s+(?=\((?:[a-z]{1,2}|[ivxlc]{1,5}|\d{1,2})\)\s)")
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|Inc|Ltd|Co|Corp|No|Nos|Sec|Secs|Art|Mr|Mrs|Ms|Dr|St|Av|Ave|Avda|Blvd|Bldg|Ste|vs|cf|approx|U\.S|N\.A|S\.A|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)"
    r"|(?:^|\s)(?:\d{1,3}(?:\.\d{1,3})*|[A-Za-z]|[ivxlcIVXLC]{1,5}))\.$")


def sentence_spans(text: str, start: int = 0, end: int | None = None, *, min_chars: int = 3) -> list[Span]:
    """``[start, end)`` spans of the sentences and list items of ``text[start:end]``.

    Offsets are into ``text`` (not the slice); leading/trailing white space is trimmed from
    every span; spans shorter than ``min_chars`` characters are dropped. Returns spans in
    text order, non-overlapping.
    """
    end = len(text) if end is None else end
    out: list[Span] = []
    for m_line in re.finditer(r"[^\n]+", text[start:end]):
        ls = start + m_line.start()
        line = m_line.group()
        cut = 0
        for m in _BOUNDARY.finditer(line):
            head = line[cut:m.start()].rstrip("\"'”’)")
            if _ABBREV.search(head):
                continue
            _emit(text, ls + cut, ls + m.start(), out, min_chars)
            cut = m.end()
        _emit(text, ls + cut, ls + len(line), out, min_chars)
    return out


def _emit(text: str, s: int, e: int, out: list[Span], min_chars: int) -> None:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    if e - s >= min_chars:
        out.append(Span(start=s, end=e))
