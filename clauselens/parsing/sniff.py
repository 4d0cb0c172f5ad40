"""What a file really is, from its first bytes ("magic numbers"), independent of its name.

The loader dispatches on :func:`sniff_file`, never on the extension, so the same bytes give
the same result under any name (and whether or not the document store has seen them); the
extension only decides whether a warning says the name is misleading
(:func:`extension_warning`).

Signatures (first bytes unless noted):

* PDF: ``%PDF-`` within the first 1,024 bytes (ISO 32000-1 §7.5.2 puts the header first;
  Adobe's PDF Reference, implementation note 13, lets readers find it in the first 1,024 bytes).
* ZIP local-file header ``PK\\x03\\x04`` (PKWARE APPNOTE §4.3.7). The package's part names tell
  OOXML kinds apart (ECMA-376 Part 2: ``word/document.xml``, ``xl/workbook.xml``,
  ``ppt/presentation.xml``); OpenDocument stores its ``mimetype`` entry first (ODF 1.2 Part 3
  §3.3). A ZIP whose central directory cannot be read is truncated or damaged.
* OLE2 compound file ``D0 CF 11 E0 A1 B1 1A E1`` ([MS-CFB] §2.2): legacy ``.doc``/``.xls``/``.ppt``.
* Images: PNG ``\\x89PNG\\r\\n\\x1a\\n`` (PNG spec §5.2), JPEG ``FF D8 FF`` (ITU T.81 SOI marker),
  GIF ``GIF87a``/``GIF89a``, TIFF ``II*\\0``/``MM\\0*`` (TIFF 6.0 §2), BMP ``BM`` with zero
  reserved bytes 6-9, WebP ``RIFF....WEBP``.
* Others named in messages: RTF ``{\\rtf``, gzip ``1F 8B`` (RFC 1952), 7-Zip, RAR, ELF, Windows
  executables (``MZ`` followed by NUL bytes in the DOS header; a text starting "MZ" stays text).

Anything else is a text candidate: :func:`clauselens.parsing.textfile.decode_text_bytes`
decides (binary data is refused there).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

#: Bytes read to sniff a file.
HEAD_BYTES = 1024

#: (signature, kind, what it is) for single-signature binary formats, checked in order.
_SIGNATURES: tuple[tuple[bytes, str, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image", "a PNG image"),
    (b"\xff\xd8\xff", "image", "a JPEG image"),
    (b"GIF87a", "image", "a GIF image"),
    (b"GIF89a", "image", "a GIF image"),
    (b"II*\x00", "image", "a TIFF image"),
    (b"MM\x00*", "image", "a TIFF image"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "other", "a legacy Microsoft Office file (.doc/.xls/.ppt, OLE2)"),
    (b"{\\rtf", "other", "an RTF document"),
    (b"\x1f\x8b", "other", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "other", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "other", "a RAR archive"),
    (b"\x7fELF", "other", "an ELF executable"),
)

#: What to tell the user to do with a file clauselens does not read.
_ADVICE = {
    "a legacy Microsoft Office file (.doc/.xls/.ppt, OLE2)": "save it as .docx or PDF",
    "an RTF document": "save it as .docx, PDF or plain text",
    "an Excel workbook (.xlsx)": "export the sheet as PDF or text",
    "a PowerPoint presentation (.pptx)": "export it as PDF",
    "an OpenDocument file": "save it as .docx or PDF",
}

#: The extensions each kind is normally saved under (no warning for these).
NATURAL_SUFFIXES = {
    "pdf": {".pdf"},
    "docx": {".docx", ".docm", ".dotx", ".dotm"},
    "image": {".png", ".jpg", ".jpeg", ".gif", ".tif", ".tiff", ".bmp", ".webp"},
}
#: Extensions that promise a binary format: text under one of these names gets a warning.
BINARY_SUFFIXES = set().union(*NATURAL_SUFFIXES.values()) | {".doc", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".zip", ".rtf"}

READABLE = "PDF, Word .docx, text or Markdown, or a scanned image"


@dataclass(frozen=True)
class Sniffed:
    """The result of :func:`sniff_file`.

    ``kind``: ``pdf`` | ``docx`` | ``image`` | ``text`` (no binary signature: a text candidate) |
    ``empty`` (0 bytes) | ``damaged`` (a known container that is truncated) | ``other`` (a known
    format clauselens does not read). ``what`` says it in words ("a PNG image").
    """

    kind: str
    what: str

    def problem(self, path: Path) -> str:
        """The user-facing problem for ``empty``/``damaged``/``other`` kinds, led by what the
        name promised when it promised something else ("not a PDF: this is a PNG image ...")."""
        if self.kind == "empty":
            return "the file is empty (0 bytes)"
        lead = not_what_named(path, self)
        if self.kind == "damaged":
            if lead.startswith("truncated"):
                return "truncated or damaged Word document (its ZIP table of contents is missing); save or download it again"
            return f"{lead}this is {self.what}; it cannot be read"
        advice = _ADVICE.get(self.what, "")
        return f"{lead}this is {self.what}, not a document clauselens reads ({READABLE})" + (f"; {advice}" if advice else "")


#: What an extension promises, for "not a PDF: ..." message leads.
_PROMISED = {".pdf": "PDF", ".docx": "Word document", ".txt": "text file", ".md": "text file"}


def not_what_named(path: Path, sniffed: Sniffed) -> str:
    """``"not a PDF: "`` when ``path``'s extension promises another kind than ``sniffed``, else ``""``."""
    suffix = path.suffix.lower()
    promised = _PROMISED.get(suffix)
    if promised is None or (sniffed.kind == "pdf" and suffix == ".pdf") or (sniffed.kind == "docx" and suffix == ".docx"):
        return ""
    if sniffed.kind == "damaged" and suffix == ".docx" and "ZIP" in sniffed.what:
        return "truncated or damaged Word document: "
    return f"not a {promised}: "


