"""Document metadata from the opening text: title, effective date, type, amends (parties: :mod:`clauselens.parsing.parties`).

Heuristics over the preamble (pure functions); every field may stay empty when the text
does not say it. Party names and dates are returned as written (whitespace collapsed to
single spaces), so each is a substring of the whitespace-normalised document text.
"""

from __future__ import annotations

import re

from clauselens.parsing.dates import ORDINAL_WORDS
from clauselens.parsing.dates import parse_date as parse_date  # re-exported: callers import it from here
from clauselens.parsing.dates import shown_date as shown_date
from clauselens.parsing.numbering import is_caps_heading
from clauselens.parsing.parties import PREAMBLE_END
from clauselens.parsing.types import Document

_MONTHS = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
           r"|Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept?\.?|Oct\.?|Nov\.?|Dec\.?)")
_DAY = r"(?:\d{1,2}\s?(?:s\s?t|n\s?d|r\s?d|t\s?h)?|" + "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True)) + ")"
#: A date as contracts write it: ``May 1, 2012``, ``Sept 29, 2004``, ``May 3,2006``,
#: ``1st day of January, 1996``, ``first day of July, 2017``, ``1 October 2019``, ``2012-05-01``.
DATE_RE = re.compile(
    rf"(?i:\b(?:{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?\s*,?\s*\d{{4}}"
    rf"|{_DAY}\s+(?:day\s+of\s+)?{_MONTHS}\s*,?\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})\b)"
)
_EFFECTIVE_RE = re.compile(
    rf"\b(?:effective|dated|made|entered\s+into|executed)\b[^.;]{{0,80}}?({DATE_RE.pattern})", re.IGNORECASE)
_EFFECTIVE_DEF_RE = re.compile(
    rf"effective\s+date\b[^.;]{{0,60}}?(?:shall\s+be|is|means)\s*:?\s*({DATE_RE.pattern})"
    rf"|({DATE_RE.pattern})\s*,?\s*\(\s*(?:the\s+)?[\"“]?(?:[A-Z]\w+\s+)?Effective\s+Date", re.IGNORECASE)
_TITLE_WORD = (r"(?:AGREEMENT|AMENDMENT|CONTRACT|ADDENDUM|LETTER|LEASE|LICEN[CS]E|DEED|MEMORANDUM|TERMS|NDA|SCHEDULE"
               r"|Agreement|Amendment|Contract|Addendum|Letter|Lease|Licen[cs]e|Deed|Memorandum|Terms|Schedule)")
_TITLE_WORDS = re.compile(rf"\b{_TITLE_WORD}\b", re.IGNORECASE)
_SEC_LABEL = re.compile(r"^(?:EXHIBIT|Exhibit|EX-)\s*[\d.()A-Za-z-]*\s*$")
_ENUM_START = re.compile(r"^\(?(?:\d+|[ivxlc]+|[a-z])[.)]\s|^\(", re.IGNORECASE)
#: A capitalised title run that a sentence or ``between`` follows on the same line
#: (``Exhibit 10.4 CONSULTING AGREEMENT This Consulting Agreement ...``).
_INLINE_TITLE = re.compile(
    r"(?<!\S)([A-Z][\w-]*(?:\s+(?:[A-Z][\w&-]*|to|the|of|and|for|on|#\d+|No\.\s*\d+)){0,9}?\s+" + _TITLE_WORD + r")"
    r"\s+(?=This\b|THIS\b|between\b|Between\b|BETWEEN\b|by\s+and\b)"
)

#: A title in capitals that a reference in other case follows on its line ("GLOBAL MAINTENANCE AGREEMENT Contract No. DS/CS-3957/14").
_LEADING_TITLE = re.compile(r"^((?:[A-Z][A-Z&'-]*\s+){1,8}(?:AGREEMENT|AMENDMENT|CONTRACT|ADDENDUM|LEASE|LICEN[CS]E))\s+(?=[A-Z][a-z])")


def _clean_title(s: str) -> str:
    s = " ".join(s.split())
    s = re.sub(r"^(?:EXHIBIT|Exhibit|EX-)\s*[\w.()-]*\d[\w.()-]*\s+(?=\S)", "", s)  # "Exhibit 10.1 COOPERATION AGREEMENT"
    s = re.sub(r"\s+(?:TABLE\s+OF\s+CONTENTS|Table\s+of\s+Contents|CONTENTS)$", "", s)  # "FRANCHISE AGREEMENT   TABLE OF CONTENTS"
    return re.sub(r"^(?:Execution\s+(?:Version|Copy)|EXECUTION\s+(?:VERSION|COPY))\s+", "", s)


