"""Render a :class:`Report` as Markdown, self-contained HTML (jinja2) or JSON.

The HTML has no external assets; each finding links to its citations (``#cite-C1``) and
each citation shows the quoted source text with its document, clause, page and spans.
"""

from __future__ import annotations

import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from clauselens.reports.model import Finding, Report

_TEMPLATES = Path(__file__).parent / "templates"

SECTION_TITLES = (
    "1. Topic summary",
    "2. Legal reasoning and key findings",
    "3. Answer and research directions",
    "4. Knowledge gaps and follow-up questions",
    "5. Cited sources",
)


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {i}" for i in items) if items else "- none"


def label_basis_text(report: Report) -> str:
    """One sentence on how the NLI label was decided ("" when there is no :class:`LabelBasis`),
    e.g. ``"model: entailment; precedent vote E 0.62 / C 0.08 / N 0.30 (weight 0.7, hypothesis
    nda-2); decided by model+vote"``."""
    b = report.label_basis
    if b is None:
        return ""
    parts = [f"model: {b.llm_label or 'none'}"]
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


def finding_markdown(f: Finding) -> str:
    """One key finding as a Markdown bullet: a cited fact with its citation ids, or marked
    **Unsupported** / **Unverified** with the reason (never with bare citation ids)."""
    if f.cited_fact:
        return f"- {f.statement} " + " ".join(f"[{c}]" for c in f.citation_ids)
    if not f.grounded or not f.citation_ids:
        return f"- **Unverified:** {f.statement} _(no verified quote)_"
    refs = ", ".join(f.citation_ids)
    return (f"- **Unsupported ({f.support}):** {f.statement} _({f.support_note or 'the quoted text does not support it'}; "
            f"quoted text: {refs})_")


def to_markdown(report: Report) -> str:
    """The report as GitHub-flavoured Markdown (five numbered sections + conclusion)."""
    out: list[str] = [f"# {report.title}", "", f"**Question:** {report.question}"]
    if report.context:
        out.append(f"\n**Context given:** {report.context}")
    if report.label:
        out.append(f"\n**Label:** {report.label}")
        if report.label_basis is not None:
            out.append(f"\n**How the label was decided:** {label_basis_text(report)}")
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
    out += ["", f"## {SECTION_TITLES[0]}", "", report.topic_summary or "-", ""]
    out += [f"## {SECTION_TITLES[1]}", "", report.legal_reasoning or "-", "", "**Key findings**", ""]
    if report.key_findings:
        for f in report.key_findings:
            out.append(finding_markdown(f))
    else:
        out.append("- none")
    out += ["", f"## {SECTION_TITLES[2]}", "", f"**Answer.** {report.answer}", "", "**Research directions**", "",
            _bullets(report.research_directions), ""]
    out += [f"## {SECTION_TITLES[3]}", "", "**Knowledge gaps**", "", _bullets(report.knowledge_gaps), "",
            "**Follow-up questions**", "", _bullets(report.follow_up_questions), ""]
    out += [f"## {SECTION_TITLES[4]}", ""]
    if report.citations:
        for c in report.citations:
            spans = ", ".join(f"[{s.start}, {s.end})" for s in c.spans) or "n/a"
            quote = " ".join(c.quote.split())
            out.append(f"- **[{c.id}]** {c.location} (chars {spans}): \"{quote}\"")
    else:
        out.append("- no verified quotes")
    out += ["", "## Conclusion", "", report.conclusion or "-", ""]
    status = "complete" if report.complete else "stopped at the turn limit"
    out.append(f"_Research rounds: {report.turns} ({status})._")
    if report.verification == "verified":
        out.append(f"\n_Verification: {report.verification_note}_")
    return "\n".join(out) + "\n"


def to_html(report: Report) -> str:
    """A self-contained HTML page (inline CSS, no scripts or external links)."""
    env = Environment(loader=FileSystemLoader(str(_TEMPLATES)), autoescape=select_autoescape(["html", "j2"]))
    return env.get_template("report.html.j2").render(r=report, titles=SECTION_TITLES, basis=label_basis_text(report))


def to_json(report: Report) -> str:
    """The report as indented JSON (``Report.model_validate_json`` reads it back)."""
    return report.model_dump_json(indent=2)


def write_report(report: Report, out_dir: Path, stem: str = "report") -> dict[str, Path]:
    """Write ``<stem>.md``, ``<stem>.html`` and ``<stem>.json`` into ``out_dir`` (created).
    Returns ``{"md": path, "html": path, "json": path}``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"md": out_dir / f"{stem}.md", "html": out_dir / f"{stem}.html", "json": out_dir / f"{stem}.json"}
    paths["md"].write_text(to_markdown(report), encoding="utf-8")
    paths["html"].write_text(to_html(report), encoding="utf-8")
    paths["json"].write_text(to_json(report), encoding="utf-8")
    return paths


def write_json(obj: object, path: Path) -> Path:
    """Write any JSON-serialisable object (e.g. a transcript) with indentation."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    return path
