"""Per-category presence thresholds and unclear bands for playbook review (issue #44, calibrate.py)."""

from __future__ import annotations

import json

import numpy as np

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


def test_window_passage_maps_the_best_window_into_its_passage() -> None:
    from clauselens.playbook.review import _window_passage

    texts = [" ".join(f"a{i}" for i in range(50)), " ".join(f"b{i}" for i in range(200)), "c0 c1"]
    starts = np.cumsum([0] + [len(t.split()) for t in texts])
    i, (a, b) = _window_passage(texts, starts, 2, np.array([0.9, 0.1, 0.0]))  # words 120-219: only passage 1
    assert i == 1 and texts[1][a:b].split()[0] == "b70" and texts[1][a:b].split()[-1] == "b169"
    i, (a, b) = _window_passage(texts, starts, 0, np.array([0.1, 0.9, 0.0]))  # words 0-99: passages 0 and 1
    assert i == 1 and texts[1][a:b].split()[0] == "b0" and texts[1][a:b].split()[-1] == "b49"


def test_a_long_passage_is_quoted_around_the_clause_that_decided() -> None:
    class P:
        def __init__(self, text: str, start: int) -> None:
            from clauselens.parsing.types import Span

            self.text, self.spans, self.clause_ref, self.page_start = text, [Span(start=start, end=start + len(text))], "", 1
            self.heading_path: list[str] = []

    filler = "The Supplier shall deliver the Products to the Customer at the delivery point set out in the relevant order. " * 20
    clause = ("The Supplier shall maintain, at its own expense, commercial general liability insurance and product liability "
              "insurance with limits of not less than $1,000,000 per occurrence, and shall name the Customer as an additional insured.")
    long = filler + clause + " " + filler
    passages = [P(filler, 0), P(long, len(filler) + 1)]
    pb = parse_playbook("name: t\npositions:\n  - id: insurance\n    topic: insurance\n    category: Insurance\n    require: present\n", "t")
    res = Reviewer(pb).review(passages, agreement="synthetic").results[0]
    assert res.outcome == "compliant"
    q = res.quotes[0]
    assert "additional insured" in q.text and len(q.text) < len(long)  # the 900-character cut keeps the clause
    assert long[q.start - passages[1].spans[0].start:q.end - passages[1].spans[0].start] == q.text
