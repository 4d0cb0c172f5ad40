"""`clauselens chat` through the real typer app: start, quit, resume, bad input."""

import re

from typer.testing import CliRunner

from clauselens.cli import app

from .conftest import ROBUST


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
    assert r.exit_code == 2 and "no text found in whitespace_only.txt" in r.output
    assert "Traceback" not in r.output

    r = runner.invoke(app, ["chat"], env=env)
    assert r.exit_code != 0 and "give at least one contract file" in r.output
