"""The one progress formatter (issue #43): what a user is told as the agents' graph runs, for the
command line (``clauselens ask``'s progress lines and spinner), the chat REPL and the web UI (their
``round`` events, written by :class:`clauselens.interfaces.engine.GraphInterrogate`).

:func:`progress_lines` turns one graph node's update into :class:`ProgressLine` s (a bold label,
the text, a level), :func:`progress_status` says what runs next (the CLI's spinner), and
:func:`draft_preview` cuts a draft being written to one line. They read the run events through
their typed payloads (:mod:`clauselens.events`). Pure functions: no console, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from clauselens import events as ET
from clauselens.reports.model import READING_UNANSWERED_GAP

#: Characters of a draft's answer a one-line progress display shows (its end: the words just written).
DRAFT_PREVIEW_CHARS = 100
Level = Literal["info", "warning", "error"]


@dataclass(frozen=True)
class ProgressLine:
    """One line of progress: ``label`` (shown bold; may be empty), ``text``, ``level`` (colour) and
    ``indent`` (a detail of the line above, e.g. a document's warning)."""

    label: str
    text: str
    level: Level = "info"
    indent: bool = False

    def plain(self) -> str:
        """The line as plain text (``label: text``)."""
        return (f"{self.label}: {self.text}" if self.label else self.text) if self.text else self.label


def draft_preview(text: str, n: int = DRAFT_PREVIEW_CHARS) -> str:
    """The last ``n`` characters of draft text on one line ("…" in front when cut). Pure."""
    t = " ".join(text.split())
    return t if len(t) <= n else "…" + t[-(n - 1):]


def _last(update: Mapping[str, Any], kind: ET.EventType) -> Mapping[str, Any] | None:
    found = ET.of_type(update.get("events") or [], kind)
    return found[-1] if found else None


def _archivist(update: Mapping[str, Any]) -> list[ProgressLine]:
    out = []
    for d in update.get("documents") or []:
        name = d.get("title") or Path(d.get("source_path") or "").name
        pages = f"{d['pages']} pages" if d.get("pages") else "plain text (no pages)"
        out.append(ProgressLine("Ingested", f"{name}: {d.get('chars', 0):,} chars, {pages}, "
                                            f"{d.get('numbered_clauses', 0)} numbered clauses"))
        out += [ProgressLine("warning", w, "warning", indent=True) for w in d.get("warnings") or []]
    out += [ProgressLine("Left out (cannot be read)", m, "error") for m in update.get("left_out") or []]
    return out


def _researcher(update: Mapping[str, Any]) -> list[ProgressLine]:
    found = _last(update, ET.RETRIEVAL)
    if found is None:
        return []
    ev = cast(ET.RetrievalEvent, found)
    return [ProgressLine(f"Round {ev.get('turn')}", f"Researcher searched {len(ev.get('questions') or [])} question(s) "
                                                    f"({len(ev.get('results') or [])} searches), "
                                                    f"{len(ev.get('new_passage_ids') or [])} new passage(s)")]


def _interrogator(update: Mapping[str, Any]) -> list[ProgressLine]:
    notes = [cast(ET.NoteEvent, e)["text"] for e in ET.of_type(update.get("events") or [], ET.NOTE)]
    out = [ProgressLine("Note", n) for n in notes]
    if "sub_questions" in update:
        subs = list(update["sub_questions"])
        return out + [ProgressLine("Sub-questions", f"{len(subs)}: " + " | ".join(subs))]
    found = _last(update, ET.DECISION)
    if found is not None:
        d = cast(ET.DecisionEvent, found)
        verdict = "complete" if (d.get("decision") or {}).get("complete") else "incomplete"
        fu = d.get("follow_up_questions") or []
        text = f"Interrogator drafted an answer ({verdict}): {d.get('reason', '')}"
        return out + [ProgressLine(f"Draft {d.get('turn')}", text + (" -> follow-up: " + " | ".join(fu) if fu else ""))]
    if update.get("stop_reason"):
        out.append(ProgressLine("Stop", str(update["stop_reason"])))
    return out


#: What a clause quoted by rule is, per ``Finding.rule`` (issue #38): said instead of "supported", which no check decided.
_RULE_WHAT = {"named_clause": "the clause the question names", "definition": "the agreement's definition",
              "lead": "retrieval's best matches for the question; no check decided that they answer it",
              "nli_evidence": "the evidence spans the probe ranked"}


def _quoted_by_rule(report: Mapping[str, Any]) -> tuple[int, str, set[str]]:
    """How many of ``report``'s findings quote a clause chosen by rule, what they are (:data:`_RULE_WHAT`), and their
    statements (so their rule-written support entries are not counted as checked findings)."""
    ruled = [f for f in report.get("key_findings") or [] if f.get("rule")]
    kinds = list(dict.fromkeys(str(f["rule"]) for f in ruled))
    return len(ruled), "; ".join(_RULE_WHAT.get(k, k) for k in kinds), {str(f.get("statement")) for f in ruled}


def _report(update: Mapping[str, Any]) -> list[ProgressLine]:
    found = _last(update, ET.REPORT)
    ev = cast(ET.RunReportEvent, found or {})
    report = update.get("report") or {}
    support = ev.get("support") or []
    n_rule, what, ruled = _quoted_by_rule(report)
    # the answer's check is not a finding; a clause quoted by rule is verbatim, not "supported" by any check
    findings = [x for x in support if x.get("part") != "answer" and str(x.get("statement")) not in ruled]
    answer = next((x for x in support if x.get("part") == "answer"), None)
    ok = sum(1 for x in findings if x.get("support") in ("supported", "unchecked"))
    parts = [f"{n_rule} clause(s) quoted word for word ({what})"] if n_rule else []
    if findings or not n_rule:
        whose = "of the model's " if n_rule else ""
        parts.append(f"{ok} of {len(findings)} {whose}findings supported by their quotes")
    text = "; ".join(parts)
    if not findings and not n_rule and ev.get("verification") == "silent":
        # a declined question: nothing was found to check, so no "0 of 0 findings supported" (a new user's tryout)
        return [ProgressLine("Report ready", "declined: the documents do not address the question; nothing quoted")]
    if READING_UNANSWERED_GAP in (report.get("knowledge_gaps") or []):
        # issue #38: clauses quoted by rule are verbatim, but the reading found none answers: say that, not "3 of 3"
        text = (f"{n_rule or len(findings)} clause(s) quoted word for word; the model's reading judged that none answers "
                "the question")
    if answer is not None:
        text += f"; the answer {'is' if answer.get('support') in ('supported', 'unchecked') else 'is not'} supported"
    if ev.get("verification") and (findings or not n_rule or ev["verification"] != "verified"):
        text += f" ({ev['verification']})"
    cites = ev.get("citations")
    if cites is None:
        cites = len((update.get("report") or {}).get("citations") or [])
    return [ProgressLine("Report ready", text + f"; {cites} verified citation(s)")]


_NODES = {"archivist": _archivist, "researcher": _researcher, "interrogator": _interrogator, "report": _report}


def progress_lines(node: str, update: Mapping[str, Any]) -> list[ProgressLine]:
    """The lines to show when graph node ``node`` (archivist, researcher, interrogator, report)
    has produced ``update``; none for another node. Pure."""
    fn = _NODES.get(node)
    return fn(update) if fn is not None else []


def progress_status(node: str, update: Mapping[str, Any]) -> str | None:
    """What runs after ``node`` (a spinner's text), or None. Pure."""
    if node == "archivist":
        return "Interrogator: breaking the question down..."
    if node == "researcher":
        return f"Interrogator: drafting (round {update.get('turn')})..."
    if node == "interrogator":
        return ("Researcher: searching..." if update.get("route") == "research"
                else "Writing the report; checking each finding against its quote...")
    return None


def progress_text(node: str, update: Mapping[str, Any]) -> str | None:
    """:func:`progress_lines` as one plain line (``" · "`` between lines), or None. Pure."""
    lines = progress_lines(node, update)
    return " · ".join(line.plain() for line in lines) if lines else None


__all__ = ["DRAFT_PREVIEW_CHARS", "ProgressLine", "draft_preview", "progress_lines", "progress_status", "progress_text"]
