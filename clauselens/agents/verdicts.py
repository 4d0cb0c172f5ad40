"""The support verdict (issue #19): whether a key finding's verified quote supports its claim, and whether
the cited facts' quotes support the report's answer -- the model's supports / contradicts / unrelated
verdict on each (claim, quoted text) pair, asked after the deterministic checks of
:func:`clauselens.reports.build.build_report` passed it. Split from :mod:`clauselens.agents.interrogator`
(which re-exports these names) so the verdict can be replaced by a trained entailment head (issue #40)
in one place.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal, Mapping, Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import Field

from clauselens.agents import prompts_interrogator as P
from clauselens.agents.common import CallRecord, call_structured
from clauselens.config import ModelSettings
from clauselens.errors import ModelResponseError
from clauselens.reports.build import finalize_support, is_marked
from clauselens.reports.model import CappedModel, Report
from clauselens.retrieval.types import Passage


def _ctx(context: str | None) -> str:
    return P.CONTEXT_BLOCK.format(context=context) if context else P.NO_CONTEXT


def _norm(q: str) -> str:
    return " ".join(q.lower().split()).rstrip("?. ")

class SupportVerdict(CappedModel):
    """The model's structured verdict on one (claim, quoted text) pair (issue #19)."""

    str_caps: ClassVar[dict[str, int]] = {"reason": 240}
    publish_required: ClassVar[tuple[str, ...]] = ("reason",)

    reason: str = Field(default="", description="One short sentence: what the quoted text says about the claim.")
    verdict: Literal["supports", "contradicts", "unrelated"] = Field(
        description="supports, contradicts or unrelated")


class SupportEvidenceVerdict(CappedModel):
    """The evidence-first form of :class:`SupportVerdict`: the quote's words that state the claim and
    what of the claim they do not state, before the verdict (``P.SUPPORT_EVIDENCE_SYSTEM``)."""

    str_caps: ClassVar[dict[str, int]] = {"evidence": 400, "missing": 200}
    publish_required: ClassVar[tuple[str, ...]] = ()

    evidence: str = Field(default="", description="The words of the quoted text that state the claim, copied word for word.")
    missing: str = Field(default="", description="Every part of the claim the evidence does not state; empty if none.")
    verdict: Literal["supports", "contradicts", "unrelated"] = Field(
        description="supports, contradicts or unrelated")


#: How the model is asked for a support verdict: ``reason`` (a one-sentence reason, then the verdict)
#: or ``evidence`` (:class:`SupportEvidenceVerdict`). Compared on the hand-labelled claims by
#: ``benchmarks/support_verdicts.py``.
SupportStyle = Literal["reason", "evidence"]
#: A ``missing`` that names nothing.
_NOTHING_MISSING = re.compile(r"^\W*(?:none|nothing|n/?a|no(?:thing)? (?:part|parts)?\s*(?:is )?missing|-)?\W*$", re.IGNORECASE)

#: Reply budget of one support verdict, in tokens (a 240-character reason is ~60 tokens).
SUPPORT_MAX_TOKENS = 128
#: ... and of an evidence-first one (up to 400 characters of evidence, 200 of missing parts).
SUPPORT_EVIDENCE_MAX_TOKENS = 256
#: Characters of quoted text shown in a support prompt (extended quotes are whole clauses).
SUPPORT_QUOTE_CHARS = 1500


