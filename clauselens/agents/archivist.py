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
from clauselens.parsing.types import Document
from clauselens.retrieval.types import RetrievalMethod


def load_one(path: str | Path, settings: Settings) -> Document:
    """Parse one file with ``clauselens.parsing.load_document`` (password and OCR options
    from ``settings``). Raises :class:`IngestError` (``"file not found"`` for a missing path,
    ``"not a file"`` for a directory) or the parser's own ingest errors."""
    from clauselens.parsing import load_document

    p = Path(path)
    if not p.exists():
        raise IngestError(str(path), "file not found")
    if not p.is_file():
        raise IngestError(str(path), "not a file")
    doc = load_document(p, password=settings.pdf_password, ocr=settings.ocr, ocr_dpi=settings.ocr_dpi)
    if not doc.text.strip():  # the parser should already refuse this; never index an empty document
        raise NoTextError(p.name, f"no text found in {p.name}")
    return doc


def ingest(paths: Sequence[str | Path], settings: Settings) -> list[Document]:
    """Parse every path, in order. Raises :class:`IngestError` on the first bad file (and
    :class:`IngestError` ``"no files given"`` for an empty list)."""
    if not paths:
        raise IngestError("(none)", "no files given")
    return [load_one(p, settings) for p in paths]


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
