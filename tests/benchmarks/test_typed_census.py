"""benchmarks/typed_census.py and term_period_census.py scoring (no model, no library): an answered value counts as
consistent only when CUAD's annotated clauses state it, and a computed end date matches CUAD's date within the slack."""

from __future__ import annotations

import datetime as dt

from benchmarks.term_period_census import matches
from benchmarks.typed_census import PROBES, stated, yes_no_consistent


def test_a_value_counts_only_when_the_annotated_clauses_state_it() -> None:
    clause = ["Either party may terminate this Agreement without cause upon sixty (60) days prior written notice."]
    assert stated("duration", "60 days", clause)
    assert not stated("duration", "30 days", clause) and not stated("duration", "60 days", [])
    cap = ["In no event shall either party's aggregate liability exceed $500,000."]
    assert stated("amount", "$500,000", cap) and not stated("amount", "$50,000", cap) and not stated("amount", "", cap)


def test_every_probe_has_three_wordings_of_its_type() -> None:
    for category, qtype, wordings in PROBES.values():
        assert category and qtype in ("duration", "amount", "yes_no") and len(wordings) == 3


def test_a_yes_no_cell_is_consistent_when_it_says_whether_cuad_annotates_the_clause() -> None:
    clause = ["Either party may terminate this Agreement without cause upon sixty (60) days prior written notice."]
    assert yes_no_consistent("Yes", clause) and yes_no_consistent("No", [])
    assert not yes_no_consistent("No", clause) and not yes_no_consistent("Yes", [])


def test_a_computed_end_date_matches_cuads_within_the_slack_and_on_the_parts_it_gives() -> None:
    end = dt.date(2013, 10, 1)
    assert matches(end, "10/1/13") and matches(end, "9/30/13") and not matches(end, "10/1/14")
    assert matches(end, "[]/[]/2013") and matches(end, "10/[]/2013") and not matches(end, "11/[]/2013")
    assert matches(end, "12/31/20; 10/1/13")  # any of CUAD's ";"-separated dates
