"""The small benchmarks behind issue #42's add numbers run end to end on generated inputs:
``library_add_pdf`` (stages of ``Library.add`` on PDFs) on two generated PDFs without an embedder,
and ``library_profile_index`` (profile index from strings vs ids) on a tiny tantivy library."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "parsing"))
from pdfgen import write_pdf  # noqa: E402

pytest.importorskip("tantivy")

from benchmarks import library_add_pdf, library_profile_index  # noqa: E402
from clauselens.library import Library  # noqa: E402

PAGES = [["SUPPLY AGREEMENT", "1. Term", "1.1 This Agreement lasts five years from the Effective Date."],
         ["2. Termination", "2.1 Either party may terminate this Agreement on ninety days written notice.",
          "3. Payment", "3.1 Fees are due within thirty days of each invoice."]]


def _pdf(path: Path, pages: int) -> Path:  # each page its own text (a line on every page is furniture)
    return write_pdf(path, [[(72, 720 - 16 * i, 11, t) for i, t in enumerate(lines)] for lines in PAGES[:pages]])


def test_add_pdf_stages_add_up(tmp_path: Path) -> None:
    files = [_pdf(tmp_path / "a.pdf", 2), _pdf(tmp_path / "b.pdf", 1)]
    res = library_add_pdf.run(files, "none", 1)
    assert res["pages"] == 3 and res["added"] == 2 and not res["failed"] and res["passages"] > 0
    st = res["stages"]
    assert set(st) == set(library_add_pdf.STAGES) and st["embed"]["cpu_s"] == 0.0
    assert st["text_layer"]["wall_s"] > 0 and st["index"]["wall_s"] > 0
    assert abs(sum(s["wall_s"] for s in st.values()) - res["add_wall_s"]) < 0.05


def test_profile_index_benchmark_scores_agree(tmp_path: Path) -> None:
    d = tmp_path / "docs"
    d.mkdir()
    for i, who in enumerate(("Acme Corp and Beta LLC", "Gamma Inc and Delta Ltd", "Omega Leasing and Sigma Foods")):
        (d / f"a{i}.txt").write_text(f"AGREEMENT {i}\nbetween {who}.\n1. Term\n1.1 Lasts {i + 2} years.\n", encoding="utf-8")
    Library.open(tmp_path / "lib", embedder_name="none", lexical="tantivy").add([d])
    res = library_profile_index.run(tmp_path / "lib", rounds=2, queries=10)
    assert res["agreements"] == 3 and res["identical_profile_scores"] is True
    assert set(res["per_commit_cpu_s"]) == {"before", "after"} and len(res["summary"]) == 6
