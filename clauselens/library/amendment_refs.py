"""Party names and clause references of amendments (issue #17 item 6; split out of
:mod:`clauselens.library.versions` by concern, issue #43): how party names are compared
(``norm_party``, ``same_party``), the base agreement's name and date as an amendment writes them
(``split_base``), and clause references as written ("Section 2.3 (c)", "Exhibit A", "Article IV")
turned into the :func:`~clauselens.library.passages.ref_key` forms of a base agreement
(``clause_keys``, ``ancestors``, ``passage_keys``) or into a pattern that finds one in an
amendment's text (``ref_pattern``). The rules are described in :mod:`clauselens.library.versions`."""

from __future__ import annotations

import re
from typing import Sequence

from clauselens.library.catalogue import GENERIC_TERMS
from clauselens.library.passages import ref_key
from clauselens.retrieval.types import Passage

_SUFFIX_WORDS = frozenset({
    "inc", "incorporated", "llc", "ltd", "limited", "corp", "corporation", "co", "company", "plc", "lp", "llp",
    "sa", "ag", "gmbh", "nv", "bv", "srl", "spa", "pty", "pte", "sarl", "lc", "na", "the",
})
#: Short names that name a role, not a party (never evidence of the same parties).
_ROLE_WORDS = frozenset({
    "licensee", "licensor", "buyer", "seller", "supplier", "customer", "company", "manufacturer", "distributor",
    "purchaser", "vendor", "client", "contractor", "consultant", "adviser", "advisor", "agent", "lender", "borrower",
    "landlord", "tenant", "lessor", "lessee", "employer", "employee", "executive", "parent", "affiliate", "provider",
    "recipient", "owner", "producer", "reseller", "franchisee", "franchisor", "sponsor", "investor", "holder",
    "trademark licensor", "amendment", "agreement", "original agreement", "existing agreement", "services agreement",
    "second amendment", "first amendment", "third amendment", "units", "products", "product", "territory",
    "services", "party", "parties",
})
NAME_STOP = frozenset({"agreement", "the", "this", "that", "certain", "amended", "restated", "and", "of", "to", "a",
                        "an", "no", "number", "dated", "as", "between", "by"})
KIND = r"(?:Section|Article|Clause|Schedule|Exhibit|Paragraph|Annex|Appendix|Attachment)"
REF_WRITTEN = re.compile(rf"^\s*({KIND})s?\s+(.+?)\s*$", re.IGNORECASE)
_NUM = re.compile(r"^(\d+(?:\.\d+)*)((?:\s?\([a-zA-Z0-9]{1,5}\))*)")
_ROMAN = re.compile(r"^[IVXLC]+$")
VERB = r"(?i:amend|delet|replac|restat|supplement|modif|remov|insert|add)\w*"
NOT_OWN = r"(?!(?i:\s+of\s+(?:this|the)\s+(?:\w+\s+)?Amendment))"
#: Refs an amendment amends that the parser's list may miss (verbs before or after the ref).
SCAN_REF = (rf"{KIND}\s+(?:\d+(?:\.\d+)*(?:\s?\([a-zA-Z0-9]{{1,5}}\))*|[A-Z](?:-\d+)?\b|[IVXLC]+\b)")
SCAN = re.compile(
    rf"\b(?:remov|delet|replac|amend|restat|supplement|modif)\w*\s+(?:the\s+)?(?:in\s+its\s+entirety\s+)?({SCAN_REF}){NOT_OWN}"
    rf"|\b({SCAN_REF}){NOT_OWN}(?:\s*,)?\s+(?:of\s+the\s+(?:[A-Z]\w*\s+){{0,4}}Agreement\s+)?(?:is|are|shall\s+be)"
    rf"(?:\s*,?\s*and\s+here\s?by\s+(?:is|are)\s*,?)?\s+(?:hereby\s+)?(?:removed|deleted|replaced|amended|restated|supplemented|modified)",
    re.IGNORECASE)


# ------------------------------------------------------------------ names and dates
def norm_text(s: str) -> str:
    """Lower-cased, ``&`` as "and", apostrophes dropped, other punctuation as spaces."""
    s = s.lower().replace("&", " and ").replace("’", "").replace("'", "")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", s).split())


def norm_party(name: str) -> str:
    """A party name for comparison: lower-cased, ``&`` as "and", apostrophes and punctuation
    dropped, corporate suffixes and a leading "the" dropped (``"Stremick's Heritage Foods,
    LLC"`` -> ``"stremicks heritage foods"``)."""
    words = norm_text(name).split()
    while words and words[-1] in _SUFFIX_WORDS:
        words.pop()
    while words and words[0] == "the":
        words.pop(0)
    return " ".join(words)


def same_party(a: str, b: str) -> bool:
    """Whether two normalised party names name one party: equal, or the shorter (of two
    words or more) contained word-wise in the longer."""
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short.split()) >= 2 and f" {short} " in f" {long_} "


