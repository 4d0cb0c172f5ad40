"""Verbatim quote verification, and extension of a quote to clause boundaries.

A quote offered by a model is kept only if its *comparison form* occurs in the text of a
retrieved passage. Both sides are put in that form (:func:`normalize_with_map`): Unicode NFKC
(ligatures such as "ﬁ"/"ﬂ" become "fi"/"fl"), curly quotes and primes to straight quotes,
every dash and minus to "-", soft hyphens dropped, lower case, whitespace runs (line breaks
included) to one space, and a hyphen between two letters dropped together with the line break
after it (PDF hyphenation "termi-\nnation" == "termination"; "self-\nemployed" ==
"self-employed"). These are the artefacts PDF extraction and models introduce; none of them
changes which words are quoted. The match is mapped back to the passage's original characters
and from there to exact ``[start, end)`` spans in ``Document.text`` using the chunk invariant of
:class:`clauselens.parsing.types.Chunk`: ``text == "\\n".join(doc.text[s.start:s.end] for s in spans)``.
The cited text is always the source's own characters, never the model's copy.

:func:`extend_to_boundaries` widens a match to whole words and to sentence / clause boundaries
(a quote cut mid-word or mid-clause, "Consultant may not sell, assign or deleg", becomes the
whole clause), so the cited text cannot hide a "not" or a condition just outside the quote.

Pure functions; no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping, Sequence

from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

# Characters a model often wraps a quote in; stripped from the model's quote only.
_QUOTE_WRAPPERS = " \t\r\n\"'“”‘’«»`…."


#: Characters mapped before comparison (after NFKC): typographic quotes/primes and dashes.
_CHAR_MAP = {
    **{c: '"' for c in "“”„‟«»″〃"},
    **{c: "'" for c in "‘’‚‛′`"},
    **{c: "-" for c in "‐‑‒–—―−﹘﹣－"},
}
#: Dropped before comparison: soft hyphen, zero-width characters.
_DROP = frozenset("\u00ad\u200b\u200c\u200d\ufeff")


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """The comparison form of ``text`` (see the module docstring) with an index map.

    Returns ``(normalised, index_map)`` where ``index_map[i]`` is the index in ``text`` of the
    character that produced ``normalised[i]`` (so a normalised match ``[a, b)`` maps back to
    ``text[index_map[a] : index_map[b-1] + 1]``). Leading/trailing whitespace is dropped.
    """
    out: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(text):
        if ch in _DROP:
            continue
        for c in unicodedata.normalize("NFKC", ch):
            c = _CHAR_MAP.get(c, c)
            if c in _DROP:
                continue
            if c.isspace():
                if not out or out[-1] == " ":
                    continue
                out.append(" ")
                idx.append(i)
            else:
                for lc in c.lower():
                    out.append(lc)
                    idx.append(i)
    if out and out[-1] == " ":
        out.pop()
        idx.pop()
    # hyphenation: letter "-" [space] letter -> the two letters joined (both sides get the same form)
    j_out: list[str] = []
    j_idx: list[int] = []
    n = len(out)
    k = 0
    while k < n:
        c = out[k]
        if c == "-" and j_out and j_out[-1].isalpha():
            nxt = k + 1
            if nxt < n and out[nxt] == " ":
                nxt += 1
            if nxt < n and out[nxt].isalpha():
                k = nxt
                continue
        j_out.append(c)
        j_idx.append(idx[k])
        k += 1
    return "".join(j_out), j_idx


def normalize(text: str) -> str:
    """The normalised form used for comparison (see :func:`normalize_with_map`)."""
    return normalize_with_map(text)[0]


#: A passage header the model copied in front of its quote: the prompt labels passages
#: ``[P3] Consulting Agreement | clause 7.2 | Term and Termination | p. 3``, and small models
#: echo it ("2. Confidentiality Obligations > 2.1 | p. 1 The Receiving Party shall ...").
_HEADER_ECHO = re.compile(r"^\s*(?:\[P\d+\]\s*)?(?:[^\n|]{0,160}\|){1,5}\s*p(?:p)?\.\s*\d+(?:\s*[-–]\s*\d+)?\s*[:\-–—]?\s*")


#: A "quote" that is only passage ids ("P10", "[P3], P4"): the model named its source instead
#: of quoting it; seen in a fresh-clone run, where "P10" then showed under knowledge gaps.
_IDS_ONLY = re.compile(r"^\W*(?:P\d{1,4}\W*)+$")


def clean_model_quote(quote: str) -> str:
    """Strip wrapping quotation marks, ellipses and whitespace a model adds around a quote,
    and a passage header it copied in front of it (:data:`_HEADER_ECHO`); a quote that is only
    passage ids (:data:`_IDS_ONLY`) becomes empty (no quote: the finding is unverified)."""
    q = quote.strip(_QUOTE_WRAPPERS)
    if _IDS_ONLY.match(q):
        return ""
    return _HEADER_ECHO.sub("", q, count=1).strip(_QUOTE_WRAPPERS) or q


def passage_offsets_to_doc_spans(passage: Passage, start: int, end: int) -> list[Span]:
    """Map ``[start, end)`` in ``passage.text`` to spans in ``Document.text``.

    Uses the chunk invariant (segments joined by one ``"\\n"``). Returns ``[]`` if the
    passage's spans are inconsistent with its text (then no exact source span is claimed).
    """
    spans = passage.spans
    if not spans:
        return []
    total = sum(s.end - s.start for s in spans) + len(spans) - 1
    if total != len(passage.text):
        return []
    out: list[Span] = []
    pos = 0
    for s in spans:
        seg_len = s.end - s.start
        seg_start, seg_end = pos, pos + seg_len
        a, b = max(start, seg_start), min(end, seg_end)
        if a < b:
            out.append(Span(start=s.start + (a - seg_start), end=s.start + (b - seg_start)))
        pos = seg_end + 1  # the "\n" joiner
    return out


@dataclass(frozen=True)
class QuoteMatch:
    """Where a quote was found: passage id, ``[start, end)`` in the passage text, the
    original text there, and the document spans."""

    passage_id: str
    start: int
    end: int
    text: str
    doc_spans: list[Span]


def find_quote(quote: str, passage_id: str, passage: Passage) -> QuoteMatch | None:
    """Find ``quote`` in one passage (normalised comparison). ``None`` if absent or empty."""
    q = normalize(clean_model_quote(quote))
    if not q:
        return None
    norm, idx = normalize_with_map(passage.text)
    pos = norm.find(q)
    if pos < 0:
        return None
    a, b = idx[pos], idx[pos + len(q) - 1] + 1
    return QuoteMatch(passage_id, a, b, passage.text[a:b], passage_offsets_to_doc_spans(passage, a, b))


def verify_quote(
    quote: str, passages: Mapping[str, Passage], prefer: Sequence[str] = ()
) -> QuoteMatch | None:
    """Look for ``quote`` first in the passages named in ``prefer`` (the ones the model
    cited), then in every other retrieved passage. ``None`` means: drop the quote."""
    order = [p for p in prefer if p in passages] + [p for p in passages if p not in prefer]
    for pid in order:
        m = find_quote(quote, pid, passages[pid])
        if m is not None:
            return m
    return None


#: A quote piece shorter than this many words is not cited on its own (too generic to ground).
MIN_PIECE_WORDS = 5
_SENTENCE_END = re.compile(r"(?<=[;:!?])\s+|(?<=\.)\s+(?![a-z])|\s*\n\s*|\s*(?:\[\.\.\.\]|\[…\]|\.\.\.|…)\s*")


def split_quote(quote: str) -> list[str]:
    """Split a model quote into sentence-like pieces (after ``. ; : ! ?`` + whitespace -- not a
    full stop the quote goes on from in lower case, "etc. not to exceed" --, at a
    line break -- a model may glue a passage header onto a quote on a new line -- and at an
    ellipsis ``...`` / ``…`` / ``[...]`` where the model skipped text)."""
    return [p for p in (x.strip() for x in _SENTENCE_END.split(clean_model_quote(quote))) if p]


def verify_pieces(
    quote: str, passages: Mapping[str, Passage], prefer: Sequence[str] = ()
) -> tuple[list[QuoteMatch], list[str]]:
    """Sentence-level fallback for a quote that is not verbatim as a whole (e.g. a model
    stitched a heading onto a clause, or skipped a sentence): each piece of
    :func:`split_quote` with at least :data:`MIN_PIECE_WORDS` words that is verbatim in a
    retrieved passage is kept (each kept piece is itself verbatim source text).

    Returns ``(matches, unverified_pieces)``; short pieces count as unverified.
    """
    found: list[QuoteMatch] = []
    missing: list[str] = []
    for piece in split_quote(quote):
        m = verify_quote(piece, passages, prefer) if len(piece.split()) >= MIN_PIECE_WORDS else None
        if m is None:
            missing.append(piece)
        elif not any(f.passage_id == m.passage_id and f.start == m.start for f in found):
            found.append(m)
    return found, missing


#: Characters that end a sentence or clause when followed by whitespace (or the text's end).
CLAUSE_END = ".;:!?"
#: Longest text an extension to clause boundaries may produce; beyond it only whole words are added.
MAX_EXTENDED_CHARS = 900


#: A printed clause number opening the next clause ("1.27 "Minimum ...", "12.3 The Supplier"), in text
#: whose line breaks were lost: a clause boundary even without a full stop before it ("... and all
#: supplements thereto 1.27 "Minimum Order Requirements" shall mean ..."), unless a word such as
#: "Section" makes it a cross-reference.
_NUMBER_OPENS = re.compile(r"\d+(?:\.\d+)+\.?\s+[\"“A-Z]")
_REF_WORD_BEFORE = re.compile(r"\b(?i:section|sections|clause|clauses|article|articles|paragraph|paragraphs|schedule|"
                              r"exhibit|annex|appendix|and|or|to|of|in|under)\s*$")


def _number_opens_at(text: str, a: int) -> bool:
    return (0 < a and text[a - 1].isspace() and _NUMBER_OPENS.match(text, a) is not None
            and _REF_WORD_BEFORE.search(text, max(0, a - 14), a) is None)


def printed_clause_numbers(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, number)`` of each clause number printed in ``text`` as the opening of a clause
    (:data:`_NUMBER_OPENS`: at the start of ``text``, or after white space and not after a word such as
    "Section"); ``end`` is where the clause's own text begins."""
    out = []
    for m in re.finditer(r"(?<![\w.,$€£])(\d+(?:\.\d+)+)\.?\s*", text):
        a = m.start()
        if (a == 0 and _NUMBER_OPENS.match(text) is not None) or _number_opens_at(text, a):
            out.append((a, m.end(), m.group(1)))
    return out


