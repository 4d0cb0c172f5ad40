"""A lexical index that grows by segments (issue #42): passages in a tantivy index, agreement
profiles in a small bm25s index.

Tantivy (the Rust search library behind Quickwit; Python bindings ``tantivy``) writes every
commit as new immutable *segments* and merges them in the background, as Lucene does: adding an
agreement writes a segment of its passages, removing one marks its passages deleted, and a
re-added (changed) file is a delete plus a new segment -- nothing is rebuilt. A commit is atomic
(``meta.json`` of the index is replaced last), so a process killed mid-add leaves the index at its
last commit. Scoring is tantivy's BM25 (Robertson & Zaragoza 2009, "The Probabilistic Relevance
Framework: BM25 and Beyond"; k1 = 1.2, b = 0.75, Lucene's IDF) over the library's own analysed
tokens (:class:`~clauselens.retrieval.analyzer.LegalAnalyzer` output joined by spaces, indexed
with tantivy's ``whitespace`` tokenizer), so clause numbers and defined terms are matched as the
bm25s index matches them.

Agreement profiles (one short text per agreement, for resolution) stay in bm25s
(:class:`~clauselens.library.storage.Bm25sLexical`, the resolver was tuned on its scores): their
analysed tokens are kept as integer ids over one vocabulary in ``profile_tokens.npz``
(:class:`ProfileTokens`; no pickle) and the small index (one row per agreement) is rebuilt from
those ids at each commit, without reading the catalogue back. BM25 depends on every profile
(IDF, mean length), so the rebuild is inherent; feeding bm25s ids instead of strings and storing
arrays instead of JSON halves its cost at 3,871 agreements, and counting the terms of all profiles at
once with numpy (:func:`profile_index`) halves it again (issue #42; the index arrays are identical,
``tests/library/test_profile_tokens.py``). Libraries written before keep ``profile_tokens.json``
until their next commit, which converts it.

Consistency with the catalogue: ``lexical_meta.json`` records the catalogue generation of the
last complete commit (tantivy commit, profile index, then this file, each replaced atomically);
a library whose catalogue moved on without it (a crash between the two) is rebuilt on open.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.library.storage import Bm25sLexical, LexicalStorage

#: Writer heap (bytes): tantivy flushes a segment when it is full.
WRITER_HEAP = 64_000_000
#: Top hits read for ``passage_scores`` (the engine returns a top list, not a score per passage).
SCORES_LIMIT = 1000


class ProfileTokens:
    """Each agreement's analysed profile tokens as int32 ids over one vocabulary (``words``).
    :meth:`compact` drops words no profile uses any more (removed agreements), so the bm25s index
    built from it has the vocabulary a build from the token strings would have."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self.vocab: dict[str, int] = {}
        self.docs: dict[str, np.ndarray] = {}
        #: The puts and pops since the last :meth:`compact` (what :meth:`TantivyLexical.prepare_profiles` checks).
        self.log: list[tuple[str, str, tuple[str, ...]]] = []
        #: Raised by every :meth:`compact`.
        self.epoch = 0

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self.docs

    def __len__(self) -> int:
        return len(self.docs)

    def put(self, doc_id: str, tokens: Sequence[str]) -> None:
        self.log.append(("put", doc_id, tuple(tokens)))
        ids = np.empty(len(tokens), np.int32)
        for i, t in enumerate(tokens):
            j = self.vocab.get(t)
            if j is None:
                j = self.vocab[t] = len(self.words)
                self.words.append(t)
            ids[i] = j
        self.docs[doc_id] = ids

    def pop(self, doc_id: str) -> None:
        self.log.append(("pop", doc_id, ()))
        self.docs.pop(doc_id, None)

    def tokens(self, doc_id: str) -> list[str]:
        """The token strings of one profile."""
        return [self.words[i] for i in self.docs[doc_id].tolist()]

    def compact(self, order: Sequence[str] | None = None, arrays: bool = False) -> tuple[list[str], list, dict[str, int]]:
        """Renumber to the words still used; returns (doc ids in ``order``, their id lists -- int32
        arrays with ``arrays`` --, vocab)."""
        ids = [d for d in (order if order is not None else self.docs) if d in self.docs]
        self.log = []
        self.epoch += 1
        if not ids:
            self.words, self.vocab, self.docs = [], {}, {}
            return [], [], {}
        keep = set(ids)
        self.docs = {d: v for d, v in self.docs.items() if d in keep}
        used = np.flatnonzero(np.bincount(np.concatenate([self.docs[d] for d in ids]), minlength=len(self.words)))
        if len(used) < len(self.words):  # words of removed profiles: renumber
            remap = np.full(len(self.words), -1, np.int32)
            remap[used] = np.arange(len(used), dtype=np.int32)
            self.words = [self.words[i] for i in used.tolist()]
            self.vocab = {w: i for i, w in enumerate(self.words)}
            self.docs = {d: remap[v] for d, v in self.docs.items()}
        return ids, [self.docs[d] if arrays else self.docs[d].tolist() for d in ids], dict(self.vocab)

    def copy(self) -> "ProfileTokens":
        """An independent copy (the id arrays are shared: every change replaces an array, none is edited)."""
        pt = ProfileTokens()
        pt.words, pt.vocab, pt.docs, pt.log = list(self.words), dict(self.vocab), dict(self.docs), list(self.log)
        return pt

    def save(self, path: Path) -> None:
        """Write ``path`` (an .npz of plain arrays) atomically."""
        ids = list(self.docs)
        lens = np.asarray([len(self.docs[d]) for d in ids], np.int64)
        flat = np.concatenate([self.docs[d] for d in ids]) if ids else np.zeros(0, np.int32)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            np.savez(f, doc_ids=np.asarray(ids, dtype=str), lengths=lens, ids=flat.astype(np.int32),
                     words=np.asarray(self.words, dtype=str))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, legacy_json: Path | None = None) -> "ProfileTokens":
        """Read ``path``; else a library's older ``profile_tokens.json``; else empty."""
        pt = cls()
        if path.exists():
            with np.load(path, allow_pickle=False) as z:
                pt.words = z["words"].tolist()
                flat, lens = z["ids"], z["lengths"]
                ends = np.cumsum(lens)
                pt.docs = {d: flat[e - n:e] for d, n, e in zip(z["doc_ids"].tolist(), lens.tolist(), ends.tolist())}
            pt.vocab = {w: i for i, w in enumerate(pt.words)}
        elif legacy_json is not None and legacy_json.exists():
            for d, toks in json.loads(legacy_json.read_text()).items():
                pt.put(d, toks)
        return pt


