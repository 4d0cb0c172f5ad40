"""The presence head's thresholds for the grid's yes/no categories (issue #40): chosen out of fold on train_allowed
agreements (``benchmarks/presence_oof_thresholds.py --write-head``), recorded with their rule, the tune-split ones kept,
and the measured result file agreeing with the installed head."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.grid.questions import CUAD
from clauselens.heads import base
from clauselens.heads.presence import META_FILE, NAME

RESULT = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "presence_oof_thresholds.json"


def test_grid_categories_use_the_recorded_out_of_fold_thresholds() -> None:
    meta = json.loads((base.head_dir(NAME) / META_FILE).read_text())
    result = json.loads(RESULT.read_text())
    yes_no = {q.category for q in CUAD if q.type == "yes_no"}
    assert set(meta["thresholds_rule"]["categories"]) == yes_no and len(yes_no) == 32
    assert "out-of-fold" in meta["thresholds_rule"]["rule"] and "--write-head" in meta["thresholds_rule"]["command"]
    for c in meta["categories"]:
        if c in yes_no:
            assert meta["thresholds"][c] == result["thresholds"][c]["threshold"], c
            assert meta["thresholds_tune_split"][c] == pytest.approx(result["thresholds"][c]["tune_split"], abs=1e-4), c
        else:  # the other categories keep the head's own
            assert meta["thresholds"][c] == meta["thresholds_tune_split"][c], c
    assert result["head_sha256"] == meta["sha256"]  # measured with the weights that are installed
    got = result["oof_thresholds"]["report_split_yes_no_columns"]
    assert got["cells"] == 32 * got["agreements"] and got["accuracy"] >= 0.88 and got["yes"]["f1"] >= 0.70
