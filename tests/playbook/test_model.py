"""Playbook format (issue #44): the shipped examples validate; each kind of error names the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.errors import ConfigError
from clauselens.grid.values import Period
from clauselens.playbook.model import load_playbook, parse_playbook, parse_requirement

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "playbooks"

GOOD = """name: t
positions:
  - id: law
    topic: Which law governs?
    category: governing law
    require: {governing_law_in: [New York, "Ontario, Canada"]}
    severity: HIGH
  - id: notice
    topic: What notice is needed?
    require: {period_at_most: thirty (30) days}
"""


def test_examples_validate() -> None:
    nda = load_playbook(EXAMPLES / "mutual_nda.yaml")
    supply = load_playbook(EXAMPLES / "supply_services.yaml")
    assert len(nda.positions) >= 8 and len(supply.positions) >= 10
    assert nda.sources and supply.sources  # both name where their positions come from
    rules = {p.require.rule for p in nda.positions + supply.positions}
    assert {"present", "absent", "governing_law_in", "period_at_most", "period_at_least", "cap_months_of_fees_at_least",
            "consent_required"} <= rules
    assert any(p.preferred for p in supply.positions if p.require.rule != "absent")


def test_short_forms_are_normalised() -> None:
    pb = parse_playbook(GOOD, "good.yaml")
    law, notice = pb.positions
    assert law.category == "Governing Law" and law.severity == "high"
    assert law.require.allowed == ("New York", "Canada", "Ontario") or set(law.require.allowed) == {"New York", "Canada", "Ontario"}
    assert notice.require.period == Period(30, "day")
    assert parse_requirement("consent-required").rule == "consent_required"
    assert parse_requirement({"cap_months_of_fees_at_least": 12}).months == 12.0


@pytest.mark.parametrize("text, line, words", [
    ("name: t\npositions:\n  - id: a\n    topic: [unclosed\n", 5, "while parsing a flow sequence on line 4"),
    ("name: t\npositions:\n  - id: a\n\ttopic: tab\n", 4, "not valid YAML"),
    ("- just\n- a list\n", 1, "a playbook is a mapping"),
    ("name: t\npositions:\n  - id: a\n    require: present\n", 3, "topic"),  # a required field missing
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: present\n    colour: red\n", 6, "colour"),  # unknown field
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: present\n    severity: urgent\n", 6, "severity"),
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: sometimes\n", 5, "unknown rule 'sometimes'"),
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: period_at_most\n", 5, "needs a value"),
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: {period_at_most: soon}\n", 5, "one period"),
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: {governing_law_in: [Atlantis]}\n", 5, "unknown jurisdiction 'Atlantis'"),
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    category: Force Majeure\n    require: present\n", 5, "not a CUAD category"),
    ("name: t\npositions:\n  - id: a\n    topic: abc\n    require: {cap_months_of_fees_at_least: -3}\n", 5, "positive number"),
    ("name: t\npositions: []\n", 2, "positions"),
])
def test_each_error_names_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_playbook(text, "bad.yaml")
    msg = str(e.value)
    assert msg.startswith(f"bad.yaml, line {line}:"), msg
    assert words in msg, msg
    assert "Traceback" not in msg and "pydantic" not in msg.lower()


def test_duplicate_ids_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="repeated: a"):
        parse_playbook("name: t\npositions:\n  - {id: a, topic: abc, require: present}\n  - {id: a, topic: def, require: absent}\n")
    with pytest.raises(ConfigError, match="playbook not found"):
        load_playbook(tmp_path / "nope.yaml")
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ConfigError, match="cannot read playbook"):
        load_playbook(tmp_path / "bin.yaml")
