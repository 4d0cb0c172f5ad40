"""The ``milvus`` library backend (issue #20): the same library on Milvus, from one laptop to a
cluster, through one client (``pymilvus``).

``uri`` is a local path ending in ``.db`` for Milvus Lite (embedded, in-process; how this
code path is tested on one machine), or ``http://host:19530`` for Milvus standalone or a
distributed cluster — nothing else changes (credentials come from the environment,
``CLAUSELENS_MILVUS_TOKEN`` = ``user:password`` or an API key; they are never written to the
library's ``library.json``).

Four collections per library (names prefixed with ``clauselens_<library>_``):

* ``passages`` — one row per passage, primary key the library row number: the text and its
  span, clause number (``clause_ref``, normalised ``ref_key``: the exact scalar field the
  clause-number path filters on), pages, the agreement's ``doc_id``, ``doc_type``, ``year`` and
  ``parties`` as scalar fields (filters), the ``dense`` passage vector (inner product of
  L2-normalised vectors = cosine; exact ``FLAT`` index in Milvus Lite, ``HNSW`` (M = 16) on a
  server; ``CLAUSELENS_MILVUS_DENSE_INDEX`` chooses) and ``tokens``: the passage's
  :class:`~clauselens.retrieval.analyzer.LegalAnalyzer` tokens, each written with word
  characters only (``14.3(b)`` -> ``14_3_b``), which Milvus's ``standard`` analyzer keeps as
  one term; a Milvus BM25 function turns them into the ``sparse`` field
  (``SPARSE_INVERTED_INDEX``, metric ``BM25``). So ``14.3(b)`` and ``§ 5.17`` stay exact in
  full-text search too (``5.17`` -> ``5_17``, never ``5`` and ``17``), and the stems and
  stop words are the local backend's.
* ``agreements`` — the catalogue record (JSON), the resolution profile and its BM25 field
  (agreement resolution), the file path and sha256, ``batch`` (see crash safety).
* ``facts`` — defined terms and printed clause markers (exact scalar fields ``key``).
* ``meta`` — the generation counter, the next free row, and the add journal.

Ranking is Milvus's own: ``hybrid_search`` of a BM25 request and a dense request, filtered by
``doc_id in [...]`` when the question's agreements are resolved, fused by ``RRFRanker(60)``
(the same k = 60 as :mod:`clauselens.retrieval.fusion`). One difference from the local
backend: BM25 term statistics are the engine's (collection-wide on a server; per segment in
Milvus Lite), never those of the resolved agreement alone (``Library.local_idf``).

Crash safety (Milvus has no multi-collection transactions): an agreement is written as a
*batch*. The journal entry ``pending:<batch>`` goes into ``meta`` first; then its passages
and facts (tagged with the batch); then its ``agreements`` row, carrying the batch, is
upserted — the commit point; then the rows of the version it replaces are deleted and the
journal entry removed. Opening the library (or the next write) replays the journal: a batch
whose agreement row was committed is finished (old rows deleted), any other batch is rolled
back (its rows deleted). Readers never show a passage whose agreement row does not carry its
batch, so an interrupted ``add`` leaves the library as it was plus every agreement committed
before the interruption.

Milvus Lite performance: rows that have not been flushed live in a memtable whose BM25 index
is rebuilt *at every search* (pure Python), which made a query take seconds at 10k passages;
every write path here therefore ends with ``flush`` (sealed segments keep their index cached).

The client, the collections' schemas and the filter literals are
:mod:`clauselens.library.milvus_store` (split by concern, issue #43).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from clauselens.errors import RetrievalError
from clauselens.library.catalogue import AgreementRecord
from clauselens.library.milvus_store import (
    BATCH,
    BM25_K1,
    VARCHAR_MAX,
    MilvusStore,
    collection_prefix,
    cut_utf8,
    filter_in,
    filter_literal,
    is_local_uri,
    milvus_term,
    milvus_text,
)
from clauselens.library.storage import CatalogueStorage, LexicalStorage, Rows, VectorStorage
from clauselens.parsing.types import Chunk, Span

if TYPE_CHECKING:
    from pymilvus.client.search_result import Hit

def _bm25_score(hit: Any) -> float:
    """The BM25 score of a search hit on the local backend's scale. Milvus servers return the
    score as the distance, Milvus Lite 3.2 its negation (its sparse indexes rank by ascending
    distance); scores are >= 0. Milvus's BM25 keeps the ``(k1 + 1)`` factor of the classic
    formula, which bm25s' Lucene variant (the local backend, on whose scores the resolver's
    thresholds were set) drops: dividing by ``k1 + 1`` gives the same numbers."""
    return abs(float(hit["distance"])) / (BM25_K1 + 1.0)


def _year(rec: AgreementRecord) -> int:
    return int(rec.year) if rec.year is not None else -1


def _filters(rec: AgreementRecord) -> dict[str, Any]:
    names = list(dict.fromkeys([*rec.parties, *rec.short_names]))[:64]
    return {"doc_type": rec.doc_type or "", "year": _year(rec), "parties": [cut_utf8(n, 512) for n in names]}


# ------------------------------------------------------------------ catalogue
class MilvusCatalogue(CatalogueStorage):
    """:class:`CatalogueStorage` in Milvus collections (see the module docstring)."""

    _PASSAGE_FIELDS = ["row", "chunk_id", "doc_id", "batch", "node_id", "kind", "clause_ref", "heading_path", "start",
                       "end", "page_start", "page_end", "text"]

    def __init__(self, store: MilvusStore) -> None:
        self.store = store
        self._records: dict[str, AgreementRecord] | None = None
        self._batches: dict[str, int] = {}
        self._gen: int | None = None
        self._all_rows: np.ndarray | None = None
        self._live: np.ndarray | None = None
        #: Per-agreement lookups (rows, clause numbers) cached until this catalogue changes
        #: (a Milvus Lite query costs ~5-50 ms, most of it per returned row).
        self._per_doc: dict[tuple[str, str], Any] = {}
        self.recover()

    # -------------------------------------------------------------- journal
    def recover(self) -> list[int]:
        """Replay the add journal (see the module docstring); returns the batches rolled back."""
        s = self.store
        rolled = []
        with s.lock:
            for batch, info in s.pending().items():
                rows = s.query("agreements", f"doc_id == {filter_literal(info['doc_id'])}", ["batch"], limit=1)
                if rows and int(rows[0]["batch"]) == batch:
                    self._finish(info["doc_id"], info.get("path", ""), batch)
                else:
                    for what in ("passages", "facts"):
                        s.client.delete(s.name(what), filter=f"batch == {batch}")
                    rolled.append(batch)
                s.meta_delete(f"pending:{batch}")
            if rolled:
                self._invalidate()
                s.flush()
        return rolled

    def _finish(self, doc_id: str, path: str, batch: int) -> None:
        """After the commit of ``batch``: delete the rows of the versions it replaces."""
        s = self.store
        for what in ("passages", "facts"):
            s.client.delete(s.name(what), filter=f"doc_id == {filter_literal(doc_id)} and batch != {batch}")
        if path:
            for r in s.query("agreements", f"path == {filter_literal(path)} and doc_id != {filter_literal(doc_id)}", ["doc_id"]):
                self._delete(r["doc_id"])

    def _delete(self, doc_id: str) -> None:
        s = self.store
        for what in ("agreements", "passages", "facts"):
            s.client.delete(s.name(what), filter=f"doc_id == {filter_literal(doc_id)}")

    def _invalidate(self) -> None:
        self.store.prefetched = {}
        self._per_doc = {}
        self._records = None
        self._gen = None
        self._all_rows = self._live = None

    def _bump(self) -> None:
        self.store.meta_put("generation", str(self.generation() + 1))
        self._invalidate()

    # -------------------------------------------------------------- reads
    def generation(self) -> int:
        if self._gen is None:
            v = self.store.meta_get("generation")
            self._gen = int(v) if v else 0
        return self._gen

    def _load_records(self) -> dict[str, AgreementRecord]:
        if self._records is None:
            rows = sorted(self.store.query("agreements", "seq >= 0", ["doc_id", "record", "seq", "batch"]),
                          key=lambda r: r["seq"])
            self._records = {r["doc_id"]: AgreementRecord.model_validate_json(r["record"]) for r in rows}
            self._batches = {r["doc_id"]: int(r["batch"]) for r in rows}
        return self._records

    def agreements(self) -> list[AgreementRecord]:
        return list(self._load_records().values())

    def profile(self, doc_id: str) -> str:
        rows = self.store.query("agreements", f"doc_id == {filter_literal(doc_id)}", ["profile"], limit=1)
        return rows[0]["profile"] if rows else ""

    def sha_of(self, path: str) -> str | None:
        rows = self.store.query("agreements", f"path == {filter_literal(path)}", ["sha256"], limit=1)
        return rows[0]["sha256"] if rows else None

    def _committed(self, doc_id: str, batch: int) -> bool:
        return self._batches.get(doc_id) == batch

    def _chunks(self, rows: list[dict]) -> dict[int, Chunk]:
        recs = self._load_records()
        if any(not self._committed(r["doc_id"], int(r["batch"])) for r in rows):
            self._records = None  # another process may have committed since: look again once
            recs = self._load_records()
        out: dict[int, Chunk] = {}
        for r in rows:
            if not self._committed(r["doc_id"], int(r["batch"])):
                continue  # an add in flight (or interrupted before its commit): not in the library
            rec = recs.get(r["doc_id"])
            out[int(r["row"])] = Chunk(
                id=r["chunk_id"], doc_id=r["doc_id"], node_id=r["node_id"], kind=r["kind"], text=r["text"],
                spans=[Span(start=int(r["start"]), end=int(r["end"]))], clause_ref=r["clause_ref"] or None,
                heading_path=json.loads(r["heading_path"]),
                page_start=None if r["page_start"] < 0 else int(r["page_start"]),
                page_end=None if r["page_end"] < 0 else int(r["page_end"]),
                doc_title=rec.title if rec else None, source_path=rec.path if rec else None)
        return out

    def passages(self, rows: Rows) -> list[Chunk]:
        rows = [int(r) for r in rows]
        pre = self.store.prefetched
        got: dict[int, Chunk] = self._chunks([pre[r] for r in rows if r in pre])
        rest = [r for r in rows if r not in pre]
        for i in range(0, len(rest), BATCH):
            batch = rest[i:i + BATCH]
            got.update(self._chunks(self.store.query("passages", filter_in("row", batch), self._PASSAGE_FIELDS,
                                                     limit=len(batch))))
        return [got[r] for r in rows if r in got]

    def _doc_rows(self, doc_id: str, fields: Sequence[str], extra: str = "") -> list[dict]:
        self._load_records()
        b = self._batches.get(doc_id)
        if b is None:
            return []
        return self.store.query("passages", f"doc_id == {filter_literal(doc_id)} and batch == {b}{extra}", fields)

    def rows_of(self, doc_ids: Sequence[str] | None = None) -> np.ndarray:
        if doc_ids is None:
            if self._all_rows is None:
                self._load_records()
                rows = [int(r["row"]) for r in self.store.query("passages", "row >= 0", ["row", "doc_id", "batch"])
                        if self._committed(r["doc_id"], int(r["batch"]))]
                self._all_rows = np.asarray(sorted(rows), dtype=np.int64)
                self._all_rows.setflags(write=False)
            return self._all_rows
        out: list[int] = []
        for d in doc_ids:
            if ("rows", d) not in self._per_doc:
                self._per_doc[("rows", d)] = sorted(int(r["row"]) for r in self._doc_rows(d, ["row"]))
            out += self._per_doc[("rows", d)]
        return np.asarray(out, dtype=np.int64)

    def live_mask(self) -> np.ndarray:
        if self._live is None:
            rows = self.rows_of(None)
            mask = np.zeros(int(rows.max()) + 1 if len(rows) else 0, dtype=bool)
            mask[rows] = True
            self._live = mask
        return self._live

    def body_start(self, doc_id: str) -> int | None:
        """Offset of the first numbered clause of one agreement (``None``: it numbers none)."""
        starts = [int(r["start"]) for r in self._doc_rows(doc_id, ["start"], ' and clause_ref != ""')]
        return min(starts, default=None)

    def rows_with_ref(self, doc_ids: Sequence[str], ref: str) -> list[int]:
        out: list[int] = []
        for d in doc_ids:
            hits = self._doc_rows(d, ["row", "start"], f" and ref_key == {filter_literal(ref)}")
            out += [int(r["row"]) for r in sorted(hits, key=lambda r: (r["start"], r["row"]))]
        return out

    def rows_under_ref(self, doc_ids: Sequence[str], ref: str) -> list[int]:
        like = ref.replace("%", "\\%").replace("_", "\\_")
        out: list[int] = []
        for d in doc_ids:
            sub = f" and (ref_key like {filter_literal(like + '.%')} or ref_key like {filter_literal(like + '(%')})"
            hits = self._doc_rows(d, ["row", "start"], sub)
            out += [int(r["row"]) for r in sorted(hits, key=lambda r: (r["start"], r["row"]))]
        return out

    def _facts(self, doc_id: str, kind: str, key: str | None = None) -> list[dict]:
        self._load_records()
        b = self._batches.get(doc_id)
        if b is None:
            return []
        flt = f"doc_id == {filter_literal(doc_id)} and batch == {b} and kind == {filter_literal(kind)}"
        if key is not None:
            flt += f" and key == {filter_literal(key)}"
        return self.store.query("facts", flt, ["key", "term", "offset", "means"])

    def refs_of(self, doc_id: str) -> set[str]:
        if ("refs", doc_id) not in self._per_doc:
            tree = {r["ref_key"] for r in self._doc_rows(doc_id, ["ref_key"], ' and ref_key != ""')}
            self._per_doc[("refs", doc_id)] = tree | {r["key"] for r in self._facts(doc_id, "mark")}
        return set(self._per_doc[("refs", doc_id)])

    def marker_offsets(self, doc_id: str, ref: str) -> list[int]:
        return sorted(int(r["offset"]) for r in self._facts(doc_id, "mark", ref))

    def row_at(self, doc_id: str, offset: int) -> int | None:
        hits = self._doc_rows(doc_id, ["row", "start", "end"], f" and start <= {int(offset)} and end > {int(offset)}")
        if not hits:
            return None
        return int(min(hits, key=lambda r: (r["end"] - r["start"], r["row"]))["row"])

    def rows_containing(self, doc_id: str, literal: str) -> list[tuple[int, str]]:
        hits = [r for r in self._doc_rows(doc_id, ["row", "start", "text"]) if literal.lower() in r["text"].lower()]
        return [(int(r["row"]), r["text"]) for r in sorted(hits, key=lambda r: (r["start"], r["row"]))]

    def definitions_of(self, doc_id: str, term: str) -> list[tuple[str, int, bool]]:
        return sorted(((r["term"], int(r["offset"]), bool(r["means"])) for r in self._facts(doc_id, "def", term.lower())),
                      key=lambda x: x[1])

    def all_tokens(self) -> tuple[np.ndarray, list[list[str]]]:
        self._load_records()
        rows = sorted((int(r["row"]), r["tokens"]) for r in self.store.query("passages", "row >= 0", ["row", "tokens", "doc_id", "batch"])
                      if self._committed(r["doc_id"], int(r["batch"])))
        return np.asarray([r for r, _ in rows], dtype=np.int64), [t.split() if t else [] for _, t in rows]

    def tokens_of(self, rows: Rows) -> list[list[str]]:
        """Tokens of the passages at ``rows`` as stored for Milvus (:func:`milvus_term`: words
        are the analyser's; clause numbers are written ``14_3_b``)."""
        rows = [int(r) for r in rows]
        got: dict[int, list[str]] = {}
        for i in range(0, len(rows), BATCH):
            batch = rows[i:i + BATCH]
            for r in self.store.query("passages", filter_in("row", batch), ["row", "tokens"], limit=len(batch)):
                got[int(r["row"])] = r["tokens"].split() if r["tokens"] else []
        return [got.get(r, []) for r in rows]

    def next_row(self) -> int:
        v = self.store.meta_get("next_row")
        return int(v) if v else 0

    def reserve_rows(self, n: int) -> int:
        """Reserve ``n`` fresh rows and return the first (rows are never reused)."""
        with self.store.lock:
            first = self.next_row()
            self.store.meta_put("next_row", str(first + n))
        return first

    # -------------------------------------------------------------- writes
    def put_agreement(self, record: AgreementRecord, profile: str, passages: Sequence[Chunk],
                      tokens: Sequence[list[str]], rows: Sequence[int],
                      definitions: Iterable[tuple[str, int, bool]], markers: Iterable[tuple[str, int]] = ()) -> None:
        from clauselens.library.passages import ref_key
        from clauselens.retrieval.analyzer import LegalAnalyzer

        s = self.store
        with s.lock:
            self.recover()
            batch = time.time_ns()
            s.meta_put(f"pending:{batch}", json.dumps({"doc_id": record.doc_id, "path": record.path}))
            flt = _filters(record)
            data = []
            for c, tok, row in zip(passages, tokens, rows):
                d = {"row": int(row), "doc_id": record.doc_id, "batch": batch, "chunk_id": c.id, "node_id": c.node_id or "",
                     "kind": c.kind or "", "clause_ref": c.clause_ref or "", "ref_key": ref_key(c.clause_ref) or "",
                     "heading_path": cut_utf8(json.dumps(c.heading_path)), "start": c.spans[0].start, "end": c.spans[0].end,
                     "page_start": -1 if c.page_start is None else int(c.page_start),
                     "page_end": -1 if c.page_end is None else int(c.page_end),
                     "text": c.text, "tokens": milvus_text(tok), **flt}
                if s.dense:
                    v = s.staged.pop(int(row), None)
                    if v is None:
                        raise RetrievalError(f"no vector staged for passage row {row} of {record.path}")
                    d["dense"] = v.tolist()
                if len(c.text.encode("utf-8")) > VARCHAR_MAX:
                    raise RetrievalError(f"a passage of {record.path} is longer than Milvus's VARCHAR limit")
                data.append(d)
            for i in range(0, len(data), BATCH):
                s.client.insert(s.name("passages"), data[i:i + BATCH])
            facts = [{"doc_id": record.doc_id, "batch": batch, "kind": "def", "key": cut_utf8(t.lower(), 1024),
                      "term": cut_utf8(t, 1024), "offset": int(off), "means": bool(means), "_v": [0.0, 0.0]}
                     for t, off, means in definitions]
            facts += [{"doc_id": record.doc_id, "batch": batch, "kind": "mark", "key": cut_utf8(k, 1024), "term": "",
                       "offset": int(off), "means": False, "_v": [0.0, 0.0]} for k, off in markers]
            for i in range(0, len(facts), BATCH):
                s.client.insert(s.name("facts"), facts[i:i + BATCH])
            seq = int(s.meta_get("seq") or 0) + 1
            s.meta_put("seq", str(seq))
            s.client.upsert(s.name("agreements"), [{
                "doc_id": record.doc_id, "path": record.path, "sha256": record.sha256 or "", "seq": seq, "batch": batch,
                "record": record.model_dump_json(), "profile": cut_utf8(profile),
                "profile_tokens": milvus_text(LegalAnalyzer().tokenize(profile)), **flt}])  # the commit point
            self._finish(record.doc_id, record.path, batch)
            s.meta_delete(f"pending:{batch}")
            self._bump()

    def update_record(self, record: AgreementRecord) -> None:
        s = self.store
        with s.lock:
            rows = s.query("agreements", f"doc_id == {filter_literal(record.doc_id)}",
                           ["doc_id", "path", "sha256", "seq", "batch", "profile", "profile_tokens"], limit=1)
            if not rows:
                return
            row = {**rows[0], "record": record.model_dump_json(), **_filters(record)}
            s.client.upsert(s.name("agreements"), [row])
            self._bump()

    def remove_agreement(self, doc_id: str) -> bool:
        s = self.store
        with s.lock:
            if not s.query("agreements", f"doc_id == {filter_literal(doc_id)}", ["doc_id"], limit=1):
                return False
            self._delete(doc_id)
            self._bump()
        return True

    def close(self) -> None:
        """Close the Milvus connection."""
        self.store.close()


# ------------------------------------------------------------------ lexical
class MilvusLexical(LexicalStorage):
    """BM25 by Milvus (the ``sparse`` / ``profile_sparse`` fields, indexed on insert), and the
    library's ranking step as one ``hybrid_search`` (:meth:`hybrid`)."""

    #: The engine indexes on write: ``Library.rebuild_lexical`` need not read every token back.
    indexes_on_write = True

    def __init__(self, store: MilvusStore) -> None:
        self.store = store

    def build(self, rows: np.ndarray, tokens: list[list[str]], profile_ids: list[str],
              profile_tokens: list[list[str]], generation: int) -> None:
        """Nothing to rebuild: flush (Milvus Lite: sealed segments keep their BM25 index;
        unflushed rows are re-indexed at every search) and record ``generation``."""
        self.store.meta_put("lexical_generation", str(int(generation)))
        self.store.flush()

    def generation(self) -> int | None:
        v = self.store.meta_get("lexical_generation")
        return int(v) if v else None

    def _bm25(self, collection: str, field: str, tokens: list[str], flt: str, limit: int,
              fields: Sequence[str]) -> list[Hit]:
        text = milvus_text(tokens)
        if not text:
            return []
        res = self.store.client.search(self.store.name(collection), data=[text], anns_field=field, filter=flt,
                                       limit=limit, output_fields=list(fields), search_params={"metric_type": "BM25"})
        # MilvusClient.search declares list[list[dict]]; the hits are Hit (a dict with .id, .distance)
        return list(res[0]) if res else []

    def passage_scores(self, tokens: list[str], rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """BM25 of the top 1,000 passages (within ``rows`` when given): Milvus returns a top
        list, never a score per passage; the others count as 0."""
        flt = filter_in("row", [int(r) for r in rows]) if rows is not None and len(rows) else ""
        if rows is not None and not len(rows):
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        hits = self._bm25("passages", "sparse", tokens, flt, 1000, ["row"])
        return (np.asarray([int(h.id) for h in hits], dtype=np.int64),
                np.asarray([_bm25_score(h) for h in hits], dtype=np.float32))

    def profile_scores(self, tokens: list[str]) -> dict[str, float]:
        hits = self._bm25("agreements", "profile_sparse", tokens, "", 200, ["doc_id"])
        return {str(h.id): _bm25_score(h) for h in hits if _bm25_score(h) > 0}

    def hybrid(self, tokens: list[str], query_vector: np.ndarray | None, doc_ids: Sequence[str] | None,
               k: int) -> list[tuple[int, str, float, float | None]]:
        """``(row, chunk id, RRF score, dense cosine or None)`` of the top ``k`` passages:
        Milvus ``hybrid_search`` of BM25 over ``tokens`` and inner product with
        ``query_vector`` (each limited to ``k``), filtered to ``doc_ids``, fused by
        ``RRFRanker(60)``."""
        from pymilvus import AnnSearchRequest, RRFRanker

        from clauselens.retrieval.fusion import RRF_K

        s = self.store
        flt = ""
        if doc_ids is not None:
            flt = (f"doc_id == {filter_literal(doc_ids[0])}" if len(doc_ids) == 1 else filter_in("doc_id", list(doc_ids))) if doc_ids \
                else "row < 0"
        reqs = []
        text = milvus_text(tokens)
        if text:
            reqs.append(AnnSearchRequest(data=[text], anns_field="sparse", param={"metric_type": "BM25"}, limit=k,
                                         expr=flt or None))
        if s.dense and query_vector is not None:
            param: dict[str, Any] = {"metric_type": "IP"}
            if s.dense_index == "HNSW":
                param["params"] = {"ef": max(128, 2 * k)}  # ef >= limit; 2k keeps recall near exact
            reqs.append(AnnSearchRequest(data=[np.asarray(query_vector, np.float32).tolist()], anns_field="dense",
                                         param=param, limit=k, expr=flt or None))
        if not reqs:
            return []
        fields = MilvusCatalogue._PASSAGE_FIELDS + (["dense"] if s.dense else [])
        res = s.client.hybrid_search(s.name("passages"), reqs, RRFRanker(RRF_K), limit=k, output_fields=fields)
        out = []
        s.prefetched = {}
        q = np.asarray(query_vector, np.float32) if s.dense and query_vector is not None else None
        for h in res[0] if res else []:
            e = dict(h["entity"])
            row = int(h.id)
            e["row"] = row
            cos = float(np.asarray(e.pop("dense"), np.float32) @ q) if q is not None and "dense" in e else None
            s.prefetched[row] = e  # the passages of this result need no second query
            out.append((row, e["chunk_id"], float(h["distance"]), cos))
        return out


# ------------------------------------------------------------------ vectors
class MilvusVectors(VectorStorage):
    """The ``dense`` field of the passages collection. :meth:`append` stages the vectors;
    :meth:`MilvusCatalogue.put_agreement` writes them with their passages (one row each)."""

    def __init__(self, store: MilvusStore) -> None:
        self.store = store

    def append(self, first_row: int, vectors: np.ndarray) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.store.dim:
            raise RetrievalError(f"vector store expects {self.store.dim}-d vectors, got {vectors.shape}")
        for i, v in enumerate(vectors):
            self.store.staged[first_row + i] = v

    def scores(self, query: np.ndarray, rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Exact cosine of the passages at ``rows`` (their vectors read from Milvus)."""
        if not self.store.dense:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = np.asarray(query, np.float32)
        if rows is None:
            got = self.store.query("passages", "row >= 0", ["row", "dense"])
        else:
            got = []
            rl = [int(r) for r in rows]
            for i in range(0, len(rl), BATCH):
                got += self.store.query("passages", filter_in("row", rl[i:i + BATCH]), ["row", "dense"], limit=BATCH)
        if not got:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        r = np.asarray([int(g["row"]) for g in got], dtype=np.int64)
        m = np.asarray([g["dense"] for g in got], dtype=np.float32)
        return r, m @ q


def open_milvus(uri: str, name: str, dim: int) -> tuple[MilvusCatalogue, MilvusLexical, MilvusVectors]:
    """The three storages of one library on the Milvus at ``uri``."""
    store = MilvusStore(uri, name, dim)
    return MilvusCatalogue(store), MilvusLexical(store), MilvusVectors(store)


__all__ = ["MilvusCatalogue", "MilvusLexical", "MilvusStore", "MilvusVectors", "collection_prefix", "is_local_uri",
           "milvus_term", "milvus_text", "open_milvus"]
