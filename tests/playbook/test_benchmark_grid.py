"""The playbook benchmark's grid-raw comparison reads a grid answer as a position's outcome (issue #44)."""

from __future__ import annotations

from benchmarks.playbook_cuad import grid_outcome, playbook


def test_grid_answers_read_as_outcomes() -> None:
    pb = playbook(None)
    assert grid_outcome(pb, "anti_assignment", "Yes") == "compliant"
    assert grid_outcome(pb, "anti_assignment", "No") == "missing"
    assert grid_outcome(pb, "no_non_compete", "Yes") == "deviation"
    assert grid_outcome(pb, "no_non_compete", "not found") == "compliant"
    assert grid_outcome(pb, "governing_law", "New York") == "compliant"
    assert grid_outcome(pb, "governing_law", "California") == "deviation"
    assert grid_outcome(pb, "governing_law", "the parties' chosen forum") == "unclear"
    assert grid_outcome(pb, "governing_law", "not found") == "missing"
    assert grid_outcome(pb, "renewal_term", "successive 1-year periods") == "compliant"
    assert grid_outcome(pb, "renewal_term", "3 years") == "deviation"
    assert grid_outcome(pb, "renewal_notice", "60 days") == "compliant"
    assert grid_outcome(pb, "renewal_notice", "six months") == "deviation"