def judge_support(claim: str, quote: str, location: str, *, model: BaseChatModel, context: str | None = None,
                  model_settings: ModelSettings | None = None, style: SupportStyle = "reason",
                  ) -> tuple[SupportVerdict, CallRecord]:
    """The model's :class:`SupportVerdict` on one (claim, quoted text) pair. With ``style="evidence"``
    the model is asked for a :class:`SupportEvidenceVerdict`, and a "supports" beside a part of the
    claim it names as missing counts as "unrelated" (the reason quotes both). Raises ``ModelResponseError``."""
    q = " ".join(quote.split())
    if len(q) > SUPPORT_QUOTE_CHARS:
        q = q[:SUPPORT_QUOTE_CHARS] + " [...]"
    fields = {"context_block": _ctx(context), "location": location, "quote": q, "claim": " ".join(claim.split())}
    if style == "reason":
        return call_structured(model, P.SUPPORT_SYSTEM, P.SUPPORT_USER.format(**fields), SupportVerdict,
                               agent="interrogator", step="support", model_settings=model_settings,
                               max_tokens=SUPPORT_MAX_TOKENS)
    ev, rec = call_structured(model, P.SUPPORT_EVIDENCE_SYSTEM, P.SUPPORT_EVIDENCE_USER.format(**fields),
                              SupportEvidenceVerdict, agent="interrogator", step="support", model_settings=model_settings,
                              max_tokens=SUPPORT_EVIDENCE_MAX_TOKENS)
    missing = "" if _NOTHING_MISSING.match(ev.missing) else ev.missing.strip()
    verdict = "unrelated" if ev.verdict == "supports" and missing else ev.verdict
    reason = (f"evidence: \"{ev.evidence.strip()}\"" if ev.evidence.strip() else "no evidence in the quote")
    reason += f"; not stated: {missing}" if missing else ""
    return SupportVerdict(reason=reason[:240], verdict=verdict), rec


_VERDICT_STATUS = {"supports": "supported", "contradicts": "contradicted", "unrelated": "unrelated"}


def head_verdict(claim: str, quote: str, verdict: Literal["head", "llm"]) -> SupportVerdict | None:
    """The support head's verdict on (claim, quote) (issue #40, ``clauselens.heads.support_ce`` when installed,
    else ``clauselens.heads.support``: P(supports) against the threshold in its head.json, no model call) when ``verdict == "head"`` and the head is
    installed; ``None`` (one notice when it is missing) means: ask the model."""
    if verdict != "head":
        return None
    from clauselens.heads.support_ce import load_or_none  # the cross-encoder when installed, else the logistic head

    head = load_or_none()
    if head is None:
        return None
    p = head.support(claim, quote)
    ok = p >= head.threshold
    return SupportVerdict(reason=f"support head: P(supports) {p:.2f} {'>=' if ok else '<'} threshold {head.threshold:.2f}",
                          verdict="supports" if ok else "unrelated")


def check_support(
    report: Report, passages: Mapping[str, Passage], *, model: BaseChatModel, context: str | None = None,
    model_settings: ModelSettings | None = None, documents: Sequence[Mapping[str, Any]] | None = None,
    verdict: Literal["head", "llm"] = "llm",
) -> tuple[Report, list[CallRecord], list[dict[str, Any]]]:
    """Ask the model whether each key finding's quoted text supports it (issue #19).

    Only findings that passed the deterministic checks of :func:`clauselens.reports.build.build_report`
    (``support == "unchecked"``, or ``"unconfirmed"``: from a candidate agreement, verified quote) are asked; ``supports`` makes them ``supported``,
    ``contradicts`` / ``unrelated`` take them off the cited facts. A verdict the model cannot
    give (``ModelResponseError``) leaves the finding ``unchecked`` and says so. The report is
    then re-finalised (:func:`clauselens.reports.build.finalize_support`).

    Returns ``(report, calls, verdicts)``; ``verdicts`` is one JSON-ready record per finding
    (statement, status, note, source: ``rules`` / ``model`` / ``none``) for the transcript.
    """
    cites = {c.id: c for c in report.citations}
    findings = []
    calls: list[CallRecord] = []
    log: list[dict[str, Any]] = []
    for f in report.key_findings:
        src = "rules" if f.support in ("contradicted", "unverified") else "none"
        if f.support in ("unchecked", "unconfirmed") and f.citation_ids:  # unconfirmed: passed the rules, candidate agreement
            cs = [cites[c] for c in f.citation_ids if c in cites]
            quote = " ".join(c.quote for c in cs)
            # the clause heading tells the model what the clause is about ("4.3 Non-Solicitation")
            location = "; ".join(dict.fromkeys(c.location + (f" ({' > '.join(c.heading_path[-2:])})" if c.heading_path else "")
                                               for c in cs))
            by_head = head_verdict(f.statement, quote, verdict)
            if by_head is not None:  # issue #40: the trained head's verdict, no model call
                f = f.model_copy(update={"support": _VERDICT_STATUS[by_head.verdict], "support_note": by_head.reason})
                findings.append(f)
                log.append({"statement": f.statement, "support": f.support, "note": f.support_note, "source": "head"})
                continue
            try:
                v, rec = judge_support(f.statement, quote, location, model=model, context=context,
                                       model_settings=model_settings)
                calls.append(rec)
                f = f.model_copy(update={"support": _VERDICT_STATUS[v.verdict], "support_note": f"model: {v.reason.strip()}"})
                src = "model"
            except ModelResponseError as e:
                f = f.model_copy(update={"support_note": f"the model's support check failed: {e}"})
        findings.append(f)
        log.append({"statement": f.statement, "support": f.support, "note": f.support_note, "source": src})
    out = report.model_copy(update={"key_findings": findings})
    return finalize_support(out, passages, documents), calls, log


