"""Grid pieces without a model or a library: question files, the CUAD preset against CUAD's own
category names, a cell's status from retrieval + reply (verbatim check), typed answers, and the
runner going on past a cell whose model call fails."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from clauselens.errors import ConfigError, ModelUnavailableError
from clauselens.grid import CUAD, CellStore, GridRow, load_questions, run_grid
from clauselens.grid.answer import CHECK_VERSION, CellAnswer, finish, normalise, topic_check
from clauselens.grid.questions import GridQuestion, parse_questions
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage, SearchResult

MASTER = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "master_clauses.csv"
TEXT = "7.2 Either party may terminate this Agreement on ninety (90) days written notice. Notices go to the address below."


def _passage(text: str = TEXT, cid: str = "c1") -> Passage:
    return Passage(chunk_id=cid, doc_id="d1", node_id="n1", text=text, spans=[Span(start=100, end=100 + len(text))],
                   clause_ref="7.2", page_start=3, page_end=3, source_path="/tmp/x.pdf")


def _base() -> dict:
    return {"row_key": "sha", "question_id": "q", "fingerprint": "f", "agreement": "A", "source_path": "/tmp/x.pdf"}


YN = GridQuestion(id="tfc", question="Can a party terminate the agreement?", type="yes_no")


def test_questions_yaml_csv_and_errors(tmp_path: Path) -> None:
    y = tmp_path / "q.yaml"
    y.write_text("- question: What notice period applies?\n  type: Duration\n- id: law\n  question: Which law governs?\n")
    qs = load_questions(y)
    assert [q.id for q in qs] == ["what_notice_period_applies", "law"] and qs[0].type == "duration" and qs[1].type == "text"
    c = tmp_path / "q.csv"
    c.write_text("id,question,type,search\nmfn,Is there a most favoured nation clause?,yes/no,more favorable terms\n")
    (q,) = load_questions(c)
    assert q.type == "yes_no" and q.search_text == "more favorable terms"
    with pytest.raises(ConfigError, match="question 1 is invalid"):
        parse_questions("- id: a\n  question: Which?\n  type: colour\n", "yaml")
    with pytest.raises(ConfigError, match="unique"):
        parse_questions("id,question\na,First question\na,Second question\n", "csv")
    (tmp_path / "q.txt").write_text("x")
    with pytest.raises(ConfigError, match="must be .yaml"):
        load_questions(tmp_path / "q.txt")


@pytest.mark.skipif(not MASTER.exists(), reason="needs ../shared/data/cuad")
def test_cuad_preset_is_cuads_41_categories() -> None:
    with open(MASTER, encoding="utf-8") as f:
        header = next(csv.reader(f))
    cats = [h for h in header[1:] if not h.replace(" ", "").endswith("-Answer")]
    assert len(CUAD) == 41 and sorted(q.category for q in CUAD) == sorted(cats)
    assert len({q.id for q in CUAD}) == 41


def test_cell_status_from_reply() -> None:
    res = SearchResult(query="q", passages=[_passage()])
    ok = finish(_base(), YN, res, CellAnswer(found=True, passage=1, quote="may terminate this Agreement on ninety (90)  days written notice",
                                             answer="yes"))
    assert ok.status == "answered" and ok.answer == "Yes" and ok.clause == "7.2" and ok.page == 3
    # widened to its sentence, as a report's quotes are
    assert ok.quote == "7.2 Either party may terminate this Agreement on ninety (90) days written notice."
    assert ok.quote_spans and ok.quote_spans[0] == [100, 100 + TEXT.index(" Notices")]
    assert ok.check == CHECK_VERSION and ok.reply is not None and ok.reply["answer"] == "yes"
    assert ok.link.endswith("x.pdf#page=3")
    bad = finish(_base(), YN, res, CellAnswer(found=True, passage=1, quote="may end the contract at will", answer="Yes"))
    # an unverified Yes / No is not shown (the model's verdict without a checked quote; a new user's tryout, 2026-12-06)
    assert bad.status == "unverified" and bad.quote == "" and bad.answer == "" and bad.reply["answer"] == "Yes"
    # the model found nothing, but the retrieved passage speaks of terminating: not shown as "No" (issue #45)
    no = finish(_base(), YN, res, CellAnswer(found=False))
    assert no.status == "unverified" and no.answer == "" and "not shown as No" in no.reason and "P1" in no.reason
    other = SearchResult(query="q", passages=[_passage("9.1 Notices go to the address below.")])
    no = finish(_base(), YN, other, CellAnswer(found=False))
    assert no.status == "not found" and no.answer == "No"
    abst = finish(_base(), YN, SearchResult(query="q", abstained=True, reason="no matching clause found: x"), None)
    assert abst.status == "not found" and "no matching clause" in abst.reason


def test_topic_check_withholds_an_off_topic_quote() -> None:
    """A verbatim quote about something else (the 1.5B answering "Yes" to exclusivity with the
    governing-law sentence) is not an answered cell."""
    excl = GridQuestion(id="ex", question="Is there exclusivity?", type="yes_no", terms="exclusiv; sole")
    text = "12.1 This Agreement is governed by the laws of Ontario. 12.2 Distributor is the sole distributor in Canada."
    res = SearchResult(query="q", passages=[_passage(text)])
    off = finish(_base(), excl, res, CellAnswer(found=True, passage=1, quote="governed by the laws of Ontario", answer="Yes"))
    assert off.status == "unverified" and off.quote == "" and "does not mention the question's topic" in off.reason
    assert off.model_quote == "12.1 This Agreement is governed by the laws of Ontario."
    on = finish(_base(), excl, res, CellAnswer(found=True, passage=1, quote="Distributor is the sole distributor", answer="Yes"))
    assert on.status == "answered" and on.quote == "12.2 Distributor is the sole distributor in Canada."
    assert topic_check(excl, "EXCLUSIVELY") == ["exclusiv"] and topic_check(excl, "nonexclusive") == []
    generic = GridQuestion(id="g", question="What does the agreement say?", type="text")
    assert topic_check(generic, "anything") == ["*"]  # generic words only: no topic terms, no topic check
    phrase = GridQuestion(id="r", question="ROFR?", type="yes_no", terms=["first  Refusal", "%"])
    assert phrase.terms == ["first refusal", "%"] and topic_check(phrase, "a right of first\nrefusal") == ["first refusal"]
    assert topic_check(phrase, "10% of net sales") == ["%"]
    (q,) = parse_questions("id,question,type,terms\nx,Is liability capped?,yes_no,liab; Limit \n", "csv")
    assert q.terms == ["liab", "limit"]
    assert sum(1 for c in CUAD if c.terms) == 38 and all(c.terms for c in CUAD if not c.front_matter)


def test_stored_cells_are_rechecked_without_the_model(tmp_path: Path) -> None:
    """A cell stored under older checks is re-checked from its stored reply: no model call."""
    from clauselens.grid.answer import fingerprint
    from clauselens.grid.cells import Cell

    class Lib:
        def search(self, *a, **kw):
            return SearchResult(query="q", passages=[_passage("4.1 Neither party shall disparage the other. 4.2 Ontario law.")])

    q = GridQuestion(id="nd", question="Non-disparagement?", type="yes_no", terms="disparag")
    store = CellStore(tmp_path / "c.sqlite")
    fp = fingerprint(q, "m")
    base = {"row_key": "r1", "question_id": "nd", "fingerprint": fp, "agreement": "A", "doc_id": "d1"}
    store.put(Cell(**base, status="answered", answer="Yes", quote="4.2 Ontario law."))  # old cell: off topic, no check
    calls: list = []
    stats = run_grid(Lib(), [GridRow(row_key="r1", agreement="A", doc_id="d1")], [q], store, model=object(), model_id="m",
                     yes_no_model=True, answer=lambda *a, **kw: calls.append(a))
    (cell,) = store.cells()
    assert not calls and stats.rechecked == 1 and stats.computed == 0
    assert cell.status == "unverified" and cell.check == CHECK_VERSION and cell.model_quote == "4.2 Ontario law."
    stats = run_grid(Lib(), [GridRow(row_key="r1", agreement="A", doc_id="d1")], [q], store, model=object(), model_id="m",
                     yes_no_model=True, answer=lambda *a, **kw: calls.append(a))
    assert not calls and stats.rechecked == 0 and stats.reused == 1


def test_no_model_call_when_no_passage_mentions_the_topic(tmp_path: Path) -> None:
    class Lib:
        def search(self, *a, **kw):
            return SearchResult(query="q", passages=[_passage("9.1 Ontario law governs. 9.2 Notices in writing.")])

    q = GridQuestion(id="esc", question="Source code escrow?", type="yes_no", terms="escrow; source code")
    calls: list = []
    store = CellStore(tmp_path / "c.sqlite")
    run_grid(Lib(), [GridRow(row_key="r1", agreement="A", doc_id="d1")], [q], store, model=object(), model_id="m",
             yes_no_model=True, answer=lambda *a, **kw: calls.append(a))
    (cell,) = store.cells()
    assert not calls and cell.status == "not found" and cell.answer == "No"
    assert "no retrieved passage mentions the question's topic (escrow, source code)" in cell.reason


def test_typed_answers() -> None:
    d = GridQuestion(id="d", question="When?", type="date")
    assert normalise(d, "May 8, 2014") == "2014-05-08"
    assert normalise(d, "8th day of May, 2014") == "2014-05-08"
    assert normalise(d, "upon execution") == "upon execution"
    assert normalise(d, "two years after the Effective Date") == "two years after the Effective Date"
    assert normalise(YN, "No.") == "No"


class _FakeLibrary:
    def search(self, question: str, k: int, **kw: object) -> SearchResult:
        return SearchResult(query=question, passages=[_passage()])


def test_runner_goes_on_past_a_failing_cell(tmp_path: Path) -> None:
    calls = []

    def answer(model, q, passages, method="auto"):
        calls.append(q.id)
        if q.id == "boom":
            raise ModelUnavailableError("cannot reach model server at http://x: refused")
        return CellAnswer(found=True, passage=1, quote="Either party may terminate this Agreement",
                          answer="Yes" if q.type == "yes_no" else "either party may terminate")

    qs = [YN, GridQuestion(id="boom", question="May it terminate?", type="yes_no"), GridQuestion(id="law", question="Who may terminate?")]
    rows = [GridRow(row_key="r1", agreement="A", doc_id="d1"), GridRow(row_key="r2", agreement="B", error="could not read: bad PDF")]
    store = CellStore(tmp_path / "cells.sqlite")
    stats = run_grid(_FakeLibrary(), rows, qs, store, model=None, model_id="fake", yes_no_model=True, answer=answer)
    cells = {(c.row_key, c.question_id): c for c in store.cells()}
    assert cells[("r1", "tfc")].status == "answered" and cells[("r1", "law")].status == "answered"
    assert cells[("r1", "boom")].status == "error" and "cannot reach" in cells[("r1", "boom")].reason
    assert all(cells[("r2", q.id)].status == "error" for q in qs)
    assert stats.computed == 6 and stats.reused == 0 and calls == ["tfc", "boom", "law"]
    again = run_grid(_FakeLibrary(), rows[:1], qs, store, model=None, model_id="fake", yes_no_model=True, answer=answer)
    assert again.reused == 2 and again.computed == 1 and calls[-1] == "boom"  # only the error cell is retried
    changed = run_grid(_FakeLibrary(), rows[:1], qs, store, model=None, model_id="other-model", yes_no_model=True, answer=answer)
    assert changed.computed == 3  # another model: a different fingerprint, nothing reused