def _title_ok(s: str) -> bool:
    if not s or len(s) > 120 or _SEC_LABEL.match(s) or _ENUM_START.match(s) or not _TITLE_WORDS.search(s):
        return False
    if is_caps_heading(s):
        return True
    letters = [c for c in s if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) / len(letters) >= 0.85:
        return True
    # a title-case line that ends in the contract word (``Strategic Alliance Agreement``)
    return len(s) <= 80 and re.search(rf"{_TITLE_WORD}\s*$", s) is not None


def guess_title(text: str) -> str | None:
    """The first title-like line among the first 40 non-empty lines: a short line naming a
    contract type (``... AGREEMENT``; capitals, or title case ending in the contract word),
    or, in a long line, a layout cell (split on 3+ spaces) or a capitalised run directly
    before ``This``/``between`` (``CONSULTING AGREEMENT This Consulting Agreement ...``).
    SEC exhibit labels (``EXHIBIT 10.28``) and enumerated lines (``(iii) ...``) are skipped.
    Falls back to the name in ``This Consulting Agreement (...``, then to the first short
    capitals line; ``None`` if there is none."""
    lines = [ln.strip() for ln in text[:6000].split("\n") if ln.strip()][:40]
    for ln in lines:
        cands = [ln] if len(ln) <= 120 else [c for c in re.split(r"\s{3,}", ln) if c.strip()]
        for c in cands:
            c2 = _clean_title(c)
            if _title_ok(c2):
                return c2
            lead = _LEADING_TITLE.match(c2)  # "GLOBAL MAINTENANCE AGREEMENT Contract No. DS/CS-3957/14 issue 7"
            if lead and _title_ok(lead.group(1)):
                return lead.group(1)
        for mt in _INLINE_TITLE.finditer(ln):
            c2 = _clean_title(mt.group(1))
            if len(c2) <= 120 and not _SEC_LABEL.match(c2):
                return c2
    m = re.search(r"\b(?:This|THIS)\s+((?:[A-Z][\w-]*\s+){0,6}(?:Agreement|AGREEMENT|Amendment|AMENDMENT))\s*[(,]", text[:3000])
    if m:  # the preamble names it: "This Consulting Agreement ("Agreement") is made ..."
        return " ".join(m.group(1).split())
    for ln in lines:
        if is_caps_heading(ln) and not _SEC_LABEL.match(ln):
            return " ".join(ln.split())
    return None


def guess_doc_type(title: str | None, head: str) -> str:
    """``amendment`` / ``side_letter`` / ``schedule`` / ``agreement`` from the title (and
    the opening text for amendments numbered ``Amendment No. 2`` and for side letters)."""
    t = (title or "").lower()
    if "amendment" in t or re.search(r"\bamendment\s+no\.?\s*\d|\bamendment\s+#\s?\d", head[:600], re.IGNORECASE):
        return "amendment"
    if "side letter" in t or "letter agreement" in t or re.search(r"\bside\s+letter\b", head[:1500], re.IGNORECASE):
        return "side_letter"
    if t.startswith(("schedule", "exhibit", "annex", "appendix")):
        return "schedule"
    return "agreement"


# ---------------------------------------------------------------- dates
_BASE_DATED = re.compile(r"amendment\b[^;\n]{0,40}?\bto\s+(?:the\s+|that\s+certain\s+)?(?:[A-Z][\w&-]*\s+){0,8}Agreement\s*$",
                         re.IGNORECASE)


def _preamble(head: str) -> str:
    """The opening text up to the recitals / operative words (or all of ``head``)."""
    m = PREAMBLE_END.search(head)
    return head[:m.start()] if m else head