def _lowercase_goes_on(text: str, j: int) -> bool:
    """A full stop at ``text[j]`` that the text goes on from in lower case ("couriers, etc. not to
    exceed $25,000") ends no sentence: an abbreviation, not a boundary."""
    if text[j] != ".":
        return False
    k = j + 1
    while k < len(text) and text[k] in " \t":
        k += 1
    return k > j + 1 and k < len(text) and text[k].islower()


def _clause_start_at(text: str, a: int) -> bool:
    j = a - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return (j < 0 or text[j] in "\n\r" or (text[j] in CLAUSE_END and j < a - 1 and not _lowercase_goes_on(text, j))
            or _number_opens_at(text, a))


def _clause_end_at(text: str, b: int) -> bool:
    if b >= len(text) or text[b] in "\n\r":
        return True
    if text[b].isspace() and not text[b - 1].isspace():
        k = b
        while k < len(text) and text[k] in " \t":
            k += 1
        if _number_opens_at(text, k):
            return True
    return text[b - 1] in CLAUSE_END and text[b].isspace() and not _lowercase_goes_on(text, b - 1)


def clause_bounds(text: str, a: int, b: int, max_chars: int = MAX_EXTENDED_CHARS) -> tuple[int, int, bool]:
    """``[a, b)`` of ``text`` widened to whole words and, when the result stays within
    ``max_chars``, to the enclosing sentence / clause boundaries (start of text or line, or
    after ``. ; : ! ?`` + whitespace; end of text or line, or ``. ; : ! ?`` + whitespace).

    Returns ``(start, end, at_clause_boundaries)``; the third value is False when only whole
    words could be added (the clause is longer than ``max_chars``).
    """
    a, b = max(0, a), min(len(text), b)
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    # whole words first
    wa, wb = a, b
    while wa > 0 and text[wa - 1].isalnum() and text[wa].isalnum():
        wa -= 1
    while wb < len(text) and wb > 0 and text[wb - 1].isalnum() and text[wb].isalnum():
        wb += 1
    # then clause boundaries
    ca = wa
    while not _clause_start_at(text, ca):
        ca -= 1
    while ca < wa and text[ca].isspace():
        ca += 1
    cb = wb
    while not _clause_end_at(text, cb):
        cb += 1
    while cb > ca and text[cb - 1].isspace():
        cb -= 1
    if cb - ca <= max(max_chars, wb - wa):
        return ca, cb, True
    return wa, wb, False


