"""What the Researcher's tools return, and the one interface every retrieval method has."""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from pydantic import BaseModel, Field

from clauselens.parsing.types import Chunk, Document, SourcedText


class Passage(SourcedText):
    """One retrieved passage, traceable to its source.

    ``score`` is the final score of the method that ranked it (higher is better; for RRF
    the fused score, for a reranker the sigmoid probability in [0, 1]); ``scores`` keeps
    each stage's score (e.g. ``{"bm25": 7.1, "dense": 0.62, "rrf": 0.032}``) and
    ``ranks`` each stage's 1-based rank, for the trace.
    """

    chunk_id: str
    score: float = 0.0
    scores: dict[str, float] = Field(default_factory=dict)
    ranks: dict[str, int] = Field(default_factory=dict)
    method: str = ""
    #: Remarks for the reader about this passage's standing, e.g. "superseded in part by
    #: Amendment No. 2 (2010-02-28)" or "operative text: amends clause 4.2 of ..." (library
    #: version precedence); empty for most passages.
    notes: list[str] = Field(default_factory=list)

    @classmethod
    def from_chunk(cls, chunk: Chunk, score: float, method: str) -> "Passage":
        """Wrap a :class:`Chunk` with a score from ``method``."""
        return cls(
            chunk_id=chunk.id, doc_id=chunk.doc_id, node_id=chunk.node_id, text=chunk.text,
            spans=chunk.spans, clause_ref=chunk.clause_ref, heading_path=chunk.heading_path,
            page_start=chunk.page_start, page_end=chunk.page_end, doc_title=chunk.doc_title,
            source_path=chunk.source_path, score=score, scores={method: score}, method=method,
        )


class SearchResult(BaseModel):
    """Ranked passages for one query, plus what happened (for the report's trace).

    ``abstained`` is True when the method judged nothing relevant (then ``passages`` is
    empty and ``reason`` says why, e.g. ``"no matching clause found"``).
    """

    query: str
    passages: list[Passage] = Field(default_factory=list)
    abstained: bool = False
    reason: str | None = None
    trace: dict = Field(default_factory=dict)


@runtime_checkable
class RetrievalMethod(Protocol):
    """Interface shared by the Researcher's tools and the benchmarks.

    ``index`` takes parsed documents (idempotent for unchanged documents);
    ``search`` returns at most ``k`` passages, best first.
    """

    name: str

    def index(self, documents: Sequence[Document]) -> None: ...

    def search(self, query: str, k: int = 8) -> SearchResult: ...