def _sniff_zip(path: Path | BinaryIO) -> Sniffed:
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            mimetype = zf.read("mimetype")[:80].decode("ascii", "replace") if "mimetype" in names else ""
    except (zipfile.BadZipFile, OSError, EOFError, KeyError, ValueError):
        return Sniffed("damaged", "a truncated or damaged ZIP package (its table of contents is missing)")
    if "word/document.xml" in names:
        return Sniffed("docx", "a Word document (.docx)")
    if "xl/workbook.xml" in names:
        return Sniffed("other", "an Excel workbook (.xlsx)")
    if "ppt/presentation.xml" in names:
        return Sniffed("other", "a PowerPoint presentation (.pptx)")
    if mimetype.startswith("application/vnd.oasis.opendocument"):
        return Sniffed("other", "an OpenDocument file")
    if "[Content_Types].xml" in names:
        return Sniffed("damaged", "an Office package without a Word document part (word/document.xml)")
    return Sniffed("other", "a ZIP archive; unzip it and pass the documents inside")


def sniff_bytes(head: bytes) -> Sniffed | None:
    """Kind from the first bytes alone, for everything but ZIP packages (which need the
    whole file): ``None`` for a ZIP header, else a :class:`Sniffed`."""
    if not head:
        return Sniffed("empty", "an empty file")
    if b"%PDF-" in head[:HEAD_BYTES]:
        return Sniffed("pdf", "a PDF file")
    if head.startswith(b"PK\x03\x04"):
        return None
    for sig, kind, what in _SIGNATURES:
        if head.startswith(sig):
            return Sniffed(kind, what)
    if head.startswith(b"MZ") and b"\x00" in head[2:64]:  # DOS/PE header (text never holds NUL bytes)
        return Sniffed("other", "a Windows executable")
    if head.startswith(b"BM") and head[6:10] == b"\x00\x00\x00\x00":
        return Sniffed("image", "a BMP image")
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return Sniffed("image", "a WebP image")
    return Sniffed("text", "a text file")


def sniff_file(path: str | Path) -> Sniffed:
    """What ``path`` is, from its content (see module docstring). Raises ``OSError`` if it
    cannot be read."""
    p = Path(path)
    with open(p, "rb") as fh:
        head = fh.read(HEAD_BYTES)
    s = sniff_bytes(head)
    return _sniff_zip(p) if s is None else s


def sniff_data(data: bytes) -> Sniffed:
    """:func:`sniff_file` for a file's bytes held in memory (a web upload)."""
    import io

    s = sniff_bytes(data[:HEAD_BYTES])
    return _sniff_zip(io.BytesIO(data)) if s is None else s


def extension_warning(path: str | Path, sniffed: Sniffed) -> str | None:
    """A warning when the name promises another format than the content (``contract.txt``
    holding a PDF), else ``None``. Text is only flagged under a binary format's extension."""
    p = Path(path)
    suffix = p.suffix.lower()
    if sniffed.kind == "text":
        wrong = suffix in BINARY_SUFFIXES
    elif sniffed.kind in NATURAL_SUFFIXES:
        wrong = suffix not in NATURAL_SUFFIXES[sniffed.kind]
    else:
        return None
    if not wrong:
        return None
    kind = sniffed.what[2:] if sniffed.what.startswith("a ") else sniffed.what
    how = " with OCR" if sniffed.kind == "image" else ""
    return f"{p.name} is {sniffed.what} but is named {suffix or 'without an extension'}: read as {kind}{how}; consider renaming it"
