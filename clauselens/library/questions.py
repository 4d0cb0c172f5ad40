"""What a library question asks for, read from its words: the defined term of a "how is 'X'
defined" / "what does X mean" question (quoted or capitalised, with its singular / plural). Split
out of :mod:`clauselens.library.library` (issue #43); the library checks the candidates against the
agreement's recorded definitions."""

from __future__ import annotations

import re

_DEFINED_Q = re.compile(
    r"(?:how\s+is|how\s+are|what\s+is\s+the\s+definition\s+of|definition\s+of|what\s+(?:does|do)|meaning\s+of|"
    r"what\s+is\s+meant\s+by)\s+(?:the\s+(?:term\s+)?)?[\"“'‘]([^\"”'’]{2,80})[\"”'’]", re.IGNORECASE)

_QUOTED = re.compile(r"[\"“'‘]([A-Z][^\"”'’]{1,80})[\"”'’]")

#: Words that say a question asks what a term means (a quoted term then is the defined term).
_DEFINITION_CUE = re.compile(r"\b(?:defin\w*|mean(?:s|t|ing)?|counts?\s+as|qualif(?:y|ies)\s+as|refers?\s+to|stands?\s+for)\b",
                             re.IGNORECASE)

#: A defined term written without quotes: capitalised words, joined by "of", "and", "&", "-"
#: ("Change of Control", "Research Quantities", "SpinCo Trade Secrets").
_CAP_TERM = r"([A-Z][\w'’&-]*(?:\s+(?:(?:of|and|&|or|for|to|in|on|the)\s+)?[A-Z][\w'’&-]*){0,5})"

#: Unquoted "how is X defined", "definition / meaning of X", "how does ... define X",
#: "what does ... mean by X", "define X", "what is meant by X", "what counts / qualifies as (a) X",
#: "what does X refer to" / "what does X mean", "what / who is (a) X under ...", and a question ending on "what is X?".
_JOINERS = frozenset({"of", "and", "&", "or", "for", "to", "in", "on", "the"})

_DEFINED_UNQUOTED = [re.compile(p) for p in (
    r"(?i:\bhow\s+(?:is|are)\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM + r"\s+(?i:defined)\b",
    r"(?i:\b(?:definition|meaning)\s+of\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bdefines?\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bmean\s+by\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bwhat\s+is\s+meant\s+by\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\b(?:counts?|qualif(?:y|ies))\s+as\s+(?:the\s+|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bwhat\s+(?:does|do)\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM + r"\s+(?i:refers?\s+to|stands?\s+for|mean)\b",
    r"(?i:\b(?:what|who)\s+(?:is|are)\s+(?:an?\s+|the\s+)?)" + _CAP_TERM + r"\s+(?i:under|in|for)\s",
    r"(?i:\bwhat\s+(?:is|are)\s+(?:an?\s+|the\s+)?)" + _CAP_TERM + r"\s*\?\s*$",
)]


def defined_term_candidates(question: str) -> list[str]:
    """The terms a "what does X mean" question may ask about, surest first: a quoted term
    next to a definition cue ("How is 'Territory' defined", "What counts as a 'Competitor'"),
    then capitalised words in a definition phrasing without quotes ("How does the Dexcel
    agreement define Minimum Order Requirements?"), each also with its trailing words dropped
    ("Change of Control in Section" -> "Change of Control"). Empty when the question asks no definition. The
    candidates are checked against the agreement's recorded definitions (:meth:`Library.search`)."""
    if not _DEFINITION_CUE.search(question) and not re.search(r"\b(?:what|who)\s+(?:is|are)\b", question, re.IGNORECASE):
        return []
    out: list[str] = []
    m = _DEFINED_Q.search(question)
    if m and _DEFINITION_CUE.search(question):
        out.append(m.group(1).strip(" ,."))
    if _DEFINITION_CUE.search(question):
        out += [q.group(1).strip(" ,.") for q in _QUOTED.finditer(question)]
    for pat in _DEFINED_UNQUOTED:
        for u in pat.finditer(question):
            words = u.group(1).split()  # the whole run, then cut before each joining word
            out += [" ".join(words[:n]) for n in range(len(words), 0, -1)
                    if n == len(words) or words[n].lower() in _JOINERS]
    return list(dict.fromkeys(t for t in out if t))

def defined_term_in(question: str) -> str | None:
    """The term a "how is 'X' defined" / "what does 'X' mean" question most likely asks
    about (the first of :func:`defined_term_candidates`), or ``None``."""
    c = defined_term_candidates(question)
    return c[0] if c else None

def term_variants(term: str) -> list[str]:
    """``term`` and its singular / plural ("Research Quantity" / "Research Quantities"), as
    a question may inflect a defined term differently from the agreement."""
    out = [term]
    if term.endswith("ies"):
        out.append(term[:-3] + "y")
    elif term.endswith("y") and not term.endswith(("ay", "ey", "oy", "uy")):
        out.append(term[:-1] + "ies")
    elif term.endswith("s") and not term.endswith("ss"):
        out.append(term[:-1])
    else:
        out.append(term + "s")
    return out


__all__ = ["defined_term_candidates", "defined_term_in", "term_variants"]
