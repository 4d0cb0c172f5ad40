"""Adding to and removing from a library (issue #17; segments, copies and the HNSW graph: issue
#42): files parsed once, unchanged ones skipped by sha256, each agreement written to the
catalogue in one transaction, its vectors appended, its passages staged as a lexical segment
(or the bm25s index rebuilt), a copy of an agreement already there detected
(:mod:`clauselens.library.duplicates`). A mixin of :class:`~clauselens.library.library.Library`,
split out of ``library.py`` (issue #43).

One file's add overlaps its two costs (issue #42): its passages are embedded in a worker thread
(the ONNX Runtime / PyTorch kernels release the GIL) while the main thread tokenises them, builds
the record and, for the last file of an add, the agreement-profile index the commit will publish
(:meth:`~clauselens.library.lexical_tantivy.TantivyLexical.prepare_profiles`). The write order is
unchanged (vectors, then the catalogue transaction, then the lexical commit), so a process killed
mid-add leaves the last committed library readable, and the vectors and indexes are the ones a
serial add writes. Nothing proportional to the library is read on an add: the file's record is
looked up by path and the agreement order read as doc ids, not as records."""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from clauselens.errors import ClauselensError, ConfigError
from clauselens.library.catalogue import RECORD_FORMAT, AgreementRecord, heading_topic_words, make_record, resolution_profile
from clauselens.library.duplicates import note_copy, release_copies
from clauselens.library.parts import LibraryParts
from clauselens.library.passages import clause_markers, definitions, embed_text, library_passages
from clauselens.parsing.types import Document

#: ``progress(stage, done, total, detail)``.
ProgressFn = Callable[[str, int, int, str], None]

#: During a long ``add`` the segment index commits every this many files (a crash loses at most these).
COMMIT_EVERY = 200

#: Files ``add`` picks up inside folders.
SUFFIXES = (".txt", ".md", ".pdf", ".docx")

@dataclass
class AddReport:
    """What one ``add`` did: paths per outcome, and ``(path, message)`` per failure."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    pruned: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    passages: int = 0
    seconds: float = 0.0
    #: ``(path, path of the agreement it copies)``: added, listed as a copy, left out of search.
    copies: list[tuple[str, str]] = field(default_factory=list)

def collect_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Files to add: each file as given, folders searched recursively for :data:`SUFFIXES`
    (hidden files skipped). Returns (files, ``(path, problem)`` for paths that do not exist)."""
    files: list[Path] = []
    missing: list[tuple[str, str]] = []
    for p in paths:
        p = Path(p).expanduser()
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES
                            and not any(part.startswith(".") for part in f.relative_to(p).parts))
        elif p.is_file():
            files.append(p)
        else:
            missing.append((str(p), "no such file or folder"))
    return list(dict.fromkeys(f.resolve() for f in files)), missing


