"""``clauselens review`` (issue #44): exit codes and one clear message for bad input; a real run, LLM-free."""

from __future__ import annotations

import json
from pathlib import Path

from openpyxl import load_workbook
from typer.testing import CliRunner

from clauselens.cli import app

from .test_review import CCA, COOL, needs_cuad

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "playbooks"


def _run(args: list[str]):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["review", *args])


def _one_message(res, code: int, words: str) -> None:  # type: ignore[no-untyped-def]
    out = res.output
    assert res.exit_code == code, out
    assert words in " ".join(out.split()), out
    assert "Traceback" not in out and not isinstance(res.exception, (AttributeError, TypeError, KeyError))
    assert out.count("Error:") == 1, out


def test_missing_contract_file(tmp_path: Path) -> None:
    res = _run([str(tmp_path / "nope.pdf"), "--playbook", str(EXAMPLES / "mutual_nda.yaml"), "--out", str(tmp_path / "o"), "--no-reading"])
    _one_message(res, 2, "file not found")


def test_bad_yaml_playbook(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\npositions:\n  - id: a\n    topic: [oops\n")
    res = _run([str(tmp_path / "any.txt"), "--playbook", str(bad), "--out", str(tmp_path / "o"), "--no-reading"])
    _one_message(res, 3, "not valid YAML")
    assert str(bad) in " ".join(res.output.split()).replace(" ", "") or "bad.yaml" in res.output


def test_invalid_position_and_missing_options(tmp_path: Path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_text("name: x\npositions:\n  - id: a\n    topic: anything\n    require: {period_at_most: soon}\n")
    contract = tmp_path / "c.txt"
    contract.write_text("1. Term. This Agreement lasts one year.\n")
    _one_message(_run([str(contract), "--playbook", str(bad), "--no-reading"]), 3, "line 5")
    _one_message(_run([str(contract), "--no-reading"]), 3, "--playbook")
    _one_message(_run(["--playbook", str(bad), "--no-reading"]), 3, "FILE(s) or --library")
    _one_message(_run([str(contract), "--library", "x", "--playbook", str(bad), "--no-reading"]), 3, "one of them")
    _one_message(_run([str(contract), "--agreement", "x", "--playbook", str(EXAMPLES / "mutual_nda.yaml"), "--no-reading"]), 3,
                 "--agreement")
    _one_message(_run(["--library", str(tmp_path / "no-such-library"), "--playbook", str(EXAMPLES / "mutual_nda.yaml"),
                       "--no-reading"]), 3, "no library")


@needs_cuad
def test_review_writes_every_report(tmp_path: Path) -> None:
    out = tmp_path / "review"
    res = _run([str(CCA), str(COOL), "--playbook", str(EXAMPLES / "supply_services.yaml"), "--out", str(out), "--no-reading"])
    assert res.exit_code == 0, res.output
    assert "redlined DOCX" in res.output
    data = json.loads((out / "review.json").read_text())
    assert [a["agreement"] for a in data["agreements"]] and len(data["agreements"]) == 2
    assert data["info"]["model reading"] == "off"
    law = {a["source_path"]: next(r for r in a["results"] if r["position_id"] == "governing_law") for a in data["agreements"]}
    assert law[str(CCA)]["outcome"] == "deviation" and law[str(CCA)]["value"] == "New Jersey"
    assert law[str(COOL)]["value"] == "Missouri" and law[str(COOL)]["quotes"][0]["text"]
    assert all(not r["reading"] for a in data["agreements"] for r in a["results"])  # --no-reading: no model's reading
    ws = load_workbook(out / "review.xlsx")["review"]
    assert ws.max_row == 1 + 2 * 13  # one row per agreement x position
    md = (out / "review.md").read_text()
    assert "New Jersey" in md and "Playbook sources" in md
    assert "Model's reading" not in md
    assert len(list(out.glob("*.redline.docx"))) == 2
