"""``clauselens ask --library`` end to end with a real model (the bundled 0.5B GGUF): the
question names the agreement in words, the library resolves it, the Researcher searches the
library (no file given, nothing re-indexed), and the report and transcript are written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clauselens.cli import app

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
MW = CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"
KITOV = CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"


@pytest.mark.slow
@pytest.mark.skipif(not (MW.exists() and KITOV.exists()), reason="needs the CUAD corpus in ../shared/data")
def test_ask_library_resolves_and_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_model_path: Path) -> None:
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")
    (tmp_path / "cache" / "models").mkdir(parents=True)
    for f in small_model_path.parent.glob(small_model_path.stem + "*"):
        (tmp_path / "cache" / "models" / f.name).symlink_to(f)
    folder = tmp_path / "contracts"
    folder.mkdir()
    shutil.copy(MW, folder / "a.txt")
    shutil.copy(KITOV, folder / "b.txt")
    runner = CliRunner()
    assert runner.invoke(app, ["library", "add", str(folder), "--library", "firm"]).exit_code == 0
    out = tmp_path / "out"
    res = runner.invoke(app, ["ask", "--library", "firm", "How is 'Facility' defined in the MediWound supply agreement?",
                              "--model", "qwen2.5-coder-0.5b", "--max-turns", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "the question names" in res.output and "SUPPLY AGREEMENT" in res.output
    transcript = json.loads((out / "report.transcript.json").read_text())
    texts = [p["text"] for p in transcript["passages"].values()]
    assert any('"Facility" means' in t for t in texts)
    assert all(Path(p["source_path"]).name == "a.txt" for p in transcript["passages"].values())
    assert (out / "report.md").read_text().strip()
    # a question naming no agreement: the whole library is searched and the report says where its quotes come from
    res = runner.invoke(app, ["ask", "--library", "firm", "Who pays when something goes wrong?", "--no-reading"])
    assert res.exit_code == 0, res.output
    assert "no agreement named; searching all 2" in res.output
    assert "The question named no agreement, so all 2 were searched" in " ".join(res.output.split())
