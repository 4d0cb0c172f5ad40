"""The LightRAG graph as the Researcher's tools: ``lightrag`` (:class:`GraphTool`, a graph that
never ends a run because it is unavailable) and ``hybrid,lightrag`` (:class:`HybridPlusGraph`, the
hybrid and graph lists fused by reciprocal rank fusion, Cormack et al. 2009), and
:func:`build_graph_tool`, which makes the tool from the settings. See
:mod:`clauselens.retrieval.lightrag` for the design.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping, Sequence

from clauselens.parsing.types import Document
from clauselens.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from clauselens.retrieval.lightrag.adapter import GraphUnavailableError, InsertProgress
from clauselens.retrieval.lightrag.retriever import LightRAGRetriever
from clauselens.retrieval.types import SearchResult

log = logging.getLogger(__name__)


class HybridPlusGraph:
    """The Researcher's ``hybrid,lightrag`` tool set: hybrid and graph lists fused by RRF.

    ``search`` runs ``hybrid.search(query, candidates)`` and ``graph.search(query,
    candidates)`` and fuses the two ranked lists with
    :func:`~clauselens.retrieval.fusion.reciprocal_rank_fusion` (``k`` = ``rrf_k``,
    Cormack et al. 2009). Graph passages are ordinary passages: they keep their spans and
    compete on rank alone. If the graph raises :class:`GraphUnavailableError` (0 entities),
    the hybrid result is returned unchanged except for ``trace["graph"] = "graph
    unavailable: ..."`` (never silently); other errors (embedder changed, ...) propagate.
    Reranking, if configured, happens inside ``hybrid``; apply a reranker to the fused
    list at the call site if wanted.
    """

    name = "hybrid+lightrag"

    def __init__(self, hybrid: Any, graph: LightRAGRetriever, rrf_k: int = RRF_K, candidates: int = 40,
                 weights: Mapping[str, float] | None = None) -> None:
        self.hybrid, self.graph = hybrid, graph
        self.rrf_k, self.candidates, self.weights = rrf_k, candidates, dict(weights or {})
        self.graph_error: str | None = None

    def index(self, documents: Sequence[Document]) -> None:
        """Index ``documents`` in both; an unavailable graph (0 entities) is kept in
        ``graph_error`` (and reported by every search) instead of failing the index."""
        self.hybrid.index(documents)
        try:
            self.graph.index(documents)
            self.graph_error = None
        except GraphUnavailableError as e:
            self.graph_error = str(e)
            log.warning(self.graph_error)

    def search(self, query: str, k: int = 8) -> SearchResult:
        """Top ``k`` fused passages; see the class docstring."""
        hyb = self.hybrid.search(query, max(k, self.candidates))
        trace: dict[str, Any] = {"tool": self.name, "hybrid": hyb.trace}
        try:
            if self.graph_error:
                raise GraphUnavailableError(self.graph_error)
            gr = self.graph.search(query, max(k, self.candidates))
        except GraphUnavailableError as e:
            trace["graph"] = f"{e}; hybrid results only"
            return SearchResult(query=query, passages=hyb.passages[:k], abstained=hyb.abstained,
                                reason=hyb.reason, trace=trace)
        trace["graph"] = gr.trace
        lists = {"hybrid": [] if hyb.abstained else hyb.passages, "lightrag": gr.passages}
        fused = reciprocal_rank_fusion(lists, k=self.rrf_k, weights=self.weights or None)[:k]
        if not fused:
            return SearchResult(query=query, abstained=True, reason=hyb.reason or gr.reason or "no matching clause found",
                                trace=trace)
        return SearchResult(query=query, passages=fused, trace=trace)


#: What a graph-only run (``--mode lightrag``, ``--tools lightrag``) retrieves when the graph is
#: unavailable: nothing, and the message says so (it used to claim hybrid retrieval took over).
GRAPH_ONLY_NOTHING = ("graph-only mode has no other retrieval tool, so no passages were retrieved "
                      "(use --mode hybrid, or --tools hybrid,lightrag)")

#: The prefix of every "graph unavailable" message; the report lists the messages that start with it.
GRAPH_UNAVAILABLE_PREFIX = "graph retrieval unavailable"


class GraphTool:
    """The Researcher's ``lightrag`` tool: a :class:`LightRAGRetriever` that never ends a
    run because the graph is unavailable.

    ``index`` keeps a :class:`GraphUnavailableError` (0 entities extracted) in
    ``unavailable`` instead of raising. ``search`` then answers from ``fallback`` (the
    hybrid retriever, indexed by its owner) with ``reason = "graph retrieval unavailable: extraction
    produced 0 entities ...; hybrid results instead"``, which the Researcher records in the
    run's trace; without a fallback it returns an abstained result with that reason. Other
    errors (embedder changed, every chunk failed, model unreachable) propagate: they need
    the user's action.

    Its passages score ``1 / (60 + rank)`` (see :meth:`LightRAGRetriever.search`), the
    scale of the hybrid tool's RRF scores, so a Researcher that merges tools by score
    treats them alike; :class:`HybridPlusGraph` fuses by rank instead.
    """

    name = "lightrag"

    def __init__(self, graph: LightRAGRetriever, fallback: Any | None = None) -> None:
        self.graph = graph
        self.fallback = fallback
        self.unavailable: str | None = None

    def index(self, documents: Sequence[Document]) -> None:
        """Build or resume the graph (see :meth:`LightRAGRetriever.index`)."""
        try:
            self.graph.index(documents)
            self.unavailable = None
        except GraphUnavailableError as e:
            self.unavailable = str(e)
            log.warning(self.unavailable)

    def search(self, query: str, k: int = 8) -> SearchResult:
        """Graph passages, or an abstained result saying why the graph is unavailable."""
        try:
            if self.unavailable:
                raise GraphUnavailableError(self.unavailable)
            return self.graph.search(query, k)
        except GraphUnavailableError as e:
            trace = {"tool": self.name, "graph": "unavailable", "warning": str(e)}
            if self.fallback is None:
                return SearchResult(query=query, abstained=True, reason=f"{e}; {GRAPH_ONLY_NOTHING}", trace=trace)
            res = self.fallback.search(query, k)
            trace["fallback"] = res.trace
            return SearchResult(query=query, passages=res.passages, abstained=res.abstained,
                                reason=f"{e}; {getattr(self.fallback, 'name', 'fallback')} results instead",
                                trace=trace)


def build_graph_tool(settings: Any, *, chat_model: Any, embedder: Any | None = None, fallback: Any | None = None,
                     progress: Callable[[InsertProgress], None] | None = None) -> GraphTool:
    """The ``lightrag`` tool from :class:`clauselens.config.Settings`.

    Uses the Researcher's model settings (``backend="llamacpp"``: one LLM call at a time;
    a server: 4 concurrent calls), ``settings.retrieval.embedder`` (``"none"`` falls back
    to ``"minilm"``: LightRAG needs vectors), ``graph_mode`` / ``graph_rebuild`` from
    ``settings.retrieval``, and stores graphs under ``settings.store_dir``.
    ``fallback`` (the hybrid retriever) answers while the graph is unavailable.

    Raises: as :func:`~clauselens.retrieval.embedders.get_embedder` and
    :class:`LightRAGRetriever`.
    """
    r = settings.retrieval
    if embedder is None:
        from clauselens.retrieval.embedders import get_embedder

        name = r.embedder if r.embedder not in ("none", "") else "minilm"
        embedder = get_embedder(name, settings.cache_dir)
    ms = settings.researcher_model
    graph = LightRAGRetriever(
        embedder=embedder, chat_model=chat_model, store_dir=settings.store_dir,
        mode=r.graph_mode, rebuild=r.graph_rebuild,
        llm_max_async=1 if ms.backend == "llamacpp" else 4,
        llm_timeout_s=int(max(ms.request_timeout_s, 300.0)), llm_name=ms.model, progress=progress,
    )
    return GraphTool(graph, fallback=fallback)
