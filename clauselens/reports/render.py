"""Render a :class:`Report` as Markdown, self-contained HTML (jinja2) or JSON; Word documents are
:mod:`clauselens.reports.render_docx`.

The HTML has no external assets; each finding links to its citations (``#cite-C1``) and
each citation shows the quoted source text with its document, clause and page (its character
spans only in the source link's attributes; the JSON keeps them).
"""

from __future__ import annotations

import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from clauselens.reports.model import Finding, Report
from clauselens.reports.render_parts import (  # re-exported: the renderers' shared words
    FINDINGS_HEADING,
    LEAD_LABEL,
    NO_CITATIONS,
    OUTSIDE_NOTE,
    READING_LABEL,
    RULE_HEADING,
    RULE_LABEL,
    SECTION_TITLES,
    SELECTED_NOTE,
    citation_title,
    document_text,
    finding_groups,
    format_utc,
    gaps_note,
    header_fields,
    label_basis_text,
    models_text,
    no_findings_note,
    quote_text,
    reading_label,
    section_titles,
    show_conclusion,
    verification_banner,
)

_TEMPLATES = Path(__file__).parent / "templates"


def finding_markdown(f: Finding, report: Report | None = None) -> str:
    """One key finding as a Markdown bullet: a cited fact with its citation ids -- or, when the
    report's facts are its quotes, the quotes word for word with their locations and the
    statement below them as the model's reading -- or marked **Unsupported** / **Unverified** with
    the reason (never with bare citation ids)."""
    quotes = report.fact_quotes(f) if report is not None and report.facts == "quotes" else []
    if quotes and report is not None:
        facts = "; ".join(f"{c.location}: \"{quote_text(c)}\" [{c.id}]" for c in quotes)
        return f"- {facts}\n  - _{reading_label(report, f)}:_ {f.statement}"
    if f.cited_fact:
        return f"- {f.statement} " + " ".join(f"[{c}]" for c in f.citation_ids)
    if not f.grounded or not f.citation_ids:
        return f"- **Unverified:** {f.statement} _(no verified quote)_"
    refs = ", ".join(f.citation_ids)
    return (f"- **{f.flag}:** {f.statement} _({f.support_note or 'the quoted text does not support it'}; "
            f"quoted text: {refs})_")


def to_markdown(report: Report) -> str:
    """The report as GitHub-flavoured Markdown: title, question, header block (date, models,
    version, documents), the not-legal-advice notice, the verification banner, then the five
    numbered sections and the conclusion. Sections with nothing to say are left out (no "none"
    lines); citations give document, clause and page, not character offsets (those are in the
    JSON)."""
    out: list[str] = [f"# {report.title}", "", f"**Question:** {report.question}"]
    if report.context:
        out.append(f"\n**Context given:** {report.context}")
    if report.label:
        out.append(f"\n**Label:** {report.label}")
        if report.label_basis is not None:
            out.append(f"\n**How the label was decided:** {label_basis_text(report)}")
    header = header_fields(report)
    if header:
        out.append("")
        for name, lines in header:
            if len(lines) == 1:
                out.append(f"- **{name}:** {lines[0]}")
            else:
                out.append(f"- **{name}:**")
                out += [f"  - {x}" for x in lines]
    out.append(f"\n> _{report.notice}_")
    if report.left_out:
        out.append(f"\n**Files left out ({len(report.left_out)}, could not be read; the answer does not cover them):**\n")
        out += [f"- {m}" for m in report.left_out]
    if verification_banner(report):
        out.append(f"\n> **{verification_banner(report)}**")
    if report.suspicious:
        out.append(f"\n**Suspicious content ({len(report.suspicious)}; possible instructions to AI tools, not followed):**\n")
        out += [f"- {m}" for m in report.suspicious]
    if report.retrieval_warnings:
        out.append("\n**Retrieval warnings (the answer may miss what these tools would have found):**\n")
        out += [f"- {m}" for m in report.retrieval_warnings]
    out.append("")
    titles = section_titles(report)
    if report.topic_summary:
        out += [f"## {titles[0]}", "", report.topic_summary, ""]
    out += [f"## {titles[1]}", ""]
    if report.legal_reasoning:
        out += [report.legal_reasoning, ""]
    if report.key_findings:
        for i, (heading, group) in enumerate(finding_groups(report)):
            out += ([""] if i else []) + [f"**{heading}**", ""] + [finding_markdown(f, report) for f in group]
    else:
        out.append(no_findings_note(report))
    both = bool(report.knowledge_gaps and report.follow_up_questions)  # section 4 holds two lists: name each
    out += ["", f"## {titles[2]}", "", f"**Answer.** {report.answer}" if report.research_directions else report.answer, ""]
    if report.research_directions:
        out += ["**Research directions**", ""] + [f"- {d}" for d in report.research_directions] + [""]
    if report.knowledge_gaps or report.follow_up_questions or gaps_note(report):
        out += [f"## {titles[3]}", ""]
        if report.knowledge_gaps:
            out += (["**Knowledge gaps**", ""] if both else []) + [f"- {g}" for g in report.knowledge_gaps] + [""]
        elif gaps_note(report):
            out += [gaps_note(report), ""]
        if report.follow_up_questions:
            out += (["**Follow-up questions**", ""] if both else []) + [f"- {q}" for q in report.follow_up_questions] + [""]
    out += [f"## {titles[4]}", ""]
    if report.citations:
        for c in report.citations:
            out.append(f"- **[{c.id}]** {c.location}: \"{quote_text(c)}\"" + (f" _({SELECTED_NOTE})_" if c.selected else ""))
    else:
        out.append(NO_CITATIONS)
    if show_conclusion(report):
        out += ["", "## Conclusion", "", report.conclusion]
    out.append("")
    status = "complete" if report.complete else "stopped at the turn limit"
    out.append(f"_Research rounds: {report.turns} ({status})._")
    if report.verification == "verified":
        out.append(f"\n_Verification: {report.verification_note}_")
    return "\n".join(out) + "\n"


