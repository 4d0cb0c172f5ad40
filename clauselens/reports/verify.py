"""Verbatim quote verification.

A quote offered by a model is kept only if, after Unicode NFKC normalisation and collapsing
every run of whitespace to one space (on both sides), it occurs in the text of a retrieved
passage. The match is mapped back to the passage's original characters and from there to
exact ``[start, end)`` spans in ``Document.text`` using the chunk invariant of
:class:`clauselens.parsing.types.Chunk`: ``text == "\\n".join(doc.text[s.start:s.end] for s in spans)``.

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


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """NFKC-normalise ``text`` and collapse whitespace runs to one space.

    Returns ``(normalised, index_map)`` where ``index_map[i]`` is the index in ``text`` of the
    character that produced ``normalised[i]`` (so a normalised match ``[a, b)`` maps back to
    ``text[index_map[a] : index_map[b-1] + 1]``). Leading/trailing whitespace is dropped.
    """
    out: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(text):
        norm = unicodedata.normalize("NFKC", ch)
        for c in norm:
            if c.isspace():
                if not out or out[-1] == " ":
                    continue
                out.append(" ")
                idx.append(i)
            else:
                out.append(c)
                idx.append(i)
    if out and out[-1] == " ":
        out.pop()
        idx.pop()
    return "".join(out), idx


def normalize(text: str) -> str:
    """The normalised form used for comparison (see :func:`normalize_with_map`)."""
    return normalize_with_map(text)[0]


def clean_model_quote(quote: str) -> str:
    """Strip wrapping quotation marks, ellipses and whitespace a model adds around a quote."""
    return quote.strip(_QUOTE_WRAPPERS)


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
_SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+")


def split_quote(quote: str) -> list[str]:
    """Split a model quote into sentence-like pieces (after ``. ; : ! ?`` + whitespace)."""
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
