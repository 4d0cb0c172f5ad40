"""The Archivist's parsing: files → :class:`Document` (clause tree, terms, cross-references)
→ :class:`Chunk` s for retrieval.

Public API::

    load_document(path, *, password=None, ocr=True, ocr_dpi=300, pdf_engine="auto") -> Document
    load_text_document(text, *, doc_id, source_path="<memory>") -> Document
    load_documents(paths, *, store=None, ...) -> (list[Document], list[IngestError])
    build_chunks(doc) -> list[Chunk]
    DocumentStore(root).load(path, ...) -> Document   # cached by file sha256
"""

from clauselens.parsing.chunks import build_chunks
from clauselens.parsing.loader import load_document, load_text_document
from clauselens.parsing.store import DocumentStore, load_documents
from clauselens.parsing.types import Chunk, CrossReference, DefinedTerm, Document, Node, Page, Span

__all__ = [
    "Chunk", "CrossReference", "DefinedTerm", "Document", "DocumentStore", "Node", "Page", "Span",
    "build_chunks", "load_document", "load_documents", "load_text_document",
]
