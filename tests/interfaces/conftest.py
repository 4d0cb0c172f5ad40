"""Shared fixtures: a chat-session service on a temporary cache with the deterministic fake
model and lexical-only retrieval (no embedder download, fast)."""

import shutil
from pathlib import Path

import pytest

from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.commands import build_service
from tests.fakes import ContractFakeChatModel

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ROBUST = SHARED / "robustness"


def make_settings(cache: Path) -> Settings:
    return Settings(cache_dir=cache, retrieval=RetrievalSettings(embedder="none"))


@pytest.fixture
def fake_model():
    return ContractFakeChatModel(calls=[])


@pytest.fixture
def service(tmp_path, fake_model):
    return build_service(make_settings(tmp_path), models=fake_model)


# A tiny lexical library of real CUAD contracts under neutral file names (library sessions):
# the MediWound supply agreement twice (a.txt, and b.txt with a filing note: a tie), Kitov's
# manufacturing agreement (c.txt) and two others.
CUAD = SHARED / "data" / "legalbench-rag" / "corpus" / "cuad"
MW = CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"
KITOV = CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
OTHERS = [CUAD / "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT.txt",
          CUAD / "IMPCOTECHNOLOGIESINC_04_15_2003-EX-10.65-JOINT VENTURE AGREEMENT.txt"]
LIBRARY_FILES_PRESENT = all(p.exists() for p in [MW, KITOV, *OTHERS])


@pytest.fixture(scope="module")
def library_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from clauselens.library import Library

    if not LIBRARY_FILES_PRESENT:
        pytest.skip("needs the CUAD corpus in ../shared/data")
    folder = tmp_path_factory.mktemp("contracts")
    shutil.copy(MW, folder / "a.txt")
    (folder / "b.txt").write_text(MW.read_text(encoding="utf-8") + "\n\nFiled copy.\n", encoding="utf-8")
    shutil.copy(KITOV, folder / "c.txt")
    for i, p in enumerate(OTHERS):
        shutil.copy(p, folder / f"d{i}.txt")
    root = tmp_path_factory.mktemp("libraries") / "firm"
    lib = Library.open(root, embedder_name="none", create=True)
    rep = lib.add([folder])
    assert len(rep.added) == 5 and not rep.failed
    return root
