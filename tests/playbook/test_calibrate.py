"""Per-category presence thresholds and unclear bands for playbook review (issue #44, calibrate.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clauselens.playbook.calibrate import CALIBRATION, MARGINS, MAX_UNCLEAR, TARGET, band_stats, choose, load_calibration
from clauselens.playbook.model import parse_playbook
from clauselens.playbook.review import DEFAULT_MARGIN, Reviewer

PLAYBOOK = """
name: t
positions:
  - id: no_non_compete
    topic: "Is there a non-compete?"
    category: Non-Compete
    require: absent
"""


def test_band_stats_counts_unclear_as_undecided() -> None:
    scores = np.array([0.05, 0.45, 0.55, 0.95])
    y = np.array([0, 1, 0, 1])
    no_band = band_stats(scores, y, 0.5, 0.0)
    assert no_band["unclear_rate"] == 0 and no_band["decided_accuracy"] == 0.5
    band = band_stats(scores, y, 0.5, 1.0)  # logit(0.45), logit(0.55) are within 1 log-odds of 0
    assert band["unclear_rate"] == 0.5 and band["decided_accuracy"] == 1.0 and band["accuracy"] == 0.5


def test_choose_separable_needs_no_band() -> None:
    rng = np.random.default_rng(0)
    y = np.array([0] * 50 + [1] * 50)
    scores = np.where(y == 1, rng.uniform(0.9, 0.99, 100), rng.uniform(0.01, 0.1, 100))
    c = choose(scores, y)
    assert c["margin"] == 0.0 and c["oof"]["decided_accuracy"] == 1.0 and 0.1 <= c["threshold"] <= 0.99


def test_choose_band_within_the_unclear_limit() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    z = np.where(y == 1, 1.0, -1.0) * 1.5 + rng.normal(0, 1.2, 400)  # overlapping classes
    scores = 1 / (1 + np.exp(-z))
    c = choose(scores, y)
    assert c["margin"] in MARGINS and c["margin"] > 0
    assert c["oof"]["unclear_rate"] <= MAX_UNCLEAR
    assert c["oof"]["decided_accuracy"] > c["oof_no_band"]["decided_accuracy"]
    assert c["reaches_target"] == (c["oof"]["decided_accuracy"] >= TARGET)


def test_reviewer_band_sources() -> None:
    pb = parse_playbook(PLAYBOOK, "t")
    cal = {"Non-Compete": {"threshold": 0.4, "margin": 0.5}}
    assert Reviewer(pb, head=object(), calibration=cal).band("Non-Compete", 0.84) == (0.4, 0.5)
    assert Reviewer(pb, head=object(), calibration={}).band("Non-Compete", 0.84) == (0.84, DEFAULT_MARGIN)
    fixed = parse_playbook(PLAYBOOK.replace("name: t", "name: t\nunclear_margin: 2"), "t")
    assert Reviewer(fixed, head=object(), calibration=cal).band("Non-Compete", 0.84) == (0.4, 2.0)
    assert Reviewer(pb, head=object(), calibration=cal).band("Exclusivity", 0.8) == (0.8, DEFAULT_MARGIN)


@pytest.mark.skipif(not CALIBRATION.is_file(), reason="calibration not computed")
def test_shipped_calibration_read_only_train_allowed_agreements() -> None:
    from clauselens.heads.train_presence import CUAD, allowed_keys

    data = json.loads(CALIBRATION.read_text())
    cal = load_calibration()
    assert cal and set(cal) == set(data["categories"])
    for c, v in cal.items():
        assert 0.0 < v["threshold"] <= 1.0 and v["margin"] in MARGINS, c
    if (CUAD / "train_allowed.txt").is_file():
        assert set(data["folds"]) <= allowed_keys()  # no report-split agreement chose a threshold or a band
        assert len(data["folds"]) > 300
