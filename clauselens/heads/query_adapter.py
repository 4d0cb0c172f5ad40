"""The query adapter (issue #39): a question's MiniLM vector moved towards the passages that answer it.

``q' = norm(q + A q)`` with ``A`` a 384 x 384 matrix trained by :mod:`clauselens.library.train_query_adapter`
on CUAD clause groups and synthetic everyday questions of ``train_allowed`` agreements (a query-side
adapter: passage vectors are unchanged, so a stored library needs no re-embedding). The library's
dense channel ranks with ``q'`` (``retrieval.query_adapter``, on by default when the head is installed);
without the head it ranks with ``q`` and says so once.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from clauselens.heads.base import HeadChecksumError, HeadMissingError, head_dir, sha256_file

NAME = "query_adapter"
WEIGHT_FILE = "model.safetensors"
META_FILE = "head.json"


class QueryAdapter:
    """The loaded adapter: :meth:`adapt` question vectors."""

    def __init__(self, root: Path | None = None) -> None:
        d = head_dir(NAME, root)
        missing = [n for n in (WEIGHT_FILE, META_FILE) if not (d / n).is_file()]
        if missing:
            raise HeadMissingError(f"query adapter not installed: {', '.join(missing)} missing under {d}")
        meta = json.loads((d / META_FILE).read_text())
        if sha256_file(d / WEIGHT_FILE) != meta["sha256"]:
            raise HeadChecksumError(f"query adapter: {WEIGHT_FILE} does not match the sha256 in head.json")
        from safetensors.numpy import load_file

        self.weight = load_file(str(d / WEIGHT_FILE))["weight"].astype(np.float32)
        self.meta = meta

    def adapt(self, vectors: np.ndarray) -> np.ndarray:
        """``norm(q + A q)`` for each row of ``vectors`` (float32, l2-normalised rows)."""
        q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        out = q + q @ self.weight.T
        return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


@lru_cache(maxsize=1)
def load() -> QueryAdapter:
    """The installed adapter, loaded once (raises :class:`HeadMissingError` when absent)."""
    return QueryAdapter()
