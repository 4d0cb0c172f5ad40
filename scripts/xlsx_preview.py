"""Draw an XLSX grid as a reviewer sees it, for a screenshot where no spreadsheet program is
installed: reads the workbook back with openpyxl (what a spreadsheet opens) and writes an HTML
page of its first sheet -- cell values, fill colours, hyperlinks, and each cell's comment
(quote, clause, page) under the value. Then, e.g.:

    python scripts/xlsx_preview.py out/cuad21.xlsx /tmp/preview.html
    chromium --headless --no-sandbox --screenshot=docs/screenshots/grid_xlsx.png --window-size=1600,1000 /tmp/preview.html
"""

from __future__ import annotations

import html
import sys
from pathlib import Path

from openpyxl import load_workbook


def main(src: str, dst: str, max_rows: int = 12, max_cols: int = 9) -> None:
    ws = load_workbook(src).worksheets[0]
    e = html.escape
    rows = []
    for r in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows + 1), max_col=min(ws.max_column, max_cols)):
        tds = []
        for c in r:
            color = c.fill.fgColor.rgb if c.fill is not None and c.fill.fill_type == "solid" else None
            style = f" style='background:#{str(color)[-6:]}'" if color and isinstance(color, str) else ""
            val = e("" if c.value is None else str(c.value))
            if c.hyperlink is not None:
                val = f"<u>{val}</u>"
            note = f"<div class=n>{e(c.comment.text)}</div>" if c.comment is not None else ""
            tag = "th" if c.row == 1 else "td"
            tds.append(f"<{tag}{style}>{val}{note}</{tag}>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    css = ("body{font:12px Calibri,Arial,sans-serif;margin:8px}table{border-collapse:collapse}"
           "td,th{border:1px solid #bbb;padding:3px;vertical-align:top;max-width:230px}th{background:#eee}"
           ".n{font-size:10px;color:#444;margin-top:2px}")
    Path(dst).write_text(f"<!doctype html><meta charset=utf-8><style>{css}</style><p><b>{e(Path(src).name)}</b> — sheet "
                         f"'{e(ws.title)}' as read by openpyxl (first {max_rows} rows, {max_cols} columns; grey text = the "
                         f"cell's comment)</p><table>{''.join(rows)}</table>", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
