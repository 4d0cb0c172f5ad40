"""Legal-aware text analysis for lexical retrieval.

Common BM25 tokenisers (``\\b\\w\\w+\\b``) drop ``3.2``, split ``12.3`` into ``12`` and
``3`` or keep trailing punctuation, so "clause 3.2" also matches 3.12, 12.3 and 2.3.
:class:`LegalAnalyzer` keeps clause references as single tokens, normalised:

* ``14.3(b)`` -> ``14.3(b)``; ``5.17`` -> ``5.17``; ``3.2.`` -> ``3.2``; ``§3.2`` / ``§ 3.2`` -> ``3.2``;
* everything else is lower-cased, split into words of >= 2 letters or digit runs,
  English stopwords dropped (bm25s' list) and, if PyStemmer is installed, Snowball-stemmed
  (Porter, "An algorithm for suffix stripping", 1980; Snowball English);
* known defined terms (``"Confidential Information"``) add one extra token
  ``dt:confidential information`` so the phrase counts as a unit.

:func:`clause_refs_in` extracts the clause references a question names, for the exact-match
field (a chunk's ``clause_ref``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

# A clause reference: optional "§", dotted numbers with optional "(x)" suffixes, or a number
# with at least one "(x)" suffix. A trailing "." is not part of the reference.
_REF = r"§+\s*\d+(?:\.\d+)*(?:\s?\([a-z0-9]{1,4}\))*|\d+(?:\.\d+)+(?:\s?\([a-z0-9]{1,4}\))*|\d+(?:\([a-z0-9]{1,4}\))+"
_AMOUNT = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
_WORD = r"[^\W\d_]{2,}|\d+"
_TOKEN_RE = re.compile(f"(?P<amount>{_AMOUNT})|(?P<ref>{_REF})|(?P<word>{_WORD})", re.UNICODE)

# "clause 3", "section 12", "article 5" name a reference even without a dot.
_NAMED_REF_RE = re.compile(
    r"(?:\b(?:clause|section|sections|article|paragraph|sub-clause|subclause|sub-paragraph|subparagraph|sub-section|subsection|schedule|annex|exhibit)s?\s+|§+\s*)"
    r"(\d+(?:\.\d+)*(?:\s?\([a-z0-9]{1,4}\))*)",
    re.IGNORECASE,
)
_DOTTED_REF_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+(?:\s?\([a-z0-9]{1,4}\))*)", re.IGNORECASE)


def normalize_ref(ref: str) -> str:
    """Normalise a clause reference: drop "§", spaces and a trailing dot, lower-case
    ``(B)`` to ``(b)``. ``"§ 3.2."`` -> ``"3.2"``, ``"14.3 (B)"`` -> ``"14.3(b)"``."""
    r = ref.strip().lstrip("§").strip().rstrip(".").lower()
    return re.sub(r"\s+", "", r)


def clause_key(ref: str) -> str:
    """A clause reference to compare: :func:`normalize_ref` with leading zeros dropped from each
    number, so a clause printed "Section 1.01" and a question's "1.1" are one clause (issue #41 item 5;
    the tree keeps the number as printed)."""
    return re.sub(r"\d+", lambda m: str(int(m.group())), normalize_ref(ref))


def _amount_part(text: str, a: int, b: int) -> bool:
    """Is the dotted number ``text[a:b]`` an amount or a percentage ("4.5%", "$1.5", the "000.00"
    of "100,000.00"), not a clause reference?"""
    tail, head = text[b: b + 1], text[max(0, a - 1): a]
    return tail == "%" or (bool(head) and head in "$€£") or (head == "," and text[max(0, a - 2): a - 1].isdigit())


def mask_clause_refs(text: str) -> str:
    """``text`` with every clause reference :func:`clause_refs_in` would find (and the word
    naming it: "clause 14(a)", "Section 3.2") blanked out by spaces, so the numbers left are
    quantities ("30 days", "$5,000"), not references. Same length as ``text``."""
    out = list(text)
    spans = [m.span() for m in _NAMED_REF_RE.finditer(text)]
    for m in _DOTTED_REF_RE.finditer(text):
        if not _amount_part(text, m.start(), m.end()):
            spans.append(m.span())
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)


#: What follows a section of a statute, not of the agreement: "Section 402 of the Sarbanes-Oxley Act", "Section 409A
#: of the Code", "section 365(n) of the Bankruptcy Code", "Section 1542 of the California Civil Code", "§ 101 of Title
#: 11" (a new user's tryout: "Section 402 of the Sarbanes-Oxley Act" was answered "clause 402 is not in the agreement").
_EXTERNAL_TAIL = re.compile(
    r"[A-Za-z]{0,2}(?:\s?\([a-z0-9]{1,4}\))*,?\s+of\s+(?:(?:the|this|that)\s+)?"
    r"(?:(?:[\w.&'-]+\s+){0,6}(?:act|code|regulations?|rules|statutes?|u\.?\s?s\.?\s?c\.?|c\.?\s?f\.?\s?r\.?|treaty|directive|"
    r"convention|ordinance)\b|title\s+\d+)", re.IGNORECASE)


def _external(text: str, end: int) -> bool:
    """Does the reference ending at ``text[end]`` name a section of a statute or code, not of the agreement?"""
    return bool(_EXTERNAL_TAIL.match(text, end))


def clause_refs_in(text: str) -> list[str]:
    """Clause references a text names, normalised, in order, without duplicates.

    A reference counts when it is dotted (``3.2``, ``14.3(b)``) or follows a word like
    "clause", "section", "article" or "§" (``clause 7``). Plain numbers ("30 days") do not, nor does a
    section of a statute ("Section 409A of the Code": :data:`_EXTERNAL_TAIL`).
    """
    found: list[str] = []
    for m in _NAMED_REF_RE.finditer(text):
        if not _external(text, m.end()):
            found.append(normalize_ref(m.group(1)))
    for m in _DOTTED_REF_RE.finditer(text):
        if _amount_part(text, m.start(), m.end()) or _external(text, m.end()):  # amounts ("4.5%", "$1.5"); statutes
            continue
        found.append(normalize_ref(m.group(1)))
    out: list[str] = []
    for r in found:
        if r not in out:
            out.append(r)
    return out


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


@lru_cache(maxsize=1)
def _stemmer():
    try:
        import Stemmer  # PyStemmer
    except ImportError:  # pragma: no cover - optional
        return None
    return Stemmer.Stemmer("english")


class LegalAnalyzer:
    """Turns text into BM25 tokens (see the module docstring for the rules).

    ``defined_terms``: phrases that become one extra ``dt:<lower phrase>`` token each
    time they occur (case-insensitive, whole words). ``stem``: Snowball-stem words when
    PyStemmer is available. Pure and deterministic; safe to share between threads.
    """

    def __init__(self, defined_terms: Iterable[str] = (), stem: bool = True) -> None:
        terms = sorted({t.strip() for t in defined_terms if t and len(t.strip()) > 2}, key=len, reverse=True)
        self.defined_terms = terms
        self._dt_re = (
            re.compile(r"\b(?:" + "|".join(re.escape(t) for t in terms) + r")\b", re.IGNORECASE)
            if terms else None
        )
        self._stemmer = _stemmer() if stem else None
        self._stop = _stopwords()

    def tokenize(self, text: str) -> list[str]:
        """Tokens of ``text`` (list of str; clause refs kept whole, e.g. ``"3.2"``)."""
        out: list[str] = []
        word_pos: list[int] = []
        for m in _TOKEN_RE.finditer(text.lower()):
            kind = m.lastgroup
            tok = m.group()
            if kind == "ref":
                out.append(normalize_ref(tok))
            elif kind == "amount":
                out.append(tok)
            elif tok not in self._stop:
                word_pos.append(len(out))
                out.append(tok)
        if self._stemmer is not None and word_pos:
            stems = self._stemmer.stemWords([out[i] for i in word_pos])
            for i, st in zip(word_pos, stems):
                out[i] = st
        if self._dt_re is not None:
            out.extend("dt:" + m.group().lower() for m in self._dt_re.finditer(text))
        return out

    def tokenize_many(self, texts: Iterable[str]) -> list[list[str]]:
        """:meth:`tokenize` over many texts."""
        return [self.tokenize(t) for t in texts]

    def exact_items(self, text: str) -> set[str]:
        """The exact-match field: normalised clause refs and defined terms named in ``text``."""
        items = set(clause_refs_in(text))
        if self._dt_re is not None:
            items.update("dt:" + m.group().lower() for m in self._dt_re.finditer(text))
        return items
