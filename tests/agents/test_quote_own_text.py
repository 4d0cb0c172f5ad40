"""A quote by rule is one contiguous stretch of the document: an ``ancestor`` chunk's text prefixes the
ancestors' headings ("12. Miscellaneous.") to a clause far below them (12.7), and a quote of it must not
glue the two together (found in a fresh-clone tryout of the bundled contract)."""

from __future__ import annotations

from pathlib import Path

from clauselens.agents.archivist import load_one
from clauselens.agents.delivery import lead_quotes, named_clause_quotes, own_start
from clauselens.config import Settings
from clauselens.parsing.chunks import build_chunks
from clauselens.retrieval.types import Passage

PDF = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"


def _passages() -> tuple[str, dict[str, Passage]]:
    doc = load_one(PDF, Settings(use_store=False))
    chunks = [c for c in build_chunks(doc) if c.clause_ref == "12.7"]
    assert chunks, "clause 12.7 of the bundled contract is chunked"
    return doc.text, {f"P{i}": Passage.from_chunk(c, 1.0, "exact") for i, c in enumerate(chunks, 1)}


def test_quotes_of_a_clause_under_a_distant_heading_are_contiguous_in_the_document() -> None:
    text, passages = _passages()
    prefixed = [p for p in passages.values() if len(p.spans) > 1 and p.spans[1].start - p.spans[0].end > 2]
    assert prefixed, "an ancestor chunk of 12.7 carries the '12. Miscellaneous.' heading"
    for p in prefixed:
        s0 = own_start(p)
        assert s0 > 0 and p.text[s0:].startswith("12.7")
    quotes = named_clause_quotes("What does clause 12.7 say?", passages, list(passages))
    quotes += lead_quotes("How are notices given under this agreement?", passages, list(passages))
    assert quotes
    flat = " ".join(text.split())
    for q in quotes:
        shown = " ".join(passages[q.passage_id].text[q.start:q.end].split())
        assert "Miscellaneous" not in shown and shown in flat  # word for word, one stretch of the document


def test_a_chunk_of_touching_spans_is_quoted_from_its_start() -> None:
    _, passages = _passages()
    for p in passages.values():
        if len(p.spans) == 1:
            assert own_start(p) == 0


def test_a_heading_that_matches_the_question_is_quoted_with_the_sentence_under_it() -> None:
    from clauselens.agents.delivery import MIN_LEAD_WORDS

    doc = load_one(PDF, Settings(use_store=False))
    passages = {f"P{i}": Passage.from_chunk(c, 1.0, "bm25") for i, c in enumerate(build_chunks(doc)) if c.clause_ref == "3.1"}
    (q, *_) = lead_quotes("Who may assign this agreement?", passages, list(passages))
    shown = passages[q.passage_id].text[q.start:q.end]
    assert shown.startswith("3.1. Assignment of Inventions.") and len(shown.split()) >= MIN_LEAD_WORDS
    assert "Consultant agrees" in shown and " ".join(shown.split()) in " ".join(doc.text.split())


def test_a_quote_that_starts_at_a_list_item_keeps_the_lists_lead_in() -> None:
    """Clause 9 of the bundled contract is "Consultant agrees to indemnify ... arising out of (i) ... (v) ...": a quote
    for "who pays if someone sues" must say who indemnifies whom, not start at "(i)" (fresh-clone tryout finding)."""
    from clauselens.agents.delivery import quote_window

    doc = load_one(PDF, Settings(use_store=False))
    text = next(c.text for c in build_chunks(doc) if c.clause_ref == "9")
    a, b = quote_window(text, "If the consultant messes up and someone sues, who pays?", 700)  # a window, not the clause
    quote = text[a:b]
    assert quote.startswith("Consultant agrees to indemnify") and "(i) any negligent" in quote
    assert b - a <= 700 and " ".join(quote.split()) in " ".join(doc.text.split())  # one stretch of the document


def test_a_lead_quote_of_a_clause_of_ordinary_length_is_the_whole_clause() -> None:
    """Fresh-clone tryout: at 700 characters the quote leading "is there a limit on how much the company could owe"
    stopped before clause 10's cap sentence, and clause 9's before items (iii)-(v); both clauses are quoted whole."""
    from clauselens.agents.delivery import quote_window

    doc = load_one(PDF, Settings(use_store=False))
    chunks = {c.clause_ref: c.text for c in build_chunks(doc)}
    cap = chunks["10"]
    a, b = quote_window(cap, "Is there a limit on how much the company could owe the consultant if things go wrong?")
    assert "AGGREGATE LIABILITY" in cap[a:b] and cap[a:b].startswith("10. Limitation of Liability")
    nine = chunks["9"]
    a, b = quote_window(nine, "If the consultant messes up and someone sues, who pays?")
    assert "(v)" in nine[a:b] and "(iii)" in nine[a:b]
