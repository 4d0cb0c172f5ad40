"""Sentence units (clauselens.parsing.sentences) against ContractNLI's own segmentation."""

from __future__ import annotations

from pathlib import Path

from clauselens.parsing.sentences import sentence_spans
from clauselens.retrieval.exemplars import load_contractnli

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "contractnli"


def test_spans_are_trimmed_ordered_and_keep_enumerators_with_their_text():
    t = ("1. Definitions. The Recipient shall not disclose, e.g. to Acme Inc. any data. It ends on Dec. 31, 2020.\n"
         "2.1. The obligations expire the earlier of (a) three years, or (b) the Sale.\n\n   ____\n")
    got = [t[s.start:s.end] for s in sentence_spans(t)]
    assert got == ["1. Definitions.", "The Recipient shall not disclose, e.g. to Acme Inc. any data.",
                   "It ends on Dec. 31, 2020.", "2.1. The obligations expire the earlier of", "(a) three years, or",
                   "(b) the Sale.", "____"]
    spans = sentence_spans(t)
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    # offsets are into the whole text when a window is given
    inner = sentence_spans(t, t.index("2.1."), len(t))
    assert t[inner[0].start:inner[0].end] == "2.1. The obligations expire the earlier of"


def test_most_contractnli_spans_are_reproduced_exactly():
    """ContractNLI's annotators' units are what the precedent bank holds; our splitter must
    cut contracts the same way for most of them (measured 74% on the first 50 test documents)."""
    split = load_contractnli(DATA / "test.json")
    exact = total = 0
    for d in split.documents[:50]:
        mine = {(s.start, s.end) for s in sentence_spans(d.text)}
        for s, e in d.spans:
            piece = d.text[s:e]
            s2, e2 = s + len(piece) - len(piece.lstrip()), e - (len(piece) - len(piece.rstrip()))
            if e2 > s2:
                total += 1
                exact += (s2, e2) in mine
    assert exact / total >= 0.70, (exact, total)
