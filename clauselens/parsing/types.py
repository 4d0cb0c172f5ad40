"""The Archivist's data model: a parsed :class:`Document`, its clause tree of
:class:`Node` s, and the :class:`Chunk` s built from it for retrieval.

Offsets are Python ``str`` code-point indices, half-open ``[start, end)``, into
``Document.text`` (the normalised extracted text). For plain-text inputs that are not
changed by normalisation, ``Document.text`` equals the decoded file (BOM kept), so spans
are also offsets into the original file, as LegalBench-RAG scores them.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 1

NodeKind = Literal[
    "root", "preamble", "recital", "article", "section", "clause", "subclause",
    "schedule", "exhibit", "annex", "heading", "definition", "signature", "paragraph",
]
ChunkKind = Literal["node", "ancestor", "descendant", "window"]
DocType = Literal["agreement", "amendment", "side_letter", "schedule", "other"]


class Span(BaseModel):
    """Half-open ``[start, end)`` character range into ``Document.text``."""

    start: int
    end: int

    def __len__(self) -> int:  # pragma: no cover - trivial
        return self.end - self.start


class Page(BaseModel):
    """One page of the source. ``number`` is 1-based; ``[start, end)`` is its text range.

    ``method`` says how its text was obtained (``text`` layer, ``ocr``, or ``plain`` for
    non-paginated formats); ``ocr_confidence`` is Tesseract's mean word confidence (0-100).
    ``furniture`` keeps running headers/footers removed from the body.
    """

    number: int
    start: int
    end: int
    method: Literal["text", "ocr", "plain"] = "plain"
    ocr_confidence: float | None = None
    furniture: list[str] = Field(default_factory=list)


class Node(BaseModel):
    """A node of the clause tree.

    ``ref`` is the normalised clause reference (``"14.3(b)"``, ``"Article V"``,
    ``"Schedule 2"``) or ``None`` for unnumbered nodes. ``span`` covers the node with all
    its descendants; ``body_span`` covers its own text up to its first child (heading
    included). ``path`` lists the ancestors' labels from the root down (excluding root).
    """

    id: str
    kind: NodeKind
    ref: str | None = None
    heading: str | None = None
    level: int = 0
    parent_id: str | None = None
    children: list[str] = Field(default_factory=list)
    path: list[str] = Field(default_factory=list)
    span: Span
    body_span: Span
    page_start: int | None = None
    page_end: int | None = None
    is_definition: bool = False
    defined_terms: list[str] = Field(default_factory=list)
    cross_referenced_ids: list[str] = Field(default_factory=list)

    @property
    def label(self) -> str:
        """Human label: ``"14.3(b) Indemnity"``, or the heading, or the id."""
        parts = [p for p in (self.ref, self.heading) if p]
        return " ".join(parts) if parts else self.id

    @property
    def path_label(self) -> str:
        """The node's entry in a heading path: :attr:`label`, or its kind (``"Recital"``) when it
        has neither number nor heading -- never the internal id (a citation read "n1")."""
        return self.label if (self.ref or self.heading) else self.kind.capitalize()


class DefinedTerm(BaseModel):
    """A defined term, the node that defines it and where it is used."""

    term: str
    node_id: str
    span: Span
    used_in: list[str] = Field(default_factory=list)


class CrossReference(BaseModel):
    """A reference in the text (``"Section 5.17"``) and the node it resolves to, if any.

    ``external`` marks a reference into another instrument (``"Section 402 of the
    Sarbanes-Oxley Act"``, or ``"Section 6.5 of the Agreement"`` inside an amendment); those
    are never resolved to this document's nodes.
    """

    text: str
    span: Span
    from_node_id: str
    target_ref: str
    target_node_id: str | None = None
    external: bool = False


class Document(BaseModel):
    """A parsed document. ``nodes[0]`` is the root; ``nodes`` is in document order."""

    schema_version: int = SCHEMA_VERSION
    id: str
    source_path: str
    sha256: str
    title: str | None = None
    parties: list[str] = Field(default_factory=list)
    #: Each party's defined short names (``{"GARRETT MOTION INC.": ["SpinCo"]}``): the names its
    #: defining parenthesis gives it in the preamble, :func:`~clauselens.parsing.parties.guess_party_aliases`.
    party_aliases: dict[str, list[str]] = Field(default_factory=dict)
    effective_date: str | None = None
    doc_type: DocType = "agreement"
    amends: list[str] = Field(default_factory=list)
    text: str
    pages: list[Page] = Field(default_factory=list)
    nodes: list[Node] = Field(default_factory=list)
    defined_terms: dict[str, DefinedTerm] = Field(default_factory=dict)
    cross_references: list[CrossReference] = Field(default_factory=list)
    structured: bool = True
    warnings: list[str] = Field(default_factory=list)

    def node(self, node_id: str) -> Node:
        """The node with ``node_id``; raises ``KeyError`` if absent."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def page_of(self, offset: int) -> int | None:
        """1-based page number holding character ``offset``, or ``None`` if unpaginated."""
        for p in self.pages:
            if p.start <= offset < p.end:
                return p.number
        return self.pages[-1].number if self.pages and offset >= self.pages[-1].end else None


class DocumentSummary(BaseModel):
    """A parsed document in brief, without its text: the one summary of a document that the
    agents' run state and transcript (``documents``), a chat session's state, the chat
    Archivist's view of the session's documents and ``clauselens ingest`` all use. Built by
    :meth:`of`; kept in states and transcripts as its JSON dump.

    ``pages`` counts the pages of a paged source (PDF, scanned image) and is ``None`` for plain
    text, which has none; ``ocr_pages`` how many of them were read by OCR. ``party_aliases``: each
    party's defined short names (:attr:`Document.party_aliases`; empty in a summary written before
    they were read), for the report's party check."""

    doc_id: str
    title: str | None = None
    file_name: str = ""
    source_path: str = ""
    sha256: str = ""
    doc_type: DocType = "agreement"
    parties: list[str] = Field(default_factory=list)
    party_aliases: dict[str, list[str]] = Field(default_factory=dict)
    effective_date: str | None = None
    amends: list[str] = Field(default_factory=list)
    chars: int = 0
    pages: int | None = None
    ocr_pages: int = 0
    nodes: int = 0
    numbered_clauses: int = 0
    first_clauses: list[str] = Field(default_factory=list)
    defined_terms: int = 0
    structured: bool = True
    warnings: list[str] = Field(default_factory=list)

    @property
    def name(self) -> str:
        """The title if known, else the file name."""
        return self.title or self.file_name

    @classmethod
    def of(cls, doc: Document) -> DocumentSummary:
        """The summary of ``doc`` (its first 12 numbered clauses listed)."""
        refs = [n.ref for n in doc.nodes if n.ref]
        return cls(
            doc_id=doc.id, title=doc.title, file_name=PurePath(doc.source_path).name, source_path=doc.source_path,
            sha256=doc.sha256, doc_type=doc.doc_type, parties=list(doc.parties),
            party_aliases={k: list(v) for k, v in doc.party_aliases.items()}, effective_date=doc.effective_date,
            amends=list(doc.amends), chars=len(doc.text), pages=sum(1 for p in doc.pages if p.method != "plain") or None,
            ocr_pages=sum(1 for p in doc.pages if p.method == "ocr"), nodes=len(doc.nodes), numbered_clauses=len(refs),
            first_clauses=refs[:12], defined_terms=len(doc.defined_terms), structured=doc.structured,
            warnings=list(doc.warnings),
        )


class SourcedText(BaseModel):
    """Text with its provenance: the document, the tree node, the exact ``[start, end)``
    character spans of ``doc.text`` it was cut from, the clause reference and heading path,
    pages (1-based) and the file. Shared by :class:`Chunk` (what the Archivist emits) and
    the Researcher's ``Passage`` (what retrieval returns), so a citation always maps back."""

    doc_id: str
    node_id: str
    text: str
    spans: list[Span]
    clause_ref: str | None = None
    heading_path: list[str] = Field(default_factory=list)
    page_start: int | None = None
    page_end: int | None = None
    doc_title: str | None = None
    source_path: str | None = None


class Chunk(SourcedText):
    """A retrievable unit built from the tree.

    Invariant: ``text == "\\n".join(doc.text[s.start:s.end] for s in spans)``. A ``node``
    chunk is one node's body; an ``ancestor`` chunk prefixes the ancestors' heading spans;
    a ``descendant`` chunk is the node with its children; ``window`` chunks come from the
    size-bounded fallback for unstructured text.
    """

    id: str
    kind: ChunkKind
