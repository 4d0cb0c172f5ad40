"""Document metadata from the opening text: title, parties, effective date, type, amends.

Heuristics over the preamble (pure functions); every field may stay empty when the text
does not say it.
"""

from __future__ import annotations

import re

from clauselens.parsing.numbering import is_caps_heading
from clauselens.parsing.types import Document

_MONTHS = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
DATE_RE = re.compile(
    rf"\b(?:{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTHS},?\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})\b"
)
_EFFECTIVE_RE = re.compile(rf"(?:effective|dated|made|entered\s+into)[^.]{{0,80}}?({DATE_RE.pattern})", re.IGNORECASE)
_TITLE_WORDS = re.compile(r"\b(AGREEMENT|AMENDMENT|CONTRACT|ADDENDUM|LETTER|LEASE|LICEN[CS]E|DEED|MEMORANDUM|TERMS|NDA|SCHEDULE)\b", re.IGNORECASE)
_SEC_LABEL = re.compile(r"^(?:EXHIBIT|Exhibit|EX-)\s*[\d.()A-Za-z-]*\s*$")


def guess_title(text: str) -> str | None:
    """First short line of the first 40 that names a contract type (``... AGREEMENT``),
    SEC exhibit labels (``EXHIBIT 10.28``) skipped; else the first short capitals line."""
    lines = [ln.strip() for ln in text[:6000].split("\n") if ln.strip()][:40]
    for ln in lines:
        if len(ln) <= 120 and not _SEC_LABEL.match(ln) and _TITLE_WORDS.search(ln) and (is_caps_heading(ln) or len(ln) <= 80):
            return " ".join(ln.split())
    for ln in lines:
        if is_caps_heading(ln) and not _SEC_LABEL.match(ln):
            return " ".join(ln.split())
    return None


def guess_doc_type(title: str | None, head: str) -> str:
    """``amendment`` / ``side_letter`` / ``schedule`` / ``agreement`` from the title (and
    the opening text for side letters)."""
    t = (title or "").lower()
    if "amendment" in t or re.search(r"\bamendment\s+no\.?\s*\d|\bamendment\s+#\d", head[:600], re.IGNORECASE):
        return "amendment"
    if "side letter" in t or "letter agreement" in t or re.search(r"\bside\s+letter\b", head[:1500], re.IGNORECASE):
        return "side_letter"
    if t.startswith(("schedule", "exhibit", "annex", "appendix")):
        return "schedule"
    return "agreement"


_DEF_PAREN = re.compile(r"\(\s*(?:the\s+|hereinafter[^\"“)]*?)?[\"“][^\"”]+[\"”][^)]{0,40}\)")
_NAME = re.compile(
    r"^(?:and\s+|AND\s+|&\s+)?([A-Z0-9][\w&.'’\- ]*?(?:,?\s*(?:Inc|INC|LLC|L\.L\.C|Ltd|LTD|Limited|LIMITED|Corp|CORP|Corporation|CORPORATION|LP|L\.P|N\.A|S\.A|plc|PLC|GmbH|AG|B\.V)\.?)?)(?=\s*,|\s*$|\s+\(|\s+a\s|\s+an\s)"
)


def guess_parties(head: str) -> list[str]:
    """Names defined in the first ``between … and …`` paragraph: each text run that ends in
    a defining parenthesis (``Acme Corp., a Delaware corporation (the "Seller")``) gives the
    capitalised name it starts with (``Acme Corp.``)."""
    for m in re.finditer(r"\b(?:between|among|BETWEEN|AMONG)\b(.{10,2000}?)(?:\n[ \t]*\n(?=[ \t]*(?:WHEREAS|RECITALS|BACKGROUND|NOW|IT IS|\d|\(|[A-Z]{4,}))|WHEREAS|RECITALS|$)", head, re.DOTALL):
        found = _parties_in(" ".join(m.group(1).split()))
        if found:
            return found
    return []


def _parties_in(seg: str) -> list[str]:
    pieces = _DEF_PAREN.split(seg)[:-1]
    out: list[str] = []
    for piece in pieces:
        piece = re.sub(r"^[\s,;:]*(?:and|AND|&)?\s*(?:\(\d\)\s*)?", "", piece).strip()
        nm = _NAME.match(piece)
        if not nm:
            continue
        name = nm.group(1).strip(" ,")
        if len(name) >= 3 and name not in out and not re.match(r"^(?:This|THIS|The|THE)\b", name):
            out.append(name)
    return out[:6]


def guess_effective_date(head: str) -> str | None:
    """The date after ``effective``/``dated``/``made``/``entered into`` in the opening text,
    else its first date, as written."""
    m = _EFFECTIVE_RE.search(head)
    if m:
        return " ".join(m.group(1).split())
    m = DATE_RE.search(head)
    return " ".join(m.group(0).split()) if m else None


def guess_amends(doc: Document) -> list[str]:
    """For an amendment: the base agreement it names (``amends the Manufacturing Agreement
    dated …``) and the clauses it says it amends (``Section 5.17 of the Agreement is
    hereby amended``), as written."""
    if doc.doc_type != "amendment":
        return []
    out: list[str] = []
    head = doc.text[:4000]
    m = re.search(r"(?:amend(?:s|ment\s+to|ing)?|to)\s+(?:that\s+certain\s+|the\s+)?((?:[A-Z][\w&,.-]*\s+){0,8}Agreement)(?:[^.]{0,40}?dated[^.]{0,20}?(" + DATE_RE.pattern + "))?", head)
    if m:
        base = m.group(1) + (f" dated {m.group(2)}" if m.group(2) else "")
        out.append(" ".join(base.split()))
    for sm in re.finditer(r"\b(?:Section|Article|Clause|Schedule|Exhibit|paragraph)\s+[\dA-Z.()]+(?=[^.]{0,120}\b(?:is|are)\s+(?:hereby\s+)?(?:amended|deleted|replaced|restated))", doc.text, re.IGNORECASE):
        ref = " ".join(sm.group(0).split()).rstrip(".")
        if ref not in out:
            out.append(ref)
    return out