def distinctive_short(names: Sequence[str]) -> set[str]:
    """The short names among ``names`` that can tell parties apart (not a role, a generic term or a date)."""
    out = set()
    for n in names:
        k = norm_text(n)
        if k and k not in _ROLE_WORDS and k not in GENERIC_TERMS and not k.endswith(" date") and len(k) > 1:
            out.add(k)
    return out


def title_words(s: str) -> set[str]:
    """Normalised words of a title, a plural "s" dropped from words over three letters."""
    return {w.rstrip("s") if len(w) > 3 else w for w in norm_text(s).split()}


def split_base(amends0: str) -> tuple[str | None, str | None]:
    """``(name, date)`` of the base agreement as written in ``amends[0]`` (``"Manufacturing
    Agreement dated September 30, 2011"`` -> ``("Manufacturing Agreement", "September 30,
    2011")``); ``(None, None)`` when ``amends[0]`` is a clause reference."""
    if not amends0 or REF_WRITTEN.match(amends0):
        return None, None
    name, _, when = amends0.partition(" dated ")
    return name.strip() or None, when.strip() or None


# ------------------------------------------------------------------ clause references
def clause_keys(written: str) -> set[str]:
    """The :func:`ref_key` forms a clause reference as written may take in a base agreement:
    ``"Section 2.3 (c)"`` -> ``{"2.3(c)"}``, ``"Exhibit A"`` -> ``{"exhibita"}``,
    ``"Article IV"`` -> ``{"articleiv", "iv"}``."""
    m = REF_WRITTEN.match(written)
    if not m:
        k = ref_key(written)
        return {k} if k else set()
    kind, rest = m.group(1).lower(), m.group(2)
    if rest[:1].isdigit() and kind in ("section", "article", "clause", "paragraph"):
        k = ref_key(rest)
        return {k} if k else set()
    keys = {k for k in (ref_key(f"{kind} {rest}"),) if k}
    if _ROMAN.match(rest) and kind in ("article", "section"):
        keys.add(rest.lower())
    return keys


def ancestors(key: str) -> list[str]:
    """``key`` and the clause numbers that contain it: ``"2(o)(i)"`` -> ``["2(o)(i)", "2(o)",
    "2"]``, ``"5.3.1(a)"`` -> ``["5.3.1(a)", "5.3.1", "5.3", "5"]``."""
    out = [key]
    k = key
    while True:
        m = re.match(r"^(.+)\([a-z0-9]+\)$", k) or re.match(r"^(\d+(?:\.\d+)*)\.\d+$", k)
        if not m:
            return out
        k = m.group(1)
        out.append(k)


def passage_keys(p: Passage) -> set[str]:
    """Every clause number a passage belongs to: its own (:func:`ref_key` of ``clause_ref``)
    with its ancestors, and an exhibit/schedule label heading its heading path."""
    out: set[str] = set()
    k = ref_key(p.clause_ref)
    if k:
        out.update(ancestors(k))
    for h in p.heading_path:
        m = re.match(r"\s*(Exhibit|Schedule|Annex|Appendix|Attachment)\s+([A-Z0-9][\w.-]*)", h or "", re.IGNORECASE)
        if m:
            hk = ref_key(f"{m.group(1)} {m.group(2).rstrip('.')}")
            if hk:
                out.add(hk)
    return out


def ref_pattern(written: str) -> tuple[str, re.Pattern[str]] | None:
    """``(literal, regex)`` to find a clause reference in an amendment's text: the literal
    for ``rows_containing`` (the number, or the label word), and a regex for the reference
    itself (``Section 4`` does not match ``Section 4.2`` or ``Section 40``)."""
    m = REF_WRITTEN.match(written)
    if not m:
        return None
    kind, rest = m.group(1), m.group(2)
    n = _NUM.match(rest)
    if n and kind.lower() in ("section", "article", "clause", "paragraph"):
        num = re.escape(n.group(1))
        parens = "".join(r"\s?\(" + re.escape(x) + r"\)" for x in re.findall(r"\(([a-zA-Z0-9]{1,5})\)", n.group(2)))
        pat = rf"(?:\b(?:Sections?|Articles?|Clauses?|Paragraphs?)\s+|§\s*){num}{parens}(?!\d|\.\d)"
        return n.group(1), re.compile(pat, re.IGNORECASE)
    label = re.escape(rest.split()[0]) if rest.split() else ""
    if not label:
        return None
    return kind, re.compile(rf"\b(?i:{re.escape(kind)})s?\s+{label}(?![\w-])")


__all__ = ["KIND", "NAME_STOP", "NOT_OWN", "REF_WRITTEN", "SCAN", "SCAN_REF", "VERB",
           "ancestors", "clause_keys", "distinctive_short",
           "norm_party", "norm_text", "passage_keys", "ref_pattern", "same_party", "split_base", "title_words"]
