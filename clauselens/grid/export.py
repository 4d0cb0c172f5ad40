"""Write a filled grid as XLSX (openpyxl), CSV, HTML or JSON, chosen by the output suffix.

Every format has one row per agreement and one column per question. XLSX: sheet ``Review``
(the short answer in each cell, coloured by status, a hyperlink to the source page and a
comment with the verified quote, clause and page), sheet ``Cells`` (one line per cell: every
field) and sheet ``Questions``. CSV: per question the columns ``<id>``, ``<id> status``,
``<id> quote``, ``<id> clause``, ``<id> page``, ``<id> link``, ``<id> reason`` (why a cell is unverified or not
found, or how it was read: a new user's tryout could not tell from the CSV). HTML: a self-contained table
(quote, clause, page and link inside each cell). JSON: questions, rows with their cells, and
the run's statistics. A cell not computed yet shows as ``pending``.
"""

from __future__ import annotations

import csv
import html
import json
from pathlib import Path
from typing import Any, Sequence

from clauselens.errors import ConfigError
from clauselens.grid.cells import Cell
from clauselens.grid.questions import GridQuestion
from clauselens.parsing.numbering import clause_label

FORMATS = (".xlsx", ".csv", ".html", ".json")
#: Columns of the ``Cells`` sheet (and of each JSON cell).
CELL_COLUMNS = ("agreement", "file", "question_id", "question", "type", "status", "answer", "quote", "clause", "page",
                "link", "reason", "seconds", "model")
STATUS_FILL = {"answered": "C6EFCE", "not found": "EDEDED", "unverified": "FFEB9C", "error": "FFC7CE", "pending": "FFFFFF"}


def check_out_path(out: str | Path) -> Path:
    """``out`` as a path with a supported suffix. Raises :class:`ConfigError` otherwise."""
    p = Path(out).expanduser()
    if p.suffix.lower() not in FORMATS:
        raise ConfigError(f"--out must end in {', '.join(FORMATS)} (got {p.name})")
    return p


def _grid(rows: Sequence[Any], questions: Sequence[GridQuestion], cells: Sequence[Cell]) -> list[tuple[Any, list[Cell | None]]]:
    by_key = {(c.row_key, c.question_id): c for c in cells}
    return [(r, [by_key.get((r.row_key, q.id)) for q in questions]) for r in rows]


def _file(r: Any) -> str:
    return Path(r.source_path).name if r.source_path else ""


def _line(r: Any, q: GridQuestion, c: Cell | None) -> dict[str, Any]:
    if c is None:
        return {"agreement": r.agreement, "file": _file(r), "question_id": q.id, "question": q.shown, "type": q.type,
                "status": "pending", "answer": "", "quote": "", "clause": "", "page": None, "link": "", "reason": "",
                "seconds": None, "model": ""}
    return {"agreement": r.agreement, "file": _file(r), "question_id": q.id, "question": q.shown, "type": q.type,
            "status": c.status, "answer": c.answer, "quote": c.quote, "clause": c.clause, "page": c.page, "link": c.link,
            "reason": c.reason, "seconds": c.seconds, "model": c.model}


def write_grid(out: str | Path, rows: Sequence[Any], questions: Sequence[GridQuestion], cells: Sequence[Cell],
               stats: dict[str, Any] | None = None) -> Path:
    """Write the grid to ``out`` (format from its suffix); returns the path."""
    p = check_out_path(out)
    p.parent.mkdir(parents=True, exist_ok=True)
    grid = _grid(rows, questions, cells)
    writer = {".xlsx": _xlsx, ".csv": _csv, ".html": _html, ".json": _json}[p.suffix.lower()]
    tmp = p.with_name(p.name + ".tmp")
    writer(tmp, grid, questions, stats or {})
    tmp.replace(p)
    return p


