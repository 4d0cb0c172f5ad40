"""LightRAG (Guo et al. 2024, "LightRAG: Simple and Fast Retrieval-Augmented Generation",
arXiv:2410.05779) behind the :class:`~clauselens.retrieval.types.RetrievalMethod` interface:
:class:`LightRAGRetriever` builds (or resumes, or reuses) one graph per corpus from our chunks,
opens a stored one, and maps LightRAG's result chunks back to our passages. See
:mod:`clauselens.retrieval.lightrag` for the design.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Literal, Sequence

from clauselens.errors import ConfigError, RetrievalError
from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.fusion import RRF_K
from clauselens.retrieval.lightrag.adapter import (
    CHUNK_TOKENS,
    CHUNKS_FILE,
    GRAPH_MODES,
    LAYOUT_VERSION,
    META_FILE,
    GraphMode,
    GraphStats,
    GraphUnavailableError,
    InsertProgress,
    LLMFunc,
    LoopThread,
    corpus_hash,
    graph_chunks,
    graph_key,
    graph_text,
    local_tokenizer,
    make_embedding_func,
    make_llm_model_func,
    verbatim_chunking,
    write_json,
)
from clauselens.retrieval.types import Passage, SearchResult

log = logging.getLogger(__name__)


class LightRAGRetriever:
    """LightRAG behind the :class:`~clauselens.retrieval.types.RetrievalMethod` interface.

    Args:
        embedder: an :class:`~clauselens.retrieval.embedders.Embedder` (``name``, ``dim``,
            ``embed_queries``, ``embed_passages``).
        llm_func: LightRAG ``llm_model_func`` (async, see :func:`make_llm_model_func`);
            or pass ``chat_model`` (a langchain chat model) and it is wrapped.
        store_dir: the store root; the graph lives in ``<store_dir>/lightrag/<corpus-hash>/``.
        mode: default query mode, one of :data:`GRAPH_MODES`.
        rebuild: if the stored graph was built with another embedder, delete and rebuild
            it (otherwise :meth:`index` raises :class:`RetrievalError`).
        batch_size: chunks per ``ainsert`` call (progress and resume granularity).
        llm_max_async: concurrent LLM calls (1 for an in-process model; raise for a server).
        llm_timeout_s: LightRAG's per-call LLM timeout in seconds.
        max_gleaning: LightRAG's extra "anything missed?" extraction rounds per chunk
            (default 0: each round costs one more LLM call).
        tokenizer_path: a ``tokenizer.json``; default MiniLM's (:func:`local_tokenizer`).
        progress: called with an :class:`InsertProgress` after every batch (default: log).
        max_chunks: index only the first ``max_chunks`` graph chunks (benchmarks on CPU).
        keywords: how graph modes get their query keywords: ``"llm"`` (LightRAG's keyword
            extraction prompt, one LLM call per query and mode) or ``"query"`` (the query
            text itself is the high- and low-level keyword, matched by embedding against
            entity and relation vectors: no LLM call at query time).

    Raises (construction): :class:`ConfigError` for an unknown mode or no LLM.
    """

    name = "lightrag"

    def __init__(
        self,
        *,
        embedder: Any,
        store_dir: str | Path,
        llm_func: LLMFunc | None = None,
        chat_model: Any | None = None,
        mode: GraphMode = "mix",
        rebuild: bool = False,
        batch_size: int = 1,
        llm_max_async: int = 1,
        llm_timeout_s: int = 900,
        max_gleaning: int = 0,
        tokenizer_path: str | Path | None = None,
        progress: Callable[[InsertProgress], None] | None = None,
        max_chunks: int | None = None,
        llm_name: str | None = None,
        keywords: Literal["llm", "query"] = "llm",
    ) -> None:
        if mode not in GRAPH_MODES:
            raise ConfigError(f"unknown LightRAG mode {mode!r}: use one of {', '.join(GRAPH_MODES)}")
        if llm_func is None and chat_model is None:
            raise ConfigError("LightRAGRetriever needs llm_func or chat_model for entity extraction")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        self.embedder = embedder
        self.llm_func = llm_func or make_llm_model_func(chat_model)
        self.llm_name = llm_name or getattr(chat_model, "model_name", None) or getattr(self.llm_func, "__name__", "llm")
        self.store_dir = Path(store_dir)
        self.mode: GraphMode = mode
        self.rebuild = rebuild
        self.batch_size = max(1, int(batch_size))
        self.llm_max_async = max(1, int(llm_max_async))
        self.llm_timeout_s = int(llm_timeout_s)
        self.max_gleaning = int(max_gleaning)
        self.tokenizer_path = tokenizer_path
        self.progress = progress or (lambda p: log.info(p.line()))
        self.max_chunks = max_chunks
        if keywords not in ("llm", "query"):
            raise ConfigError(f"unknown LightRAG keywords source {keywords!r}: use 'llm' or 'query'")
        self.keywords = keywords
        self.working_dir: Path | None = None
        self.stats = GraphStats()
        self._rag: Any = None
        self._build_id = ""
        self._chunks: dict[str, list[Chunk]] = {}

    # ---------------------------------------------------------------- index

    def index(self, documents: Sequence[Document]) -> None:
        """Build (or resume, or reuse) the graph of ``documents``' node/window chunks.

        Raises:
            RetrievalError: no documents; or the stored graph was built with another
                embedder and ``rebuild`` is False; or every chunk failed extraction.
            GraphUnavailableError: extraction produced 0 entities (the graph still
                exists and ``naive`` mode can serve it).
        """
        from clauselens.parsing import build_chunks

        if not documents:
            raise RetrievalError("no documents to build a graph from")
        chunks = [c for d in documents for c in build_chunks(d)]
        self.index_chunks(chunks, corpus=corpus_hash(documents))

    def index_chunks(self, chunks: Sequence[Chunk], corpus: str | None = None) -> None:
        """Like :meth:`index` for pre-built chunks; ``corpus`` names the working dir
        (default: a hash of the inserted chunk keys)."""
        sel = graph_chunks(chunks)
        if self.max_chunks is not None:
            sel = sel[: self.max_chunks]
        if not sel:
            raise RetrievalError("no text to build a graph from (no node or window chunks)")
        by_key: dict[str, list[Chunk]] = {}
        texts: dict[str, str] = {}
        for c in sel:
            t = graph_text(c)
            k = graph_key(t)
            by_key.setdefault(k, []).append(c)
            texts.setdefault(k, t)
        if corpus is None:
            corpus = hashlib.sha256("\n".join(sorted(by_key)).encode()).hexdigest()[:16]
        elif self.max_chunks is not None:
            corpus = f"{corpus}-first{self.max_chunks}"
        wd = self.store_dir / "lightrag" / corpus
        if self._rag is not None and wd != self.working_dir:  # another corpus: let go of the old graph
            self.close()
        self.working_dir = wd
        self._check_embedder(self.working_dir)
        self.working_dir.mkdir(parents=True, exist_ok=True)
        self._chunks = by_key
        meta_path = self.working_dir / META_FILE
        self._build_id = uuid.uuid4().hex[:12]
        if meta_path.is_file():  # resuming: same build, keep the time already spent
            prev = json.loads(meta_path.read_text(encoding="utf-8"))
            self._build_id = str(prev.get("build_id", ""))  # "" = built before build ids existed
            self.stats.index_seconds = float(prev.get("stats", {}).get("index_seconds", 0.0))
        write_json(self.working_dir / CHUNKS_FILE,
                    {k: [c.model_dump(mode="json") for c in cs] for k, cs in by_key.items()})
        self._write_meta()
        LoopThread.run(self._ainsert_all(texts))
        self._write_meta()
        if self.stats.failed_chunks and self.stats.failed_chunks >= len(by_key):
            raise RetrievalError(
                f"graph indexing failed for all {len(by_key)} chunks: {self.stats.errors[0] if self.stats.errors else 'unknown error'}")
        if self.stats.entities == 0:
            raise GraphUnavailableError(self._zero_entities_message())

    def open(self, working_dir: str | Path) -> None:
        """Attach to an existing graph directory (built earlier by :meth:`index`).

        Raises:
            RetrievalError: the directory holds no graph, or it was built with another
                embedder.
        """
        wd = Path(working_dir)
        if not (wd / META_FILE).is_file() or not (wd / CHUNKS_FILE).is_file():
            raise RetrievalError(f"no LightRAG graph in {wd}: build it first (index documents with --tools lightrag)")
        self._check_embedder(wd, allow_rebuild=False)
        if self._rag is not None and wd != self.working_dir:
            self.close()
        self.working_dir = wd
        raw = json.loads((wd / CHUNKS_FILE).read_text(encoding="utf-8"))
        self._chunks = {k: [Chunk.model_validate(c) for c in cs] for k, cs in raw.items()}
        meta = json.loads((wd / META_FILE).read_text(encoding="utf-8"))
        self._build_id = str(meta.get("build_id", ""))
        self.stats = GraphStats(**{k: v for k, v in meta.get("stats", {}).items() if k in GraphStats.__dataclass_fields__})

    def _check_embedder(self, wd: Path, allow_rebuild: bool = True) -> None:
        meta_path = wd / META_FILE
        if not meta_path.is_file():
            return
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        emb = meta.get("embedder", {})
        if emb.get("name") == self.embedder.name and int(emb.get("dim", -1)) == int(self.embedder.dim):
            return
        if self.rebuild and allow_rebuild:
            log.warning("LightRAG graph %s was built with embedder %s (%s-d); rebuilding with %s (%s-d)",
                        wd, emb.get("name"), emb.get("dim"), self.embedder.name, self.embedder.dim)
            shutil.rmtree(wd)
            return
        raise RetrievalError(
            f"the LightRAG graph in {wd} was built with embedder {emb.get('name')!r} ({emb.get('dim')}-d) "
            f"but the configured embedder is {self.embedder.name!r} ({self.embedder.dim}-d); "
            "rebuild the graph (rebuild=True / --rebuild-graph) or configure the original embedder")

    def _write_meta(self) -> None:
        import lightrag

        assert self.working_dir is not None
        write_json(self.working_dir / META_FILE, {
            "build_id": self._build_id,
            "embedder": {"name": self.embedder.name, "dim": int(self.embedder.dim)},
            "llm": str(self.llm_name),
            "lightrag_version": getattr(lightrag, "__version__", "?"),
            "layout_version": LAYOUT_VERSION,
            "stats": self.stats.__dict__,
        })

    def _zero_entities_message(self) -> str:
        # what is used instead is said by the tool that wraps the graph (GraphTool, HybridPlusGraph):
        # only it knows whether there is another retriever (issue #22 item 8)
        return (f"graph retrieval unavailable: extraction produced 0 entities from {self.stats.chunks} chunks "
                f"(model {self.llm_name}); small local models often extract none - use a larger or "
                "GPU-served model")

    # ---------------------------------------------------------------- async core

    async def _arag(self) -> Any:
        if self._rag is not None:
            return self._rag
        from lightrag import LightRAG

        for name in ("lightrag", "nano-vectordb"):
            logging.getLogger(name).setLevel(logging.WARNING)
        assert self.working_dir is not None
        rag = LightRAG(
            working_dir=str(self.working_dir),
            # LightRAG keeps storages in process-wide namespaces keyed by workspace: one per
            # graph build, so two graphs (or a rebuilt one) never share in-memory state
            workspace=("w" + self._build_id) if self._build_id else "",
            llm_model_func=self.llm_func,
            llm_model_name=str(self.llm_name),
            llm_model_max_async=self.llm_max_async,
            default_llm_timeout=self.llm_timeout_s,
            embedding_func=make_embedding_func(self.embedder),
            tokenizer=local_tokenizer(self.tokenizer_path),
            chunking_func=verbatim_chunking,
            chunk_token_size=CHUNK_TOKENS,
            chunk_overlap_token_size=0,
            entity_extract_max_gleaning=self.max_gleaning,
            max_parallel_insert=1,
        )
        await rag.initialize_storages()
        self._rag = rag
        return rag

    async def _statuses(self, rag: Any, keys: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        rows = await rag.doc_status.get_by_ids(keys)
        for k, row in zip(keys, rows):
            if row:
                st = row.get("status") if isinstance(row, dict) else getattr(row, "status", None)
                out[k] = str(getattr(st, "value", st)).lower()
        return out

    async def _ainsert_all(self, texts: dict[str, str]) -> None:
        rag = await self._arag()
        keys = list(texts)
        status = await self._statuses(rag, keys)
        todo = [k for k in keys if status.get(k) != "processed"]
        for k in todo:  # failed (or half-done) documents from an earlier run: start them again
            if k in status:
                await rag.adelete_by_doc_id(k)
        skipped = len(keys) - len(todo)
        t0 = time.monotonic()
        base_s = self.stats.index_seconds
        done = failed = 0
        errors: list[str] = []
        for i in range(0, len(todo), self.batch_size):
            batch = todo[i:i + self.batch_size]
            await rag.ainsert([texts[k] for k in batch], ids=batch, file_paths=batch)
            st = await self._statuses(rag, batch)
            bad = [k for k in batch if st.get(k) != "processed"]
            if bad:
                failed += len(bad)
                rows = await rag.doc_status.get_by_ids(bad)
                for r in rows:
                    msg = (r or {}).get("error_msg") if isinstance(r, dict) else getattr(r, "error_msg", None)
                    if msg:
                        errors.append(str(msg)[:300])
            done += len(batch)
            el = time.monotonic() - t0
            self.stats.index_seconds = base_s + el
            self.stats.failed_chunks = failed
            self._write_meta()  # so an interrupted run still records the time spent
            self.progress(InsertProgress(done=done, total=len(todo), skipped=skipped, elapsed_s=el,
                                         eta_s=el / done * (len(todo) - done), failed=failed))
        nodes = await rag.chunk_entity_relation_graph.get_all_nodes()
        edges = await rag.chunk_entity_relation_graph.get_all_edges()
        self.stats = GraphStats(chunks=len(keys) - failed, entities=len(nodes), relations=len(edges),
                                failed_chunks=failed,
                                index_seconds=base_s + (time.monotonic() - t0),
                                errors=errors[:5])

    # ---------------------------------------------------------------- search

    def search(self, query: str, k: int = 8, mode: GraphMode | None = None,
               keywords: Literal["llm", "query"] | None = None) -> SearchResult:
        """Top ``k`` of our chunks for ``query`` through the graph.

        Each LightRAG result chunk is mapped back by its key to our
        :class:`Chunk` (a key holding several identical texts yields each of them).
        LightRAG returns an order, not scores: ``score`` is ``1 / (60 + rank)``, the
        contribution of one list to an RRF score (Cormack et al. 2009, k = 60), so graph
        passages sit on the same scale as the hybrid tool's fused scores when a caller
        merges tools by score; ``ranks["lightrag"]`` is the rank.
        ``trace`` holds the mode, LightRAG's keywords, the entities and relations that led
        to the chunks, and graph statistics.

        Raises:
            RetrievalError: no graph built or opened yet; unknown mode.
            GraphUnavailableError: the graph has 0 entities and ``mode`` is not ``naive``.
        """
        mode = mode or self.mode
        if mode not in GRAPH_MODES:
            raise RetrievalError(f"unknown LightRAG mode {mode!r}: use one of {', '.join(GRAPH_MODES)}")
        if self.working_dir is None or not self._chunks:
            raise RetrievalError("no LightRAG graph built yet: index documents first")
        if self.stats.entities == 0 and mode != "naive":
            raise GraphUnavailableError(self._zero_entities_message())
        if not query.strip():
            return SearchResult(query=query, abstained=True, reason="empty question", trace={"tool": "lightrag"})
        t0 = time.monotonic()
        keywords = keywords or self.keywords
        data = LoopThread.run(self._aquery(query, k, mode, keywords))
        body = data.get("data") or {}
        passages: list[Passage] = []
        seen: set[str] = set()
        unmapped = 0
        for row in body.get("chunks", []):
            key = str(row.get("file_path", "")).split("<SEP>")[0].strip()
            cs = self._chunks.get(key)
            if not cs:
                unmapped += 1
                continue
            for c in cs:
                if c.id in seen:
                    continue
                seen.add(c.id)
                p = Passage.from_chunk(c, score=1.0 / (RRF_K + len(passages) + 1), method="lightrag")
                p.ranks["lightrag"] = len(passages) + 1
                passages.append(p)
            if len(passages) >= k:
                break
        passages = passages[:k]
        trace: dict[str, Any] = {
            "tool": "lightrag", "mode": mode, "keywords_from": keywords, "seconds": round(time.monotonic() - t0, 3),
            "status": data.get("status"), "message": data.get("message"),
            "keywords": (data.get("metadata") or {}).get("keywords"),
            "entities": [e.get("entity_name") for e in body.get("entities", [])[:20]],
            "relations": [f"{r.get('src_id')} -- {r.get('tgt_id')}" for r in body.get("relationships", [])[:20]],
            "graph": {"entities": self.stats.entities, "relations": self.stats.relations, "chunks": self.stats.chunks},
            "unmapped_chunks": unmapped,
        }
        if self.stats.entities == 0:
            trace["warning"] = self._zero_entities_message()
        if not passages:
            return SearchResult(query=query, abstained=True, reason="no matching clause found in the graph", trace=trace)
        return SearchResult(query=query, passages=passages, trace=trace)

    async def _aquery(self, query: str, k: int, mode: str, keywords: str = "llm") -> dict:
        from lightrag import QueryParam

        rag = await self._arag()
        param = QueryParam(mode=mode, only_need_context=True, chunk_top_k=max(k, 1), enable_rerank=False)
        if keywords == "query" and mode != "naive":  # LightRAG skips its keyword LLM call when given keywords
            param.hl_keywords = [query]
            param.ll_keywords = [query]
        return await rag.aquery_data(query, param)

    def close(self) -> None:
        """Flush and close LightRAG's storages (safe to call twice)."""
        if self._rag is not None:
            rag, self._rag = self._rag, None
            LoopThread.run(rag.finalize_storages())
