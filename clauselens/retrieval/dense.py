"""Dense retrieval: exact cosine top-k over chunk vectors (numpy; brute force is
fast enough at contract scale -- 160 k x 384 float32 is 245 MB and one query is a
matrix-vector product)."""

from __future__ import annotations

from typing import Collection, Sequence

import numpy as np

from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.embedders import Embedder
from clauselens.retrieval.lexical import NO_MATCH, doc_mask, rows_by_doc, top_passages
from clauselens.retrieval.types import Passage, SearchResult


class DenseIndex:
    """Chunk vectors from ``embedder.embed_passages`` (``(n, dim)``, L2-normalised).

    Cosine similarity is the dot product of normalised vectors, in ``[-1, 1]``.
    """

    def __init__(self, chunks: Sequence[Chunk], embedder: Embedder) -> None:
        self.chunks = list(chunks)
        self.embedder = embedder
        self.doc_ids = np.array([c.doc_id for c in self.chunks], dtype=object)
        self._rows = rows_by_doc(self.chunks)
        self.vectors = embedder.embed_passages([c.text for c in self.chunks]) if self.chunks else \
            np.zeros((0, embedder.dim), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.chunks)

    def scores(self, query: str | np.ndarray) -> np.ndarray:
        """Cosine similarity of every chunk to the query (text, or a ``(dim,)`` vector)."""
        if not self.chunks:
            return np.zeros(0, dtype=np.float32)
        q = self.embedder.embed_queries([query])[0] if isinstance(query, str) else np.asarray(query, np.float32)
        return self.vectors @ q

    def search(self, query: str | np.ndarray, k: int = 8, doc_ids: Collection[str] | None = None) -> list[Passage]:
        """Top ``k`` chunks by cosine (``method="dense"``), optionally only in ``doc_ids``."""
        if not self.chunks:
            return []
        s = self.scores(query)
        mask = doc_mask(self._rows, len(self.chunks), doc_ids) if doc_ids is not None else None
        return top_passages(self.chunks, s, k, "dense", positive_only=False, mask=mask)


class DenseRetriever:
    """:class:`~clauselens.retrieval.types.RetrievalMethod` doing cosine search only."""

    name = "dense"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._index = DenseIndex([], embedder)

    def index(self, documents: Sequence[Document]) -> None:
        """Index every chunk of ``documents`` (built by ``clauselens.parsing.build_chunks``)."""
        from clauselens.parsing import build_chunks

        self.index_chunks([c for d in documents for c in build_chunks(d)])

    def index_chunks(self, chunks: Sequence[Chunk]) -> None:
        """Index ``chunks`` directly (replaces the previous index)."""
        self._index = DenseIndex(chunks, self.embedder)

    def search(self, query: str, k: int = 8) -> SearchResult:
        """Top ``k`` passages; abstains on an empty index."""
        ps = self._index.search(query, k)
        if not ps:
            return SearchResult(query=query, abstained=True, reason=NO_MATCH)
        return SearchResult(query=query, passages=ps)
