"""Render a :class:`Report` as Markdown, self-contained HTML (jinja2) or JSON; Word documents are
:mod:`clauselens.reports.render_docx`.

The HTML has no external assets; each finding links to its citations (``#cite-C1``) and
each citation shows the quoted source text with its document, clause and page (its character
spans only in the source link's attributes; the JSON keeps them).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from clauselens.reports.model import Citation, Finding, Report, SourceDocument

_TEMPLATES = Path(__file__).parent / "templates"

SECTION_TITLES = (
    "1. Topic summary",
    "2. Legal reasoning and key findings",
    "3. Answer and research directions",
    "4. Knowledge gaps and follow-up questions",
    "5. Cited sources",
)


def section_titles(report: Report) -> tuple[str, ...]:
    """:data:`SECTION_TITLES` for this report: sections 3 and 4 are named for what they hold
    (``"Answer"`` when there are no research directions, ``"Knowledge gaps"`` when there are no
    follow-up questions), so no heading promises a list that is not there; a section with nothing
    to say (no topic summary; no gaps, follow-ups or :func:`gaps_note`) gets ``""`` and is left
    out, and the sections shown are numbered 1, 2, 3... without holes."""
    names = [t.split(". ", 1)[1] for t in SECTION_TITLES]
    if not report.research_directions:
        names[2] = "Answer"
    if not report.follow_up_questions:
        names[3] = "Knowledge gaps"
    elif not report.knowledge_gaps:
        names[3] = "Follow-up questions"
    shown = [bool(report.topic_summary), True, True,
             bool(report.knowledge_gaps or report.follow_up_questions or gaps_note(report)), True]
    out, n = [], 0
    for name, show in zip(names, shown):
        n += show
        out.append(f"{n}. {name}" if show else "")
    return tuple(out)


def format_utc(iso: str) -> str:
    """``"2026-12-02T03:30:12+00:00"`` -> ``"2026-12-02 03:30 UTC"`` (the text as is if not ISO 8601)."""
    try:
        dt = datetime.fromisoformat(iso).astimezone(timezone.utc)
    except ValueError:
        return iso
    return dt.strftime("%Y-%m-%d %H:%M UTC")


def models_text(models: dict[str, str]) -> str:
    """The run's models in one line: ``"qwen2.5-coder-1.5b (in-process llama.cpp), for the
    researcher and interrogator"`` when the agents share one, else ``"researcher: A; interrogator: B"``."""
    if not models:
        return "not recorded"
    names = list(models)
    if len(set(models.values())) == 1:
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
        return f"{next(iter(models.values()))}, for the {who}"
    return "; ".join(f"{a}: {m}" for a, m in models.items())


def document_text(d: SourceDocument) -> str:
    """One document of the header: ``"Consulting Agreement (consulting.pdf), dated May 18, 2020, 7 pages"``."""
    out = d.label + (f", dated {d.effective_date}" if d.effective_date else ", no date found in its opening text")
    return out + (f", {d.pages} page{'s' if d.pages != 1 else ''}" if d.pages else "")


def header_fields(report: Report) -> list[tuple[str, list[str]]]:
    """The report's header block (issue #19 item 4) as ``(label, lines)`` pairs, shared by the
    Markdown, HTML, DOCX and web renderings: date (UTC), model(s), clauselens version and the
    documents with their dates. A report made outside :func:`clauselens.pipeline.ask` (no
    ``run``) lists only the documents its passages came from."""
    run = report.run
    if run is None:
        return [("Documents", list(report.documents))] if report.documents else []
    out = [("Generated", [format_utc(run.generated_utc)]),
           ("Model" if len(set(run.models.values())) <= 1 else "Models", [models_text(run.models)]),
           ("clauselens", [run.clauselens_version])]
    if run.documents:
        out.append(("Document" if len(run.documents) == 1 else "Documents", [document_text(d) for d in run.documents]))
    return out


def citation_title(c: Citation) -> str:
    """Where a quote is, in the source document's own terms (for a link's tooltip): its
    character offsets into the document text, never shown as text (issue #19 item 4)."""
    spans = ", ".join(f"{s.start}-{s.end}" for s in c.spans)
    return f"{c.doc_title or c.source_path or c.doc_id}: characters {spans} of the document text" if spans else c.location


def gaps_note(report: Report) -> str:
    """The one sentence section 4 shows when it lists nothing: only said of a verified report
    (``""`` otherwise: the section is left out rather than filled with "none")."""
    if report.verification == "verified" and not report.unaddressed_documents:
        return ("No knowledge gaps recorded: every key finding rests on a verified quote that supports it, "
                "and every document was addressed.")
    return ""


