"""Table-of-contents matter in a contract's text: contents lines (dot leaders, a page number after a run of spaces, or a page of
entries run into one line) and passages made of them. Pure functions, split from :mod:`clauselens.parsing.tree`, which opens
no clause in a contents line; the grid never quotes a contents passage as a clause's evidence."""

from __future__ import annotations

import re

#: A table-of-contents line ("Article 1   Definitions . . . . . 1") is not a heading: dot leaders
#: (a two-column contents line can be long), or a page number after a run of spaces ...
_TOC_DOTS = re.compile(r"(?:\.\s?){4,}\s*\d*\s*$")
_TOC_PAGE = re.compile(r"\s{3,}\d{1,3}\s*$")
#: ... in a line of at most this many characters: a clause's first line that ends in a page number
#: ("7. Resignation and Removal of the Remarketing Agents. A Remarketing Agent may resign ... shall
#: have entered into a   28", 659 characters, in CUAD's MetLife remarketing agreement, whose EDGAR
#: text keeps page numbers at line ends) is no contents entry; read as one, its clause number was lost
#: (48 of the 462 CUAD texts of the LegalBench-RAG corpus have lines over this length that open with a
#: clause marker and end so, 510 lines in all).
TOC_MAX_CHARS = 160
#: ... or a page of contents run into one line with single spaces ("19.3 Review of Agreement 38 19.4 Attorneys' Fees 38 19.5
#: Atypical Arrangements 38 ..."): an entry's title, its page number and the next entry's number, :data:`TOC_RUN_ENTRIES` times.
TOC_RUN = re.compile(r"[A-Za-z)'’]\s+\d{1,3}\s+(?:(?:ARTICLE|Article|SECTION|Section)\s+)?\d{1,2}(?:\.\d{1,2})*\.?\s+[A-Z]")
TOC_RUN_ENTRIES = 3


def toc_line(line: str) -> bool:
    """Whether ``line`` is a table-of-contents entry or a run of them (:data:`_TOC_DOTS`, :data:`_TOC_PAGE`, :data:`TOC_RUN`)."""
    return (_TOC_DOTS.search(line) is not None or (len(line) <= TOC_MAX_CHARS and _TOC_PAGE.search(line) is not None)
            or len(TOC_RUN.findall(line)) >= TOC_RUN_ENTRIES)


_OPERATIVE_WORDS = re.compile(r"\b(?:shall|hereby|agrees?|by\s+and\s+between|is\s+made|entered\s+into)\b", re.IGNORECASE)


def is_contents(text: str) -> bool:
    """Whether ``text`` (a passage) is table-of-contents matter: a run of :data:`TOC_RUN_ENTRIES` entries or more, or three
    or more contents lines (:func:`toc_line`) making up at least half of its lines -- and no operative words (a passage that
    runs on from the contents into the preamble, "... 31. Counterparts 11 ... THIS ENDORSEMENT AGREEMENT ... by and between
    ...", is not contents). A contents page names clauses it does not state, so it is never a clause's evidence."""
    if _OPERATIVE_WORDS.search(text):
        return False
    if len(TOC_RUN.findall(" ".join(text.split()))) >= TOC_RUN_ENTRIES:
        return True
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    toc = sum(toc_line(ln) for ln in lines)
    return toc >= 3 and 2 * toc >= len(lines)


__all__ = ["TOC_MAX_CHARS", "TOC_RUN", "TOC_RUN_ENTRIES", "is_contents", "toc_line"]
