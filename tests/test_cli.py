"""CLI bad input: clear message, exit code != 0, no traceback; ingest on a real file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clauselens.cli import app

ROBUST = Path(__file__).resolve().parents[1].parent / "shared" / "robustness"
runner = CliRunner()


def _run(args: list[str]):
    res = runner.invoke(app, args)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, Path]:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"PK\x03\x04 this is a zip, not a PDF")
    return {"empty": empty, "fake": fake}


@pytest.mark.parametrize("case, expect", [
    ("missing", "file not found"),
    ("empty", "empty.txt: the file is empty (0 bytes): no text found"),
    ("whitespace", "whitespace_only.txt: no text found"),
    ("fake", "not a PDF"),
    ("encrypted", "password required"),
    ("image_only", "OCR"),
])
@pytest.mark.parametrize("command", ["ask", "ingest"])
def test_bad_input_clear_message_nonzero_exit(command, case, expect, bad_files, tmp_path):
    path = {
        "missing": tmp_path / "nope.pdf", "empty": bad_files["empty"], "fake": bad_files["fake"],
        "whitespace": ROBUST / "whitespace_only.txt", "encrypted": ROBUST / "encrypted_user_pw.pdf",
        "image_only": ROBUST / "scanned_nda_page1.pdf",
    }[case]
    args = [command, str(path), "What is the governing law?", "--no-ocr"] if command == "ask" else [command, "--no-ocr", str(path)]
    res = _run(args)
    assert res.exit_code == 2  # IngestError
    assert "Error:" in res.output and expect in res.output
    assert not (tmp_path / "out").exists()


def test_ingest_encrypted_with_password_and_good_file_lists_clauses():
    res = _run(["ingest", "--password", "secret", str(ROBUST / "encrypted_user_pw.pdf")])
    assert res.exit_code == 0
    assert "numbered clauses" in res.output and "1.1" in res.output
    short = _run(["ingest", "--password", "secret", "--show", "1", str(ROBUST / "encrypted_user_pw.pdf")])
    assert short.exit_code == 0 and "more clauses (--show" in short.output  # a cut list says so


def test_ingest_mixed_good_and_bad_reports_both_and_fails():
    res = _run(["ingest", str(ROBUST / "four_clause_contract.txt"), str(ROBUST / "whitespace_only.txt")])
    assert res.exit_code == 2
    assert "four_clause_contract.txt" in res.output and "whitespace_only.txt: no text found" in res.output


def test_ask_usage_errors():
    res = _run(["ask", "only-a-question"])
    assert res.exit_code == 3 and "at least one file and a question" in res.output
    res = _run(["ask", str(ROBUST / "four_clause_contract.txt"), "q?", "--max-turns", "0"])
    assert res.exit_code == 3 and "--max-turns" in res.output
    res = _run(["ask", str(ROBUST / "four_clause_contract.txt"), "q?", "--mode", "poem"])
    assert res.exit_code == 3 and "--mode" in res.output
    res = _run(["ask", str(ROBUST / "four_clause_contract.txt"), "q?", "--nli", "--precedents", "no-such-bank.json"])
    assert res.exit_code == 3 and "precedent bank: no such file: no-such-bank.json" in res.output


def test_ask_unknown_tool_is_a_config_error():
    res = _run(["ask", str(ROBUST / "four_clause_contract.txt"), "Who must indemnify?", "--tools", "hybrid,crystal_ball"])
    assert res.exit_code == 3 and "unknown retrieval tool(s): crystal_ball" in res.output
    assert "valid tools: hybrid, navindex, navembed, inject, lightrag, precedents" in res.output


def test_invalid_environment_setting_is_one_message_not_a_traceback():
    res = runner.invoke(app, ["ask", str(ROBUST / "four_clause_contract.txt"), "q?"],
                        env={"CLAUSELENS_RETRIEVAL__TOOLS": '["hybrid", "crystal_ball"]'})
    assert res.exit_code == 3 and "Traceback" not in res.output
    assert "invalid setting: CLAUSELENS_RETRIEVAL__TOOLS" in res.output and "'navindex'" in res.output


def test_ask_mode_pins_one_retrieval_tool_and_rejects_conflicts():
    from clauselens.cli import _tools_for_mode

    assert _tools_for_mode("navindex", None) == "navindex"
    assert _tools_for_mode("inject", "inject") == "inject"
    assert _tools_for_mode("report", "hybrid,lightrag") == "hybrid,lightrag"
    assert _tools_for_mode("nli", None) is None
    res = _run(["ask", str(ROBUST / "four_clause_contract.txt"), "Who must indemnify?", "--mode", "navindex",
                "--tools", "hybrid"])
    assert res.exit_code == 3 and "--mode navindex" in res.output and "conflicts with --tools hybrid" in res.output


CUAD_PDF = ROBUST.parent / "data" / "cuad" / "full_contract_pdf"


def test_ingest_batch_continues_past_bad_file_lists_failures_and_reuses_store(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    (good,) = CUAD_PDF.rglob("NEONSYSTEMSINC_03_01_1999*.pdf")  # 12-page real CUAD PDF
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(good.read_bytes()[:40000])  # truncated
    good2 = ROBUST / "four_clause_contract.txt"
    res = _run(["ingest", "--no-ocr", str(good), str(bad), str(good2)])
    assert res.exit_code == 2  # IngestError
    out = res.output
    assert out.count("parsed in") == 2 and "cached" not in out
    summary = out.index("1 of 3 file(s) could not be read")
    assert out.index("DISTRIBUTOR AGREEMENT") < out.index("four_clause_contract.txt") < summary
    assert "- bad.pdf: corrupt or truncated PDF; it cannot be parsed (Unexpected EOF)" in out[summary:]
    assert "Exception" not in out  # no backend class name (PdfminerException) in the message (issue #22)
    stored = (tmp_path / "cache" / "store" / "documents").iterdir()
    assert {json.loads(p.read_text(encoding="utf-8"))["file_sha256"] for p in stored} == {
        hashlib.sha256(f.read_bytes()).hexdigest() for f in (good, good2)}  # nothing for bad.pdf

    again = _run(["ingest", "--no-ocr", str(good), str(good2)])
    assert again.exit_code == 0 and again.output.count("cached;") == 2 and "could not be read" not in again.output
    fresh = _run(["ingest", "--no-ocr", "--no-cache", str(good)])
    assert fresh.exit_code == 0 and "parsed in" in fresh.output and "cached" not in fresh.output


def test_ingest_page_limit_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_MAX_PAGES", "3")
    res = _run(["ingest", str(ROBUST / "rotated_pages.pdf"), str(ROBUST / "four_clause_contract.txt")])
    assert res.exit_code == 2
    assert "rotated_pages.pdf: 5 pages is over the page limit of 3; raise it with CLAUSELENS_MAX_PAGES=5" in res.output
    assert "1 of 2 file(s) could not be read" in res.output


def test_piped_output_is_not_wrapped_at_80_columns(monkeypatch) -> None:
    """Piped CLI output (a log file) kept rich's 80-column default and broke progress lines
    mid-sentence (fresh-clone finding): a non-terminal stdout gets PIPED_WIDTH, COLUMNS still wins."""
    from clauselens.interfaces.consoles import PIPED_WIDTH, out_console

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: False, raising=False)
    assert out_console().width == PIPED_WIDTH
    monkeypatch.setenv("COLUMNS", "100")
    assert out_console().width == 100
