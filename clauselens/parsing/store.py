"""Persistence of parsed documents, the input limits (pages, text size), and batch ingest.

:class:`DocumentStore` keeps one JSON file per (file sha256, parse options) under its root,
so an unchanged file is never re-parsed. The options that change a parse are part of the key:
OCR on/off, the OCR dpi (when OCR is on), the PDF text engine (``auto`` resolved, so switching
engines re-parses), :data:`~clauselens.parsing.types.SCHEMA_VERSION`
and :func:`parser_fingerprint` (a hash of the parsing code and the PDF library versions, so a
parser change re-parses instead of serving a stale tree). Each file is an envelope::

    {"store_format": 1, "schema_version": 1, "parser": "<16 hex>",
     "options": {"ocr": true, "ocr_dpi": 300, "pdf_engine": "pdfium"}, "file_sha256": "<64 hex>", "document": {...}}

Writes are atomic (temp file in the same directory, fsync, then ``os.replace``; POSIX rename
is atomic), a parse that fails writes nothing, and temp files are never read back. An entry
with another schema version or parser fingerprint is ignored (and re-parsed), never misread.

The key is the file's content, never its name, and parsing dispatches on content too
(:mod:`clauselens.parsing.sniff`), so a stored parse is what a fresh parse of the same bytes
under any name gives. The one name-dependent part, the warning that the extension does not
match the content, is never stored: it is added for the path being loaded, hit or miss.

Passwords are never written: a PDF opened with a password is parsed without the store (its
decrypted text is not persisted either), so only files that open without one are cached.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Iterable

from pydantic import ValidationError

from clauselens.errors import IngestError
from clauselens.parsing.loader import doc_id_for, file_sha256, load_document, sniff
from clauselens.parsing.pdf import PdfEngine, pdf_page_count, resolve_pdf_engine
from clauselens.parsing.sniff import extension_warning
from clauselens.parsing.types import SCHEMA_VERSION, Document

#: Version of the envelope around the stored document (not of the document schema).
STORE_FORMAT = 1
#: Temp files older than this (seconds) are leftovers of a killed writer and are removed.
STALE_TMP_S = 3600.0


@functools.cache
def parser_fingerprint() -> str:
    """16 hex chars identifying the parser: sha256 over the source of every module in
    ``clauselens/parsing/`` and the installed versions of pdfplumber, pdfminer.six,
    pypdfium2, pytesseract and python-docx. Computed once per process.

    The Tesseract binary's version is not included: after upgrading Tesseract, re-parse
    scanned documents with the store disabled (``CLAUSELENS_USE_STORE=false`` or ``--no-cache``)
    or delete the store directory.
    """
    h = hashlib.sha256(f"schema={SCHEMA_VERSION}".encode())
    for src in sorted(Path(__file__).parent.glob("*.py")):
        h.update(src.name.encode())
        h.update(src.read_bytes())
    for dist in ("pdfplumber", "pdfminer.six", "pypdfium2", "pytesseract", "python-docx"):
        try:
            h.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    return h.hexdigest()[:16]


def _is_pdf(p: Path) -> bool:
    return sniff(p).kind == "pdf"


#: Bytes per MB in the text size limit (decimal, as file managers show sizes).
MB = 1_000_000


def check_text_size(path: str | Path, size: int, max_text_mb: float | None, *, what: str = "text") -> None:
    """Raise :class:`IngestError` when ``size`` (bytes of a text file, or characters extracted
    from a Word file) exceeds ``max_text_mb`` MB (``None``/0 = no limit). The message names the
    file, its size, the limit and how to raise it."""
    if max_text_mb and size > max_text_mb * MB:
        need = int(size / MB) + 1
        raise IngestError(
            Path(path).name,
            f"{size / MB:.1f} MB of {what} is over the {max_text_mb:g} MB limit for one document; raise it with "
            f"CLAUSELENS_MAX_TEXT_MB={need} (Settings.max_text_mb), or split the file",
        )


def check_page_limit(path: str | Path, pages: int, max_pages: int | None) -> None:
    """Raise :class:`IngestError` when ``pages`` exceeds ``max_pages`` (``None``/0 = no limit).

    The message names the file, its page count, the limit and how to raise it.
    """
    if max_pages and pages > max_pages:
        raise IngestError(
            Path(path).name,
            f"{pages} pages is over the page limit of {max_pages}; raise it with "
            f"CLAUSELENS_MAX_PAGES={pages} (Settings.max_pages) to read this file",
        )


def check_limits(p: Path, *, password: str | None, max_pages: int | None, max_text_mb: float | None,
                 pages: int | None = None) -> None:
    """The input limits, checked before parsing (``pages`` = known page count, e.g. of a stored
    parse): a PDF over ``max_pages`` pages, a text file over ``max_text_mb`` MB. Word files are
    checked on their extracted text (:func:`parse_file`)."""
    kind = sniff(p).kind
    if kind == "pdf" and max_pages:
        check_page_limit(p, pages if pages is not None else pdf_page_count(p, password), max_pages)
    elif kind == "text":
        check_text_size(p, p.stat().st_size, max_text_mb)


def parse_file(
    path: str | Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300,
    max_pages: int | None = None, max_text_mb: float | None = None, pdf_engine: PdfEngine = "auto",
) -> Document:
    """:func:`~clauselens.parsing.load_document` with the input limits checked first.

    A PDF with more than ``max_pages`` pages or a text file over ``max_text_mb`` MB (``None`` or
    0: no limit) is refused before any of it is parsed (the page count comes from the PDF's page
    tree, the size from the file system); a Word file whose text is over ``max_text_mb`` MB is
    refused once its text is extracted (before anything is stored or indexed).

    Raises:
        IngestError: a limit, or any error of ``load_document``.
    """
    p = Path(path)
    if p.is_file():
        check_limits(p, password=password, max_pages=max_pages, max_text_mb=max_text_mb)
    doc = load_document(p, password=password, ocr=ocr, ocr_dpi=ocr_dpi, pdf_engine=pdf_engine)
    if not doc.pages:
        check_text_size(p, len(doc.text.encode("utf-8")), max_text_mb, what="text")
    return doc


class DocumentStore:
    """A directory of parsed documents keyed by content hash and parse options.

    Args:
        root: directory (created on first write); the Archivist uses
            ``Settings().store_dir / "documents"`` (``~/.cache/clauselens/store/documents``).

    Attributes:
        hits: documents served from the store by :meth:`load` (this instance).
        misses: documents parsed by :meth:`load` (including those not stored: passwords).
        writes: documents written by :meth:`put`.
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
        self.writes = 0

    @staticmethod
    def options(ocr: bool, ocr_dpi: int, pdf_engine: PdfEngine = "auto") -> dict[str, object]:
        """The parse options that change a document (the dpi only matters with OCR on; the PDF
        engine as resolved, so ``auto`` and the engine it stands for share entries)."""
        return {"ocr": bool(ocr), "ocr_dpi": int(ocr_dpi) if ocr else None,
                "pdf_engine": resolve_pdf_engine(pdf_engine)}

    def key(self, sha256: str, *, ocr: bool = True, ocr_dpi: int = 300, pdf_engine: PdfEngine = "auto") -> str:
        """``<file sha256>-<16 hex of schema, parser fingerprint and options>``."""
        opts = json.dumps({"schema": SCHEMA_VERSION, "parser": parser_fingerprint(),
                           **self.options(ocr, ocr_dpi, pdf_engine)}, sort_keys=True)
        return f"{sha256}-{hashlib.sha256(opts.encode()).hexdigest()[:16]}"

    def path_for(self, key: str) -> Path:
        """The JSON file of one key."""
        return self.root / f"{key}.json"

    def get(self, key: str) -> Document | None:
        """The stored document for ``key``, or ``None`` when absent, unreadable, corrupt, or
        written by another schema version or parser (never raises for a bad entry)."""
        p = self.path_for(key)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
            return None
        if data.get("parser") != parser_fingerprint() or not isinstance(data.get("document"), dict):
            return None
        try:
            doc = Document.model_validate(data["document"])
        except ValidationError:
            return None
        return doc if doc.schema_version == SCHEMA_VERSION else None

    def put(self, key: str, doc: Document, *, options: dict[str, object] | None = None) -> Path:
        """Write ``doc`` under ``key`` atomically (temp file + fsync + ``os.replace``); returns
        its path. On any error the temp file is removed and nothing is left behind."""
        self.root.mkdir(parents=True, exist_ok=True)
        self._remove_stale_temps()
        target = self.path_for(key)
        head = json.dumps({"store_format": STORE_FORMAT, "schema_version": SCHEMA_VERSION,
                           "parser": parser_fingerprint(), "options": options or {}, "file_sha256": doc.sha256})
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=self.root)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(head[:-1] + ', "document": ' + doc.model_dump_json() + "}")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.writes += 1
        return target

    def _remove_stale_temps(self) -> None:
        now = time.time()
        for t in self.root.glob(".tmp-*.json"):
            # best effort: a temp file another process is writing or just removed is left alone
            with contextlib.suppress(OSError):
                if now - t.stat().st_mtime > STALE_TMP_S:
                    t.unlink()

    def load_status(
        self, path: str | Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300,
        max_pages: int | None = None, max_text_mb: float | None = None, pdf_engine: PdfEngine = "auto",
    ) -> tuple[Document, bool]:
        """Parse ``path`` or return the stored parse of identical bytes and options.

        Returns:
            (document, ``True`` when it came from the store). A stored document gets
            ``source_path``, ``id`` and the extension warning of ``path`` (the same bytes may
            have moved or been renamed), so it equals a fresh parse of ``path``.

        Raises:
            IngestError: the same errors as :func:`parse_file` (limits included, also for a
            stored document). Nothing is written when parsing fails.
        """
        p = Path(path)
        if not p.is_file() or (password and _is_pdf(p)):
            self.misses += 1
            return parse_file(p, password=password, ocr=ocr, ocr_dpi=ocr_dpi, max_pages=max_pages,
                              max_text_mb=max_text_mb, pdf_engine=pdf_engine), False
        sha = file_sha256(p)
        key = self.key(sha, ocr=ocr, ocr_dpi=ocr_dpi, pdf_engine=pdf_engine)
        doc = self.get(key)
        named = extension_warning(p, sniff(p))
        if doc is not None:
            check_limits(p, password=password, max_pages=max_pages, max_text_mb=max_text_mb,
                         pages=len(doc.pages) if doc.pages else None)
            if not doc.pages:
                check_text_size(p, len(doc.text.encode("utf-8")), max_text_mb)
            doc.source_path = str(p)
            doc.id = doc_id_for(p, sha)
            if named:
                doc.warnings.insert(0, named)
            self.hits += 1
            return doc, True
        self.misses += 1
        doc = parse_file(p, password=password, ocr=ocr, ocr_dpi=ocr_dpi, max_pages=max_pages, max_text_mb=max_text_mb,
                         pdf_engine=pdf_engine)
        if doc.sha256 == sha:  # the file did not change while it was parsed
            stored = doc.model_copy(update={"warnings": [w for w in doc.warnings if w != named]})
            self.put(key, stored, options=self.options(ocr, ocr_dpi, pdf_engine))
        return doc, False

    def load(
        self, path: str | Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300,
        max_pages: int | None = None, max_text_mb: float | None = None, pdf_engine: PdfEngine = "auto",
    ) -> Document:
        """:meth:`load_status` without the flag."""
        return self.load_status(path, password=password, ocr=ocr, ocr_dpi=ocr_dpi, max_pages=max_pages,
                                max_text_mb=max_text_mb, pdf_engine=pdf_engine)[0]


def load_documents(
    paths: Iterable[str | Path], *, store: DocumentStore | None = None,
    password: str | None = None, ocr: bool = True, ocr_dpi: int = 300, max_pages: int | None = None,
    max_text_mb: float | None = None, pdf_engine: PdfEngine = "auto",
) -> tuple[list[Document], list[IngestError]]:
    """Parse many files, continuing past bad ones.

    Returns:
        (documents parsed, in input order; one :class:`IngestError` per file that failed).
        Errors other than ``IngestError`` (bugs) are not swallowed.
    """
    docs: list[Document] = []
    errors: list[IngestError] = []
    for path in paths:
        try:
            if store is not None:
                docs.append(store.load(path, password=password, ocr=ocr, ocr_dpi=ocr_dpi, max_pages=max_pages,
                                       max_text_mb=max_text_mb, pdf_engine=pdf_engine))
            else:
                docs.append(parse_file(path, password=password, ocr=ocr, ocr_dpi=ocr_dpi, max_pages=max_pages,
                                       max_text_mb=max_text_mb, pdf_engine=pdf_engine))
        except IngestError as exc:
            errors.append(exc)
    return docs, errors