def extend_match(m: QuoteMatch, passage: Passage, max_chars: int = MAX_EXTENDED_CHARS) -> tuple[QuoteMatch, bool]:
    """``m`` widened by :func:`clause_bounds` inside its passage, with fresh document spans.
    Returns ``(match, at_clause_boundaries)``; ``match is m`` when nothing was added."""
    a, b, full = clause_bounds(passage.text, m.start, m.end, max_chars)
    if (a, b) == (m.start, m.end):
        return m, full
    return QuoteMatch(m.passage_id, a, b, passage.text[a:b], passage_offsets_to_doc_spans(passage, a, b)), full


#: A sentence selected for a claim whose own quote failed must share at least this share of the
#: claim's content words (stemmed, stopwords dropped) ...
SELECT_MIN_SHARE = 0.6
#: ... and at least this many of them.
SELECT_MIN_WORDS = 3
#: A sentence: up to ". ; ! ?" followed by whitespace, or a line end ("2.1" stays inside; a full
#: stop the text goes on from in lower case -- "etc. not to exceed" -- ends none).
_SENTENCE_SPAN = re.compile(r"(?:[^.;!?\n]|[.;!?](?=[^\s])|\.(?=[ \t]+[a-z]))+(?:[.;!?]+|$)")


#: A model quote of at most this many words that holds a named passage's clause number only points at that clause.
POINTER_MAX_WORDS = 12


