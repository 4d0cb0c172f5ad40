"""Persistence of parsed documents and batch ingest.

:class:`DocumentStore` keeps one JSON file per (file sha256, parse options) under its root,
written atomically (temp file in the same directory + ``os.replace``, POSIX rename is atomic),
so an unchanged file is never re-parsed and nothing half-written is ever read back. A
stored document with another ``schema_version`` is ignored and re-parsed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Iterable

from pydantic import ValidationError

from clauselens.errors import IngestError
from clauselens.parsing.loader import file_sha256, load_document
from clauselens.parsing.types import SCHEMA_VERSION, Document


class DocumentStore:
    """A directory of parsed documents keyed by content hash.

    Args:
        root: directory (created on first write), e.g. ``Settings().store_dir / "documents"``.
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def _key(self, sha256: str, password: str | None, ocr: bool, ocr_dpi: int) -> str:
        opts = hashlib.sha256(f"v{SCHEMA_VERSION}|ocr={ocr}|dpi={ocr_dpi}|pw={bool(password)}".encode()).hexdigest()[:8]
        return f"{sha256}-{opts}"

    def path_for(self, key: str) -> Path:
        """The JSON file of one key."""
        return self.root / f"{key}.json"

    def get(self, key: str) -> Document | None:
        """The stored document for ``key``, or ``None`` (absent, unreadable or older schema)."""
        p = self.path_for(key)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("schema_version") != SCHEMA_VERSION:
            return None
        try:
            return Document.model_validate(data)
        except ValidationError:
            return None

    def put(self, key: str, doc: Document) -> Path:
        """Write ``doc`` atomically; returns its path."""
        self.root.mkdir(parents=True, exist_ok=True)
        target = self.path_for(key)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=self.root)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(doc.model_dump_json())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    def load(self, path: str | Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300) -> Document:
        """Parse ``path`` or return the stored parse of identical bytes and options.

        The stored document's ``source_path`` is updated to ``path`` (same bytes may move).
        Raises the same errors as :func:`~clauselens.parsing.load_document`.
        """
        p = Path(path)
        if not p.is_file():
            return load_document(p, password=password, ocr=ocr, ocr_dpi=ocr_dpi)  # raises the right error
        key = self._key(file_sha256(p), password, ocr, ocr_dpi)
        doc = self.get(key)
        if doc is not None:
            doc.source_path = str(p)
            return doc
        doc = load_document(p, password=password, ocr=ocr, ocr_dpi=ocr_dpi)
        self.put(key, doc)
        return doc


def load_documents(
    paths: Iterable[str | Path], *, store: DocumentStore | None = None,
    password: str | None = None, ocr: bool = True, ocr_dpi: int = 300,
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
                docs.append(store.load(path, password=password, ocr=ocr, ocr_dpi=ocr_dpi))
            else:
                docs.append(load_document(path, password=password, ocr=ocr, ocr_dpi=ocr_dpi))
        except IngestError as exc:
            errors.append(exc)
    return docs, errors