def to_html(report: Report) -> str:
    """A self-contained HTML page (inline CSS, no scripts or external links), with the same
    header block, notice and sections as :func:`to_markdown`; a citation's character offsets
    are only in its source link's ``title`` and ``data-spans`` attributes, never in the text."""
    env = Environment(loader=FileSystemLoader(str(_TEMPLATES)), autoescape=select_autoescape(["html", "j2"]))
    return env.get_template("report.html.j2").render(
        r=report, titles=section_titles(report), basis=label_basis_text(report), header=header_fields(report),
        gaps_note=gaps_note(report), no_findings=no_findings_note(report), no_citations=NO_CITATIONS, selected_note=SELECTED_NOTE,
        show_conclusion=show_conclusion(report), cite_title=citation_title, reading_label=lambda f: reading_label(report, f),
        groups=finding_groups(report))


def to_json(report: Report) -> str:
    """The report as indented JSON (``Report.model_validate_json`` reads it back)."""
    return report.model_dump_json(indent=2)


def write_report(report: Report, out_dir: Path, stem: str = "report") -> dict[str, Path]:
    """Write ``<stem>.md``, ``<stem>.html``, ``<stem>.json`` and ``<stem>.docx`` into ``out_dir``
    (created). Returns ``{"md": path, "html": path, "json": path, "docx": path}``."""
    from clauselens.reports.render_docx import write_docx  # python-docx imported only when a report is written

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"md": out_dir / f"{stem}.md", "html": out_dir / f"{stem}.html", "json": out_dir / f"{stem}.json"}
    paths["md"].write_text(to_markdown(report), encoding="utf-8")
    paths["html"].write_text(to_html(report), encoding="utf-8")
    paths["json"].write_text(to_json(report), encoding="utf-8")
    paths["docx"] = write_docx(report, out_dir / f"{stem}.docx")
    return paths


def write_json(obj: object, path: Path) -> Path:
    """Write any JSON-serialisable object (e.g. a transcript) with indentation."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    return path


__all__ = ["FINDINGS_HEADING", "LEAD_LABEL", "NO_CITATIONS", "OUTSIDE_NOTE", "READING_LABEL", "RULE_HEADING", "RULE_LABEL", "SECTION_TITLES",
           "SELECTED_NOTE", "citation_title", "document_text", "finding_groups", "finding_markdown", "format_utc", "gaps_note",
           "header_fields", "label_basis_text", "models_text", "no_findings_note", "quote_text", "reading_label", "section_titles",
           "show_conclusion", "to_html", "to_json", "to_markdown", "verification_banner", "write_json", "write_report"]
