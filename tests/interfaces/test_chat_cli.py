"""`clauselens chat` through the real typer app: start, quit, resume, bad input."""

import re

import pytest
from typer.testing import CliRunner

from clauselens.cli import app
from tests.fakes import termination_script

from .conftest import ROBUST, SHARED


def _env(tmp_path) -> dict:
    # an OpenAI-compatible backend is only contacted on the first question; none is asked here
    env = {"CLAUSELENS_CACHE_DIR": str(tmp_path)}
    for agent in ("ARCHIVIST", "RESEARCHER", "INTERROGATOR"):
        env[f"CLAUSELENS_{agent}_MODEL__BACKEND"] = "openai"
        env[f"CLAUSELENS_{agent}_MODEL__BASE_URL"] = "http://127.0.0.1:9/v1"
    return env


def test_chat_start_quit_resume_and_errors(tmp_path):
    runner = CliRunner()
    env = _env(tmp_path)
    r = runner.invoke(app, ["chat", str(ROBUST / "four_clause_contract.txt")], input="/sources\n/quit\n", env=env)
    assert r.exit_code == 0, r.output
    assert "four_clause_contract.txt" in r.output and "No report yet" in r.output
    sid = re.search(r"--resume (\w+)", r.output).group(1)

    r = runner.invoke(app, ["chat", "--resume", sid], input="/quit\n", env=env)
    assert r.exit_code == 0 and "four_clause_contract.txt" in r.output and "resumed: 0 earlier message(s)" in r.output

    r = runner.invoke(app, ["chat", "--resume", "nosuchsession"], input="/quit\n", env=env)
    assert r.exit_code != 0 and "no session 'nosuchsession'" in r.output

    r = runner.invoke(app, ["chat", str(ROBUST / "whitespace_only.txt")], input="/quit\n", env=env)
    assert r.exit_code == 2 and "whitespace_only.txt: no text found" in r.output
    assert "Traceback" not in r.output

    r = runner.invoke(app, ["chat"], env=env)
    assert r.exit_code != 0 and "give at least one contract file" in r.output


# ---- issue #22: `chat a.pdf bad.pdf` goes on with the readable files, as `ask` does ----------
CONTRACT = SHARED / "data/cuad/full_contract_txt/DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
QUOTE = ("Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) "
         "days prior written notice")
SCRIPT = {"DialogueExtraction": [{"question": "How can the agreement be terminated?"}], **termination_script(QUOTE)}


@pytest.fixture
def scripted_chat(monkeypatch, tmp_path):
    """`clauselens chat` with the real session service, graph and lexical retrieval, and a
    scripted model for every agent (tests/fakes.py); returns the CLI env."""
    from clauselens.interfaces import commands
    from tests.fakes import ScriptedChat

    real = commands.build_service
    monkeypatch.setattr(commands, "build_service", lambda settings, **kw: real(settings, models=ScriptedChat(script=SCRIPT), **kw))
    return {"CLAUSELENS_CACHE_DIR": str(tmp_path / "cache"), "CLAUSELENS_RETRIEVAL__EMBEDDER": "none",
            "CLAUSELENS_RETRIEVAL__TOOLS": '["hybrid"]', "COLUMNS": "200"}


def _png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 40), "white").save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.skipif(not CONTRACT.exists(), reason="needs the CUAD contracts in ../shared/data/cuad")
def test_chat_starts_with_the_readable_files_and_names_each_file_left_out(tmp_path, scripted_chat):
    empty, png = tmp_path / "empty.pdf", tmp_path / "scan.pdf"
    empty.write_bytes(b"")
    png.write_bytes(_png())
    files = [str(empty), str(CONTRACT), str(ROBUST / "whitespace_only.txt"), str(png)]
    r = CliRunner().invoke(app, ["chat", *files, "--timeout", "5"],
                           input="How can the agreement be terminated?\n/report\n/quit\n", env=scripted_chat)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    assert r.exit_code == 2, r.output  # the session ran on the readable file; as `ask`, bad input ends non-zero
    assert "Documents: DRIVENDELIVERIES" in r.output and "empty.pdf" not in r.output.split("Documents:")[1].split("\n")[0]
    left = [line for line in r.output.splitlines() if line.startswith("Left out (cannot be read): ")]
    assert len(left) == 3, r.output  # one line per bad file, naming it and its problem
    assert "empty.pdf: the file is empty (0 bytes)" in left[0]
    assert "whitespace_only.txt: no text found" in left[1]
    assert "scan.pdf" in left[2] and "PNG image" in left[2]  # OCR is on in chat: an image with no text
    assert "30 days' written notice" in r.output  # the good file was answered
    assert "Files left out (3" in r.output  # /report: the report lists them, as ask's does
    md = next((tmp_path / "cache" / "sessions").glob("*/runs/report0.md")).read_text()
    assert "Files left out (3" in md and "empty.pdf: the file is empty (0 bytes)" in md
    import json

    rep = json.loads(next((tmp_path / "cache" / "sessions").glob("*/runs/report0.json")).read_text())
    assert len(rep["left_out"]) == 3 and "scan.pdf" in rep["left_out"][2]

    # resumed: the session still names the files left out
    sid = re.search(r"--resume (\w+)", r.output).group(1)
    r = CliRunner().invoke(app, ["chat", "--resume", sid], input="/quit\n", env=scripted_chat)
    assert r.exit_code == 0 and r.output.count("Left out (cannot be read): ") == 3


def test_chat_with_only_unreadable_files_is_one_clear_error(tmp_path, scripted_chat):
    empty = tmp_path / "a.pdf"
    empty.write_bytes(b"")
    r = CliRunner().invoke(app, ["chat", str(empty), str(ROBUST / "whitespace_only.txt")], input="/quit\n",
                           env=scripted_chat)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.output.count("Error:") == 1
    assert "none of the 2 files could be read" in r.output
    assert "a.pdf: the file is empty (0 bytes)" in r.output and "whitespace_only.txt: no text found" in r.output
    assert "clauselens chat — session" not in r.output  # no session was started
