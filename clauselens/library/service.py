"""The library as a shared service for the front ends (web UI, MCP; issue #46): one page of the
catalogue (filtered, sorted, paged on the server), clause search with the matched words located,
and add / remove under a single writer, so two browser tabs and an MCP client on one library see
consistent state.

**Filtering.** A filter is words and ``key:value`` terms (``party:mediwound type:supply
year:2014 "joint venture"``; quotes keep words together). A bare word must occur in the
agreement's title, parties, short names, kind, date or file name (case-insensitive substring); a
bare four-digit number also matches the year. ``party:`` matches a party or short name, ``type:``
the coarse type or words of the title (as :meth:`~clauselens.library.library.Library.candidates`),
``year:`` the year, ``title:`` / ``file:`` the title / file name. The records come from the
catalogue (SQLite, cached per catalogue generation); a page of ``limit`` rows leaves the server.

**Concurrency (readers-writer, single writer).** Readers use :attr:`LibraryService.library`, the
library the session service answers from. A write (add / remove) runs on a *second*
:class:`~clauselens.library.library.Library` over the same folder (its own SQLite connection:
SQLite's WAL isolation keeps the writer's uncommitted rows out of the readers' queries), holding
a thread lock and an exclusive ``flock`` on ``<library>/.writer.lock`` (one writer across
processes too: a web server and an MCP server on one library). Readers keep the snapshot they
loaded (records, BM25 index, vectors) until the write has finished -- every file committed and
the BM25 index rebuilt -- and only then swap to the new storage objects
(:meth:`LibraryService.refresh`): an agreement is visible whole (catalogue + index) or not at
all. A reader in another process notices the new catalogue generation and swaps when no writer
holds the lock. Parsing, the slow part of an add, happens before anything is written.

**Adding.** :meth:`LibraryService.add` follows ``clauselens library add``: the same file types
(:data:`~clauselens.library.library.SUFFIXES`, folders recursively), incremental by sha256
(unchanged skipped, changed re-indexed), a file that cannot be read reported in
``AddReport.failed`` and skipped while the others are added. :func:`unpack_zip` turns an
uploaded folder (a zip) into files with the same policy (other types and hidden files left out).
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import shutil
import threading
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from clauselens.errors import ClauselensError, ConfigError, IngestError
from clauselens.library.backends import open_storages
from clauselens.library.catalogue import AgreementRecord
from clauselens.library.library import SUFFIXES, AddReport, Library, ProgressFn, collect_files
from clauselens.parsing.types import Document
from clauselens.retrieval.types import SearchResult

#: Sort keys of :meth:`LibraryService.page` -> the record value sorted on.
SORT_KEYS: dict[str, Callable[[AgreementRecord], Any]] = {
    "title": lambda r: (r.title or Path(r.path).name).lower(),
    "parties": lambda r: " / ".join(r.parties).lower(),
    "date": lambda r: (r.year or 0, r.date or ""),
    "type": lambda r: r.kind,
    "pages": lambda r: r.pages,
    "passages": lambda r: r.passages,
    "added": lambda r: r.added_utc,
    "file": lambda r: Path(r.path).name.lower(),
}
#: Rows one page may hold.
MAX_PAGE = 500
#: Members a zip may hold, and the bytes it may unpack to (a "zip bomb" is refused, not unpacked).
MAX_ZIP_MEMBERS = 5000
MAX_ZIP_BYTES = 2 * 1024**3
_FILTER_KEYS = ("party", "type", "year", "title", "file")
_WORD = re.compile(r"\w+")


@dataclass
class AgreementRow:
    """One agreement as the library table shows it: its record, plus the copies (same title,
    parties and date) and the amendment links among the library's agreements."""

    record: AgreementRecord
    copies: list[str] = field(default_factory=list)
    amends: str | None = None
    amended_by: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON for the front ends."""
        r = self.record
        return {"doc_id": r.doc_id, "title": r.title, "file_name": Path(r.path).name, "label": r.label,
                "parties": list(r.parties), "short_names": list(r.short_names), "date": r.date, "year": r.year,
                "type": r.kind, "doc_type": r.doc_type, "pages": r.pages, "passages": r.passages, "added": r.added_utc,
                "copies": self.copies, "amends": self.amends, "amended_by": self.amended_by}


@dataclass
class AgreementPage:
    """One page of the filtered, sorted catalogue: ``total`` rows match, ``rows`` are
    ``offset .. offset + len(rows)``; ``library_total`` is the library's size."""

    rows: list[AgreementRow]
    total: int
    offset: int
    limit: int
    library_total: int


