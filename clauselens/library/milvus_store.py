"""The Milvus client of one library (issue #20; split out of :mod:`clauselens.library.milvus` by
concern, issue #43): connection (Milvus Lite file or server URI, credentials from
``CLAUSELENS_MILVUS_TOKEN``), the four collections and their schemas, indexes and BM25
functions, the ``meta`` collection (generation, next row, add journal), filter-expression
literals, and how analyser tokens are written so Milvus keeps them as one term. The backend's
design (collections, ranking, crash safety) is described in :mod:`clauselens.library.milvus`."""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from clauselens.errors import ConfigError

#: Milvus's VARCHAR limit is in bytes; longer values are cut at a character boundary.
VARCHAR_MAX = 65535
#: BM25 parameters (as the local backend's bm25s index: Lucene defaults).
BM25_K1, BM25_B = 1.5, 0.75
#: Milvus's limit on the rows of one query (offset + limit).
QUERY_CAP = 16384
#: Rows per insert / ``in [...]`` query.
BATCH = 500
TOKEN_ENV = "CLAUSELENS_MILVUS_TOKEN"
INDEX_ENV = "CLAUSELENS_MILVUS_DENSE_INDEX"
_NON_WORD = re.compile(r"\W+", re.UNICODE)


def milvus_term(token: str) -> str:
    """A :class:`~clauselens.retrieval.analyzer.LegalAnalyzer` token written with word
    characters only, so Milvus's ``standard`` analyzer keeps it as one term:
    ``14.3(b)`` -> ``14_3_b``, ``5.17`` -> ``5_17``, ``1,000`` -> ``1_000``; words are unchanged."""
    return _NON_WORD.sub("_", token).strip("_")


def milvus_text(tokens: Iterable[str]) -> str:
    """The ``tokens`` field value: :func:`milvus_term` of each token, space-separated."""
    return cut_utf8(" ".join(t for t in (milvus_term(x) for x in tokens) if t))


def cut_utf8(s: str, limit: int = VARCHAR_MAX) -> str:
    """``s`` cut to at most ``limit`` UTF-8 bytes, at a character boundary (Milvus VARCHAR limits are in bytes)."""
    b = s.encode("utf-8")
    if len(b) <= limit:
        return s
    return b[:limit].decode("utf-8", "ignore")


def filter_literal(s: str) -> str:
    """A string literal for a Milvus filter expression."""
    return json.dumps(s, ensure_ascii=False)


def filter_in(field: str, values: Sequence[Any]) -> str:
    """A Milvus filter expression ``field in [...]`` over strings or integers."""
    return f"{field} in [{', '.join(filter_literal(v) if isinstance(v, str) else str(int(v)) for v in values)}]"


def collection_prefix(name: str) -> str:
    """``clauselens_<name>_`` with the characters Milvus allows in collection names."""
    return "clauselens_" + (re.sub(r"[^A-Za-z0-9_]", "_", name) or "library") + "_"


def is_local_uri(uri: str) -> bool:
    """True for a Milvus Lite file (anything that is not an ``http(s)://`` / ``tcp://`` URI)."""
    return not re.match(r"^[a-z]+://", uri)


