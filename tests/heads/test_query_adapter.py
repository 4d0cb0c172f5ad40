"""The query adapter (issue #39, off by default): loading checks, what it does to a vector, and that the
library's dense channel ranks with the adapted vector only when one is given. A tiny adapter is written
here (none is committed); the agreement is a real CUAD text."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from clauselens.heads.base import HeadChecksumError, HeadMissingError, sha256_file
from clauselens.heads.query_adapter import META_FILE, NAME, WEIGHT_FILE, QueryAdapter
from clauselens.library import Library

HOSTING = Path("/work/shared/data/legalbench-rag/corpus/cuad/CENTRACKINTERNATIONALINC_10_29_1999-EX-10.3-WEB SITE HOSTING AGREEMENT.txt")


def _write(root: Path, weight: np.ndarray) -> Path:
    d = root / NAME
    d.mkdir(parents=True)
    save_file({"weight": weight.astype(np.float16)}, str(d / WEIGHT_FILE))
    (d / META_FILE).write_text(json.dumps({"name": NAME, "sha256": sha256_file(d / WEIGHT_FILE)}))
    return root


def test_a_zero_adapter_leaves_the_vector_and_a_map_moves_it(tmp_path: Path) -> None:
    v = np.random.default_rng(0).normal(size=(3, 384)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    same = QueryAdapter(_write(tmp_path / "zero", np.zeros((384, 384), np.float32))).adapt(v)
    assert np.allclose(same, v, atol=1e-6)
    moved = QueryAdapter(_write(tmp_path / "map", np.eye(384, dtype=np.float32)[::-1])).adapt(v)
    assert np.allclose(np.linalg.norm(moved, axis=1), 1.0, atol=1e-5)
    assert not np.allclose(moved, v, atol=1e-3)


def test_missing_or_altered_weights_are_refused(tmp_path: Path) -> None:
    with pytest.raises(HeadMissingError):
        QueryAdapter(tmp_path / "none")
    root = _write(tmp_path / "ok", np.zeros((384, 384), np.float32))
    save_file({"weight": np.ones((384, 384), np.float16)}, str(root / NAME / WEIGHT_FILE))
    with pytest.raises(HeadChecksumError):
        QueryAdapter(root)


@pytest.mark.skipif(not HOSTING.is_file(), reason="CUAD texts not in ../shared/data/legalbench-rag (data absent)")
def test_the_library_ranks_with_the_adapted_vector_only_when_given(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", embedder_name="minilm")
    lib.add([HOSTING])
    q = "Can the hosting company shut the site down if the customer stops paying?"
    assert lib.query_adapter is False  # off by default (retrieval.query_adapter)
    plain = lib.search(q, k=5, absent_topics=False).passages
    v = lib.embedder.embed_queries([q])[0]
    flip = np.eye(384, dtype=np.float32) * -2.0  # q + A q = -q: the dense channel's order reverses
    lib.query_adapter = QueryAdapter(_write(tmp_path / "flip", flip))
    assert np.allclose(lib._query_vector(q), -v, atol=1e-2)
    flipped = lib.search(q, k=5, absent_topics=False).passages
    assert [p.chunk_id for p in flipped] != [p.chunk_id for p in plain]
