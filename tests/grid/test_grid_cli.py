"""``clauselens grid`` end to end through the real CLI, on real CUAD contracts, against a fake
OpenAI-compatible server on 127.0.0.1 (tests/grid/fake_openai.py; no language model): the XLSX
opens in openpyxl with the expected sheets and columns and verbatim quotes; a broken contract is
an error row while the others are answered; a rerun does only the missing cells (the server
sees no request for a stored cell); ``--concurrency 4`` has several requests in flight, 1 has one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clauselens.cli import app
from clauselens.grid.export import CELL_COLUMNS
from clauselens.reports.verify import normalize

from .fake_openai import FakeOpenAI

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
MW = CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"
KITOV = CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
pytestmark = pytest.mark.skipif(not (MW.exists() and KITOV.exists()), reason="needs the CUAD corpus in ../shared/data")
runner = CliRunner()

QUESTIONS = """\
questions:
  - id: governing_law
    question: Which state's law governs this agreement?
    type: text
    search: governed by and construed in accordance with the laws of
  - id: zebra
    question: Does the agreement mention a zebra?
    type: yes_no
  - id: termination
    question: Can a party terminate without cause (answer by paraphrase)?
    type: yes_no
    search: terminate this agreement upon written notice
"""


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")  # lexical only: no embedding model needed
    folder = tmp_path / "contracts"
    folder.mkdir()
    shutil.copy(MW, folder / "a_supply.txt")
    shutil.copy(KITOV, folder / "b_manufacturing.txt")
    (folder / "c_broken.pdf").write_bytes(b"PK\x03\x04 a zip archive, not a PDF")
    (tmp_path / "q.yaml").write_text(QUESTIONS)
    return tmp_path


def _grid(env: Path, server: FakeOpenAI, out: str, *extra: str):
    res = runner.invoke(app, ["grid", str(env / "contracts"), "--questions", str(env / "q.yaml"), "--out", str(env / out),
                              "--base-url", server.base_url, "--library", "grid-test", "--no-presence", "--yes-no-model", *extra])
    # --no-presence --yes-no-model: these tests exercise the model path with the fake server; the heads that decide a yes/no
    # question without the model ("termination" reads as Termination For Convenience) and the cells left open without
    # --yes-no-model are tested in test_grid_heads.py
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def test_grid_xlsx_failing_contract_resume_and_concurrency(env: Path) -> None:
    from openpyxl import load_workbook

    with FakeOpenAI(delay=0.3) as server:
        res = _grid(env, server, "review.xlsx", "--concurrency", "4")
        assert res.exit_code == 2, res.output  # the broken contract is reported, the grid is still written
        assert "c_broken.pdf" in res.output and "cells/minute" in res.output
        first_requests = server.requests
        assert server.max_in_flight > 1  # concurrency 4: several model calls at once
        # 2 readable agreements x 3 questions, minus cells retrieval already abstained on
        assert 1 <= first_requests <= 6

        wb = load_workbook(env / "review.xlsx")
        assert wb.sheetnames[:3] == ["Review", "Cells", "Questions"]
        review = [[c.value for c in r] for r in wb["Review"].iter_rows()]
        assert review[0] == ["Agreement", "File", "governing_law", "zebra", "termination"]
        assert [r[1] for r in review[1:]] == ["a_supply.txt", "b_manufacturing.txt", "c_broken.pdf"]
        cells = [dict(zip(CELL_COLUMNS, (c.value for c in r))) for r in wb["Cells"].iter_rows(min_row=2)]
        assert [c.value for c in wb["Cells"][1]] == [c.replace("_", " ") for c in CELL_COLUMNS]
        assert len(cells) == 9
        by = {(c["file"], c["question_id"]): c for c in cells}
        for f in ("a_supply.txt", "b_manufacturing.txt"):
            text = normalize((env / "contracts" / f).read_text(encoding="utf-8", errors="replace"))
            law = by[(f, "governing_law")]
            if f == "b_manufacturing.txt" and law["status"] == "unverified":
                # the fake server quotes P1's first sentence ("Source: KITOV PHARMA LTD., 20-F ..."): not about the
                # question's law, so not answered (issue #45: the topic terms of a question written without terms)
                assert "does not mention the question's topic" in law["reason"] and not law["quote"]
            else:
                assert law["status"] == "answered", (law["answer"], law["reason"])
                assert law["quote"] and normalize(law["quote"]) in text  # verbatim in the contract
                assert law["link"].startswith("file://")
            assert by[(f, "zebra")]["status"] == "not found" and by[(f, "zebra")]["answer"] == "No"
            term = by[(f, "termination")]  # read by rule from the contract's termination clauses (CUAD: MediWound Yes, Kitov No)
            if f == "a_supply.txt":
                assert term["status"] == "answered" and term["answer"] == "Yes", term
                assert normalize(term["quote"]) in text and "(no model)" in term["reason"]
            else:  # Kitov ends only on a condition: no free exit found, and its absence is left for a reviewer (2026-12-07)
                assert term["status"] == "unverified", term  # (the test server's model then gets the cell; its quote is withheld)
        for q in ("governing_law", "zebra", "termination"):
            assert by[("c_broken.pdf", q)]["status"] == "error"
            assert "could not read" in by[("c_broken.pdf", q)]["reason"]
        # the grid cell shows the answer and carries the quote in a comment and a hyperlink
        law_cell = wb["Review"]["C2"]
        assert law_cell.value == by[("a_supply.txt", "governing_law")]["answer"]
        assert law_cell.comment is not None and "answered" in law_cell.comment.text
        assert law_cell.hyperlink is not None

        # rerun: nothing is asked again (the broken file's error cells are retried, without a model call)
        res2 = _grid(env, server, "review.xlsx", "--concurrency", "4")
        assert "Filling the grid" in res2.output and "export only" not in res2.output, res2.output
        assert server.requests == first_requests, res2.output
        assert "reused 6" in " ".join(res2.output.split()) and "computed 3 cells" in " ".join(res2.output.split()), res2.output

        # a new question: only its cells are computed
        (env / "q.yaml").write_text(QUESTIONS + "  - id: notice\n    question: What notice period applies to termination?\n"
                                    "    type: duration\n    search: days prior written notice\n")
        res3 = _grid(env, server, "review.xlsx", "--concurrency", "1")
        assert "reused 6" in " ".join(res3.output.split()), res3.output
        assert server.requests - first_requests <= 2
        assert len(list(load_workbook(env / "review.xlsx")["Cells"].iter_rows(min_row=2))) == 12

        # a question nobody computed yet: --export-only writes the table with it pending, asking nothing
        (env / "q.yaml").write_text((env / "q.yaml").read_text() + "  - id: later\n    question: Is there a later clause?\n")
        before = server.requests
        res4 = _grid(env, server, "partial.xlsx", "--export-only", "--store", str(env / "review.cells.sqlite"))
        assert server.requests == before
        said = " ".join(res4.output.split())
        assert "export only: nothing is computed" in said and "Filling the grid" not in said, res4.output
        part = [dict(zip(CELL_COLUMNS, (c.value for c in r))) for r in load_workbook(env / "partial.xlsx")["Cells"].iter_rows(min_row=2)]
        assert {c["status"] for c in part if c["question_id"] == "later"} == {"pending"}
        full = [dict(zip(CELL_COLUMNS, (c.value for c in r))) for r in load_workbook(env / "review.xlsx")["Cells"].iter_rows(min_row=2)]
        assert [c for c in part if c["question_id"] != "later"] == full


def test_concurrency_one_sends_one_request_at_a_time(env: Path) -> None:
    with FakeOpenAI(delay=0.1) as server:
        res = _grid(env, server, "seq.json", "--concurrency", "1")
        assert res.exit_code == 2
        assert server.requests >= 2 and server.max_in_flight == 1


def test_other_formats_and_bad_arguments(env: Path) -> None:
    import csv
    import json

    with FakeOpenAI(delay=0.0) as server:
        _grid(env, server, "r.csv")
        _grid(env, server, "r.html")
        _grid(env, server, "r.json")
    rows = list(csv.DictReader(open(env / "r.csv", encoding="utf-8")))
    assert len(rows) == 3 and {"governing_law", "governing_law status", "governing_law quote", "governing_law clause",
                               "governing_law page", "governing_law reason"} <= set(rows[0])
    assert any(r["zebra reason"] for r in rows)  # every non-answered cell says why (here: the failed contract's error)
    data = json.loads((env / "r.json").read_text())
    assert data["rows"][2]["cells"]["zebra"]["status"] == "error"
    assert "<table>" in (env / "r.html").read_text()
    bad = runner.invoke(app, ["grid", str(env / "contracts"), "--out", str(env / "r.docx"), "--preset", "cuad"])
    assert bad.exit_code == 3 and "--out must end in" in bad.output and "Traceback" not in bad.output
    missing = runner.invoke(app, ["grid", str(env / "nope"), "--out", str(env / "r.xlsx"), "--preset", "cuad"])
    assert missing.exit_code == 3 and "no such folder, file or library" in missing.output
    both = runner.invoke(app, ["grid", str(env / "contracts"), "--out", str(env / "r.xlsx")])
    assert both.exit_code == 3 and "exactly one of --questions" in both.output
