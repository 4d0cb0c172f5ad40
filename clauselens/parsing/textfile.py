"""Decoding plain-text files (``.txt``, ``.md``) to ``str`` exactly as Python would read them.

The result equals ``open(path, encoding=<detected>).read()``: universal newlines
(``\\r\\n`` and ``\\r`` become ``\\n``), a UTF-8 byte-order mark kept as U+FEFF (LegalBench-RAG
counts it as index 0), a UTF-16/32 BOM consumed by the codec. Encoding detection order:
BOM, strict UTF-8, then ``charset-normalizer``'s best guess.
"""

from __future__ import annotations

import codecs

from charset_normalizer import from_bytes

from clauselens.errors import IngestError

_BOMS_UTF16_32 = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def universal_newlines(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` to ``\\n``, as Python's text-mode ``open`` does (PEP 278)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def detect_encoding(data: bytes) -> str:
    """The codec name to decode ``data`` with.

    BOM first (UTF-32 before UTF-16 since their LE BOMs share a prefix), then strict UTF-8
    (UTF-8 with BOM decodes as ``utf-8`` so the BOM stays in the text), then
    ``charset_normalizer.from_bytes(data).best()``, windows-1252 winning ties.

    Raises:
        ValueError: no encoding fits (binary data).
    """
    for bom, name in _BOMS_UTF16_32:
        if data.startswith(bom):
            return name
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    if b"\x00" in data[:4096]:
        raise ValueError("binary data (NUL bytes, no UTF-16/32 byte-order mark)")
    results = from_bytes(data)
    best = results.best()
    if best is None or best.encoding is None:
        raise ValueError("no text encoding fits")
    # Ties are common between single-byte Western code pages (the bytes of "café naïveté ™"
    # decode in cp1250 and cp1252 alike): prefer windows-1252, which the WHATWG Encoding
    # Standard also uses for "latin1"/"iso-8859-1" labels.
    for m in results:
        if (m.chaos, m.coherence) == (best.chaos, best.coherence) and "cp1252" in m.could_be_from_charset:
            return "cp1252"
    return best.encoding


def decode_text_bytes(data: bytes, name: str) -> str:
    """Decode a text file's bytes to ``str`` (see module docstring).

    Args:
        data: the file's bytes.
        name: the file name, for error messages.

    Raises:
        IngestError: the bytes are binary / undecodable (message names the file).
    """
    if b"\x00" in data[:4096] and not any(data.startswith(b) for b, _ in _BOMS_UTF16_32):
        raise IngestError(name, "binary file of an unknown type, not text (no PDF, Word or image signature; contains NUL bytes)")
    try:
        enc = detect_encoding(data)
        text = data.decode(enc)
    except (ValueError, UnicodeDecodeError, LookupError) as exc:
        raise IngestError(name, f"binary file of an unknown type, not text (no text encoding fits: {exc})") from None
    return universal_newlines(text)
