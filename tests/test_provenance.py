"""``clauselens.provenance``: a result records where the code that produced it lives, and a
benchmark started from another copy of the tree (a git archive) is warned that it measures the
installed package instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.provenance import REPO, run_provenance, warn_other_tree


def test_result_records_the_package_path() -> None:
    assert run_provenance(())["clauselens_path"] == str(REPO)


def test_a_benchmark_script_from_another_tree_is_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "archive" / "benchmarks" / "bench.py"
    other.parent.mkdir(parents=True)
    other.write_text("")
    assert warn_other_tree(str(other)) is True
    err = capsys.readouterr().err
    assert f"PYTHONPATH={tmp_path / 'archive'}" in err
    # this tree's own benchmark, or a program that is no benchmark: no warning
    assert warn_other_tree(str(REPO / "benchmarks" / "legalbench_rag.py")) is False
    assert warn_other_tree(str(tmp_path / "archive" / "benchmarks" / "missing.py")) is False
    assert capsys.readouterr().err == ""