def _xlsx(path: Path, grid: list, questions: Sequence[GridQuestion], stats: dict[str, Any]) -> None:
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    wb = Workbook()
    ws = wb.active
    ws.title = "Review"
    ws.append(["Agreement", "File", *[q.category or q.id for q in questions]])
    for c in ws[1]:
        c.font = Font(bold=True)
        c.alignment = Alignment(wrap_text=True, vertical="top")
    for r, row_cells in grid:
        ws.append([r.agreement, _file(r), *[(c.answer or c.status) if c is not None else "pending" for c in row_cells]])
        for j, c in enumerate(row_cells, start=3):
            x = ws.cell(row=ws.max_row, column=j)
            status = c.status if c is not None else "pending"
            x.fill = PatternFill("solid", fgColor=STATUS_FILL[status])
            x.alignment = Alignment(wrap_text=True, vertical="top")
            if c is None:
                continue
            if c.link:
                x.hyperlink = c.link
            note = f"{c.status}" + (f" · {clause_label(c.clause)}" if c.clause else "") + (f" · p. {c.page}" if c.page else "")
            if c.quote:
                note += f"\n“{c.quote[:900]}”"
            if c.reason:
                note += f"\n{c.reason[:400]}"
            x.comment = Comment(note, "clauselens", width=420, height=220)
    ws.freeze_panes = "C2"
    ws.column_dimensions["A"].width = 40
    ws.column_dimensions["B"].width = 30
    for j in range(3, 3 + len(questions)):
        ws.column_dimensions[get_column_letter(j)].width = 18
    cs = wb.create_sheet("Cells")
    cs.append([c.replace("_", " ") for c in CELL_COLUMNS])
    for c in cs[1]:
        c.font = Font(bold=True)
    for r, row_cells in grid:
        for q, c in zip(questions, row_cells):
            line = _line(r, q, c)
            cs.append([line[k] for k in CELL_COLUMNS])
            if line["link"]:
                cs.cell(row=cs.max_row, column=CELL_COLUMNS.index("link") + 1).hyperlink = line["link"]
    cs.freeze_panes = "A2"
    qs = wb.create_sheet("Questions")
    qs.append(["id", "category", "type", "question", "search"])
    for q in questions:
        qs.append([q.id, q.category, q.type, q.shown, q.search])
    if stats:
        st = wb.create_sheet("Run")
        for k, v in stats.items():
            st.append([k, json.dumps(v) if isinstance(v, (dict, list)) else v])
    wb.save(path)


def _csv(path: Path, grid: list, questions: Sequence[GridQuestion], stats: dict[str, Any]) -> None:
    subs = ("", " status", " quote", " clause", " page", " link", " reason")
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["agreement", "file", *[q.id + s for q in questions for s in subs]])
        for r, row_cells in grid:
            vals: list[Any] = [r.agreement, _file(r)]
            for q, c in zip(questions, row_cells):
                line = _line(r, q, c)
                vals += [line["answer"], line["status"], line["quote"], line["clause"], line["page"] or "", line["link"], line["reason"]]
            w.writerow(vals)


def _json(path: Path, grid: list, questions: Sequence[GridQuestion], stats: dict[str, Any]) -> None:
    data = {"questions": [q.model_dump() for q in questions], "stats": stats,
            "rows": [{"agreement": r.agreement, "file": _file(r), "source_path": r.source_path, "doc_id": r.doc_id,
                      "error": r.error, "cells": {q.id: {**_line(r, q, c), "model_quote": c.model_quote if c else "",
                                                         "quote_spans": c.quote_spans if c else []}
                                                  for q, c in zip(questions, row_cells)}}
                     for r, row_cells in grid]}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def _html(path: Path, grid: list, questions: Sequence[GridQuestion], stats: dict[str, Any]) -> None:
    e = html.escape
    head = "".join(f"<th title='{e(q.shown)}'>{e(q.category or q.id)}</th>" for q in questions)
    body = []
    for r, row_cells in grid:
        tds = []
        for q, c in zip(questions, row_cells):
            line = _line(r, q, c)
            where = " · ".join(x for x in (clause_label(line["clause"]) if line["clause"] else "",
                                           f"p. {line['page']}" if line["page"] else "") if x)
            link = f" <a href='{e(line['link'])}'>open</a>" if line["link"] else ""
            quote = f"<blockquote>{e(line['quote'])}</blockquote>" if line["quote"] else ""
            reason = f"<div class=reason>{e(line['reason'])}</div>" if line["reason"] and not line["quote"] else ""
            tds.append(f"<td class='{line['status'].replace(' ', '-')}'><b>{e(line['answer'] or line['status'])}</b>"
                       f"<div class=meta>{e(line['status'])}{' · ' + e(where) if where else ''}{link}</div>{quote}{reason}</td>")
        body.append(f"<tr><th class=agr>{e(r.agreement)}<div class=meta>{e(_file(r))}</div></th>{''.join(tds)}</tr>")
    css = ("body{font:13px system-ui,sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
           "padding:4px;vertical-align:top;min-width:9em;max-width:22em}th.agr{text-align:left;min-width:16em}"
           "blockquote{margin:3px 0;font-size:11px;color:#333}.meta,.reason{font-size:11px;color:#666}"
           + "".join(f"td.{k.replace(' ', '-')}{{background:#{v}}}" for k, v in STATUS_FILL.items()))
    summary = e(", ".join(f"{k}: {v}" for k, v in stats.items() if not isinstance(v, (dict, list))))
    path.write_text(f"<!doctype html><meta charset=utf-8><title>clauselens grid</title><style>{css}</style>"
                    f"<h1>Clause grid</h1><p class=meta>{summary}</p><table><tr><th>Agreement</th>{head}</tr>"
                    f"{''.join(body)}</table>", encoding="utf-8")


__all__ = ["CELL_COLUMNS", "FORMATS", "check_out_path", "write_grid"]
