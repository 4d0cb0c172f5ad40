"""Playbook review reports (issue #44): Markdown, HTML, XLSX and JSON.

One row per position (for a library, one row per agreement x position): the outcome, the rule that
decided, the value read from the clause, the clause quoted word for word (agreement, clause, page)
and, when the model read the clause, its reading under the heading "model's reading" -- never mixed
with the quotes. The XLSX (openpyxl) has a "review" sheet (the rows) and a "summary" sheet
(outcomes per agreement and the playbook's sources).
"""

from __future__ import annotations

import html
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from clauselens.errors import ConfigError
from clauselens.playbook.model import Playbook
from clauselens.playbook.review import OUTCOMES, AgreementReview, PositionResult, Quote

_MARK = {"compliant": "✅ compliant", "deviation": "❌ deviation", "missing": "⚠️ missing", "unclear": "❓ unclear"}
_FILL = {"compliant": "C6EFCE", "deviation": "FFC7CE", "missing": "FFEB9C", "unclear": "D9D9D9"}


def where(q: Quote, agreement: str) -> str:
    """"agreement, clause 12.1 (heading), page 3"."""
    bits = [agreement]
    if q.clause:
        bits.append(f"clause {q.clause}")
    elif q.heading:
        bits.append(q.heading)
    if q.page:
        bits.append(f"page {q.page}")
    return ", ".join(bits)


def rows(reviews: Sequence[AgreementReview]) -> list[dict[str, Any]]:
    """One flat row per agreement x position (what the XLSX and CSV-like views show)."""
    out = []
    for rv in reviews:
        for r in rv.results:
            q = r.quotes[0] if r.quotes else None
            out.append({"agreement": rv.agreement, "position": r.position_id, "topic": r.topic, "severity": r.severity,
                        "outcome": r.outcome, "rule": r.rule, "value": r.value, "binds": r.bound_party, "why": r.why,
                        "decided_by": r.decided_by,
                        "clause": q.clause if q else "", "page": q.page if q else None, "quote": q.text if q else "",
                        "other_quotes": len(r.quotes) - 1 if r.quotes else 0,
                        "presence_score": r.presence_score, "threshold": r.threshold, "model_reading": r.reading,
                        "preferred": r.preferred, "source_path": rv.source_path})
    return out


def _md_result(r: PositionResult, agreement: str) -> list[str]:
    lines = [f"### {r.position_id} — {_MARK[r.outcome]}", "", f"*{r.topic}* · severity **{r.severity}** · rule: {r.rule}", ""]
    if r.value:
        lines.append(f"- **Value read from the clause:** {r.value}")
    if r.bound_party:
        lines.append(f"- **The clause binds:** {r.bound_party}")
    lines.append(f"- **Decided by:** {r.decided_by} — {r.why}")
    for q in r.quotes:
        lines += ["", f"> {' '.join(q.text.split())}", f"> — *{where(q, agreement)}*"]
    if r.reading:
        lines += ["", f"**Model's reading (not a quote):** {r.reading}"]
    if r.preferred and r.outcome in ("deviation", "missing"):
        lines += ["", f"**Preferred wording:** {r.preferred}"]
    return lines + [""]


def to_markdown(playbook: Playbook, reviews: Sequence[AgreementReview], info: dict[str, Any] | None = None) -> str:
    """The review as Markdown (one section per agreement, one subsection per position)."""
    out = [f"# Playbook review: {playbook.name}", ""]
    if info:
        out += [f"*{'; '.join(f'{k}: {v}' for k, v in info.items())}*", ""]
    for rv in reviews:
        counts = ", ".join(f"{n} {o}" for o, n in rv.counts().items() if n)
        out += [f"## {rv.agreement}", "", f"{counts}" + (f" · **error:** {rv.error}" if rv.error else ""), ""]
        out += ["| position | outcome | value | clause | page |", "|---|---|---|---|---|"]
        for r in rv.results:
            q = r.quotes[0] if r.quotes else None
            out.append(f"| {r.position_id} | {r.outcome} | {r.value.replace('|', '/')} | {q.clause if q else ''} | "
                       f"{q.page if q and q.page else ''} |")
        out.append("")
        for r in rv.results:
            out += _md_result(r, rv.agreement)
    if playbook.sources:
        out += ["## Playbook sources", ""] + [f"- {s}" for s in playbook.sources] + [""]
    return "\n".join(out)


