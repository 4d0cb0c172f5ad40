"""Messages a new user met in a fresh-clone tryout: a folder given where files are expected says
what to do instead, one bad file's error is printed once, a plain-text file has no "None pages",
and ``grid --export-only`` without a cell store fails instead of writing an empty table."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from clauselens.cli import app
from clauselens.config import Settings
from clauselens.pipeline import run_models
from clauselens.reports.render_parts import models_text
from clauselens.reports.support import check_coverage

ROBUST = Path(__file__).resolve().parents[1].parent / "shared" / "robustness"
runner = CliRunner()


def test_ingest_of_a_folder_says_what_to_do_and_prints_the_error_once(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("1. Term. This Agreement lasts two years.\n")
    res = runner.invoke(app, ["ingest", str(tmp_path)])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "a folder, not a file" in res.output and "library add" in res.output
    assert res.output.count("a folder, not a file") == 1


def test_ingest_of_plain_text_shows_no_page_count(tmp_path: Path) -> None:
    f = tmp_path / "contract.txt"
    f.write_text("1. Term. This Agreement lasts two years.\n\n2. Law. The laws of Delaware govern.\n")
    res = runner.invoke(app, ["ingest", str(f), "--no-cache"])
    assert res.exit_code == 0, res.output
    assert "plain text, no pages" in res.output and "0 pages" not in res.output and "None pages" not in res.output


def test_grid_export_only_without_a_store_fails_and_creates_nothing(tmp_path: Path) -> None:
    q = tmp_path / "q.yaml"
    q.write_text("- id: law\n  question: Which law governs?\n")
    store = tmp_path / "missing.cells.sqlite"
    res = runner.invoke(app, ["grid", str(tmp_path), "--questions", str(q), "--out", str(tmp_path / "out.csv"),
                              "--store", str(store), "--export-only"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "no cell store" in " ".join(res.output.split())
    assert not store.exists() and not (tmp_path / "out.csv").exists()


def test_a_run_without_model_calls_says_none_was_called() -> None:
    models = run_models(Settings(), None, events=[])
    text = models_text(models)
    assert text.startswith("none called") and "researcher" not in text
    called = run_models(Settings(), None, events=[{"type": "llm_call", "agent": "interrogator"}])
    assert models_text(called).startswith(next(iter(called.values())))


def test_coverage_note_shows_the_claims_words_not_stems() -> None:
    issue = check_coverage("The party goes and ends something up somewhere entirely different overall",
                           "The Company may terminate this Agreement on thirty days notice.")
    assert issue is not None
    assert "goes" in issue.detail and "something" in issue.detail and "someth," not in issue.detail
