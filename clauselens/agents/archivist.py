"""The Archivist: reads the user's files into :class:`~clauselens.parsing.types.Document` s
and indexes them in the Researcher's tools. It does not call a model (parsing is
deterministic), so it has no prompts module.

Errors are the parser's own :class:`~clauselens.errors.IngestError` s (missing, empty,
encrypted, image-only without OCR, ...), raised unchanged so the CLI prints their message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from clauselens.config import Settings
from clauselens.errors import IngestError, NoTextError
from clauselens.parsing.store import DocumentStore, parse_file
from clauselens.parsing.types import Document
from clauselens.retrieval.types import RetrievalMethod


def load_one(path: str | Path, settings: Settings, *, store: DocumentStore | None = None) -> Document:
    """Parse one file, re-using a stored parse when the file's bytes and parse options are
    unchanged.

    With ``settings.use_store`` (default) the parse goes through ``store`` or, when none is
    given, a :class:`~clauselens.parsing.DocumentStore` at ``settings.store_dir / "documents"``
    (pass one ``store`` to count ``store.hits`` across files). Password and OCR options come
    from ``settings``; a PDF with more than ``settings.max_pages`` pages is refused before
    parsing. Raises :class:`IngestError` (``"file not found"`` for a missing path, ``"not a
    file"`` for a directory, the page limit) or the parser's own ingest errors; a failed parse
    writes nothing to the store."""
    p = Path(path)
    if not p.exists():
        raise IngestError(str(path), "file not found")
    if not p.is_file():
        raise IngestError(str(path), "not a file")
    pw, ocr, dpi, limit = settings.pdf_password, settings.ocr, settings.ocr_dpi, settings.max_pages
    if settings.use_store:
        store = store if store is not None else DocumentStore(settings.store_dir / "documents")
        doc = store.load(p, password=pw, ocr=ocr, ocr_dpi=dpi, max_pages=limit)
    else:
        doc = parse_file(p, password=pw, ocr=ocr, ocr_dpi=dpi, max_pages=limit)
    if not doc.text.strip():  # the parser should already refuse this; never index an empty document
        raise NoTextError(p.name, f"no text found in {p.name}")
    return doc


def ingest(paths: Sequence[str | Path], settings: Settings) -> list[Document]:
    """Parse every path, in order, through one store (see :func:`load_one`). Raises
    :class:`IngestError` on the first bad file (and :class:`IngestError` ``"no files given"``
    for an empty list)."""
    if not paths:
        raise IngestError("(none)", "no files given")
    store = DocumentStore(settings.store_dir / "documents") if settings.use_store else None
    return [load_one(p, settings, store=store) for p in paths]


def document_summary(doc: Document) -> dict[str, Any]:
    """A small JSON-ready summary of a parsed document, for progress, transcript and ``ingest``."""
    refs = [n.ref for n in doc.nodes if n.ref]
    return {
        "doc_id": doc.id, "title": doc.title, "source_path": doc.source_path, "chars": len(doc.text),
        "pages": len(doc.pages), "nodes": len(doc.nodes), "numbered_clauses": len(refs),
        "first_clauses": refs[:12], "defined_terms": len(doc.defined_terms), "structured": doc.structured,
        "ocr_pages": sum(1 for p in doc.pages if p.method == "ocr"), "warnings": list(doc.warnings),
    }


def index_tools(tools: Mapping[str, RetrievalMethod], documents: Sequence[Document]) -> None:
    """Index ``documents`` in every tool (each tool's ``index`` replaces its previous index)."""
    for tool in tools.values():
        tool.index(documents)
