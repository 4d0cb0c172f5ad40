"""Float16 passage vectors with an HNSW graph above a size threshold (issue #42,
:mod:`clauselens.library.vectors_ann`): exact below the threshold, the graph plus an exactly
scored tail above it, recall@10 against exact search, and a library that stores float16."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("usearch")

import clauselens.library.vectors_ann as vectors_ann  # noqa: E402
from clauselens.library import Library  # noqa: E402
from clauselens.library.vectors_ann import Float16Vectors  # noqa: E402


def _unit(n: int, dim: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_graph_and_tail_match_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors_ann, "ANN_MIN_ROWS", 1000)
    dim = 32
    base = _unit(40, dim, 0)  # clustered rows, as passages are: 40 centres, small noise
    v = base[np.arange(3000) % 40] + 0.3 * _unit(3000, dim, 1)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    store = Float16Vectors(tmp_path, dim)
    store.append(0, v[:2500])
    rows, s = store.scores(v[0], None)
    assert len(rows) == 2500 and store.needs_graph()  # exact, and large enough for the graph
    assert store.build_graph() == 2500
    store.append(2500, v[2500:])  # the tail: scored exactly, the graph is not rebuilt
    assert not store.needs_graph()
    recall = []
    for i in (3, 77, 1234, 2600, 2999):
        rows, s = store.scores(v[i], None)
        top = set(rows[np.argsort(-s)[:10]].tolist())
        exact = set(np.argsort(-store.exact_scores(v[i]))[:10].tolist())
        recall.append(len(top & exact) / 10)
        assert i in top  # the passage itself, in the graph or in the tail
    assert np.mean(recall) >= 0.9, recall
    r2, s2 = store.scores(v[5], np.array([5, 6, 4000]))  # requested rows: exact, rows past the end dropped
    assert r2.tolist() == [5, 6] and abs(float(s2[0]) - 1.0) < 2e-3


class _Emb:
    name, dim = "fake-16", 16

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return np.stack([_unit(1, 16, sum(map(ord, t)) % 1000)[0] for t in texts])

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self.embed_passages(texts)


def test_library_stores_float16(tmp_path: Path) -> None:
    d = tmp_path / "a"
    d.mkdir()
    (d / "x.txt").write_text("SERVICES AGREEMENT\n1. Term\n1.1 Five years.\n2. Fees\n2.1 Fees are due monthly.\n")
    lib = Library.open(tmp_path / "lib", embedder=_Emb(), vectors="f16")
    lib.add([d])
    assert (tmp_path / "lib" / "vectors.f16").stat().st_size == 2 * 16 * lib.catalogue.next_row()
    res = lib.search("When are fees due?", 3, resolve=False)
    assert res.passages and "dense" in {k for p in res.passages for k in p.scores}
    again = Library.open(tmp_path / "lib", create=False, embedder=_Emb())
    assert type(again.vectors).__name__ == "Float16Vectors"
