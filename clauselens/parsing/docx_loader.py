"""``.docx`` text in document order, tables included (python-docx).

python-docx's ``Document.paragraphs`` skips tables; ``Document.iter_inner_content()``
(python-docx >= 1.0) yields paragraphs and tables in body order. A table becomes one line
per row, cells joined by :data:`CELL_SEP`, so rows and cells can be recovered with
:func:`split_table_row`.
"""

from __future__ import annotations

from pathlib import Path

from clauselens.errors import IngestError
from clauselens.parsing.layout import normalize_extracted

CELL_SEP = " | "


def split_table_row(line: str) -> list[str]:
    """Cells of a table row line written by :func:`extract_docx`."""
    return [c.strip() for c in line.split(CELL_SEP.strip())]


def _table_lines(table) -> list[str]:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:  # merged cells repeat the same object
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            cells.append(" ".join(cell.text.split()))
        rows.append(CELL_SEP.join(cells))
    return rows


def extract_docx(path: Path) -> str:
    """Body text of a ``.docx``: paragraphs separated by blank lines, tables as row lines.

    Raises:
        IngestError: not a valid .docx (message names the file).
    """
    import docx
    from docx.table import Table

    try:
        document = docx.Document(str(path))
    except Exception:  # python-docx raises zipfile/KeyError/ValueError variants; the loader sniffed the package first
        raise IngestError(path.name, "damaged Word document (.docx): its parts cannot be read") from None
    blocks: list[str] = []
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            lines = _table_lines(item)
            if lines:
                blocks.append("\n".join(lines))
        else:
            t = item.text.strip()
            if t:
                blocks.append(t)
    return normalize_extracted("\n\n".join(blocks))
