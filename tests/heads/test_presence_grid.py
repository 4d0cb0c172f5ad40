"""Grid yes/no from the presence head (issue #40): the verdict quotes a verbatim library passage."""

from __future__ import annotations

from dataclasses import dataclass

from clauselens.grid.presence import contract_presence, presence_answer

from .test_presence_head import ACCURAY


@dataclass
class FakeChunk:
    text: str


def test_governing_law_yes_quotes_the_clause_passage() -> None:
    gov_at = ACCURAY.index("12.1.")
    chunks = [FakeChunk(ACCURAY[:gov_at]), FakeChunk(ACCURAY[gov_at:])]
    res = contract_presence(chunks)
    assert res is not None
    gov = presence_answer(res, "Governing Law")
    assert gov is not None and gov.answer == "Yes" and gov.passage_index == 1
    assert gov.quote == chunks[1].text and "threshold" in gov.reason
    nc = presence_answer(res, "Non-Compete")
    assert nc is not None and nc.answer == "No" and nc.quote == ""
    assert presence_answer(res, "Not a CUAD category") is None
    assert presence_answer(None, "Governing Law") is None


class FakeCatalogue:
    def __init__(self, chunks: list[FakeChunk]) -> None:
        self.chunks = chunks

    def rows_of(self, ids: list[str]) -> list[str]:
        return ids

    def passages(self, rows: list[str]) -> list[FakeChunk]:
        return self.chunks


class FakeLibrary:
    def __init__(self, chunks: list[FakeChunk]) -> None:
        self.catalogue = FakeCatalogue(chunks)


def test_run_grid_answers_yes_no_columns_without_a_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from clauselens.grid.cells import CellStore
    from clauselens.grid.questions import CUAD
    from clauselens.grid.runner import GridRow, run_grid

    gov_at = ACCURAY.index("12.1.")
    lib = FakeLibrary([FakeChunk(ACCURAY[:gov_at]), FakeChunk(ACCURAY[gov_at:])])
    qs = [q for q in CUAD if q.category in ("Governing Law", "Non-Compete")]
    assert [q.type for q in qs] == ["text", "yes_no"]  # governing law is a typed column: the model path
    store = CellStore(tmp_path / "cells.sqlite")

    def no_model(*a, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the presence path must not call the model")

    row = GridRow(row_key="r1", agreement="Accuray", doc_id="d1")
    stats = run_grid(lib, [row], [q for q in qs if q.type == "yes_no"], store, presence=True, answer=no_model)
    cells = store.cells()
    assert stats.computed == 1 and len(cells) == 1
    assert cells[0].answer == "No" and cells[0].status == "not found" and cells[0].model == "presence-head"
    assert "presence head" in cells[0].reason
