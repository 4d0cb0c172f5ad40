"""Where a library keeps its data: one abstract class per storage concern, and a name ->
implementation registry (the shape of LightRAG's ``lightrag/base.py`` storage classes and
``kg/__init__.py`` registry).

Concerns:

* :class:`CatalogueStorage` — agreements, passages (text, span, clause number, pages),
  definitions, and the analysed tokens of every passage; the library's source of truth.
* :class:`LexicalStorage` — a BM25 index over passages and one over agreement profiles,
  persisted and opened memory-mapped, rebuilt from the catalogue's stored tokens.
* :class:`VectorStorage` — one L2-normalised float32 vector per passage row, on disk.

The embedded default (``"local"``) is SQLite (Python's ``sqlite3``, one transaction per
agreement), ``bm25s`` saved indexes (Lù 2024, arXiv:2407.03618; ``BM25.load(mmap=True)``)
and a NumPy memory-mapped vector file (:mod:`clauselens.library.vectors_ann`). Crash safety: an agreement's rows are written in one
SQLite transaction after its vectors are appended, so an interrupted ``add`` leaves every
committed agreement whole and nothing of the one in flight but unreferenced vector rows; the
BM25 indexes record the catalogue generation they were built from and are rebuilt on open
when they are stale.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Iterable, Protocol, Sequence, TypeAlias, runtime_checkable

import numpy as np

from clauselens.library.catalogue import AgreementRecord
from clauselens.parsing.types import Chunk, Span

#: Passage rows as the read methods take them: a list, or an int array as ``rows_of`` returns.
Rows: TypeAlias = "Sequence[int] | np.ndarray"


# ------------------------------------------------------------------ interfaces
class CatalogueStorage(ABC):
    """Agreements, passages, definitions and tokens of one library."""

    @abstractmethod
    def generation(self) -> int:
        """A counter raised by every change (indexes record the one they were built from)."""

    @abstractmethod
    def agreements(self) -> list[AgreementRecord]:
        """Every agreement's record, in the order they were added."""

    def agreement_ids(self) -> list[str]:
        """Doc ids in the order of :meth:`agreements` (a store may answer without reading records)."""
        return [r.doc_id for r in self.agreements()]

    @abstractmethod
    def profile(self, doc_id: str) -> str:
        """The resolution profile text of one agreement."""

    @abstractmethod
    def sha_of(self, path: str) -> str | None:
        """The sha256 stored for a file path, or ``None`` if the path is not in the library."""

    def body_start(self, doc_id: str) -> int | None:
        """Offset of the first numbered clause of one agreement (``None``: it numbers none)."""
        cs = self.passages([int(r) for r in self.rows_of([doc_id])])
        return min((c.spans[0].start for c in cs if c.clause_ref), default=None)

    @abstractmethod
    def put_agreement(self, record: AgreementRecord, profile: str, passages: Sequence[Chunk],
                      tokens: Sequence[list[str]], rows: Sequence[int],
                      definitions: Iterable[tuple[str, int, bool]], markers: Iterable[tuple[str, int]] = ()) -> None:
        """Insert or replace one agreement with its passages (at vector ``rows``), its
        definitions and its printed clause markers, atomically."""

    @abstractmethod
    def update_record(self, record: AgreementRecord) -> None:
        """Replace the stored record of an agreement already in the library (its passages stay)."""

    @abstractmethod
    def remove_agreement(self, doc_id: str) -> bool:
        """Delete one agreement and its passages; ``False`` if it was not there."""

    @abstractmethod
    def passages(self, rows: Rows) -> list[Chunk]:
        """The passages at ``rows``, in that order."""

    @abstractmethod
    def rows_of(self, doc_ids: Sequence[str] | None = None) -> np.ndarray:
        """Rows of the live passages of ``doc_ids`` (all agreements when ``None``)."""

    @abstractmethod
    def live_mask(self) -> np.ndarray:
        """Boolean array over vector rows: True where the row's passage is still in the library."""

    @abstractmethod
    def rows_with_ref(self, doc_ids: Sequence[str], ref: str) -> list[int]:
        """Rows whose normalised clause number equals ``ref`` in ``doc_ids``, document order."""

    @abstractmethod
    def rows_under_ref(self, doc_ids: Sequence[str], ref: str) -> list[int]:
        """Rows of the sub-clauses of ``ref`` (``7`` -> ``7.1``, ``7(a)``, ``7.2(b)``) in ``doc_ids``, document order."""

    @abstractmethod
    def refs_of(self, doc_id: str) -> set[str]:
        """Every normalised clause number of one agreement (tree nodes and printed markers)."""

    @abstractmethod
    def marker_offsets(self, doc_id: str, ref: str) -> list[int]:
        """Offsets where clause number ``ref`` is printed as a marker in one agreement."""

    @abstractmethod
    def row_at(self, doc_id: str, offset: int) -> int | None:
        """The row of the passage of ``doc_id`` that holds character ``offset``, if any."""

    @abstractmethod
    def rows_containing(self, doc_id: str, literal: str) -> list[tuple[int, str]]:
        """``(row, text)`` of the passages of ``doc_id`` whose text contains ``literal``, in text order."""

    @abstractmethod
    def definitions_of(self, doc_id: str, term: str) -> list[tuple[str, int, bool]]:
        """``(term, offset, means)`` of the definitions of ``term`` (case-insensitive)."""

    @abstractmethod
    def all_tokens(self) -> tuple[np.ndarray, list[list[str]]]:
        """Rows and analysed tokens of every live passage (to rebuild the BM25 index)."""

    def all_doc_ids(self) -> list[str]:
        """The doc id of every live passage, in the row order of :meth:`all_tokens`."""
        raise NotImplementedError(f"{type(self).__name__} does not list passage doc ids")

    #: False when the store keeps no MinHash signatures (copies are then not detected).
    keeps_signatures: bool = False

    def put_signature(self, doc_id: str, signature: np.ndarray, copy_of: str | None) -> None:
        """Store an agreement's MinHash signature and the original it copies (``None``: none);
        a store without signatures (:attr:`keeps_signatures` False) ignores it."""
        return None

    def signatures(self) -> tuple[list[str], np.ndarray, dict[str, str]]:
        """``(doc ids, signature matrix, copy -> original)`` of every agreement with a signature."""
        return [], np.zeros((0, 0), np.uint64), {}

    def set_copy_of(self, doc_id: str, copy_of: str | None) -> None:
        """Record (or clear) which agreement ``doc_id`` is a copy of (ignored without signatures)."""
        return None

    @abstractmethod
    def tokens_of(self, rows: Rows) -> list[list[str]]:
        """Analysed tokens of the passages at ``rows``, in that order."""

    @abstractmethod
    def next_row(self) -> int:
        """The first vector row not yet used."""

    @abstractmethod
    def reserve_rows(self, n: int) -> int:
        """Reserve ``n`` fresh rows and return the first (rows are never reused)."""


