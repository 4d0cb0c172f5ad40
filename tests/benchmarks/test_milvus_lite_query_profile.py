"""The Milvus Lite query profile (issue #20) attributes a question's time to the milvus
storage calls, on a real two-agreement Milvus Lite library."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pymilvus")
pytest.importorskip("milvus_lite")

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.library_scale import RandomUnitEmbedder  # noqa: E402
from benchmarks.milvus_lite_query_profile import main  # noqa: E402
from clauselens.library import Library  # noqa: E402

CUAD = REPO.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
FILES = ["MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt",
         "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT.txt"]


@pytest.mark.skipif(not all((CUAD / f).exists() for f in FILES), reason="needs the CUAD corpus")
def test_profile_attributes_search_time_to_milvus_calls(tmp_path):
    root = tmp_path / "lib"
    lib = Library.open(root, embedder=RandomUnitEmbedder(), abstain_threshold=0.0, backend="milvus")
    assert not lib.add([CUAD / f for f in FILES]).failed
    lib.catalogue.close()  # one process holds a Milvus Lite file: let the profile open it again
    out = tmp_path / "profile.json"
    main(["--root", str(root), "--named", "2", "--unnamed", "2", "--out", str(out)])
    d = json.loads(out.read_text())
    assert d["library"]["backend"] == "milvus" and d["library"]["agreements"] == 2
    for g in ("named", "unnamed"):
        calls = d["groups"][g]["calls"]
        assert d["groups"][g]["questions"] == 2 and calls["library.search"]["calls"] == 2
        assert calls["milvus.hybrid"]["calls"] >= 1
        # nested calls never take longer than the searches that contain them
        assert all(v["seconds"] <= calls["library.search"]["seconds"] + 0.01 for v in calls.values())
    # a named question looks its agreement up with scalar queries (clause numbers, defined terms)
    assert d["groups"]["named"]["calls"]["milvus_store.query"]["calls"] >= 2  # the client moved to milvus_store.py (#43)
