"""Render a :class:`Report` as a Word document (python-docx), beside MD / HTML / JSON.

The same content as :func:`clauselens.reports.render.to_markdown`, in the same order: title,
question, header block (date, models, version, documents with their dates), the
not-legal-advice notice, the verification banner of an unverified or partly verified report,
the five numbered sections (key findings with their support status) and the conclusion.
Citations give document, clause and page, and their quotes verbatim; character offsets are
left out (the JSON keeps them). Built with python-docx's own API only (no hand-written OOXML).
"""

from __future__ import annotations

import io
from pathlib import Path

from docx import Document as new_docx
from docx.document import Document as DocxDocument
from docx.shared import Pt, RGBColor

from clauselens.reports.model import Finding, Report
from clauselens.reports.render_parts import (
    NO_CITATIONS,
    SELECTED_NOTE,
    finding_groups,
    gaps_note,
    header_fields,
    label_basis_text,
    no_findings_note,
    quote_text,
    reading_label,
    section_titles,
    show_conclusion,
    verification_banner,
)

_RED = RGBColor(0xC6, 0x28, 0x28)
_GREY = RGBColor(0x55, 0x55, 0x55)


def _labelled(doc: DocxDocument, label: str, text: str) -> None:
    p = doc.add_paragraph()
    p.add_run(f"{label}: ").bold = True
    p.add_run(text)


def _bullets(doc: DocxDocument, items: list[str]) -> None:
    for item in items:
        doc.add_paragraph(item, style="List Bullet")


def _finding(doc: DocxDocument, f: Finding, report: Report) -> None:
    p = doc.add_paragraph(style="List Bullet")
    quotes = report.fact_quotes(f) if report.facts == "quotes" else []
    if quotes:  # the quotes are the facts; the statement is the model's reading (reports.build.quoted_facts)
        for i, c in enumerate(quotes):
            p.add_run(("; " if i else "") + f"{c.location}: ")
            p.add_run(f"\u201c{quote_text(c)}\u201d ").italic = True
            p.add_run(f"[{c.id}]").bold = True
        r = doc.add_paragraph().add_run(f"{reading_label(report, f)}: {f.statement}")
        r.font.color.rgb = _GREY
        return
    if f.cited_fact:
        p.add_run(f.statement + " ")
        p.add_run(" ".join(f"[{c}]" for c in f.citation_ids)).bold = True
        return
    unverified = not f.grounded or not f.citation_ids
    tag = p.add_run(f"{f.flag}: ")
    tag.bold, tag.font.color.rgb = True, _RED
    p.add_run(f.statement + " ")
    why = "no verified quote" if unverified else (
        f"{f.support_note or 'the quoted text does not support it'}; quoted text: {', '.join(f.citation_ids)}")
    p.add_run(f"({why})").italic = True


def build_docx(report: Report) -> DocxDocument:
    """The report as a python-docx ``Document`` (see the module docstring for its content)."""
    doc = new_docx()
    doc.core_properties.title = report.title
    doc.core_properties.subject = report.question
    doc.core_properties.author = "clauselens"
    doc.add_heading(report.title, level=0)
    _labelled(doc, "Question", report.question)
    if report.context:
        _labelled(doc, "Context given", report.context)
    if report.label:
        _labelled(doc, "Label", report.label)
        if report.label_basis is not None:
            _labelled(doc, "How the label was decided", label_basis_text(report))
    for name, lines in header_fields(report):
        if len(lines) == 1:
            _labelled(doc, name, lines[0])
        else:
            doc.add_paragraph().add_run(f"{name}:").bold = True
            _bullets(doc, lines)
    notice = doc.add_paragraph().add_run(report.notice)
    notice.italic, notice.font.color.rgb = True, _GREY
    if report.left_out:
        doc.add_paragraph().add_run(f"Files left out ({len(report.left_out)}, could not be read; "
                                    "the answer does not cover them):").bold = True
        _bullets(doc, report.left_out)
    banner = verification_banner(report)
    if banner:
        run = doc.add_paragraph().add_run(banner)
        run.bold, run.font.color.rgb, run.font.size = True, _RED, Pt(12)
    if report.suspicious:
        doc.add_paragraph().add_run(f"Suspicious content ({len(report.suspicious)}; possible instructions to AI tools, "
                                    "not followed):").bold = True
        _bullets(doc, report.suspicious)
    if report.retrieval_warnings:
        doc.add_paragraph().add_run("Retrieval warnings (the answer may miss what these tools would have found):").bold = True
        _bullets(doc, report.retrieval_warnings)

    titles = section_titles(report)
    if report.topic_summary:
        doc.add_heading(titles[0], level=1)
        doc.add_paragraph(report.topic_summary)
    doc.add_heading(titles[1], level=1)
    if report.legal_reasoning:
        doc.add_paragraph(report.legal_reasoning)
    if report.key_findings:
        for heading, group in finding_groups(report):
            doc.add_heading(heading, level=2)
            for f in group:
                _finding(doc, f, report)
    else:
        doc.add_paragraph(no_findings_note(report))
    doc.add_heading(titles[2], level=1)
    if report.research_directions:
        _labelled(doc, "Answer", report.answer)
    else:
        doc.add_paragraph(report.answer)
    if report.research_directions:
        doc.add_heading("Research directions", level=2)
        _bullets(doc, report.research_directions)
    if report.knowledge_gaps or report.follow_up_questions or gaps_note(report):
        doc.add_heading(titles[3], level=1)
        if report.knowledge_gaps:
            if report.follow_up_questions:  # section 4 holds two lists: name each
                doc.add_heading("Knowledge gaps", level=2)
            _bullets(doc, report.knowledge_gaps)
        elif gaps_note(report):
            doc.add_paragraph(gaps_note(report))
        if report.follow_up_questions:
            if report.knowledge_gaps:
                doc.add_heading("Follow-up questions", level=2)
            _bullets(doc, report.follow_up_questions)
    doc.add_heading(titles[4], level=1)
    for c in report.citations:
        p = doc.add_paragraph()
        p.add_run(f"[{c.id}] ").bold = True
        p.add_run(c.location)
        doc.add_paragraph(f"\u201c{c.quote}\u201d", style="Quote")
        if c.selected:
            doc.add_paragraph(f"({SELECTED_NOTE})").runs[0].italic = True
    if not report.citations:
        doc.add_paragraph(NO_CITATIONS)
    if show_conclusion(report):
        doc.add_heading("Conclusion", level=1)
        doc.add_paragraph(report.conclusion)
    status = "complete" if report.complete else "stopped at the turn limit"
    foot = doc.add_paragraph().add_run(f"Research rounds: {report.turns} ({status}).")
    foot.italic, foot.font.color.rgb = True, _GREY
    if report.verification == "verified":
        doc.add_paragraph().add_run(f"Verification: {report.verification_note}").italic = True
    return doc


def to_docx(report: Report) -> bytes:
    """The report as the bytes of a ``.docx`` file."""
    buf = io.BytesIO()
    build_docx(report).save(buf)
    return buf.getvalue()


def write_docx(report: Report, path: Path) -> Path:
    """Write the report to ``path`` (a ``.docx`` file; its folder is created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(to_docx(report))
    return path
