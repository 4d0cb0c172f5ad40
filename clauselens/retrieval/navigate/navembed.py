"""navembed: embed every clause-tree node, cosine top-40, rerank, keep 10 (issue #4).

The embedding baseline of the "Inject or Navigate?" study: the same nodes navindex
navigates (their verbatim text, a short parent node with its descendants, prefixed with
the document label and clause reference) are embedded with an
:class:`~clauselens.retrieval.embedders.Embedder`; a query takes the ``candidates``
(default 40) nearest nodes by cosine, an optional reranker reorders them, and the first
``keep`` (default 10) that do not overlap an already kept passage are returned. Its answer step is
:func:`clauselens.retrieval.navigate.answer.answer_from_passages` (the same S3 prompt), so
the modes differ only in how the answering context is chosen. No LLM call in ``search``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from clauselens.errors import RetrievalError
from clauselens.parsing.types import Document
from clauselens.retrieval.embedders import Embedder
from clauselens.retrieval.ledger import Ledger
from clauselens.retrieval.navigate.fetch import passage_of_node
from clauselens.retrieval.navigate.index import build_nav_index
from clauselens.retrieval.rerank import Reranker
from clauselens.retrieval.types import Passage, SearchResult

CANDIDATES = 40
"""Cosine candidates before reranking (the study's top-40)."""

KEEP = 10
"""Passages kept after reranking (the study's 10)."""


def _overlaps(a: Passage, b: Passage) -> bool:
    return a.doc_id == b.doc_id and any(x.start < y.end and y.start < x.end for x in a.spans for y in b.spans)


def distinct(passages: Sequence[Passage], keep: int) -> list[Passage]:
    """The first ``keep`` passages that do not overlap an already kept one (a short parent
    node is embedded with its children, so parent and child can both rank high; keeping
    both would send the same text twice)."""
    out: list[Passage] = []
    for p in passages:
        if len(out) >= keep:
            break
        if not any(_overlaps(p, q) for q in out):
            out.append(p)
    return out


class NavEmbedRetriever:
    """navembed as a :class:`~clauselens.retrieval.types.RetrievalMethod`.

    ``index(documents)`` embeds every indexed node (``embed_passages``, ``(n, dim)``
    L2-normalised, so dot product = cosine). ``search(query, k)`` returns
    ``min(k, keep)`` passages with ``scores["cosine"]`` (and the reranker's score when one
    is set). Raises :class:`RetrievalError` when nothing is indexed.
    """

    name = "navembed"

    def __init__(self, embedder: Embedder, reranker: Reranker | None = None, candidates: int = CANDIDATES,
                 keep: int = KEEP, ledger: Ledger | None = None) -> None:
        self.embedder = embedder
        self.reranker = reranker
        self.candidates = candidates
        self.keep = keep
        self.ledger = ledger or Ledger(label="navembed")
        self.passages: list[Passage] = []
        self.vectors = np.zeros((0, getattr(embedder, "dim", 0)), dtype=np.float32)
        self._n = 0

    def index(self, documents: Sequence[Document]) -> None:
        """Embed the navindex nodes of ``documents`` (replaces the previous index)."""
        ps: list[Passage] = []
        for d in documents:
            idx, _ = build_nav_index(d)
            for n in idx.nodes:
                if not n.is_toc_entry:
                    ps.append(passage_of_node(d, d.node(n.id), self.name, 0.0))
        self.passages = ps
        texts = [f"{p.doc_title} {p.clause_ref or ''}\n{p.text}" for p in ps]
        self.vectors = self.embedder.embed_passages(texts) if ps else self.vectors

    def search(self, query: str, k: int = KEEP, query_id: str | None = None) -> SearchResult:
        """Cosine top-``candidates`` -> rerank (if any) -> keep ``min(k, keep)``."""
        if not self.passages:
            raise RetrievalError("navembed has no documents: index some documents first")
        self._n += 1
        entry = self.ledger.start(query_id or f"q{self._n}", self.name)
        q = self.embedder.embed_queries([query])[0]
        sims = self.vectors @ q
        order = np.argsort(-sims, kind="stable")[: self.candidates]
        cands = []
        for rank, i in enumerate(order, 1):
            p = self.passages[int(i)].model_copy(deep=True)
            p.score = float(sims[i])
            p.scores = {"cosine": float(sims[i])}
            p.ranks = {"cosine": rank}
            cands.append(p)
        keep = min(k, self.keep)
        if self.reranker is not None:
            with self.ledger.recording(entry, "rerank"):
                cands = self.reranker.rerank(query, cands, len(cands))
        kept = distinct(cands, keep)
        return SearchResult(query=query, passages=kept,
                            trace={"candidates": len(cands), "reranker": type(self.reranker).__name__ if self.reranker else None,
                                   "ledger_entry": len(self.ledger.entries) - 1})

    def entry_for(self, result: SearchResult):
        """The ledger entry of a ``search`` result (to add the answer call to it)."""
        return self.ledger.entries[result.trace["ledger_entry"]]