def no_findings_note(report: Report) -> str:
    """What section 2 says when the draft listed no key findings."""
    if report.documents_silent:
        return "No key findings: nothing retrieved from the documents addresses the question."
    return "The model listed no key findings; the answer below is not backed by a cited finding."


#: Shown beside a quote clauselens chose for a finding whose own quote was not verbatim.
SELECTED_NOTE = "sentence chosen by clauselens from the passage the finding cites; the model's own quote was not verbatim"
NO_CITATIONS = "No quote could be verified against the documents: nothing in this report is backed by a quotation."


def show_conclusion(report: Report) -> bool:
    """False when the conclusion is empty or repeats the answer word for word (no filler line)."""
    c = " ".join(report.conclusion.split())
    return bool(c) and c != " ".join(report.answer.split())


def label_basis_text(report: Report) -> str:
    """One sentence on how the NLI label was decided ("" when there is no :class:`LabelBasis`),
    e.g. ``"model: entailment; precedent vote E 0.62 / C 0.08 / N 0.30 (weight 0.7, hypothesis
    nda-2); decided by model+vote"``."""
    b = report.label_basis
    if b is None:
        return ""
    parts = [f"model: {b.llm_label or 'no label'}"]
    if b.vote:
        v = " / ".join(f"{k[0]} {b.vote.get(k, 0.0):.2f}" for k in ("Entailment", "Contradiction", "NotMentioned"))
        parts.append(f"precedent vote {v} (weight {b.vote_weight:g}, hypothesis {b.hypothesis_id})")
    if b.source == "abstain":
        parts.append(f"best precedent relevance {b.max_relevance} is below the threshold: nothing like the precedents' evidence")
    return "; ".join(parts) + f"; decided by {b.source}"


def verification_banner(report: Report) -> str:
    """The one-line warning every front end shows above an answer that is not fully backed by
    supporting quotes (``"⚠ Unverified: ..."``); ``""`` for a verified or silent report."""
    if report.verification in ("unverified", "partial"):
        return f"⚠ {report.verification_note}"
    return ""


#: What a cited finding's statement is called when the report's facts are its quotes
#: (``Report.facts == "quotes"``, :func:`clauselens.reports.build.quoted_facts`).
READING_LABEL = "The model's reading (not a quotation)"
#: ... when the statement was written by rule from the quote (``Report.readings == "rules"``: an
#: extractive definition report).
RULE_LABEL = "Where it is (written by clauselens from the quote)"


#: ... for a clause retrieval chose for the question (issue #38, ``Finding.rule == "lead"``).
LEAD_LABEL = "Why it is quoted (written by clauselens, not the model)"
#: Added to :data:`READING_LABEL` for a model finding that cites none of the clauses quoted by rule.
OUTSIDE_NOTE = "; it cites a clause other than the ones quoted above"
#: The heading of the clauses quoted by rule (issue #38) above the model's findings.
RULE_HEADING = "The clauses that speak to this"
#: The heading of the findings (the model's, or a definition's) -- under :data:`RULE_HEADING` when both show.
FINDINGS_HEADING = "Key findings"


def reading_label(report: Report, f: Finding | None = None) -> str:
    """What the statement beside a quoted fact is called: :data:`READING_LABEL`, :data:`RULE_LABEL` for a
    statement written by rule (a report whose statements all are, or a finding ``f`` quoted by rule),
    :data:`LEAD_LABEL` for a clause retrieval chose; a model finding citing none of the clauses quoted by rule
    says so (:data:`OUTSIDE_NOTE`)."""
    if f is not None and f.rule == "lead":
        return LEAD_LABEL
    if report.readings == "rules" or (f is not None and f.rule is not None):
        return RULE_LABEL
    return READING_LABEL + (OUTSIDE_NOTE if f is not None and report.outside_rule_clauses(f) else "")


def finding_groups(report: Report) -> list[tuple[str, list[Finding]]]:
    """The key findings as the renderers list them: the clauses quoted by rule first under
    :data:`RULE_HEADING` (a named clause or retrieval's best clauses; issue #38), then the rest under
    :data:`FINDINGS_HEADING` (the model's findings; a definition report's findings). Empty groups left out."""
    first = [f for f in report.key_findings if f.rule in ("lead", "named_clause")]
    rest = [f for f in report.key_findings if f.rule not in ("lead", "named_clause")]
    return [(h, fs) for h, fs in ((RULE_HEADING, first), (FINDINGS_HEADING, rest)) if fs]


def quote_text(c: Citation) -> str:
    """A citation's quote on one line (the source text's line breaks and runs of spaces as one space)."""
    return " ".join(c.quote.split())


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
    from clauselens.reports.render_docx import write_docx  # it imports this module's helpers

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
