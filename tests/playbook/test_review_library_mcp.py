"""Playbook review of a five-agreement library (CLI, one row per agreement x position) and the MCP tool
``review_agreement`` (issue #44), LLM-free, on real CUAD contracts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from clauselens.cli import app
from clauselens.config import RetrievalSettings, Settings

from .test_review import CCA, COOL, CUAD

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "playbooks"
FIVE = [CCA, COOL, CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt",
        CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt",
        CUAD / "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT.txt"]
pytestmark = pytest.mark.skipif(not all(p.exists() for p in FIVE), reason="needs the CUAD corpus in ../shared/data")


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from clauselens.library import Library

    folder = tmp_path_factory.mktemp("contracts")
    for p in FIVE:
        shutil.copy(p, folder / p.name)
    root = tmp_path_factory.mktemp("libraries") / "firm"
    rep = Library.open(root, embedder_name="none", create=True).add([folder])
    assert len(rep.added) == 5 and not rep.failed
    return root


def test_review_a_library(library: Path, tmp_path: Path) -> None:
    out = tmp_path / "rev"
    res = CliRunner().invoke(app, ["review", "--library", str(library), "--playbook", str(EXAMPLES / "supply_services.yaml"),
                                   "--out", str(out), "--no-reading"])
    assert res.exit_code == 0, res.output
    data = json.loads((out / "review.json").read_text())
    assert len(data["agreements"]) == 5
    ws = load_workbook(out / "review.xlsx")["review"]
    assert ws.max_row == 1 + 5 * 13
    by_file = {Path(a["source_path"]).name: a for a in data["agreements"]}
    law = next(r for r in by_file[CCA.name]["results"] if r["position_id"] == "governing_law")
    assert law["outcome"] == "deviation" and law["value"] == "New Jersey"
    assert list(out.glob("*.redline.docx"))  # a DOCX of the library's text, with its tracked changes
    one = CliRunner().invoke(app, ["review", "--library", str(library), "--agreement", "COOLTECHNOLOGIES", "--playbook",
                                   str(EXAMPLES / "mutual_nda.yaml"), "--out", str(tmp_path / "one"), "--no-reading"])
    assert one.exit_code == 0, one.output
    assert len(json.loads((tmp_path / "one" / "review.json").read_text())["agreements"]) == 1
    bad = CliRunner().invoke(app, ["review", "--library", str(library), "--agreement", "no such agreement", "--playbook",
                                   str(EXAMPLES / "mutual_nda.yaml"), "--out", str(tmp_path / "x"), "--no-reading"])
    assert bad.exit_code == 3 and "matches no agreement" in bad.output and "Traceback" not in bad.output


def test_mcp_review_agreement(tmp_path: Path) -> None:
    from clauselens.interfaces.commands import build_service
    from clauselens.interfaces.mcp_server import create_mcp_server

    service = build_service(Settings(cache_dir=tmp_path / "cache", retrieval=RetrievalSettings(embedder="none")))
    server = create_mcp_server(service, roots=(CUAD, EXAMPLES))

    def call(args: dict):  # type: ignore[no-untyped-def]
        return anyio.run(server.call_tool, "review_agreement", args)

    got = call({"playbook": str(EXAMPLES / "supply_services.yaml"), "path": str(CCA)})
    out = got.structured_content
    assert not got.is_error and len(out["agreements"]) == 1
    law = next(p for p in out["agreements"][0]["positions"] if p["position_id"] == "governing_law")
    assert law["outcome"] == "deviation" and "New Jersey" in law["quote"] and law["clause"]
    assert Path(out["reports"]["xlsx"]).is_file() and all(Path(p).is_file() for p in out["redlines"].values())
    with pytest.raises(Exception, match="outside"):
        call({"playbook": str(EXAMPLES / "supply_services.yaml"), "path": "/etc/hostname"})
    with pytest.raises(Exception, match="either path"):
        call({"playbook": str(EXAMPLES / "supply_services.yaml")})
