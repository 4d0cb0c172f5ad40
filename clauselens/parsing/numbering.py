"""Clause-marker recognition: which numbering scheme a line starts with, and its value.

Pure functions over one line of text. Schemes: ``article`` (``ARTICLE IV``), ``num``
(``5.``, ``5.17``, ``Section 5.17``, ``Clause 7``, ``§ 3.2``; depth = number of components; a bare ``1``
without a period only before a capitals heading, ``1 DEFINITIONS``; inserted clauses carry
a capital letter, ``2A``, ``2A.1``, valued just after ``2``: see :func:`num_value`), ``alpha`` /
``ALPHA`` (``(a)`` / ``(A)``, also ``a)`` / ``A)``, and ``7(a)``: the item of clause 7), ``dotalpha`` (``A.`` / ``a.``, a lettered list item),
``roman`` / ``ROMAN`` (``(iv)`` / ``(IV)``), ``digit``
(``(1)``), ``top`` (``Schedule 2``, ``Exhibit B``, ``Annex A``, ``Appendix 1``),
``recital`` (``WHEREAS``), ``signature`` (``IN WITNESS WHEREOF``), ``caps`` (a short
all-capitals heading line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_RE = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")

ARTICLE_RE = re.compile(r"^(ARTICLE|Article|PART|Part)(?:\s+([IVXLCDM]+|\d{1,3})|(?<=[Tt])(\d{1,3}))\b\.?\s*[-–—:.]?\s*(.*)$")
SECTION_RE = re.compile(r"^(?:SECTION|Section|CLAUSE|Clause|§§?)\s*(\d{1,3}(?:\.\d{1,3})*)(?![\d.]*\d)(?=[\s.:\-–—]|$)\.?\s*[-–—:.]?\s*(.*)$")
#: Another "Clause N" on the same line: a table of contents ("CLAUSE 22 SANCTIONS  33  CLAUSE 23 ..."), no clause.
_TOC_CLAUSE = re.compile(r"\b(?:CLAUSE|Clause)\s+\d")
#: A sub-clause written with its clause's number, "7(a) Notices shall ..." / "12(b)": read as the
#: "(a)" item of clause 7 (:func:`match_marker` puts the 7 in ``Marker.word``; the tree takes the
#: item only while clause 7 is open). A printed path, "7(a)(ii) ...", is read as its last item, "(ii)"
#: (the tree nests it under the open "(a)" as it would a bare "(ii)").
NUM_PAREN_RE = re.compile(r"^(\d{1,3})(?:\((?:[a-z]{1,2}|[ivx]{1,5}|[A-Z])\))*\(([a-z]{1,2}|[ivx]{1,5}|[A-Z])\)(?=\s)\s*(.*)$")
NUM_RE = re.compile(r"^(\d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]?)*)(\.|\))?(?=\s|$)\s*(.*)$")
_NUM_PART = re.compile(r"^(\d{1,3})([A-Z]?)$")


def num_value(label: str) -> tuple[float, ...]:
    """Sortable value of a dotted clause number: ``"5.17"`` → ``(5, 17)``; an inserted clause's
    letter adds ``k/100`` (``"2A"`` → ``(2.01,)``, ``"2B.3"`` → ``(2.02, 3)``), so 2A follows 2 and
    its sub-clauses and comes before 3 in the continuity rules of :mod:`clauselens.parsing.tree`."""
    out: list[float] = []
    for part in label.split("."):
        m = _NUM_PART.match(part)
        if m is None:
            raise ValueError(f"not a clause number: {label!r}")
        n = int(m.group(1))
        out.append(n + (ord(m.group(2)) - 64) / 100 if m.group(2) else n)
    return tuple(out)


def num_ref(value: tuple[float, ...]) -> str:
    """The clause reference of a :func:`num_value`: ``(2.01, 1)`` → ``"2A.1"``, ``(5, 17)`` → ``"5.17"``."""
    parts = []
    for x in value:
        n = int(x)
        k = round((x - n) * 100)
        parts.append(f"{n}{chr(64 + k)}" if k else str(n))
    return ".".join(parts)
#: A lettered item written with a full stop, "A. Effect of Termination" / "b. Termination by ABG": one
#: letter, then a capital, a quote or a parenthesis (not "A. Smith"-style initials: the tree accepts such
#: an item only as the first of a list, "A." / "a.", or the next letters of an open one).
DOT_ALPHA_RE = re.compile(r"^([A-Za-z])\.[ \t]+(?=[A-Z\"“(])(.*)$")
PAREN_RE = re.compile(r"^(?:\(([a-zA-Z]{1,2}|[ivxlcdmIVXLCDM]{1,7}|\d{1,3})\)|([a-zA-Z]{1,2}|[ivxlcdmIVXLCDM]{1,7})\)(?=\s))\s*(.*)$")
TOP_RE = re.compile(
    r"^(SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix)\s+([A-Z]{1,2}|\d{1,3}(?:\.\d{1,3})?|[IVX]{1,5})\b\.?\s*[-–—:.]?\s*(.*)$"
)
RECITAL_RE = re.compile(r"^(?:WHEREAS|Whereas)\b")
SIGNATURE_RE = re.compile(r"^(?:IN\s+WITNESS\s+WHEREOF|In\s+Witness\s+Whereof|SIGNED\s+by|Signed\s+by|SIGNATURES?\s*$)")


#: A clause reference that names its own kind ("Annex A", "Schedule 2", "Exhibit B", "Article IV").
_NAMED_UNIT = re.compile(r"^[A-Za-z]{3,}\s")


def clause_label(ref: str) -> str:
    """How a report names the unit a clause reference points at: ``"clause 7.2"``, but ``"Annex A"``
    for a reference that already names its kind (never "clause Annex A")."""
    ref = ref.strip()
    return ref if _NAMED_UNIT.match(ref) else f"clause {ref}"


#: Small words a heading keeps in lower case ("Limitation of Liability", "Compliance with Laws").
HEADING_SMALL_WORDS = frozenset("of the and or to for in on a an by with at from as per".split())
_HEADING_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def title_words(text: str, max_words: int = 8) -> list[str] | None:
    """The words of ``text`` when it reads as a heading -- at most ``max_words`` words, each
    capitalised or one of :data:`HEADING_SMALL_WORDS` ("Term and Termination") -- else ``None``."""
    words = _HEADING_WORD.findall(text)
    ok = len(words) <= max_words and all(w[0].isupper() or w.lower() in HEADING_SMALL_WORDS for w in words)
    return words if ok else None


def roman_to_int(s: str) -> int | None:
    """Value of a Roman numeral (case-insensitive), or ``None`` if ``s`` is not one."""
    s = s.lower()
    if not s or not _ROMAN_RE.match(s):
        return None
    total = 0
    for a, b in zip(s, s[1:] + " "):
        va, vb = _ROMAN[a], _ROMAN.get(b, 0)
        total += -va if va < vb else va
    return total


def alpha_value(s: str) -> int | None:
    """``a``→1 … ``z``→26, ``aa``→27 … (repeated-letter style); ``None`` otherwise."""
    s = s.lower()
    if len(s) == 1 and s.isalpha():
        return ord(s) - 96
    if len(s) == 2 and s[0] == s[1] and s.isalpha():
        return 26 + ord(s[0]) - 96
    return None


@dataclass(frozen=True)
class Marker:
    """A recognised clause marker at the start of a line.

    ``scheme`` is one of the module's schemes (``num`` carries its depth in ``value``'s
    length); ``label`` is the marker as written (``"iv"``, ``"5.17"``, ``"B"``); ``rest`` the
    text after the marker on that line; ``word`` the leading keyword (``Schedule``) if any.
    """

    scheme: str
    value: tuple[float, ...] | int  # ``num``: :func:`num_value` (2A -> (2.01,)); others: an int
    label: str
    rest: str
    word: str = ""
    explicit: bool = False  # "Section 5.17" / "ARTICLE V" rather than a bare number


def paren_candidates(token: str) -> list[tuple[str, int]]:
    """Possible (scheme, value) readings of an enumerator inside parentheses, most natural
    first: ``"i"`` → [(roman, 1), (alpha, 9)]; ``"b"`` → [(alpha, 2)]; ``"3"`` → [(digit, 3)]."""
    if token.isdigit():
        return [("digit", int(token))]
    upper = token.isupper()
    out: list[tuple[str, int]] = []
    r = roman_to_int(token)
    a = alpha_value(token)
    if r is not None:
        out.append(("ROMAN" if upper else "roman", r))
    if a is not None and (token.islower() or token.isupper()):
        out.append(("ALPHA" if upper else "alpha", a))
    if len(token) == 1 and r is not None and token.lower() != "i":
        out.reverse()  # a lone "v", "x", "c" … is more often a letter than a numeral
    return out


def is_caps_heading(line: str) -> bool:
    """A short stand-alone heading in capitals: 3-80 characters, >= 3 letters, >= 85 % of
    letters upper case, not ending in ``,``/``;`` (which marks a wrapped sentence)."""
    s = line.strip()
    if not (3 <= len(s) <= 80) or s.endswith((",", ";")) or s.startswith("Source: "):  # an EDGAR filing's page line
        return False
    letters = [c for c in s if c.isalpha()]
    if len(letters) < 3:
        return False
    return sum(c.isupper() for c in letters) / len(letters) >= 0.85


def match_marker(line: str) -> Marker | None:
    """Recognise the clause marker a (left-stripped) line starts with, or ``None``."""
    m = ARTICLE_RE.match(line)
    if m:
        ident = m.group(2) or m.group(3)
        v = int(ident) if ident.isdigit() else roman_to_int(ident)
        if v:
            return Marker("article", v, ident.upper(), m.group(4).strip(), m.group(1).capitalize(), True)
    m = SECTION_RE.match(line)
    if m and not (line[:1] in "Cc" and _TOC_CLAUSE.search(m.group(2))):
        t: tuple[float, ...] = tuple(int(x) for x in m.group(1).split("."))
        return Marker("num", t, m.group(1), m.group(2).strip(), "Section", True)
    m = TOP_RE.match(line)
    if m:
        word = m.group(1).capitalize()
        return Marker("top", 0, m.group(2), m.group(3).strip(), word, True)
    m = NUM_RE.match(line)
    if m:
        t = num_value(m.group(1))
        rest = m.group(3).strip()
        lettered = any(c.isalpha() for c in m.group(1))
        # "1 DEFINITIONS", "2A PRIORITY ORDERS"; not "004 ANNUALIZED ..." (a year cut by OCR)
        bare_heading = len(t) == 1 and not m.group(1).startswith("0") and rest[:1].isalpha() and is_caps_heading(rest)
        if lettered and not (m.group(2) or bare_heading or (len(t) > 1 and rest[:1].isupper())):
            return None  # "3D printing", "4K displays": a lettered number must look like a heading
        if (m.group(2) or len(t) > 1 or bare_heading) and t[0] > 0 and not re.match(r"^(?:%|per\s?cent|percent)", m.group(3)):
            return Marker("num", t, m.group(1), rest)
        return None
    m = PAREN_RE.match(line)
    if m:
        return Marker("paren", 0, m.group(1) or m.group(2), m.group(3).strip())
    m = NUM_PAREN_RE.match(line)
    if m:  # ``word`` carries the clause number: the tree accepts it only inside that clause
        return Marker("paren", 0, m.group(2), m.group(3).strip(), m.group(1))
    m = DOT_ALPHA_RE.match(line)
    if m:
        return Marker("dotalpha", 0, m.group(1), m.group(2).strip())
    if RECITAL_RE.match(line):
        return Marker("recital", 0, "", line.strip())
    if SIGNATURE_RE.match(line):
        return Marker("signature", 0, "", line.strip())
    return None


def _titleish(s: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z]+", s) if len(w) >= 4]
    return bool(words) and sum(w[0].isupper() for w in words) / len(words) >= 0.8


def split_heading(rest: str) -> str | None:
    """The heading carried on a marker's line: all of ``rest`` when it is short (<= 80
    chars) and in capitals or Title Case, else a leading capitals / Title-Case phrase ended
    by ``.`` or ``:`` (``"Net Investment Income. The Fund…"`` → ``"Net Investment Income"``),
    else a leading run of capitals (``"INDEMNIFICATION The Company…"``)."""
    r = rest.strip()
    if not r or r[:1].islower():
        return None
    body = r.rstrip(".:").strip()
    if len(r) <= 80 and body and not re.search(r"[.:;]\s", body) and (body.isupper() or (_titleish(body) and not r.endswith((";", ",")))):
        return body
    m = re.match(r"^([A-Z][^.:\n]{0,70}?)\s*[.:]\s+\S", r)
    if m:
        cand = m.group(1).strip()
        # "Governing Law; Consent to Personal Jurisdiction." heads a clause: each ";" part Title Case (187 CUAD headings)
        if cand.isupper() or (_titleish(cand) and all(_titleish(part) for part in cand.split(";"))):
            return cand
    m = re.match(r"^([A-Z][A-Z0-9 ,&'/\-]{2,70}[A-Z])\b(?![a-z])", r)
    if m and len(m.group(1)) >= 4 and " " in m.group(1).strip() or (m and len(m.group(1)) >= 6):
        return m.group(1).strip()
    return None
