"""Loading files into :class:`~clauselens.parsing.types.Document` (the Archivist's entry point).

Dispatch by content (:mod:`sniff`: file signatures), never by extension, so the same bytes
give the same result under any name: PDF → :mod:`pdf`; Word package → :mod:`docx_loader`;
scanned image → OCR (:func:`ocr.extract_image`); no binary signature → :mod:`textfile`.
Empty files, damaged packages and formats clauselens does not read (``.xlsx``, legacy
``.doc``, archives) are refused with a message that says what the file is. A name that
promises another format (a PDF saved as ``.txt``) adds a warning. Then: clause tree, page
ranges, defined terms, cross-references, metadata, and extraction warnings.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from clauselens.errors import FOLDER_NOT_FILE, IngestError, NoTextError
from clauselens.parsing.docx_loader import extract_docx
from clauselens.parsing.injection import flag_instructions
from clauselens.parsing.layout import long_tokens
from clauselens.parsing.metadata import guess_amends, guess_doc_type, guess_effective_date, guess_title
from clauselens.parsing.ocr import extract_image
from clauselens.parsing.parties import guess_parties, guess_party_aliases, opening
from clauselens.parsing.pdf import PdfEngine, extract_pdf
from clauselens.parsing.policy import refuse_unreadable
from clauselens.parsing.sniff import Sniffed, extension_warning, sniff_file
from clauselens.parsing.terms import find_cross_references, find_defined_terms
from clauselens.parsing.textfile import decode_text_bytes
from clauselens.parsing.tree import build_tree
from clauselens.parsing.types import Document, Page

TEXT_SUFFIXES = {".txt", ".md", ".text", ".markdown"}
PAGE_SEP = "\n\n"


def page_separator(before: str, after: str) -> str:
    """What joins two pages' texts: a space when a sentence runs across the break (previous
    page ends without ``.:;!?`` and the next starts in lower case), else :data:`PAGE_SEP`."""
    b, a = before.rstrip(), after.lstrip()
    if b and a and not re.search(r"[.:;!?\"”)]$", b) and a[:1].islower():
        return " "
    return PAGE_SEP


def doc_id_for(path: Path, sha: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "-", path.stem).strip("-")[:60] or "doc"
    return f"{stem}-{sha[:8]}"


def _assemble(doc: Document) -> Document:
    """Tree, pages of nodes, terms, cross-references, metadata, warnings (mutates ``doc``)."""
    nodes, structured = build_tree(doc.text)
    doc.nodes = nodes
    doc.structured = structured
    if doc.pages:
        for n in nodes:
            n.page_start = doc.page_of(n.span.start)
            n.page_end = doc.page_of(max(n.span.end - 1, n.span.start))
    head = doc.text[:5000]
    doc.title = guess_title(doc.text)
    doc.doc_type = guess_doc_type(doc.title, head)  # type: ignore[assignment]
    doc.defined_terms = find_defined_terms(doc)
    doc.cross_references = find_cross_references(doc)
    doc.parties = guess_parties(head)
    after_contents = opening(doc.text)  # a table of contents first: the preamble after it
    if after_contents != head and len(doc.parties) < 2:
        doc.parties = max(doc.parties, guess_parties(after_contents), key=len)
    doc.party_aliases = guess_party_aliases(doc.text, doc.parties)
    doc.effective_date = guess_effective_date(head) or (guess_effective_date(after_contents) if after_contents != head else None)
    doc.amends = guess_amends(doc)
    longs = long_tokens(doc.text)
    if longs:
        sample = ", ".join(repr(t[:40]) for t in longs[:3])
        doc.warnings.append(
            f"{len(longs)} implausibly long token(s) (e.g. {sample}): text extraction may have lost word spaces"
        )
    if not structured:
        doc.warnings.append("no clause numbering found: split into paragraph-sized nodes instead")
    doc.warnings.extend(flag_instructions(doc))
    return doc


def load_text_document(text: str, *, doc_id: str, source_path: str = "<memory>") -> Document:
    """A :class:`Document` over ``text`` exactly as given (no normalisation), so spans are
    offsets into ``text`` (LegalBench-RAG scores spans into the decoded file, BOM included).

    Raises:
        NoTextError: ``text`` is empty or whitespace only.
    """
    if not text.strip():
        raise NoTextError(Path(source_path).name, "no text found")
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    doc = Document(id=doc_id, source_path=source_path, sha256=sha, text=text)
    return _assemble(doc)


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sniff(path: Path) -> Sniffed:
    """:func:`~clauselens.parsing.sniff.sniff_file`, with an unreadable file as an :class:`IngestError`."""
    try:
        return sniff_file(path)
    except OSError as exc:
        raise IngestError(str(path), f"cannot read file ({exc.strerror or exc})") from None


def load_document(path: str | Path, *, password: str | None = None, ocr: bool = True, ocr_dpi: int = 300,
                  pdf_engine: PdfEngine = "auto") -> Document:
    """Parse one file into a :class:`Document`.

    Args:
        path: a PDF, Word ``.docx``, text/Markdown file or scanned image, recognised by content.
        password: user password for an encrypted PDF.
        ocr: OCR PDF pages that have no text layer (Tesseract).
        ocr_dpi: render resolution for OCR (>= 300 keeps digits and clause numbers exact).
        pdf_engine: what reads a PDF's text layer (``auto``, ``pdfium``, ``pdfplumber``;
            :mod:`clauselens.parsing.pdf`).

    Raises (all :class:`~clauselens.errors.IngestError`, message naming the file):
        IngestError: missing / not a file / unreadable / corrupt / truncated / binary / a
            format clauselens does not read (the message says which, e.g. "an Excel workbook").
        NoTextError: empty, 0 bytes or whitespace only ("<name>: no text found"), image-only
            PDF or image file with ``ocr=False``.
        EncryptedDocumentError: user password required or wrong.
    """
    p = Path(path)
    name = p.name
    if not p.exists():
        raise IngestError(str(p), "file not found")
    if not p.is_file():
        raise IngestError(str(p), FOLDER_NOT_FILE if p.is_dir() else "not a file")
    kind = sniff(p)
    refuse_unreadable(p, kind)  # the one input policy of every front end (parsing/policy.py)
    sha = file_sha256(p)
    pages: list[Page] = []
    warnings: list[str] = []
    if kind.kind in ("pdf", "image"):
        if kind.kind == "pdf":
            page_texts, warnings = extract_pdf(p, password=password, ocr=ocr, ocr_dpi=ocr_dpi, engine=pdf_engine)
        else:
            page_texts, warnings = extract_image(p, what=kind.what, ocr=ocr, ocr_dpi=ocr_dpi)
        parts: list[str] = []
        pos = 0
        for pt in page_texts:
            if parts:
                sep = page_separator(parts[-1], pt.text)
                parts.append(sep)
                pos += len(sep)
            pages.append(Page(number=pt.number, start=pos, end=pos + len(pt.text), method=pt.method,  # type: ignore[arg-type]
                              ocr_confidence=pt.ocr_confidence, furniture=pt.furniture))
            parts.append(pt.text)
            pos += len(pt.text)
        text = "".join(parts)
        # page ranges tile the text: a separator belongs to the page before it
        for a, b in zip(pages, pages[1:]):
            a.end = b.start
        if pages:
            pages[-1].end = len(text)
    elif kind.kind == "docx":
        text = extract_docx(p)
    else:
        text = decode_text_bytes(p.read_bytes(), name)
    if not text.strip():
        raise NoTextError(name, "no text found")
    named = extension_warning(p, kind)
    if named:
        warnings = [named, *warnings]
    doc = Document(id=doc_id_for(p, sha), source_path=str(p), sha256=sha, text=text, pages=pages, warnings=warnings)
    return _assemble(doc)
