"""What every report renderer says in words (issue #43: shared by :mod:`clauselens.reports.render`
(Markdown, HTML) and :mod:`clauselens.reports.render_docx` (Word), which used to import each other
at run time): section titles, the header block, the notes on gaps and missing findings, the
verification banner, the labels of quotes by rule and of the model's reading, how findings are
grouped and how a quote is shown on one line.
"""

from __future__ import annotations

from datetime import datetime, timezone

from clauselens.parsing.metadata import shown_date
from clauselens.reports.model import NO_MODEL_CALLED, Citation, Finding, Report, SourceDocument

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
    if NO_MODEL_CALLED in models:
        return f"none called: answered by rule (configured: {models[NO_MODEL_CALLED]})"
    names = list(models)
    if len(set(models.values())) == 1:
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
        return f"{next(iter(models.values()))}, for the {who}"
    return "; ".join(f"{a}: {m}" for a, m in models.items())


def document_text(d: SourceDocument) -> str:
    """One document of the header: ``"Consulting Agreement (consulting.pdf), dated May 18, 2020, 7 pages"``; which
    date it is when it is not plainly the agreement's (an amendment's own date; only a year: the opening text
    leaves the day blank or gives none, as ``library list`` shows it)."""
    if d.effective_date:
        when = f", {'amendment ' if d.doc_type == 'amendment' else ''}dated {shown_date(d.effective_date)}"
    elif d.year:
        when = f", of {d.year} (the year in its opening text, which gives no full date)"
    else:
        when = ", no date found in its opening text"
    out = d.label + when
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


#: Section 4 of a report led by retrieval's best clauses (``Finding.rule == "lead"``): their quotes are verified,
#: but nothing checked that they answer the question (a fresh-clone tryout: "can the consultant walk away early,
#: and does he still get paid?" printed "No knowledge gaps recorded" under clauses that did not say).
LEAD_GAPS_NOTE = ("Not checked: whether the clauses above answer every part of the question. They are retrieval's "
                  "best matches for it, quoted word for word; no rule checked that they answer it, so read them "
                  "against the question.")


def gaps_note(report: Report) -> str:
    """The one sentence section 4 shows when it lists nothing: only said of a verified report
    (``""`` otherwise: the section is left out rather than filled with "none"), and of one led by
    retrieval's best clauses only :data:`LEAD_GAPS_NOTE` (a gaps line never claims a relevance it has not checked)."""
    if report.verification == "verified" and not report.unaddressed_documents:
        if any(f.rule == "lead" for f in report.key_findings):
            return LEAD_GAPS_NOTE
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
#: The heading of a declined report's nearest clauses (``Finding.rule == "nearest"``): shown, never as facts.
NEAREST_HEADING = "The nearest clauses (they do not answer the question)"
#: ... and the line beside each.
NEAREST_LABEL = "Why it is shown (written by clauselens, not the model)"


def reading_label(report: Report, f: Finding | None = None) -> str:
    """What the statement beside a quoted fact is called: :data:`READING_LABEL`, :data:`RULE_LABEL` for a
    statement written by rule (a report whose statements all are, or a finding ``f`` quoted by rule),
    :data:`LEAD_LABEL` for a clause retrieval chose; a model finding citing none of the clauses quoted by rule
    says so (:data:`OUTSIDE_NOTE`)."""
    if f is not None and f.rule == "lead":
        return LEAD_LABEL
    if f is not None and f.rule == "nearest":
        return NEAREST_LABEL
    if report.readings == "rules" or (f is not None and f.rule is not None):
        return RULE_LABEL
    return READING_LABEL + (OUTSIDE_NOTE if f is not None and report.outside_rule_clauses(f) else "")


def finding_groups(report: Report) -> list[tuple[str, list[Finding]]]:
    """The key findings as the renderers list them: the clauses quoted by rule first under
    :data:`RULE_HEADING` (a named clause or retrieval's best clauses; issue #38), then the rest under
    :data:`FINDINGS_HEADING` (the model's findings; a definition report's findings), then a declined report's nearest
    clauses under :data:`NEAREST_HEADING`. Empty groups left out."""
    first = [f for f in report.key_findings if f.rule in ("lead", "named_clause")]
    rest = [f for f in report.key_findings if f.rule not in ("lead", "named_clause", "nearest")]
    nearest = [f for f in report.key_findings if f.rule == "nearest"]
    return [(h, fs) for h, fs in ((RULE_HEADING, first), (FINDINGS_HEADING, rest), (NEAREST_HEADING, nearest)) if fs]


def quote_text(c: Citation) -> str:
    """A citation's quote on one line (the source text's line breaks and runs of spaces as one space)."""
    return " ".join(c.quote.split())


__all__ = ["FINDINGS_HEADING", "LEAD_GAPS_NOTE",
           "LEAD_LABEL", "NEAREST_HEADING", "NEAREST_LABEL", "NO_CITATIONS",
           "OUTSIDE_NOTE", "READING_LABEL", "RULE_HEADING", "RULE_LABEL", "SECTION_TITLES",
           "SELECTED_NOTE", "citation_title", "document_text", "finding_groups", "format_utc", "gaps_note", "header_fields",
           "label_basis_text", "models_text", "no_findings_note", "quote_text", "reading_label", "section_titles", "show_conclusion",
           "verification_banner"]
