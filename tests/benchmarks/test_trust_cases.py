"""benchmarks/trust_cases.py replay (no model): issue #19's failure cases on the bundled contract
and a second CUAD contract -- every hand-labelled false finding that the deterministic checks can
judge is kept off the cited facts, and every true finding stays a cited fact."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.trust_cases import CASES, replay  # noqa: E402
from clauselens.config import Settings  # noqa: E402


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_replayed_failure_case(case):
    r = replay(case, Settings())
    rows = r["findings"]
    assert len(rows) == len(case["findings"])
    assert r["before_unsupported_as_fact"] == r["false_findings"]  # every false finding had a verified quote
    for row in rows:
        if row["hand_label_true"]:
            assert row["cited_fact"], row
        elif not row["needs_model"]:
            assert not row["cited_fact"] and row["support"] in ("contradicted", "unrelated"), row
    assert r["unsupported_as_fact"] == sum(1 for x in rows if x["needs_model"])
    assert r["verification"] == "partial"