def _pointed_clause(quote: str, passages: Mapping[str, Passage], pids: Sequence[str]) -> QuoteMatch | None:
    """The first sentence of the named passage whose clause number a short model quote holds
    ("2. Confidentiality Obligations > 2.1 | p. 1" points at clause 2.1), or ``None``."""
    if not quote or len(quote.split()) > POINTER_MAX_WORDS:
        return None
    for pid in pids:
        p = passages.get(pid)
        if p is None or not p.clause_ref or not re.search(rf"(?<![\w.]){re.escape(p.clause_ref)}(?![\w]|\.\d)", quote):
            continue
        for m in _SENTENCE_SPAN.finditer(p.text):
            a = m.start() + (len(m.group()) - len(m.group().lstrip()))
            if len(p.text[a:m.end()].split()) >= MIN_PIECE_WORDS:
                return QuoteMatch(pid, a, m.end(), p.text[a:m.end()], passage_offsets_to_doc_spans(p, a, m.end()))
    return None


def select_quote(statement: str, passages: Mapping[str, Passage], pids: Sequence[str], quote: str = "") -> QuoteMatch | None:
    """The sentence of the passages a finding names (``pids``) that says most of its claim, for
    a finding whose model quote could not be verified at all (small models copy the passage
    header -- "2. Confidentiality Obligations > 2.1 | p. 1" -- or a passage id instead of the
    text). A sentence qualifies when it holds at least :data:`SELECT_MIN_SHARE` of the claim's
    content words and at least :data:`SELECT_MIN_WORDS` of them (the BM25 analyser's tokens:
    stemmed, stopwords dropped); the best one wins, the earlier on a tie. The result is the
    source's own characters, like any verified quote; whether it *supports* the claim is left to
    the support checks, as for the model's own quotes. ``None`` when no sentence qualifies or the
    finding names no retrieved passage (no search beyond the passages the model cited). When no
    sentence qualifies and the model's ``quote`` is only a pointer to a named passage's clause
    (its header or number, at most :data:`POINTER_MAX_WORDS` words), that clause's first
    sentence is chosen (:func:`_pointed_clause`)."""
    from clauselens.retrieval.analyzer import LegalAnalyzer

    an = LegalAnalyzer()
    claim = set(an.tokenize(statement))
    if len(claim) < SELECT_MIN_WORDS:
        return _pointed_clause(quote, passages, pids)
    best: tuple[float, QuoteMatch] | None = None
    for pid in pids:
        p = passages.get(pid)
        if p is None:
            continue
        for m in _SENTENCE_SPAN.finditer(p.text):
            a = m.start() + (len(m.group()) - len(m.group().lstrip()))
            b = m.end()
            shared = claim & set(an.tokenize(p.text[a:b]))
            share = len(shared) / len(claim)
            if len(shared) >= SELECT_MIN_WORDS and share >= SELECT_MIN_SHARE and (best is None or share > best[0]):
                best = (share, QuoteMatch(pid, a, b, p.text[a:b], passage_offsets_to_doc_spans(p, a, b)))
    return best[1] if best else _pointed_clause(quote, passages, pids)