def check_answer(
    report: Report, passages: Mapping[str, Passage], *, model: BaseChatModel, context: str | None = None,
    model_settings: ModelSettings | None = None, documents: Sequence[Mapping[str, Any]] | None = None,
    verdict: Literal["head", "llm"] = "llm",
) -> tuple[Report, list[CallRecord], dict[str, Any] | None]:
    """Ask the model whether the quotes of the report's cited facts support its *answer* (issue
    #19: a small model can cite the right clause and still answer something it does not say --
    "accepted when NTC returns an acknowledged copy" over a clause on deemed acceptance within three
    days). An answer that restates a supported finding is supported by rule (no call). A report
    with no cited fact, a silent one, an NLI label and an answer marked unverified already (some
    finding failed: :data:`~clauselens.reports.build.PARTLY_UNVERIFIED_PREFIX`) are not asked. ``contradicts`` / ``unrelated``
    mark the answer and conclusion unverified and the report partly verified
    (:func:`clauselens.reports.build.finalize_support`). Returns ``(report, calls, verdict record
    or None)``."""
    facts = [f for f in report.key_findings if f.cited_fact]
    answer = report.answer.strip()
    if report.documents_silent or report.label is not None or not facts or not answer:
        return report, [], None
    if report.answer_support != "unchecked":  # the deterministic checks already failed it (build_report)
        return report, [], {"statement": answer, "support": report.answer_support, "note": report.answer_support_note,
                            "source": "rules", "part": "answer"}
    if is_marked(answer):  # some finding failed: marked already (reports.build.finalize_support)
        return report, [], None
    if any(_norm(answer) == _norm(f.statement) and f.support == "supported" for f in facts):
        out = report.model_copy(update={"answer_support": "supported",
                                        "answer_support_note": "rules: the answer restates a supported finding"})
        return out, [], {"statement": answer, "support": "supported", "note": out.answer_support_note, "source": "rules",
                         "part": "answer"}
    cites = {c.id: c for c in report.citations}
    ids = list(dict.fromkeys(c for f in facts for c in f.citation_ids if c in cites))
    quote = " ".join(cites[c].quote for c in ids)
    location = "; ".join(dict.fromkeys(cites[c].location for c in ids))
    by_head = head_verdict(answer, quote, verdict)
    try:
        v, rec = (by_head, None) if by_head is not None else judge_support(
            answer, quote, location, model=model, context=context, model_settings=model_settings)
    except ModelResponseError as e:
        return report, [], {"statement": answer, "support": "unchecked", "note": f"the model's support check failed: {e}",
                            "source": "none", "part": "answer"}
    out = report.model_copy(update={"answer_support": _VERDICT_STATUS[v.verdict],
                                    "answer_support_note": v.reason.strip() if rec is None else f"model: {v.reason.strip()}"})
    return (finalize_support(out, passages, documents), [] if rec is None else [rec],
            {"statement": answer, "support": out.answer_support, "note": out.answer_support_note,
             "source": "model" if rec is not None else "head", "part": "answer"})