class LexicalStorage(ABC):
    """Persisted BM25 over passages (rows) and over agreement profiles."""

    #: True when the engine indexes passages as they are written (Milvus): ``build`` is then
    #: called with empty token lists, only to record the generation.
    indexes_on_write: bool = False
    #: True when the index grows by segments (:class:`~clauselens.library.lexical_tantivy.TantivyLexical`):
    #: ``Library.add`` / ``remove`` call ``add_passages`` / ``remove_doc`` / ``commit`` instead of ``build``.
    incremental: bool = False

    def top_passages(self, tokens: list[str], rows: np.ndarray | None, doc_ids: Sequence[str] | None,
                     k: int) -> list[tuple[int, float]]:
        """``(row, BM25)`` of the top ``k`` passages with a positive score, within ``rows`` (the
        passages of ``doc_ids``) when given; best first, ties by row."""
        r, s = self.passage_scores(tokens, rows)
        return top_scores(r, s, k, positive=True)

    @abstractmethod
    def build(self, rows: np.ndarray, tokens: list[list[str]], profile_ids: list[str],
              profile_tokens: list[list[str]], generation: int) -> None:
        """Rebuild both indexes and persist them atomically."""

    @abstractmethod
    def generation(self) -> int | None:
        """The catalogue generation the persisted indexes were built from (``None``: none)."""

    @abstractmethod
    def passage_scores(self, tokens: list[str], rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, BM25 scores)`` of the passages at ``rows`` (all when ``None``)."""

    @abstractmethod
    def profile_scores(self, tokens: list[str]) -> dict[str, float]:
        """BM25 score of every agreement profile (doc id -> score > 0)."""


@runtime_checkable
class EngineRanking(Protocol):
    """A :class:`LexicalStorage` whose engine ranks the passages itself (Milvus's ``hybrid_search``):
    ``Library`` then ranks with :meth:`hybrid` instead of its own BM25 + dense fusion."""

    def hybrid(self, tokens: list[str], query_vector: np.ndarray | None, doc_ids: Sequence[str] | None,
               k: int) -> list[tuple[int, str, float, float | None]]:
        """``(row, chunk id, fused score, dense cosine or None)`` of the top ``k`` passages."""
        ...


class VectorStorage(ABC):
    """One embedding per passage row."""

    @abstractmethod
    def append(self, first_row: int, vectors: np.ndarray) -> None:
        """Write ``vectors`` at rows ``first_row ...`` and flush them to disk."""

    @abstractmethod
    def scores(self, query: np.ndarray, rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, cosine)`` of the passages at ``rows`` (all stored rows when ``None``)."""


def top_scores(rows: np.ndarray, scores: np.ndarray, k: int, positive: bool) -> list[tuple[int, float]]:
    """The ``k`` best ``(row, score)`` (only scores > 0 when ``positive``), best first, ties by row."""
    if len(rows) == 0:
        return []
    if positive:
        keep = scores > 0
        rows, scores = rows[keep], scores[keep]
    if len(rows) > k:
        part = np.argpartition(-scores, k - 1)[:k]
        rows, scores = rows[part], scores[part]
    order = np.lexsort((rows, -scores))
    return [(int(rows[i]), float(scores[i])) for i in order]


# ------------------------------------------------------------------ local: SQLite
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS agreements (doc_id TEXT PRIMARY KEY, path TEXT UNIQUE, sha256 TEXT, seq INTEGER,
    record TEXT, profile TEXT);
CREATE TABLE IF NOT EXISTS passages (row INTEGER PRIMARY KEY, chunk_id TEXT, doc_id TEXT, node_id TEXT, kind TEXT,
    clause_ref TEXT, ref_key TEXT, heading_path TEXT, start INTEGER, end INTEGER, page_start INTEGER,
    page_end INTEGER, text TEXT, tokens TEXT);
CREATE INDEX IF NOT EXISTS passages_doc ON passages(doc_id);
CREATE INDEX IF NOT EXISTS passages_ref ON passages(doc_id, ref_key);
CREATE TABLE IF NOT EXISTS definitions (doc_id TEXT, term_key TEXT, term TEXT, offset INTEGER, means INTEGER);
CREATE INDEX IF NOT EXISTS definitions_key ON definitions(doc_id, term_key);
CREATE TABLE IF NOT EXISTS markers (doc_id TEXT, ref_key TEXT, offset INTEGER);
CREATE TABLE IF NOT EXISTS signatures (doc_id TEXT PRIMARY KEY, sig BLOB, copy_of TEXT);
CREATE INDEX IF NOT EXISTS markers_key ON markers(doc_id, ref_key);
"""


class SqliteCatalogue(CatalogueStorage):
    """:class:`CatalogueStorage` in one SQLite file (WAL journal)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(_SCHEMA)
        self._records: dict[str, AgreementRecord] | None = None
        self._all_rows: np.ndarray | None = None
        self._live: np.ndarray | None = None
        self._titles: dict[str, tuple[str | None, str]] = {}
        self._sigs: tuple[list[str], np.ndarray, dict[str, str]] | None = None

    def generation(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        return int(row[0]) if row else 0

    def _bump(self) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(self.generation() + 1),))
        self._records = None
        self._all_rows = self._live = None

    def _load_records(self) -> dict[str, AgreementRecord]:
        if self._records is None:
            rows = self.db.execute("SELECT record FROM agreements ORDER BY seq").fetchall()
            recs = [AgreementRecord.model_validate_json(r[0]) for r in rows]
            self._records = {r.doc_id: r for r in recs}
            self._titles = {r.doc_id: (r.title, r.path) for r in recs}
        return self._records

    def agreements(self) -> list[AgreementRecord]:
        return list(self._load_records().values())

    def agreement_ids(self) -> list[str]:
        return list(self._records) if self._records is not None else [r[0] for r in self.db.execute("SELECT doc_id FROM agreements ORDER BY seq")]

    def profile(self, doc_id: str) -> str:
        row = self.db.execute("SELECT profile FROM agreements WHERE doc_id=?", (doc_id,)).fetchone()
        return row[0] if row else ""

    def sha_of(self, path: str) -> str | None:
        row = self.db.execute("SELECT sha256 FROM agreements WHERE path=?", (path,)).fetchone()
        return row[0] if row else None

    def put_agreement(self, record: AgreementRecord, profile: str, passages: Sequence[Chunk],
                      tokens: Sequence[list[str]], rows: Sequence[int],
                      definitions: Iterable[tuple[str, int, bool]], markers: Iterable[tuple[str, int]] = ()) -> None:
        from clauselens.library.passages import ref_key

        with self.db:  # one transaction: the agreement is in whole or not at all
            old = self.db.execute("SELECT doc_id FROM agreements WHERE path=? OR doc_id=?",
                                  (record.path, record.doc_id)).fetchall()
            for (d,) in old:
                self._delete(d)
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM agreements").fetchone()[0]
            self.db.execute("INSERT INTO agreements VALUES (?,?,?,?,?,?)",
                            (record.doc_id, record.path, record.sha256, seq, record.model_dump_json(), profile))
            self.db.executemany(
                "INSERT INTO passages VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(row, c.id, c.doc_id, c.node_id, c.kind, c.clause_ref, ref_key(c.clause_ref),
                  json.dumps(c.heading_path), c.spans[0].start, c.spans[0].end, c.page_start, c.page_end,
                  c.text, " ".join(tok)) for c, tok, row in zip(passages, tokens, rows)])
            self.db.executemany("INSERT INTO definitions VALUES (?,?,?,?,?)",
                                [(record.doc_id, t.lower(), t, off, int(means)) for t, off, means in definitions])
            self.db.executemany("INSERT INTO markers VALUES (?,?,?)", [(record.doc_id, k, off) for k, off in markers])
            self._bump()

    def _delete(self, doc_id: str) -> None:
        self._sigs = None
        for table in ("agreements", "passages", "definitions", "markers", "signatures"):
            self.db.execute(f"DELETE FROM {table} WHERE doc_id=?", (doc_id,))

    def update_record(self, record: AgreementRecord) -> None:
        with self.db:
            self.db.execute("UPDATE agreements SET record=? WHERE doc_id=?", (record.model_dump_json(), record.doc_id))
            self._bump()

    def remove_agreement(self, doc_id: str) -> bool:
        with self.db:
            n = self.db.execute("SELECT COUNT(*) FROM agreements WHERE doc_id=?", (doc_id,)).fetchone()[0]
            if not n:
                return False
            self._delete(doc_id)
            self._bump()
        return True

    def passages(self, rows: Rows) -> list[Chunk]:
        rows = [int(r) for r in rows]
        if not rows:
            return []
        recs = self._load_records()
        got: dict[int, Chunk] = {}
        for i in range(0, len(rows), 900):
            batch = rows[i:i + 900]
            q = ("SELECT row, chunk_id, doc_id, node_id, kind, clause_ref, heading_path, start, end, page_start, "
                 f"page_end, text FROM passages WHERE row IN ({','.join('?' * len(batch))})")
            for (row, cid, doc, node, kind, ref, hp, s, e, ps, pe, text) in self.db.execute(q, batch):
                rec = recs.get(doc)
                got[row] = Chunk(id=cid, doc_id=doc, node_id=node, kind=kind, text=text, spans=[Span(start=s, end=e)],
                                 clause_ref=ref, heading_path=json.loads(hp), page_start=ps, page_end=pe,
                                 doc_title=rec.title if rec else None, source_path=rec.path if rec else None)
        return [got[r] for r in rows if r in got]

    def live_mask(self) -> np.ndarray:
        """Boolean array indexed by vector row: True for rows of passages still in the library
        (cached until the catalogue changes)."""
        if self._live is None:
            rows = self.rows_of(None)
            mask = np.zeros(int(rows.max()) + 1 if len(rows) else 0, dtype=bool)
            mask[rows] = True
            self._live = mask
        return self._live

    def rows_of(self, doc_ids: Sequence[str] | None = None) -> np.ndarray:
        if doc_ids is None:
            if self._all_rows is None:
                self._all_rows = np.fromiter((r for (r,) in self.db.execute("SELECT row FROM passages ORDER BY row")),
                                             dtype=np.int64)
                self._all_rows.setflags(write=False)
            return self._all_rows
        else:
            rows = []
            for d in doc_ids:
                rows += [r for (r,) in self.db.execute("SELECT row FROM passages WHERE doc_id=? ORDER BY row", (d,))]
        return np.asarray(rows, dtype=np.int64)

    def body_start(self, doc_id: str) -> int | None:
        row = self.db.execute("SELECT MIN(start) FROM passages WHERE doc_id = ? AND clause_ref IS NOT NULL "
                              "AND clause_ref != ''", (doc_id,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def rows_with_ref(self, doc_ids: Sequence[str], ref: str) -> list[int]:
        out: list[int] = []
        for d in doc_ids:
            out += [r for (r,) in self.db.execute(
                "SELECT row FROM passages WHERE doc_id=? AND ref_key=? ORDER BY start, row", (d, ref))]
        return out

    def rows_under_ref(self, doc_ids: Sequence[str], ref: str) -> list[int]:
        like = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        out: list[int] = []
        for d in doc_ids:
            out += [r for (r,) in self.db.execute(
                "SELECT row FROM passages WHERE doc_id=? AND (ref_key LIKE ? ESCAPE '\\' OR ref_key LIKE ? ESCAPE '\\') "
                "ORDER BY start, row", (d, f"{like}.%", f"{like}(%"))]
        return out

    def refs_of(self, doc_id: str) -> set[str]:
        tree = {r for (r,) in self.db.execute(
            "SELECT DISTINCT ref_key FROM passages WHERE doc_id=? AND ref_key IS NOT NULL", (doc_id,))}
        return tree | {r for (r,) in self.db.execute("SELECT DISTINCT ref_key FROM markers WHERE doc_id=?", (doc_id,))}

    def marker_offsets(self, doc_id: str, ref: str) -> list[int]:
        return [o for (o,) in self.db.execute(
            "SELECT offset FROM markers WHERE doc_id=? AND ref_key=? ORDER BY offset", (doc_id, ref))]

    def rows_containing(self, doc_id: str, literal: str) -> list[tuple[int, str]]:
        pat = "%" + literal.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [(int(r), t) for r, t in self.db.execute(
            "SELECT row, text FROM passages WHERE doc_id=? AND text LIKE ? ESCAPE '\\' ORDER BY start", (doc_id, pat))]

    def row_at(self, doc_id: str, offset: int) -> int | None:
        row = self.db.execute("SELECT row FROM passages WHERE doc_id=? AND start<=? AND ?<end ORDER BY end-start LIMIT 1",
                              (doc_id, offset, offset)).fetchone()
        return int(row[0]) if row else None

    def definitions_of(self, doc_id: str, term: str) -> list[tuple[str, int, bool]]:
        return [(t, o, bool(m)) for (t, o, m) in self.db.execute(
            "SELECT term, offset, means FROM definitions WHERE doc_id=? AND term_key=? ORDER BY offset",
            (doc_id, term.lower()))]

    def all_tokens(self) -> tuple[np.ndarray, list[list[str]]]:
        rows, toks = [], []
        for r, t in self.db.execute("SELECT row, tokens FROM passages ORDER BY row"):
            rows.append(r)
            toks.append(t.split() if t else [])
        return np.asarray(rows, dtype=np.int64), toks

    def all_doc_ids(self) -> list[str]:
        return [d for (d,) in self.db.execute("SELECT doc_id FROM passages ORDER BY row")]

    keeps_signatures = True

    def put_signature(self, doc_id: str, signature: np.ndarray, copy_of: str | None) -> None:
        sig = np.asarray(signature, np.uint64)
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO signatures VALUES (?,?,?)", (doc_id, sig.tobytes(), copy_of))
            self._bump()
        c = self._sigs
        if c is not None and doc_id not in c[0] and (not len(c[0]) or c[1].shape[1] == len(sig)):
            ids, mat, copies = c  # appended in place (amortised doubling): a long add reads the table once
            if len(ids) == len(mat):
                grown = np.zeros((max(16, 2 * len(mat)), len(sig)), np.uint64)
                if ids:
                    grown[:len(ids)] = mat[:len(ids)]
                mat = grown
            mat[len(ids)] = sig
            ids.append(doc_id)
            if copy_of:
                copies[doc_id] = copy_of
            self._sigs = (ids, mat, copies)
        else:
            self._sigs = None

    def signatures(self) -> tuple[list[str], np.ndarray, dict[str, str]]:
        if self._sigs is None:
            got = self.db.execute("SELECT doc_id, sig, copy_of FROM signatures ORDER BY doc_id").fetchall()
            mat = np.stack([np.frombuffer(b, dtype=np.uint64) for _, b, _ in got]) if got else np.zeros((0, 0), np.uint64)
            self._sigs = ([d for d, _, _ in got], mat, {d: c for d, _, c in got if c})
        ids, mat, copies = self._sigs
        return list(ids), mat[:len(ids)], dict(copies)

    def set_copy_of(self, doc_id: str, copy_of: str | None) -> None:
        with self.db:
            self.db.execute("UPDATE signatures SET copy_of=? WHERE doc_id=?", (copy_of, doc_id))
            self._bump()
        self._sigs = None

    def tokens_of(self, rows: Rows) -> list[list[str]]:
        rows = [int(r) for r in rows]
        got: dict[int, list[str]] = {}
        for i in range(0, len(rows), 900):
            batch = rows[i:i + 900]
            for r, t in self.db.execute(f"SELECT row, tokens FROM passages WHERE row IN ({','.join('?' * len(batch))})", batch):
                got[int(r)] = t.split() if t else []
        return [got.get(r, []) for r in rows]

    def next_row(self) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(row), -1) + 1 FROM passages").fetchone()[0]
        stored = self.db.execute("SELECT value FROM meta WHERE key='next_row'").fetchone()
        return max(int(row), int(stored[0]) if stored else 0)

    def reserve_rows(self, n: int) -> int:
        """Reserve ``n`` fresh vector rows and return the first (rows are never reused)."""
        first = self.next_row()
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('next_row', ?)", (str(first + n),))
        return first

    def close(self) -> None:
        """Close the SQLite connection."""
        self.db.close()


# ------------------------------------------------------------------ local: bm25s
class Bm25sLexical(LexicalStorage):
    """:class:`LexicalStorage` with ``bm25s`` (``method="lucene"``, k1 = 1.5, b = 0.75, as
    :mod:`clauselens.retrieval.lexical`), saved under ``root`` and loaded memory-mapped."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._p: Any = None
        self._d: Any = None
        self._rows = np.zeros(0, dtype=np.int64)
        self._row_pos: np.ndarray | None = None
        self._profile_ids: list[str] = []
        self._gen: int | None = None
        self._load()

    def _load(self) -> None:
        meta = self.root / "meta.json"
        if not meta.exists():
            return
        import bm25s

        m = json.loads(meta.read_text())
        self._gen = int(m["generation"])
        self._profile_ids = list(m["profile_ids"])
        self._rows = np.load(self.root / "rows.npy")
        self._p = bm25s.BM25.load(str(self.root / "passages"), mmap=True) if (self.root / "passages").exists() else None
        self._d = bm25s.BM25.load(str(self.root / "profiles"), mmap=True) if (self.root / "profiles").exists() else None
        self._row_pos = None

    def generation(self) -> int | None:
        return self._gen

    @staticmethod
    def _index(tokens: list[list[str]] | list[list[int]], vocab: dict[str, int] | None = None) -> Any:
        import bm25s

        if not any(tokens):
            return None
        ix = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
        ix.index(tokens if vocab is None else bm25s.tokenization.Tokenized(ids=tokens, vocab=vocab), show_progress=False)
        return ix

    def build(self, rows: np.ndarray, tokens: list[list[str]], profile_ids: list[str],
              profile_tokens: list[list[str]] | list[list[int]], generation: int,
              profile_vocab: dict[str, int] | None = None, profile_index: Any = None) -> None:
        """Rebuild both indexes (the profiles' one given as ``profile_index`` when built already). With ``profile_vocab``,
        ``profile_tokens`` are ids into it (every id used; bm25s then skips its string-to-id pass: same scores, half the time)."""
        self.root.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".lexical-", dir=self.root.parent))
        try:
            p, d = self._index(tokens), profile_index if profile_index is not None else self._index(profile_tokens, profile_vocab)
            if p is not None:
                p.save(str(tmp / "passages"))
            if d is not None:
                d.save(str(tmp / "profiles"))
            np.save(tmp / "rows.npy", np.asarray(rows, dtype=np.int64))
            (tmp / "meta.json").write_text(json.dumps({"generation": generation, "profile_ids": profile_ids}))
            old = self.root.with_name(self.root.name + ".old")
            if old.exists():
                shutil.rmtree(old)
            if self.root.exists():
                os.replace(self.root, old)
            os.replace(tmp, self.root)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self._load()

    @staticmethod
    def _scores(ix: Any, tokens: list[str]) -> np.ndarray | None:
        if ix is None:
            return None
        vocab = ix.vocab_dict
        ids = [vocab[t] for t in tokens if t in vocab]
        if not ids:
            return None
        return np.asarray(ix.get_scores(ids), dtype=np.float32)

    def passage_scores(self, tokens: list[str], rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        s = self._scores(self._p, tokens)
        if rows is None:
            return (self._rows, s) if s is not None else (self._rows, np.zeros(len(self._rows), np.float32))
        if self._row_pos is None:
            self._row_pos = np.full(int(self._rows.max()) + 1 if len(self._rows) else 0, -1, dtype=np.int64)
            self._row_pos[self._rows] = np.arange(len(self._rows))
        rows = np.asarray(rows, dtype=np.int64)
        ok = rows < len(self._row_pos)
        pos = np.full(len(rows), -1, dtype=np.int64)
        pos[ok] = self._row_pos[rows[ok]]
        keep = pos >= 0
        if s is None:
            return rows[keep], np.zeros(int(keep.sum()), np.float32)
        return rows[keep], s[pos[keep]]

    def profile_scores(self, tokens: list[str]) -> dict[str, float]:
        s = self._scores(self._d, tokens)
        if s is None:
            return {}
        return {self._profile_ids[i]: float(s[i]) for i in np.flatnonzero(s > 0)}


__all__ = ["Bm25sLexical", "CatalogueStorage", "LexicalStorage", "SqliteCatalogue", "VectorStorage", "top_scores"]
