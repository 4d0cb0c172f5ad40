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
    assert [q.type for q in qs] == ["jurisdiction", "yes_no"]  # governing law is a typed column: read by rule (issue #45)
    store = CellStore(tmp_path / "cells.sqlite")

    def no_model(*a, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the presence path must not call the model")

    row = GridRow(row_key="r1", agreement="Accuray", doc_id="d1")
    stats = run_grid(lib, [row], [q for q in qs if q.type == "yes_no"], store, presence=True, answer=no_model)
    cells = store.cells()
    assert stats.computed == 1 and len(cells) == 1
    assert cells[0].answer == "No" and cells[0].status == "not found" and cells[0].model == "presence-head"
    assert "presence head" in cells[0].reason


def test_grid_command_has_the_presence_switch_and_the_setting_defaults_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import re

    from typer.testing import CliRunner

    from clauselens.cli import app
    from clauselens.config import Settings

    res = CliRunner().invoke(app, ["grid", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert res.exit_code == 0
    text = re.sub(r"\x1b\[[0-9;]*m", "", res.output)
    assert "--presence" in text and "--no-presence" in text
    assert Settings().grid_presence is True  # on by default: the head is committed
    monkeypatch.setenv("CLAUSELENS_GRID_PRESENCE", "false")
    assert Settings().grid_presence is False


def test_grid_command_passes_no_presence_to_the_runner(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--no-presence`` reaches ``run_grid(presence=False)``; without the switch the setting decides."""
    from typer.testing import CliRunner

    import clauselens.grid as grid
    import clauselens.interfaces.grid_commands as gc
    from clauselens.cli import app
    from clauselens.grid.runner import GridStats

    seen: list[bool] = []

    def fake_run_grid(*a, presence: bool = False, **kw):  # type: ignore[no-untyped-def]
        seen.append(presence)
        return GridStats(total=0)

    monkeypatch.setattr(grid, "run_grid", fake_run_grid)
    monkeypatch.setattr(gc, "grid_rows", lambda *a, **kw: (None, []))
    monkeypatch.setattr("clauselens.llm.get_chat_model", lambda *a, **kw: None)
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path))
    out = tmp_path / "g.json"
    for extra in (["--no-presence"], [], ["--presence"]):
        CliRunner().invoke(app, ["grid", str(tmp_path), "--preset", "cuad", "--out", str(out), *extra])
    assert seen == [False, True, True]