def profile_index(id_lists: Sequence[Any], vocab: dict[str, int]) -> Any:
    """The bm25s index of the agreement profiles ``id_lists`` (ids into ``vocab``), the one
    ``Bm25sLexical._index(id_lists, vocab)`` builds (``method="lucene"``, k1 = 1.5, b = 0.75), or None
    when no profile has a token. bm25s counts document frequencies and term frequencies in a Python
    loop per profile; :func:`_vectorised_bm25` does those counts for all profiles at once with numpy (one
    stable sort by token, already the column order of bm25s's CSC arrays) and hands the same numbers to
    bm25s's own IDF and TF-component functions, so the index arrays are the same, bit for bit
    (``tests/library/test_profile_tokens.py``). Issue #42: this rebuild, done on every add, is the part of
    an add that grows with the library; on the 3,870 profiles of the 520k-passage library (1.7M tokens)
    it took 0.21 CPU-s against bm25s's 0.47."""
    if not any(len(t) for t in id_lists):
        return None
    import bm25s

    ix = _vectorised_bm25()(method="lucene", k1=1.5, b=0.75)
    ix.index(bm25s.tokenization.Tokenized(ids=list(id_lists), vocab=vocab), show_progress=False)
    return ix


@functools.cache
def _vectorised_bm25() -> type:
    """``bm25s.BM25`` with :meth:`build_index_from_ids` (bm25s's documented override point) counting
    with numpy: the same inputs to the same bm25s scoring functions as its loop (see :func:`profile_index`)."""
    import bm25s
    from bm25s.scoring import _build_idf_array, _select_idf_scorer, _select_tfc_scorer

    class VectorisedBM25(bm25s.BM25):
        def build_index_from_ids(self, unique_token_ids: Any, corpus_token_ids: Any, show_progress: bool = True,
                                 leave_progress: bool = False) -> dict:
            if self.method in self.methods_requiring_nonoccurrence or self.csc_backend != "numpy":
                return super().build_index_from_ids(unique_token_ids, corpus_token_ids, show_progress, leave_progress)
            self.nonoccurrence_array = None  # as bm25s sets it for methods that need none
            lens = np.array([len(d) for d in corpus_token_ids])
            avg_doc_len = lens.mean()  # as bm25s: the mean of an int64 array
            n_docs, n_vocab = len(corpus_token_ids), len(unique_token_ids)
            flat = np.concatenate([np.asarray(d, dtype=np.int64) for d in corpus_token_ids])
            owner = np.repeat(np.arange(n_docs, dtype=np.int64), lens)
            # one entry per (token, profile), sorted by token then profile: bm25s's Counter per profile, in the
            # order its CSC builder (``_np_csc``: sorted by column, then row) puts them. A stable sort by token
            # keeps each token's profiles in order (numpy's radix sort for 16-bit keys: linear time)
            by = np.argsort(flat.astype(np.uint16) if n_vocab <= 1 << 16 else flat, kind="stable")
            t_sorted, d_sorted = flat[by], owner[by]
            first = np.flatnonzero(np.r_[True, (t_sorted[1:] != t_sorted[:-1]) | (d_sorted[1:] != d_sorted[:-1])])
            tf = np.diff(np.r_[first, len(flat)])
            term, doc = t_sorted[first], d_sorted[first]
            df = np.bincount(term, minlength=n_vocab)
            doc_frequencies = {t: int(df[t]) for t in set(unique_token_ids)}
            idf_array = _build_idf_array(doc_frequencies=doc_frequencies, n_docs=n_docs,
                                         compute_idf_fn=_select_idf_scorer(self.idf_method), dtype=self.dtype)
            tfc = _select_tfc_scorer(self.method)(tf_array=tf.astype(self.dtype), l_d=lens[doc], l_avg=avg_doc_len,
                                                  k1=self.k1, b=self.b, delta=self.delta)
            scores = np.empty(len(first), dtype=self.dtype)
            scores[:] = idf_array[term] * tfc  # float64 products rounded to float32, as bm25s stores them
            indptr = np.zeros(n_vocab + 1, dtype=np.int64)
            np.cumsum(df, out=indptr[1:])
            return {"data": scores, "indices": doc.astype(self.int_dtype), "indptr": indptr, "num_docs": n_docs}

    return VectorisedBM25


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class TantivyLexical(LexicalStorage):
    """:class:`LexicalStorage` with passages in tantivy segments under ``root/passages`` and the
    agreement profiles in bm25s under ``root/profiles`` (see the module docstring)."""

    incremental = True

    def __init__(self, root: Path) -> None:
        import tantivy

        self._tv = tantivy
        self.root = Path(root)
        (self.root / "passages").mkdir(parents=True, exist_ok=True)
        sb = tantivy.SchemaBuilder()
        sb.add_text_field("tokens", tokenizer_name="whitespace", index_option="freq")
        sb.add_text_field("doc_id", tokenizer_name="raw", index_option="basic")
        sb.add_integer_field("row", stored=False, indexed=False, fast=True)
        self.schema = sb.build()
        self.index = tantivy.Index(self.schema, path=str(self.root / "passages"))
        self._writer: Any = None
        self._profiles = Bm25sLexical(self.root / "profiles")
        self._profile_tokens: ProfileTokens | None = None
        self._ptok_path = self.root / "profile_tokens.npz"
        self._ptok_json = self.root / "profile_tokens.json"  # libraries written before the .npz
        meta = self.root / "lexical_meta.json"
        self._gen: int | None = int(json.loads(meta.read_text())["generation"]) if meta.exists() else None
        self._searcher: Any = None
        #: What :meth:`prepare_profiles` built and assumed (see there).
        self._prepared: dict[str, Any] | None = None

    # ------------------------------------------------------------- writing
    def _w(self) -> Any:
        if self._writer is None:
            self._writer = self.index.writer(WRITER_HEAP, 1)
        return self._writer

    def _ptokens(self) -> ProfileTokens:
        if self._profile_tokens is None:
            self._profile_tokens = ProfileTokens.load(self._ptok_path, self._ptok_json)
        return self._profile_tokens

    def add_passages(self, doc_id: str, rows: Sequence[int], tokens: Sequence[list[str]], profile: list[str]) -> None:
        """Stage one agreement's passages (a new segment at :meth:`commit`) and its profile tokens."""
        w = self._w()
        for r, tok in zip(rows, tokens):
            w.add_document(self._tv.Document(tokens=" ".join(tok), doc_id=doc_id, row=int(r)))
        self._ptokens().put(doc_id, profile)

    def remove_doc(self, doc_id: str) -> None:
        """Stage the deletion of one agreement's passages and profile."""
        self._w().delete_documents_by_term("doc_id", doc_id)
        self._ptokens().pop(doc_id)

    def prepare_profiles(self, order: Sequence[str], drop: Sequence[str], doc_id: str, profile: list[str]) -> None:
        """Build, ahead of :meth:`commit`, the profile index the library will have once ``drop``
        are removed and ``doc_id``'s ``profile`` is added (by :meth:`remove_doc` of each of
        ``drop`` then :meth:`add_passages`), with the agreements in ``order``. An add does this while
        its passages are embedded in another thread; :meth:`commit` uses it only if exactly those
        changes were staged since and the order matches (else it builds as usual), so the index is
        the one a build at commit time makes (``tests/library/test_lexical_tantivy.py``)."""
        base = self._ptokens()
        pt = base.copy()
        for d in drop:
            pt.pop(d)
        pt.put(doc_id, profile)
        prep = {"base": base, "epoch": base.epoch, "log": list(pt.log), "order": list(order), "tokens": pt}
        prep["ids"], id_lists, vocab = pt.compact(order, arrays=True)
        prep["index"] = profile_index(id_lists, vocab)
        self._prepared = prep

    def commit(self, generation: int, profile_order: Sequence[str] | None = None) -> None:
        """Commit the staged segment and deletions, rebuild the profile index (or take the one
        :meth:`prepare_profiles` built for exactly these changes), record ``generation``."""
        if self._writer is not None:
            self._writer.commit()
            self._writer.wait_merging_threads()  # releases the writer's lock (the next add opens a new one)
            self._writer = None
        pt = self._ptokens()
        prep, self._prepared = self._prepared, None
        if prep is not None and prep["base"] is pt and prep["epoch"] == pt.epoch and prep["log"] == pt.log \
                and profile_order is not None and prep["order"] == list(profile_order):
            pt = self._profile_tokens = prep["tokens"]
            ids, vocab, index = prep["ids"], dict(pt.vocab), prep["index"]
        else:
            ids, id_lists, vocab = pt.compact(profile_order, arrays=True)
            index = profile_index(id_lists, vocab)
        pt.save(self._ptok_path)
        self._profiles.build(np.zeros(0, np.int64), [], ids, [], generation, profile_vocab=vocab,
                             profile_index=index)  # no index: no profile has a token (bm25s builds none either)
        _write_atomic(self.root / "lexical_meta.json", json.dumps({"generation": int(generation), "engine": "tantivy"}))
        self._ptok_json.unlink(missing_ok=True)  # converted to the .npz above
        self._gen = int(generation)
        self.index.reload()
        self._searcher = None

    def build(self, rows: np.ndarray, tokens: list[list[str]], profile_ids: list[str],
              profile_tokens: list[list[str]], generation: int, doc_ids: Sequence[str] | None = None) -> None:
        """Rebuild from scratch (a library opened after a crash, or migrated): every passage in
        fresh segments. ``doc_ids`` gives each row's agreement (required when rows are given)."""
        if len(rows) and doc_ids is None:
            raise ValueError("TantivyLexical.build needs the doc id of every row")
        if self._writer is not None:
            self._writer.rollback()
        w = self._w()
        w.delete_all_documents()
        for r, tok, d in zip(rows, tokens, doc_ids or ()):
            w.add_document(self._tv.Document(tokens=" ".join(tok), doc_id=d, row=int(r)))
        self._profile_tokens = ProfileTokens()
        for d, toks in zip(profile_ids, profile_tokens):
            self._profile_tokens.put(d, toks)
        self.commit(generation, profile_ids)

    def generation(self) -> int | None:
        return self._gen

    # ------------------------------------------------------------- reading
    def _search(self) -> Any:
        if self._searcher is None:
            self._searcher = self.index.searcher()
        return self._searcher

    def _query(self, tokens: list[str], doc_ids: Sequence[str] | None) -> Any:
        tv = self._tv
        should = [(tv.Occur.Should, tv.Query.term_query(self.schema, "tokens", t)) for t in tokens if t]
        if not should:
            return None
        q = tv.Query.boolean_query(should)
        if doc_ids is not None:
            only = tv.Query.const_score_query(tv.Query.term_set_query(self.schema, "doc_id", list(doc_ids)), 0.0)
            q = tv.Query.boolean_query([(tv.Occur.Must, q), (tv.Occur.Must, only)])
        return q

    def top_passages(self, tokens: list[str], rows: np.ndarray | None, doc_ids: Sequence[str] | None,
                     k: int) -> list[tuple[int, float]]:
        if doc_ids is not None and not len(doc_ids):
            return []
        q = self._query(tokens, doc_ids)
        if q is None:
            return []
        s = self._search()
        hits = s.search(q, k, count=False).hits
        if not hits:
            return []
        rws = s.fast_field_values("row", [a for _, a in hits])
        out = [(int(r), float(sc)) for (sc, _), r in zip(hits, rws) if r is not None and sc > 0]
        out.sort(key=lambda x: (-x[1], x[0]))
        return out

    def passage_scores(self, tokens: list[str], rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """BM25 of the top :data:`SCORES_LIMIT` passages (within ``rows`` when given); others count as 0."""
        top = self.top_passages(tokens, None, None, SCORES_LIMIT if rows is None else max(SCORES_LIMIT, len(rows)))
        r = np.asarray([x[0] for x in top], dtype=np.int64)
        sc = np.asarray([x[1] for x in top], dtype=np.float32)
        if rows is not None:
            keep = np.isin(r, np.asarray(rows, dtype=np.int64))
            r, sc = r[keep], sc[keep]
        return r, sc

    def profile_scores(self, tokens: list[str]) -> dict[str, float]:
        return self._profiles.profile_scores(tokens)

    def indexed_count(self, doc_id: str) -> int:
        """How many passages of ``doc_id`` the committed index holds (what a reader sees now)."""
        q = self._tv.Query.term_query(self.schema, "doc_id", doc_id)
        return int(self._search().search(q, limit=1, count=True).count)

    def segments(self) -> int:
        """Number of tantivy segments (for the benchmark)."""
        return int(self._search().num_segments)

    def close(self) -> None:
        """Drop an uncommitted writer (its staged documents are discarded) and release the index
        lock, so this or another process can write next (an ``add`` interrupted mid-way)."""
        if self._writer is not None:
            self._writer.rollback()
            self._writer.wait_merging_threads()  # consumes the writer: the lock is released
            self._writer = None
        self._prepared = None

    @staticmethod
    def wipe(root: Path) -> None:
        """Delete the index (a library switching engines)."""
        shutil.rmtree(root, ignore_errors=True)


__all__ = ["ProfileTokens", "TantivyLexical", "profile_index"]
