"""What a review reads: one agreement's verbatim passages, from a file or from a library (issue #44).

A file is parsed as every command parses it (:func:`clauselens.parsing.store.parse_file`, through
the document store when ``settings.use_store``), and cut into the library's passages
(:func:`clauselens.library.passages.library_passages`: one span of ``Document.text`` each, with
clause reference and page), so a file and a library agreement are reviewed alike and every quote
maps back to the document. A library agreement's passages come from the library
(:func:`clauselens.library.library.chunks_of`); ``--agreement`` picks agreements by doc id, file
name, title or a word of their label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from clauselens.config import Settings
from clauselens.errors import ConfigError, IngestError, NoTextError


@dataclass
class AgreementInput:
    """One agreement to review: its passages, label, file, and (for a parsed file) the document."""

    label: str
    source_path: str
    doc_id: str
    passages: list[Any]
    document: Any = None  # a parsed Document (file input); None for a library agreement
    paragraphs: list[str] = field(default_factory=list)
    #: The agreement's parties, each with its defined terms ({"Driven Deliveries, Inc.": ["Company"]}).
    parties: dict[str, list[str]] = field(default_factory=dict)


def load_file(path: str | Path, settings: Settings | None = None) -> AgreementInput:
    """Parse one contract file into an :class:`AgreementInput` (errors: :class:`IngestError`)."""
    from clauselens.parsing import DocumentStore
    from clauselens.parsing.store import parse_file

    settings = settings or Settings()
    p = Path(path).expanduser()
    if not p.exists():
        raise IngestError(str(path), "file not found")
    if not p.is_file():
        raise IngestError(str(path), "not a file")
    kw: dict[str, Any] = {"password": settings.pdf_password, "ocr": settings.ocr, "ocr_dpi": settings.ocr_dpi,
                          "max_pages": settings.max_pages, "max_text_mb": settings.max_text_mb, "pdf_engine": settings.pdf_engine}
    if settings.use_store:
        doc = DocumentStore(settings.store_dir / "documents").load(p, **kw)
    else:
        doc = parse_file(p, **kw)
    return from_document(doc)


def from_document(doc: Any) -> AgreementInput:
    """A parsed :class:`~clauselens.parsing.types.Document` as an :class:`AgreementInput`."""
    from clauselens.library.passages import library_passages

    name = Path(doc.source_path).name if doc.source_path else doc.id
    if not doc.text.strip():
        raise NoTextError(name, "no text found")
    passages = library_passages(doc)
    if not passages:
        raise NoTextError(name, f"no clauses found in {name}")
    return AgreementInput(label=doc.title or name, source_path=doc.source_path or "", doc_id=doc.id, passages=passages, document=doc,
                          parties=_party_table(doc.parties, doc.party_aliases))


def _party_table(parties: Sequence[str], aliases: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: list(aliases.get(p, [])) for p in parties} | {p: list(a) for p, a in aliases.items()}


def _matches(record: Any, key: str) -> bool:
    k = key.strip().lower()
    names = [record.doc_id, record.path, Path(record.path).name, Path(record.path).stem, record.title or "", record.label]
    return any(k == n.lower() for n in names) or k in record.label.lower() or k in Path(record.path).name.lower()


def from_library(library: Any, agreements: Sequence[str] = ()) -> list[AgreementInput]:
    """The library's agreements (all, or those ``agreements`` name) as :class:`AgreementInput`."""
    from clauselens.library.library import chunks_of

    records = library.agreements()
    if not records:
        raise ConfigError("the library is empty (add agreements with: clauselens library add FILES --library NAME)")
    if agreements:
        chosen = []
        for key in agreements:
            hit = [r for r in records if _matches(r, key)]
            if not hit:
                raise ConfigError(f"--agreement {key!r} matches no agreement of the library "
                                  f"(e.g. {', '.join(r.label for r in records[:3])})")
            chosen += [r for r in hit if r not in chosen]
        records = chosen
    return [AgreementInput(label=r.label, source_path=r.path, doc_id=r.doc_id, passages=chunks_of(library, r.doc_id),
                           parties=_party_table(r.parties, r.party_aliases)) for r in records]


__all__ = ["AgreementInput", "from_document", "from_library", "load_file"]