# ------------------------------------------------------------------ the shared client
class MilvusStore:
    """One ``MilvusClient`` and the four collections of one library, shared by the catalogue,
    lexical and vector storages (vectors are staged by :class:`MilvusVectors` and written with
    their passages by :meth:`MilvusCatalogue.put_agreement`)."""

    def __init__(self, uri: str, name: str, dim: int) -> None:
        try:
            from pymilvus import MilvusClient
        except ImportError as e:  # pragma: no cover - a declared dependency
            raise ConfigError("the milvus backend needs pymilvus (pip install 'pymilvus==3.0.2' 'milvus-lite==3.2.2')") from e
        self.uri = uri
        self.dim = int(dim)
        self.dense = self.dim > 1
        self.prefix = collection_prefix(name)
        #: Exact FLAT search in Milvus Lite (as the local backend); HNSW on a server, where a
        #: library may hold tens of millions of passages (CLAUSELENS_MILVUS_DENSE_INDEX overrides).
        self.dense_index = os.environ.get(INDEX_ENV, "FLAT" if is_local_uri(uri) else "HNSW").upper()
        if self.dense_index not in ("FLAT", "HNSW"):
            raise ConfigError(f"{INDEX_ENV} must be FLAT or HNSW, not {self.dense_index!r}")
        import logging

        # query_iterator warns on every call that Milvus Lite has no MVCC timestamp (harmless)
        logging.getLogger("pymilvus").setLevel(logging.ERROR)
        kw: dict[str, Any] = {}
        if os.environ.get(TOKEN_ENV):
            kw["token"] = os.environ[TOKEN_ENV]
        if is_local_uri(uri):
            Path(uri).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self.client = MilvusClient(uri=uri, **kw)
        except Exception as e:  # noqa: BLE001 - pymilvus raises many kinds; the user needs the URI
            hint = (" (Milvus Lite opens a file in one process at a time: is another clauselens command using it? "
                    "Several processes need a Milvus server, see docs/MILVUS.md)") if is_local_uri(uri) else ""
            raise ConfigError(f"cannot connect to Milvus at {uri}: {e}{hint}") from e
        self.staged: dict[int, np.ndarray] = {}
        #: Passage rows the last ``hybrid_search`` returned with all their fields (saves a query).
        self.prefetched: dict[int, dict] = {}
        self.lock = threading.RLock()
        self._ensure()

    def name(self, what: str) -> str:
        return self.prefix + what

    # -------------------------------------------------------------- schema
    def _ensure(self) -> None:
        from pymilvus import DataType, Function, FunctionType

        c = self.client
        existing = set(c.list_collections())
        strong = {"consistency_level": "Strong"}

        def analysed(schema: Any, field: str) -> None:
            schema.add_field(field, DataType.VARCHAR, max_length=VARCHAR_MAX, enable_analyzer=True,
                             analyzer_params={"tokenizer": "standard"})

        def filters(schema: Any) -> None:
            schema.add_field("doc_type", DataType.VARCHAR, max_length=64)
            schema.add_field("year", DataType.INT64)
            schema.add_field("parties", DataType.ARRAY, element_type=DataType.VARCHAR, max_capacity=64, max_length=512)

        if self.name("passages") not in existing:
            s = c.create_schema(auto_id=False)
            s.add_field("row", DataType.INT64, is_primary=True)
            s.add_field("doc_id", DataType.VARCHAR, max_length=512)
            s.add_field("batch", DataType.INT64)
            s.add_field("chunk_id", DataType.VARCHAR, max_length=1024)
            s.add_field("node_id", DataType.VARCHAR, max_length=1024)
            s.add_field("kind", DataType.VARCHAR, max_length=64)
            s.add_field("clause_ref", DataType.VARCHAR, max_length=256)
            s.add_field("ref_key", DataType.VARCHAR, max_length=256)
            s.add_field("heading_path", DataType.VARCHAR, max_length=VARCHAR_MAX)
            for f in ("start", "end", "page_start", "page_end"):
                s.add_field(f, DataType.INT64)
            s.add_field("text", DataType.VARCHAR, max_length=VARCHAR_MAX)
            analysed(s, "tokens")
            s.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
            if self.dense:
                s.add_field("dense", DataType.FLOAT_VECTOR, dim=self.dim)
            filters(s)
            s.add_function(Function(name="passage_bm25", function_type=FunctionType.BM25,
                                    input_field_names=["tokens"], output_field_names=["sparse"]))
            ip = c.prepare_index_params()
            ip.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                         params={"bm25_k1": BM25_K1, "bm25_b": BM25_B})
            if self.dense:
                ip.add_index(field_name="dense", index_type=self.dense_index, metric_type="IP",
                             params={"M": 16, "efConstruction": 200} if self.dense_index == "HNSW" else {})
            for f in ("doc_id", "ref_key", "batch"):
                ip.add_index(field_name=f, index_type="INVERTED")
            c.create_collection(self.name("passages"), schema=s, index_params=ip, **strong)
        if self.name("agreements") not in existing:
            s = c.create_schema(auto_id=False)
            s.add_field("doc_id", DataType.VARCHAR, max_length=512, is_primary=True)
            s.add_field("path", DataType.VARCHAR, max_length=4096)
            s.add_field("sha256", DataType.VARCHAR, max_length=64)
            s.add_field("seq", DataType.INT64)
            s.add_field("batch", DataType.INT64)
            s.add_field("record", DataType.VARCHAR, max_length=VARCHAR_MAX)
            s.add_field("profile", DataType.VARCHAR, max_length=VARCHAR_MAX)
            analysed(s, "profile_tokens")
            s.add_field("profile_sparse", DataType.SPARSE_FLOAT_VECTOR)
            filters(s)
            s.add_function(Function(name="profile_bm25", function_type=FunctionType.BM25,
                                    input_field_names=["profile_tokens"], output_field_names=["profile_sparse"]))
            ip = c.prepare_index_params()
            ip.add_index(field_name="profile_sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                         params={"bm25_k1": BM25_K1, "bm25_b": BM25_B})
            ip.add_index(field_name="path", index_type="INVERTED")
            c.create_collection(self.name("agreements"), schema=s, index_params=ip, **strong)
        for what, fields in (("facts", True), ("meta", False)):
            if self.name(what) in existing:
                continue
            s = c.create_schema(auto_id=fields)
            if fields:
                s.add_field("id", DataType.INT64, is_primary=True)
                s.add_field("doc_id", DataType.VARCHAR, max_length=512)
                s.add_field("batch", DataType.INT64)
                s.add_field("kind", DataType.VARCHAR, max_length=8)  # "def" | "mark"
                s.add_field("key", DataType.VARCHAR, max_length=1024)
                s.add_field("term", DataType.VARCHAR, max_length=1024)
                s.add_field("offset", DataType.INT64)
                s.add_field("means", DataType.BOOL)
            else:
                s.add_field("key", DataType.VARCHAR, max_length=512, is_primary=True)
                s.add_field("value", DataType.VARCHAR, max_length=VARCHAR_MAX)
            # Milvus requires a vector field in every collection; these two are looked up by scalars only
            s.add_field("_v", DataType.FLOAT_VECTOR, dim=2)
            ip = c.prepare_index_params()
            ip.add_index(field_name="_v", index_type="FLAT", metric_type="L2")
            if fields:
                ip.add_index(field_name="doc_id", index_type="INVERTED")
            c.create_collection(self.name(what), schema=s, index_params=ip, **strong)
        for what in ("passages", "agreements", "facts", "meta"):
            c.load_collection(self.name(what))
        if self.dense:  # an existing library keeps the index it was built with
            self.dense_index = str(c.describe_index(self.name("passages"), "dense").get("index_type", self.dense_index)).upper()

    # -------------------------------------------------------------- helpers
    def query(self, what: str, flt: str, fields: Sequence[str], limit: int | None = None) -> list[dict]:
        """Rows of collection ``what`` matching ``flt`` (all of them when ``limit`` is None:
        one query up to Milvus's 16,384-row cap, a query iterator beyond it)."""
        name = self.name(what)
        rows = list(self.client.query(name, filter=flt, output_fields=list(fields), limit=limit or QUERY_CAP))
        if limit is not None or len(rows) < QUERY_CAP:
            return rows
        out: list[dict] = []
        it = self.client.query_iterator(name, batch_size=4000, filter=flt, output_fields=list(fields))
        try:
            while True:
                page = it.next()
                if not page:
                    break
                out += page
        finally:
            it.close()
        return out

    def meta_get(self, key: str) -> str | None:
        rows = self.client.query(self.name("meta"), filter=f"key == {filter_literal(key)}", output_fields=["value"], limit=1)
        return rows[0]["value"] if rows else None

    def meta_put(self, key: str, value: str) -> None:
        self.client.upsert(self.name("meta"), [{"key": key, "value": value, "_v": [0.0, 0.0]}])

    def meta_delete(self, key: str) -> None:
        self.client.delete(self.name("meta"), filter=f"key == {filter_literal(key)}")

    def pending(self) -> dict[int, dict]:
        return {int(r["key"].split(":", 1)[1]): json.loads(r["value"])
                for r in self.query("meta", 'key like "pending:%"', ["key", "value"])}

    def flush(self) -> None:
        for what in ("passages", "agreements", "facts", "meta"):
            self.client.flush(self.name(what))

    def close(self) -> None:
        """Close the connection (and, for Milvus Lite, stop its in-process server and release
        the file lock, so another process can open the file)."""
        with contextlib.suppress(Exception):  # closing a dead connection is not an error worth raising
            self.client.close()
        if is_local_uri(self.uri):
            from milvus_lite.server_manager import server_manager_instance

            server_manager_instance.release_server(str(Path(self.uri).expanduser()))