class Indexing(LibraryParts):
    """``add`` / ``remove`` and the index upkeep of a library (see the module docstring)."""

    #: Embed a file's passages in a worker thread while the rest of its add runs (module docstring);
    #: False: one after the other (the benchmark's "before").
    overlap_add: bool = True

    @property
    def embedder(self) -> Any:  # Library's
        raise NotImplementedError

    def add(self, paths: Sequence[str | Path], *, load: Callable[[Path], Document] | None = None,
            prune: bool = False, progress: ProgressFn | None = None) -> AddReport:
        """Add files and folders (recursive). Unchanged files (same path and sha256) are
        skipped, changed ones re-indexed; a file that fails is reported in
        ``AddReport.failed`` and leaves the library as it was; ``prune`` removes agreements
        whose files no longer exist. ``load`` parses one file (default: the Archivist's
        parser through the document store is wired by the caller; here ``parse_file``)."""
        try:
            return self._add(paths, load=load, prune=prune, progress=progress)
        except BaseException:
            if self.lexical.incremental:  # an interrupted add (Ctrl+C, a crash in a loader): drop the staged
                self.lexical.close()  # type: ignore[attr-defined]  # segment; the index stays at its last commit
            raise

    def _add(self, paths: Sequence[str | Path], *, load: Callable[[Path], Document] | None,
             prune: bool, progress: ProgressFn | None) -> AddReport:
        from clauselens.parsing.loader import file_sha256
        from clauselens.parsing.store import parse_file

        t0 = time.perf_counter()
        rep = AddReport()
        files, missing = collect_files(paths)
        rep.failed += missing
        load = load or (lambda p: parse_file(p))
        known = {r.path: r for r in self.agreements()} if prune else {}
        for i, f in enumerate(files):
            if progress:
                progress("add", i, len(files), f.name)
            try:
                sha = file_sha256(f)
            except OSError as e:
                rep.failed.append((str(f), f"cannot read: {e.strerror or e}"))
                continue
            if not prune and self.catalogue.sha_of(str(f)) is not None:  # a file added before: its record
                known = known or {r.path: r for r in self.agreements()}
            old = known.get(str(f))
            if old is not None and old.sha256 == sha and old.record_format >= RECORD_FORMAT:
                rep.unchanged.append(str(f))
                continue
            try:
                doc = load(f)
                n, copy_of = self._put(doc, replaces=[old.doc_id] if old is not None else [], last=i == len(files) - 1)
            except ClauselensError as e:
                rep.failed.append((str(f), str(e)))
                continue
            rep.passages += n
            if copy_of is not None:
                rep.copies.append((str(f), next((r.path for r in self.agreements() if r.doc_id == copy_of), copy_of)))
            (rep.updated if old is not None else rep.added).append(str(f))
            if self.lexical.incremental and (len(rep.added) + len(rep.updated)) % COMMIT_EVERY == 0:
                self._commit_lexical()
        if prune:
            for path, rec in known.items():
                if not Path(path).exists():
                    self.catalogue.remove_agreement(rec.doc_id)
                    if self.lexical.incremental:
                        self.lexical.remove_doc(rec.doc_id)  # type: ignore[attr-defined]
                    rep.pruned.append(path)
            release_copies(self.catalogue, [known[p].doc_id for p in rep.pruned])
        if progress:
            progress("add", len(files), len(files), "")
        if rep.added or rep.updated or rep.pruned or self.lexical.generation() != self.catalogue.generation():
            if progress:
                progress("index", 0, 1, "BM25")
            self._commit_lexical()
            if progress:
                progress("index", 1, 1, "BM25")
        if getattr(self.vectors, "needs_graph", None) and self.vectors.needs_graph():  # type: ignore[attr-defined]
            if progress:
                progress("index", 0, 1, "HNSW")
            self.vectors.build_graph()  # type: ignore[attr-defined]
        rep.seconds = time.perf_counter() - t0
        return rep

    def _commit_lexical(self) -> None:
        """Make the lexical index match the catalogue: commit the staged segment (segment
        engines; the whole index is rebuilt when the index missed a change, e.g. after a crash)
        or rebuild (bm25s)."""
        if self.lexical.incremental and self.lexical.generation() is not None:
            self.lexical.commit(self.catalogue.generation(), self.catalogue.agreement_ids())  # type: ignore[attr-defined]
        else:
            self.rebuild_lexical()

    def _profile_tokens(self, record: AgreementRecord, profile: str) -> list[str]:
        if self.meta.get("use_file_names", False):
            profile += "\n" + Path(record.path).stem.replace("_", " ").replace("-", " ")
        return self.analyzer.tokenize(profile)

    def _put(self, doc: Document, replaces: Sequence[str] = (), last: bool = False) -> tuple[int, str | None]:
        """Write one parsed agreement (module docstring); ``last``: the add commits right after it."""
        passages = library_passages(doc)
        texts = [embed_text(c) for c in passages]
        first = self.catalogue.reserve_rows(len(passages))
        if self.embedder is None or not passages:
            return self._put_rest(doc, passages, texts, first, replaces, None, last)
        if not self.overlap_add:
            self.vectors.append(first, self.embedder.embed_passages(texts))
            return self._put_rest(doc, passages, texts, first, replaces, None, last)
        with ThreadPoolExecutor(1, thread_name_prefix="clauselens-embed") as pool:  # waits for the worker on any exit
            return self._put_rest(doc, passages, texts, first, replaces, pool.submit(self.embedder.embed_passages, texts), last)

    def _put_rest(self, doc: Document, passages: list, texts: list[str], first: int, replaces: Sequence[str],
                  vectors: Future | None, last: bool) -> tuple[int, str | None]:
        tokens = self.analyzer.tokenize_many(texts)
        labels = {h for c in passages for h in c.heading_path}
        topics, pairs = heading_topic_words(labels, self.analyzer.tokenize)
        record = make_record(doc, passages=len(passages), topics=topics, topic_pairs=pairs)
        defs = [(d.term, d.offset, d.means) for d in definitions(doc)]
        profile = resolution_profile(doc, record)
        rows = list(range(first, first + len(passages)))
        drop = list(dict.fromkeys([*replaces, record.doc_id]))
        ptoks = self._profile_tokens(record, profile) if self.lexical.incremental else []
        if vectors is not None and last and self.lexical.incremental:  # the commit's profile index, while embedding
            order = [d for d in self.catalogue.agreement_ids() if d not in drop] + [record.doc_id]
            self.lexical.prepare_profiles(order, drop, record.doc_id, ptoks)  # type: ignore[attr-defined]
        if vectors is not None:
            self.vectors.append(first, vectors.result())
        self.catalogue.put_agreement(record, profile, passages, tokens, rows, defs, clause_markers(doc.text))
        if self.lexical.incremental:  # a segment: the replaced version's passages deleted, this one's staged
            for d in drop:
                self.lexical.remove_doc(d)  # type: ignore[attr-defined]
            self.lexical.add_passages(record.doc_id, rows, tokens, ptoks)  # type: ignore[attr-defined]
        copy = note_copy(self.catalogue, record.doc_id, [c.text for c in passages])
        return len(passages), copy[0] if copy else None

    def copies(self) -> dict[str, str]:
        """Doc id of each agreement that is a copy of another (the same text as a PDF and a TXT,
        or a file added twice: :mod:`clauselens.library.duplicates`) -> the original's doc id."""
        gen = self.catalogue.generation()
        if getattr(self, "_copies_gen", None) != gen:
            self._copies, self._copies_gen = self.catalogue.signatures()[2], gen
        return self._copies

    def remove(self, keys: Sequence[str]) -> list[str]:
        """Remove agreements by doc id, path or file name; returns the removed paths.
        Raises :class:`ConfigError` naming every key that matched nothing."""
        recs = self.agreements()
        removed, unknown = [], []
        for k in keys:
            hit = [r for r in recs if k in (r.doc_id, r.path, Path(r.path).name) or str(Path(k).expanduser().resolve()) == r.path]
            if not hit:
                unknown.append(k)
            for r in hit:
                if self.catalogue.remove_agreement(r.doc_id):
                    removed.append(r.path)
                    if self.lexical.incremental:
                        self.lexical.remove_doc(r.doc_id)  # type: ignore[attr-defined]
        if removed:
            release_copies(self.catalogue, [r.doc_id for r in recs if r.path in removed])
            self._commit_lexical()
        if unknown:
            raise ConfigError(f"not in library {self.root.name}: {', '.join(unknown)}")
        return removed

    def rebuild_lexical(self) -> None:
        """Rebuild the BM25 indexes (passages, agreement profiles) from the catalogue (and
        fill in the clause topics of agreements added by a version that did not record them)."""
        for r in self.agreements():
            if r.topics is None or r.topic_pairs is None:
                labels = {h for c in self.catalogue.passages(self.catalogue.rows_of([r.doc_id])) for h in c.heading_path}
                topics, pairs = heading_topic_words(labels, self.analyzer.tokenize)
                self.catalogue.update_record(r.model_copy(update={"topics": topics, "topic_pairs": pairs}))
        if self.lexical.indexes_on_write:  # Milvus computes BM25 on insert: nothing to rebuild
            if self.meta.get("use_file_names"):
                raise ConfigError("file names in agreement resolution are not supported on the milvus backend")
            self.lexical.build(np.zeros(0, np.int64), [], [], [], self.catalogue.generation())
            return
        rows, toks = self.catalogue.all_tokens()
        recs = self.agreements()
        prof = [self._profile_tokens(r, self.catalogue.profile(r.doc_id)) for r in recs]
        if self.lexical.incremental:  # a segment engine rebuilt whole (a crash, a migration): it needs each row's agreement
            self.lexical.build(rows, toks, [r.doc_id for r in recs], prof, self.catalogue.generation(),  # type: ignore[call-arg]
                               doc_ids=self.catalogue.all_doc_ids())
            return
        self.lexical.build(rows, toks, [r.doc_id for r in recs], prof, self.catalogue.generation())


__all__ = ["AddReport", "COMMIT_EVERY", "Indexing", "ProgressFn", "SUFFIXES", "collect_files"]