def guess_effective_date(head: str) -> str | None:
    """The effective date as written, from the preamble (the text before the recitals, so a
    recital's ``Prior Agreement dated ...`` is not taken): an ``Effective Date`` definition
    (``THE EFFECTIVE DATE ... SHALL BE: Sept 29, 2004``, ``December 21, 2017 ("Amendment
    Effective Date")``), else the date after ``effective``/``dated``/``made``/``entered
    into`` (not the base agreement's date in ``Amendment No. 2 to the Supply Agreement dated
    ...``), else the preamble's first date; ``None`` if the preamble has no date (dates
    left blank, ``___ day of ____, 2004``, give ``None``)."""
    pre = _preamble(head)
    m = _EFFECTIVE_DEF_RE.search(pre)
    if m:
        return " ".join((m.group(1) or m.group(2)).split())
    for m in _EFFECTIVE_RE.finditer(pre):
        # "Amendment No. 2 to the Supply Agreement dated March 1, 2019": the base agreement's date
        if _BASE_DATED.search(pre[max(0, m.start() - 120):m.start()]):
            continue
        return " ".join(m.group(1).split())
    m = DATE_RE.search(pre)
    return " ".join(m.group(0).split()) if m else None


# ---------------------------------------------------------------- amendments
_REF = (r"(?:Section|Article|Clause|Schedule|Exhibit|Paragraph|Annex|Appendix)\s+"
        r"(?:\d+(?:\.\d+)*(?:\s?\([a-z0-9]+\))*|[A-Z](?:-\d+)?\b|[IVXLC]+\b)")
_AMEND_VERB = r"(?:amended|deleted|replaced|restated|supplemented|modified)"
_AMENDED_REF = re.compile(
    rf"\b({_REF})(?!\s+of\s+(?:this\s+)?Amendment)[^.]{{0,120}}?\b(?:is|are|shall\s+be)"
    rf"(?:\s*,?\s*and\s+here\s?by\s+(?:is|are)\s*,?)?\s+(?:hereby\s+)?{_AMEND_VERB}"
    rf"|\bamend(?:s|ed|ing)?\s+({_REF})(?!\s+of\s+(?:this\s+)?Amendment)", re.IGNORECASE)


def _base_agreement(doc: Document, head: str) -> str | None:
    name = None
    tm = re.search(r"amendment\b.*?\bto\s+(?:the\s+)?((?:[A-Z][\w&-]*\s+){0,8}?(?:Agreement|AGREEMENT))",
                   doc.title or "", re.IGNORECASE)
    if tm:
        name = " ".join(tm.group(1).split())
    name_pat = re.escape(name).replace(r"\ ", r"\s+") if name else r"(?:[A-Z][\w&-]*\s+){0,8}?Agreement"
    flags = re.IGNORECASE if name else 0
    dated = re.compile(rf"({name_pat})\s*,?\s*(?:dated|effective)(?:\s+and\s+effective)?(?:\s+as\s+of)?\s+({DATE_RE.pattern})", flags)
    for md in dated.finditer(head):
        # "This AMENDMENT TO SERVICES AGREEMENT, dated ... " dates the amendment itself
        if "amendment" in head[max(0, md.start() - 30):md.start()].lower() and "," in head[md.end(1):md.start(2)]:
            continue
        return " ".join(f"{md.group(1)} dated {md.group(2)}".split())
    if name:
        m = re.search(name_pat, head[200:], re.IGNORECASE) or re.search(name_pat, head, re.IGNORECASE)
        return " ".join(m.group(0).split()) if m else name
    m = re.search(r"(?:amend(?:s|ment\s+to|ing)?)\s+(?:that\s+certain\s+|the\s+)?((?:[A-Z][\w&,.-]*\s+){0,8}Agreement)", head)
    return " ".join(m.group(1).split()) if m else None


def guess_amends(doc: Document) -> list[str]:
    """For an amendment: first the base agreement it amends, as ``<name> dated <date>`` when
    the text dates it (``Manufacturing Agreement dated September 30, 2011``; the name from
    the title ``Amendment #3 to the Manufacturing Agreement`` where there is one), then the
    clauses it says it amends (``Section 2.1 of the Agreement is hereby amended``, ``Exhibit A
    to the Services Agreement shall be, and hereby is, deleted``, ``amend Section 6.5``),
    capitalised, in order of first mention. References into an earlier amendment
    (``Section 1 of Amendment #2``) are left out. Empty for other document types."""
    if doc.doc_type != "amendment":
        return []
    out: list[str] = []
    base = _base_agreement(doc, doc.text[:5000])
    if base:
        out.append(base)
    for m in _AMENDED_REF.finditer(doc.text):
        ref = " ".join((m.group(1) or m.group(2)).split()).rstrip(".")
        ref = ref[0].upper() + ref[1:]
        if ref not in out:
            out.append(ref)
    return out