def parse_filter(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """``'party:"Acme Corp" supply 2014'`` -> (``["supply", "2014"]``, ``{"party": ["Acme Corp"]}``).
    Raises :class:`ConfigError` for an unbalanced quote or an unknown ``key:``."""
    try:
        parts = shlex.split(text or "")
    except ValueError as e:
        raise ConfigError(f"filter: {e} (close the quotation mark)") from None
    words: list[str] = []
    keyed: dict[str, list[str]] = {}
    for p in parts:
        key, sep, value = p.partition(":")
        if sep and key.lower() in _FILTER_KEYS and value:
            keyed.setdefault(key.lower(), []).append(value)
        elif sep and re.fullmatch(r"[a-z]+", key.lower()) and value and not key[0].isupper():
            raise ConfigError(f"filter: unknown field {key!r}; use {', '.join(k + ':' for k in _FILTER_KEYS)} or plain words")
        else:
            words.append(p)
    return words, keyed


def matched_offsets(text: str, query_tokens: set[str], tokenize: Callable[[str], list[str]]) -> list[list[int]]:
    """``[start, end)`` offsets of the words of ``text`` whose analysed form (the library's
    analyser: lower case, stemmed, stopwords dropped) is one of ``query_tokens``: the words a
    BM25 hit matched, for the front end to mark."""
    out: list[list[int]] = []
    cache: dict[str, bool] = {}
    for m in _WORD.finditer(text):
        w = m.group(0).lower()
        if w not in cache:
            cache[w] = any(t in query_tokens for t in tokenize(w))
        if cache[w]:
            out.append([m.start(), m.end()])
    return out


def unpack_zip(data_path: Path, dest: Path, *, max_file_bytes: int) -> tuple[list[Path], list[tuple[str, str]]]:
    """The contract files of the zip at ``data_path`` extracted under ``dest`` (their folders
    kept; :data:`SUFFIXES` only, hidden files and folders left out, as ``library add`` does for a
    folder), and ``(member, problem)`` for members refused (too large, unsafe path). Raises
    :class:`IngestError` for a file that is not a zip or holds too much."""
    try:
        zf = zipfile.ZipFile(data_path)
    except (zipfile.BadZipFile, OSError) as e:
        raise IngestError(data_path.name, f"{data_path.name} is not a readable zip file ({e})") from None
    files: list[Path] = []
    refused: list[tuple[str, str]] = []
    with zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
        if len(infos) > MAX_ZIP_MEMBERS or sum(i.file_size for i in infos) > MAX_ZIP_BYTES:
            raise IngestError(data_path.name, f"{data_path.name} holds too much ({len(infos)} files; at most "
                                              f"{MAX_ZIP_MEMBERS} files, {MAX_ZIP_BYTES // 1024**3} GiB unpacked)")
        for info in infos:
            parts = [p for p in info.filename.replace("\\", "/").split("/") if p not in ("", ".")]
            if not parts or any(p.startswith(".") for p in parts) or Path(parts[-1]).suffix.lower() not in SUFFIXES:
                continue  # hidden files, __MACOSX/._x, other types: skipped as a folder's would be
            if ".." in parts or info.filename.startswith("/"):
                refused.append((info.filename, "unsafe path in the zip"))
                continue
            if info.file_size > max_file_bytes:
                refused.append((info.filename, f"{parts[-1]} is larger than {max_file_bytes // 1024**2} MiB"))
                continue
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
            files.append(target)
    return files, refused


class LibraryService:
    """Catalogue pages, search and single-writer add / remove over one library (module
    docstring). ``load`` parses one file (``path -> Document``; the front end passes the
    Archivist's loader bound to its settings, as ``library add`` does)."""

    def __init__(self, library: Library, *, load: Callable[[Path], Document] | None = None) -> None:
        self.library = library
        self.load = load
        self._write_guard = threading.Lock()
        self._swap_guard = threading.RLock()  # readers of this service vs. the swap
        self._seen_generation = library.catalogue.generation()
        self._links: tuple[int, dict[str, str]] | None = None

    # ------------------------------------------------------------------ reading
    def refresh(self, *, force: bool = False) -> bool:
        """Swap the readers' library to the storage's committed state when another writer
        (another process) changed it and no write is running; True if it swapped."""
        lib = self.library
        gen = lib.catalogue.generation()
        if not force and gen == self._seen_generation:
            return False
        if not force:
            with self._lock_file(shared=True, wait=False) as got:
                if not got:
                    return False  # a write is running: keep the last whole snapshot
                self._swap()
            return True
        self._swap()
        return True

    def _swap(self) -> None:
        lib = self.library
        with self._swap_guard:
            cat, lex, vec = open_storages(lib.meta["backend"], lib.root, int(lib.meta["dim"]),
                                          uri=lib.meta.get("uri"), name=lib.meta.get("name"),
                                          lexical=lib.meta.get("lexical", "bm25s"), vectors=lib.meta.get("vectors", "f32"))
            # whole objects are swapped (a search running now keeps the objects it already read)
            lib.catalogue, lib.vectors, lib.lexical = cat, vec, lex
            self._seen_generation = cat.generation()

    @contextmanager
    def reading(self) -> Iterator[Library]:
        """The readers' library, held still: no swap happens until the block ends (page and
        search read through this; a whole agreement or nothing)."""
        with self._swap_guard:
            self.refresh()
            yield self.library

    def records(self) -> list[AgreementRecord]:
        """Every agreement's record (after :meth:`refresh`)."""
        self.refresh()
        return self.library.agreements()

    def record(self, doc_id: str) -> AgreementRecord:
        """One agreement's record; :class:`ConfigError` for an unknown id."""
        rec = next((r for r in self.records() if r.doc_id == doc_id), None)
        if rec is None:
            raise ConfigError(f"no agreement {doc_id!r} in the library {self.library.root.name!r}")
        return rec

    def _amendment_links(self) -> dict[str, str]:
        from clauselens.library.versions import links

        gen = self.library.catalogue.generation()
        if self._links is None or self._links[0] != gen:
            self._links = (gen, links(self.library))
        return self._links[1]

    def _matches(self, r: AgreementRecord, words: Sequence[str], keyed: dict[str, list[str]]) -> bool:
        name = Path(r.path).name
        hay = " ".join([r.title or "", *r.parties, *r.short_names, r.kind, r.doc_type, r.date or "", name]).lower()
        for w in words:
            if w.lower() not in hay and not (w.isdigit() and len(w) == 4 and r.year == int(w)):
                return False
        for v in keyed.get("party", []):
            if not any(v.lower() in n.lower() for n in [*r.parties, *r.short_names]):
                return False
        for v in keyed.get("type", []):
            if r.doc_type != v.lower() and v.lower() not in r.kind and not self.library._title_has(r, v):
                return False
        for v in keyed.get("year", []):
            if not v.isdigit() or r.year != int(v):
                return False
        if any(v.lower() not in (r.title or "").lower() for v in keyed.get("title", [])):
            return False
        return all(v.lower() in name.lower() for v in keyed.get("file", []))

    def page(self, filter: str = "", *, sort: str = "added", descending: bool = False, offset: int = 0,
             limit: int = 50) -> AgreementPage:
        """Rows ``offset .. offset + limit`` of the agreements matching ``filter`` (module
        docstring), sorted by ``sort`` (:data:`SORT_KEYS`). Raises :class:`ConfigError` for an
        unknown sort key or a bad filter."""
        if sort not in SORT_KEYS:
            raise ConfigError(f"sort: {sort!r} is not one of {', '.join(SORT_KEYS)}")
        limit = max(1, min(int(limit), MAX_PAGE))
        offset = max(0, int(offset))
        words, keyed = parse_filter(filter)
        with self.reading() as lib:
            recs = lib.agreements()
            hits = [r for r in recs if self._matches(r, words, keyed)]
            if sort != "added" or descending:
                hits.sort(key=SORT_KEYS[sort], reverse=descending)
            shown = hits[offset: offset + limit]
            return AgreementPage(rows=self._rows(shown, recs), total=len(hits), offset=offset, limit=limit,
                                 library_total=len(recs))

    def _rows(self, shown: Sequence[AgreementRecord], recs: Sequence[AgreementRecord]) -> list[AgreementRow]:
        def key(r: AgreementRecord) -> tuple:
            return ((r.title or "").lower().strip(), tuple(sorted(p.lower() for p in r.parties)), r.date or "")

        groups: dict[tuple, list[str]] = {}
        for r in recs:
            if r.title or r.parties:
                groups.setdefault(key(r), []).append(r.doc_id)
        links = self._amendment_links() if any(r.doc_type == "amendment" for r in recs) else {}
        by_base: dict[str, list[str]] = {}
        for a, b in links.items():
            by_base.setdefault(b, []).append(a)
        return [AgreementRow(record=r, copies=[d for d in groups.get(key(r), []) if d != r.doc_id],
                             amends=links.get(r.doc_id), amended_by=by_base.get(r.doc_id, [])) for r in shown]

    def search(self, query: str, k: int = 5, *, agreement: str | None = None, **filters: Any) -> tuple[SearchResult, list[list[list[int]]]]:
        """:meth:`Library.search` (pinned to ``agreement``, a doc id, when given) and, per
        passage, the offsets of its words the ranking query matched (:func:`matched_offsets`)."""
        if not query.strip():
            raise ClauselensError("type what to search for")
        k = max(1, min(int(k), 50))
        doc_ids = [self.record(agreement).doc_id] if agreement else None
        with self.reading() as lib:
            res = lib.search(query, k, doc_ids=doc_ids, **filters)
        q = set(lib.analyzer.tokenize(res.trace.get("ranking_query") or query))
        marks = [matched_offsets(p.text, q, lib.analyzer.tokenize) for p in res.passages]
        return res, marks

    # ------------------------------------------------------------------ writing
    @contextmanager
    def _lock_file(self, *, shared: bool = False, wait: bool = True) -> Iterator[bool]:
        path = self.library.root / ".writer.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            flags = (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | (0 if wait else fcntl.LOCK_NB)
            try:
                fcntl.flock(fd, flags)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    @contextmanager
    def writer(self) -> Iterator[Library]:
        """The single writer: a second :class:`Library` on the same folder, held under the
        thread lock and the folder's exclusive file lock; the readers swap to the new state
        when it is released (module docstring)."""
        lib = self.library
        with self._write_guard, self._lock_file():
            emb = lib.embedder if lib.meta.get("embedder", "none") != "none" else None
            w = Library.open(lib.root, embedder=emb, cache_dir=lib.cache_dir, create=False)
            try:
                yield w
            finally:
                self._swap()
                self._links = None

    def add(self, paths: Sequence[str | Path], *, progress: ProgressFn | None = None) -> AddReport:
        """Add files and folders as ``clauselens library add`` does (module docstring). Every
        file is parsed first (stage ``"parse"``), with no lock held; then the writer adds them
        (stages ``"add"``, ``"index"``). Readers see the new agreements when all are in."""
        files, missing = collect_files(paths)
        load = self.load
        parsed: dict[Path, Document] = {}
        failed: list[tuple[str, str]] = list(missing)
        known = {r.path: r.sha256 for r in self.records()}
        from clauselens.parsing.loader import file_sha256

        for i, f in enumerate(files):
            if progress:
                progress("parse", i, len(files), f.name)
            try:
                if known.get(str(f)) == file_sha256(f):
                    continue  # unchanged: the writer skips it without parsing
                if load is not None:
                    parsed[f] = load(f)
            except ClauselensError as e:
                failed.append((str(f), str(e)))
            except OSError as e:
                failed.append((str(f), f"cannot read: {e.strerror or e}"))
        if progress:
            progress("parse", len(files), len(files), "")
        bad = {p for p, _ in failed}
        todo = [f for f in files if str(f) not in bad]

        def cached(p: Path) -> Document:
            if p in parsed:
                return parsed[p]
            if load is None:
                from clauselens.parsing.store import parse_file

                return parse_file(p)
            return load(p)

        with self.writer() as w:
            rep = w.add(todo, load=cached, progress=progress) if todo else AddReport()
        rep.failed = failed + rep.failed
        return rep

    def uploads_dir(self) -> Path:
        """``<library>/uploads``: where files added through a front end are kept (the library
        records each agreement's path, and its pages are read from that file)."""
        return self.library.root / "uploads"

    def add_staged(self, staged: Path, *, progress: ProgressFn | None = None) -> AddReport:
        """Add the files under folder ``staged`` (an upload, unpacked) to the library, keeping them
        under :meth:`uploads_dir` at the same relative paths: a file new to the library is moved in
        and added (and removed again if it cannot be read); a file replacing one of the library's
        by the same name with other bytes is parsed first and moved in only when it can be read, so
        a bad new version leaves the old one and its agreement as they were. ``staged`` is emptied."""
        dest = self.uploads_dir()
        files = sorted(f for f in staged.rglob("*") if f.is_file())
        known = {r.path for r in self.records()}
        moved: list[Path] = []
        failed: list[tuple[str, str]] = []
        from clauselens.parsing.loader import file_sha256

        try:
            for f in files:
                target = (dest / f.relative_to(staged)).resolve()
                if str(target) in known and target.exists() and file_sha256(target) != file_sha256(f) and self.load:
                    try:
                        self.load(f)
                    except ClauselensError as e:
                        failed.append((str(target), str(e).replace(str(f), str(target))))
                        continue
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(f, target)
                moved.append(target)
            rep = self.add(moved, progress=progress)
        finally:
            shutil.rmtree(staged, ignore_errors=True)
        in_library = {r.path for r in self.records()}
        for path, _ in rep.failed:  # a new file that could not be read is not kept
            if path not in in_library and Path(path).is_relative_to(dest):
                Path(path).unlink(missing_ok=True)
        rep.failed = failed + rep.failed
        return rep

    def remove(self, keys: Sequence[str]) -> list[str]:
        """Remove agreements by doc id, path or file name (``library remove``); returns the removed
        paths. Raises :class:`ConfigError` naming the keys that matched nothing (the others are removed)."""
        keys = [k for k in (str(k).strip() for k in keys) if k]
        if not keys:
            raise ConfigError("name at least one agreement to remove (doc id, file name or path)")
        with self.writer() as w:
            return w.remove(keys)


__all__ = ["AgreementPage", "AgreementRow", "LibraryService", "matched_offsets", "parse_filter", "unpack_zip"]
