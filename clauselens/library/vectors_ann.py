"""Passage vectors on disk: :class:`NumpyVectors` (float32, exact scans; libraries before issue #42)
and, for scale (issue #42), :class:`Float16Vectors`: float16 storage, exact scoring below a size
threshold and an approximate HNSW index above it.

* **Storage**: one raw float16 file (``vectors.f16``, ``dim`` columns, row = passage row), opened
  memory-mapped; half the bytes of float32. MiniLM vectors are unit-length with components well
  inside float16's range; the cosine error of the rounding is about 1e-3 (IEEE 754 half precision
  keeps 11 significant bits), below every threshold the library tunes (steps of 0.04).
* **Exact** cosine over the requested rows (an agreement, or the candidates of a search) and over
  the whole library while it holds fewer than :data:`ANN_MIN_ROWS` rows, converted to float32 in
  blocks of :data:`BLOCK` rows (bounded memory).
* **Approximate** above that: an HNSW graph (Malkov & Yashunin 2018, "Efficient and robust
  approximate nearest neighbor search using Hierarchical Navigable Small World graphs", IEEE
  TPAMI) built by ``usearch`` with float16 vectors and inner-product metric, saved to
  ``vectors.usearch`` and opened as a memory-mapped *view* (no load time, pages read on demand).
  Rows added after the graph was built (the *tail*) are scored exactly and merged with the graph's
  hits, so an add never waits for the graph; the graph is rebuilt when the tail exceeds
  :data:`ANN_TAIL_MAX` rows. Removed agreements' rows stay in the graph and are dropped by the
  caller's live-row mask, which is why :data:`ANN_K` exceeds the candidates the library keeps.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.errors import RetrievalError
from clauselens.library.storage import VectorStorage

#: Whole-library dense search switches from exact to the HNSW graph at this many rows.
ANN_MIN_ROWS = 50_000
#: Rows added since the graph was built that are scored exactly before the graph is rebuilt.
ANN_TAIL_MAX = 50_000
#: Hits read from the graph per query.
ANN_K = 200
#: HNSW parameters: graph degree, candidate list while building and while searching.
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 128
#: Rows converted to float32 at a time in exact scans.
BLOCK = 65_536


class NumpyVectors(VectorStorage):
    """:class:`VectorStorage` as a raw float32 file of ``dim`` columns, opened memory-mapped;
    exact cosine over the requested rows only (a routed agreement costs only its passages)."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path = Path(path)
        self.dim = dim
        self._mm: np.ndarray | None = None

    def _map(self) -> np.ndarray:
        size = self.path.stat().st_size if self.path.exists() else 0
        n = size // (4 * self.dim)
        if self._mm is None or len(self._mm) != n:
            self._mm = np.memmap(self.path, dtype=np.float32, mode="r", shape=(n, self.dim)) if n else \
                np.zeros((0, self.dim), np.float32)
        return self._mm

    def append(self, first_row: int, vectors: np.ndarray) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise RetrievalError(f"vector store expects {self.dim}-d vectors, got {vectors.shape}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "r+b" if self.path.exists() else "wb") as f:
            f.seek(first_row * 4 * self.dim)
            f.write(vectors.tobytes())
            f.flush()
            os.fsync(f.fileno())
        self._mm = None

    def scores(self, query: np.ndarray, rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        mm = self._map()
        q = np.asarray(query, dtype=np.float32)
        if rows is None:
            return np.arange(len(mm), dtype=np.int64), np.asarray(mm @ q)
        rows = np.asarray(rows, dtype=np.int64)
        rows = rows[rows < len(mm)]
        return rows, np.asarray(mm[rows] @ q)



class Float16Vectors(VectorStorage):
    """:class:`VectorStorage` as float16 rows plus a usearch HNSW graph (module docstring)."""

    def __init__(self, root: Path, dim: int) -> None:
        self.root = Path(root)
        self.dim = dim
        self.path = self.root / "vectors.f16"
        self.ann_path = self.root / "vectors.usearch"
        self.ann_meta = self.root / "vectors_ann.json"
        self._mm: np.ndarray | None = None
        self._ann: Any = None
        self._ann_rows = -1

    # ------------------------------------------------------------- storage
    def _map(self) -> np.ndarray:
        size = self.path.stat().st_size if self.path.exists() else 0
        n = size // (2 * self.dim)
        if self._mm is None or len(self._mm) != n:
            self._mm = np.memmap(self.path, dtype=np.float16, mode="r", shape=(n, self.dim)) if n else \
                np.zeros((0, self.dim), np.float16)
        return self._mm

    def rows(self) -> int:
        """Rows stored."""
        return len(self._map())

    def append(self, first_row: int, vectors: np.ndarray) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float16)
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise RetrievalError(f"vector store expects {self.dim}-d vectors, got {vectors.shape}")
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.path, "r+b" if self.path.exists() else "wb") as f:
            f.seek(first_row * 2 * self.dim)
            f.write(vectors.tobytes())
            f.flush()
            os.fsync(f.fileno())
        self._mm = None

    # ------------------------------------------------------------- scoring
    def _exact(self, mm: np.ndarray, q: np.ndarray, start: int, stop: int) -> np.ndarray:
        out = np.empty(max(stop - start, 0), np.float32)
        for s in range(start, stop, BLOCK):
            e = min(s + BLOCK, stop)
            out[s - start:e - start] = np.asarray(mm[s:e], dtype=np.float32) @ q
        return out

    def built_rows(self) -> int:
        """Rows the saved graph covers (0: no graph)."""
        if not self.ann_meta.exists():
            return 0
        return int(json.loads(self.ann_meta.read_text())["rows"])

    def _graph(self) -> Any:
        built = self.built_rows()
        if built <= 0 or not self.ann_path.exists():
            return None
        if self._ann is None or self._ann_rows != built:
            from usearch.index import Index

            self._ann = Index.restore(str(self.ann_path), view=True)
            self._ann.expansion_search = EXPANSION_SEARCH
            self._ann_rows = built
        return self._ann

    def scores(self, query: np.ndarray, rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        mm = self._map()
        q = np.asarray(query, dtype=np.float32)
        if rows is not None:
            rows = np.asarray(rows, dtype=np.int64)
            rows = rows[rows < len(mm)]
            return rows, np.asarray(mm[rows], dtype=np.float32) @ q
        n = len(mm)
        graph = self._graph() if n >= ANN_MIN_ROWS else None
        if graph is None:
            return np.arange(n, dtype=np.int64), self._exact(mm, q, 0, n)
        built = min(self._ann_rows, n)
        hits = graph.search(q.astype(np.float32), ANN_K)
        r_a = np.asarray(hits.keys, dtype=np.int64)
        s_a = 1.0 - np.asarray(hits.distances, dtype=np.float32)  # usearch "ip" distance is 1 - inner product
        keep = r_a < built  # a graph saved without its meta (a crash) may hold tail rows: scored below
        r_a, s_a = r_a[keep], s_a[keep]
        tail = self._exact(mm, q, built, n)
        return np.concatenate([r_a, np.arange(built, n, dtype=np.int64)]), np.concatenate([s_a, tail])

    def exact_scores(self, query: np.ndarray) -> np.ndarray:
        """Exact cosine of every stored row (for recall measurements)."""
        mm = self._map()
        return self._exact(mm, np.asarray(query, np.float32), 0, len(mm))

    # ------------------------------------------------------------- the graph
    def needs_graph(self) -> bool:
        """True when the library is large enough for the graph and its tail has grown too long."""
        n = self.rows()
        return n >= ANN_MIN_ROWS and n - self.built_rows() > (ANN_TAIL_MAX if self.built_rows() else 0)

    def build_graph(self, threads: int = 0) -> int:
        """Build the HNSW graph over every stored row and save it (atomically); returns its rows."""
        from usearch.index import Index

        mm = self._map()
        n = len(mm)
        ix = Index(ndim=self.dim, metric="ip", dtype="f16", connectivity=CONNECTIVITY, expansion_add=EXPANSION_ADD,
                   expansion_search=EXPANSION_SEARCH)
        for s in range(0, n, BLOCK):
            e = min(s + BLOCK, n)
            ix.add(np.arange(s, e, dtype=np.int64), np.asarray(mm[s:e], dtype=np.float32), threads=threads)
        tmp = self.ann_path.with_name(self.ann_path.name + ".tmp")
        ix.save(str(tmp))
        os.replace(tmp, self.ann_path)
        meta_tmp = self.ann_meta.with_name(self.ann_meta.name + ".tmp")
        meta_tmp.write_text(json.dumps({"rows": n, "connectivity": CONNECTIVITY, "expansion_add": EXPANSION_ADD}))
        os.replace(meta_tmp, self.ann_meta)
        self._ann, self._ann_rows = None, -1
        return n


__all__ = ["ANN_MIN_ROWS", "Float16Vectors", "NumpyVectors"]
