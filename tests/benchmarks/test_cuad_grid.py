"""benchmarks/cuad_grid.py scoring (no model, no library): a grid's "Yes" counts only from a cell
whose checks passed (an unverified "Yes" is scored "No", the model's own answer beside it), and
the topic check's recall is computed on CUAD's annotated clauses."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from benchmarks.cuad_grid import CORPUS, MASTER, answer_column, load_master, run_topic, run_yesno, split_of
from clauselens.grid import CUAD, CellStore
from clauselens.grid.cells import Cell

pytestmark = pytest.mark.skipif(not (MASTER.exists() and CORPUS.exists()), reason="needs ../shared/data/cuad and legalbench-rag")


def test_unverified_yes_is_scored_no(tmp_path: Path) -> None:
    master = load_master()
    stem = next(s for s in sorted(master) if answer_column(master[s], "Audit Rights") == "Yes"
                and answer_column(master[s], "Source Code Escrow") == "No")
    store = CellStore(tmp_path / "c.sqlite")
    base = {"row_key": "r", "fingerprint": "f", "source_path": f"/x/{stem}.pdf"}
    store.put(Cell(**base, question_id="audit_rights", status="unverified", answer="Yes"))
    store.put(Cell(**base, question_id="source_code_escrow", status="answered", answer="Yes"))
    store.close()
    res = run_yesno(argparse.Namespace(store=tmp_path / "c.sqlite"))
    rows = {r["category"]: r for r in res["rows"]}
    assert rows["Audit Rights"]["pred"] == "No" and not rows["Audit Rights"]["ok"] and rows["Audit Rights"]["model_ok"]
    assert rows["Source Code Escrow"]["pred"] == "Yes" and not rows["Source Code Escrow"]["ok"]
    s = res["summary"][split_of(stem)]
    assert s["yes_no_n"] == 2 and s["yes_no_accuracy"] == 0.0 and s["yes_no_accuracy_model_unchecked"] == 0.5


def test_topic_recall_on_annotations() -> None:
    res = run_topic(argparse.Namespace(only="governing_law", split="all", limit=40))
    per = {s: v["Governing Law"] for s, v in res["per_category"].items()}
    assert sum(v["n"] for v in per.values()) > 25  # most contracts have a governing-law clause
    assert all(v["pass"] / v["n"] > 0.9 for v in per.values())
    assert {q.category for q in CUAD if q.id == "governing_law"} == {"Governing Law"}