def to_html(playbook: Playbook, reviews: Sequence[AgreementReview], info: dict[str, Any] | None = None) -> str:
    """The review as one self-contained HTML page."""
    e = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>Playbook review: {e(playbook.name)}</title><style>"
             "body{font-family:sans-serif;max-width:70em;margin:2em auto}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}"
             "table{border-collapse:collapse}blockquote{border-left:3px solid #888;margin:0.5em 0;padding-left:0.8em}"
             ".reading{color:#555;font-style:italic}" + "".join(f".{o}{{background:#{c}}}" for o, c in _FILL.items()) +
             "</style></head><body>", f"<h1>Playbook review: {e(playbook.name)}</h1>"]
    if info:
        parts.append(f"<p><small>{e('; '.join(f'{k}: {v}' for k, v in info.items()))}</small></p>")
    for rv in reviews:
        parts.append(f"<h2>{e(rv.agreement)}</h2>")
        if rv.error:
            parts.append(f"<p><b>error:</b> {e(rv.error)}</p>")
        parts.append("<table><tr><th>position</th><th>outcome</th><th>rule</th><th>value</th><th>why</th><th>clause quoted</th></tr>")
        for r in rv.results:
            quotes = "".join(f"<blockquote>{e(' '.join(q.text.split()))}<br><small>— {e(where(q, rv.agreement))}</small></blockquote>"
                             for q in r.quotes)
            reading = f"<p class='reading'>Model's reading (not a quote): {e(r.reading)}</p>" if r.reading else ""
            pref = f"<p><b>Preferred:</b> {e(r.preferred)}</p>" if r.preferred and r.outcome in ("deviation", "missing") else ""
            parts.append(f"<tr><td><b>{e(r.position_id)}</b><br><small>{e(r.topic)} · {e(r.severity)}</small></td>"
                         f"<td class='{r.outcome}'>{e(r.outcome)}</td><td>{e(r.rule)}</td><td>{e(r.value)}</td>"
                         f"<td>{e(r.decided_by)}: {e(r.why)}</td><td>{quotes}{reading}{pref}</td></tr>")
        parts.append("</table>")
    if playbook.sources:
        parts.append("<h2>Playbook sources</h2><ul>" + "".join(f"<li>{e(s)}</li>" for s in playbook.sources) + "</ul>")
    return "\n".join(parts) + "</body></html>\n"


def to_xlsx(path: Path, playbook: Playbook, reviews: Sequence[AgreementReview], info: dict[str, Any] | None = None) -> Path:
    """The review as an XLSX workbook (see the module docstring)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill

    wb = Workbook()
    ws = wb.active
    ws.title = "review"
    data = rows(reviews)
    cols = ["agreement", "position", "topic", "severity", "outcome", "rule", "value", "binds", "why", "decided_by", "clause", "page",
            "quote", "other_quotes", "presence_score", "threshold", "model_reading", "preferred", "source_path"]
    ws.append(cols)
    for c in ws[1]:
        c.font = Font(bold=True)
    for row in data:
        ws.append([row[c] for c in cols])
        cell = ws.cell(row=ws.max_row, column=cols.index("outcome") + 1)
        cell.fill = PatternFill("solid", fgColor=_FILL[row["outcome"]])
    widths = {"agreement": 40, "topic": 40, "why": 50, "quote": 80, "model_reading": 50, "preferred": 50, "rule": 30}
    for i, c in enumerate(cols, start=1):
        ws.column_dimensions[ws.cell(row=1, column=i).column_letter].width = widths.get(c, 14)
        if c in ("quote", "why", "model_reading", "preferred"):
            for cell in ws.iter_rows(min_row=2, min_col=i, max_col=i):
                cell[0].alignment = Alignment(wrap_text=True, vertical="top")
    ws.freeze_panes = "C2"
    s = wb.create_sheet("summary")
    s.append(["agreement", *OUTCOMES, "seconds", "error"])
    for rv in reviews:
        s.append([rv.agreement, *rv.counts().values(), round(rv.seconds, 2), rv.error])
    s.append([])
    s.append(["playbook", playbook.name])
    for src in playbook.sources:
        s.append(["source", src])
    for k, v in (info or {}).items():
        s.append([k, str(v)])
    wb.save(path)
    return path


def to_json(playbook: Playbook, reviews: Sequence[AgreementReview], info: dict[str, Any] | None = None) -> str:
    return json.dumps({"playbook": playbook.name, "playbook_path": playbook.path, "sources": playbook.sources,
                       "info": info or {}, "agreements": [rv.to_dict() for rv in reviews]}, indent=1, ensure_ascii=False)


def write_reports(out_dir: Path, playbook: Playbook, reviews: Sequence[AgreementReview],
                  info: dict[str, Any] | None = None) -> dict[str, Path]:
    """``review.md``, ``review.html``, ``review.xlsx`` and ``review.json`` in ``out_dir``."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create the output folder {out_dir}: {e.strerror or e}") from None
    info = {"written_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"), **(info or {})}
    paths = {"md": out_dir / "review.md", "html": out_dir / "review.html", "xlsx": out_dir / "review.xlsx",
             "json": out_dir / "review.json"}
    try:
        paths["md"].write_text(to_markdown(playbook, reviews, info), encoding="utf-8")
        paths["html"].write_text(to_html(playbook, reviews, info), encoding="utf-8")
        paths["json"].write_text(to_json(playbook, reviews, info), encoding="utf-8")
        to_xlsx(paths["xlsx"], playbook, reviews, info)
    except OSError as e:
        raise ConfigError(f"cannot write the review to {out_dir}: {e.strerror or e}") from None
    return paths


__all__ = ["rows", "to_html", "to_json", "to_markdown", "to_xlsx", "where", "write_reports"]
