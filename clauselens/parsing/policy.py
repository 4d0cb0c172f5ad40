"""One input policy for every front end (issue #41 item 6): what a file is, from its bytes, and the
message for one clauselens does not read. The CLI and the MCP server reach it through
:func:`clauselens.parsing.loader.load_document`; the web upload checks an upload's bytes with
:func:`check_input_bytes` before storing it, then parses it with the same loader. So a PNG named
``.pdf`` is OCR'd everywhere (with a warning that the name is misleading), a PDF named ``.txt`` is
read as a PDF everywhere, and random binary gets the same message everywhere.

The signatures are :mod:`clauselens.parsing.sniff`'s; the text test is
:func:`clauselens.parsing.textfile.decode_text_bytes`'s (NUL bytes without a UTF-16/32 byte-order
mark, or no encoding that fits).

Side effects: none (reads bytes it is given).
"""

from __future__ import annotations

from pathlib import Path

from clauselens.errors import IngestError, NoTextError
from clauselens.parsing.sniff import Sniffed, sniff_data
from clauselens.parsing.textfile import decode_text_bytes


def refuse_unreadable(path: str | Path, sniffed: Sniffed) -> None:
    """Raise the user-facing error for a file of a kind clauselens does not read: empty
    (:class:`NoTextError`), a damaged package or another format (:class:`IngestError`, saying what
    it is: "this is an Excel workbook (.xlsx)"). Returns for readable kinds."""
    p = Path(path)
    name = p.name
    if sniffed.kind == "empty":
        raise NoTextError(name, "the file is empty (0 bytes): no text found")
    if sniffed.kind in ("damaged", "other"):
        raise IngestError(name, sniffed.problem(p))


def check_input_bytes(name: str, data: bytes) -> Sniffed:
    """What the bytes ``data`` of a file called ``name`` are (:class:`Sniffed`), or the error the
    loader would give for them without parsing: empty, damaged, a format clauselens does not read
    (:func:`refuse_unreadable`), or binary that is no text (:func:`decode_text_bytes`'s message).
    The extension never refuses a file: the loader warns when it misleads."""
    sniffed = sniff_data(data)
    refuse_unreadable(name, sniffed)
    if sniffed.kind == "text":
        decode_text_bytes(data, Path(name).name)
    return sniffed
