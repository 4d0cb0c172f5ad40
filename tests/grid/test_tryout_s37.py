"""A new user's tryout (issue #45): "How long does the deal run for?" of a transportation services agreement whose term runs
for a period after an event the clause names ("for a period of fifteen (15) years after the project's in-service date
("Initial Term")") was "not found": a period after an event was read as another event's time. A period the clause itself
names the (Initial) Term is the term, whatever it runs from; a period after the agreement's end still is not.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside each)
or generated (marked). Pure rule tests.
"""

from __future__ import annotations

import itertools

import pytest

from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import rule_cell
from clauselens.grid.term import term_periods
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

# MPLXLP_06_17_2015-EX-10.1-TRANSPORTATION SERVICES AGREEMENT, 2.1
MPLX_TERM = ("2.1 This Agreement is effective June 11, 2015 (the \"Effective Date\"). The Agreement shall continue through the "
             "project's in-service date and for a period of fifteen (15) years after the project's in-service date (\"Initial Term\").")
FILLER = "Shipper shall pay the Tariff Rate for all volumes shipped in each Month."

PERIODS = [("fifteen (15) years", "15 years"), ("five (5) years", "5 years"), ("thirty-six (36) months", "36 months")]
EVENTS = ["the project's in-service date", "the Commercial Operation Date", "the first commercial sale of a Product"]
NAMES = ['("Initial Term")', '(the "Term")', '(the "Initial Period")']


def _cell(question: str, *texts: str):  # type: ignore[no-untyped-def]
    passages = [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))])
                for i, t in enumerate(texts)]
    return rule_cell({"row_key": "r", "question_id": "q", "fingerprint": ""},
                     GridQuestion(id="q", type="duration", question=question), passages)


def test_the_tryout_term_is_read() -> None:
    cell = _cell("How long does the deal run for?", FILLER, MPLX_TERM)
    assert (cell.status, cell.answer) == ("answered", "15 years")
    assert "fifteen (15) years after the project's in-service date" in cell.quote


@pytest.mark.parametrize("period, event, name", list(itertools.product(PERIODS, EVENTS, NAMES)))
def test_a_named_term_after_an_event_is_the_term(period: tuple[str, str], event: str, name: str) -> None:
    text = f"This Agreement shall continue for a period of {period[0]} after {event} {name}."  # generated
    assert [p for p, _s, _e in term_periods(text)] == [period[1]]


@pytest.mark.parametrize("period, name", list(itertools.product(PERIODS, NAMES)))
def test_a_period_after_the_end_named_so_is_no_term(period: tuple[str, str], name: str) -> None:
    for tail in ("after the termination of this Agreement", "following the expiration of this Agreement"):
        text = f"The restrictions shall continue for a period of {period[0]} {tail} {name}."  # generated
        assert term_periods(text) == []


# --------------------------------------------------------------------------- a contents page is no clause's evidence
SOUPMAN = "SoupmanInc_20150814_8-K_EX-10.1_9230148_EX-10.1_Franchise Agreement1.txt"


def test_contents_passages_are_recognised() -> None:
    from clauselens.parsing.contents import is_contents

    page = ("19.3 Review of Agreement 38   19.4 Attorneys' Fees 38   19.5 Atypical Arrangements 38   19.6 Limitation of Adjudicative "
            "Proceedings 39   19.7 Trial by Jury 39")  # SoupmanInc_20150814 (contents, page iv)
    dotted = "\n".join(f"{n}. {t} ........ {p}" for n, t, p in [(1, "Definitions", 1), (2, "Term", 4), (3, "Fees", 5)])  # generated
    assert is_contents(page) and is_contents(dotted)
    assert not is_contents(MPLX_TERM) and not is_contents(FILLER)


def test_a_yes_never_quotes_a_contents_page() -> None:
    from pathlib import Path

    from clauselens.grid.heads import row_heads
    from clauselens.grid.rule import head_yes_no_cell
    from clauselens.parsing import load_document
    from clauselens.parsing.chunks import build_chunks
    from clauselens.parsing.contents import is_contents

    path = Path(__file__).resolve().parents[3] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad" / SOUPMAN
    if not path.exists():
        pytest.skip("../shared/data not present")
    passages = [Passage.from_chunk(c, 0.0, "rule") for c in build_chunks(load_document(path, ocr=False))]
    rh = row_heads([p.text for p in passages])
    if rh is None:
        pytest.skip("presence head not installed")
    cell = head_yes_no_cell({"row_key": "r", "question_id": "q", "fingerprint": ""},
                            GridQuestion(id="q", type="yes_no", question="Is one side barred from working with competitors?"), passages, rh)
    assert cell is not None and not is_contents(cell.quote) and "Counterparts 39" not in cell.quote


def test_a_dates_year_is_no_count_of_months() -> None:
    """QuantumGroupIncFl_20090120_8-K_EX-99.2 (a keyed dev set): a page break between "thirty-six (36)" and "months" leaves
    "Source: QUANTUM GROUP INC /FL, 8-K, 1/20/2009 months following the Hosting Service Ready Date ("Term")": no "2009 months"."""
    from clauselens.grid.values import durations_at

    text = "Source: QUANTUM GROUP INC /FL, 8-K, 1/20/2009 months following the Hosting Service Ready Date (\"Term\")"
    assert durations_at(text) == [] and term_periods(text) == []
    assert [str(p) for p, _s, _e in durations_at("for 2009/10 and for thirty-six (36) months")] == ["36 months"]
