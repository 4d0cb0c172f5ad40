"""The Interrogator: decomposes the question, drafts a grounded report from the Researcher's
passages, and decides (structured :class:`StopDecision`) whether to ask follow-ups.

Stop rule (:func:`next_questions`, pure): stop when the turn limit is reached; otherwise ask
follow-ups when the model judges the draft incomplete, or — at least once — when the draft
names knowledge gaps (issue #2: "asks the Researcher at least one follow-up question when
its draft names a knowledge gap"); stop when there is nothing new to ask.

Its steps in the agents' graph (:mod:`clauselens.graph.builder`): :func:`interrogator_node`
(decompose on the first visit; after each research round draft, decide and apply the stop rule)
and :func:`report_node` (quote verification, support check and the final report).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Literal, Mapping, Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import Field

from clauselens import events as ET
from clauselens.agents import prompts_interrogator as P
from clauselens.agents.common import CallRecord, budget_passages, call_structured
from clauselens.agents.definitions import definition_draft, definitions_supported
from clauselens.agents.delivery import (
    declined_draft,
    document_labels,
    lead_quotes,
    question_abstained,
    question_ranking,
    relevance,
    rule_step,
    rule_target,
)
from clauselens.agents.nli import combine, probe_matches, probe_step
from clauselens.agents.refusal import refuse_injected
from clauselens.agents.resources import AgentResources
from clauselens.agents.state import GraphState, passages_of
from clauselens.agents.verdicts import (  # noqa: F401  (re-exported: the support verdict's public names)
    SUPPORT_EVIDENCE_MAX_TOKENS,
    SUPPORT_MAX_TOKENS,
    SUPPORT_QUOTE_CHARS,
    SupportEvidenceVerdict,
    SupportStyle,
    SupportVerdict,
    check_answer,
    check_support,
    judge_support,
)
from clauselens.config import ModelSettings
from clauselens.errors import ModelResponseError
from clauselens.parsing.injection import is_suspicious
from clauselens.reports.build import (
    GAP_UNADDRESSED,
    MAX_COVERAGE_DOCS,
    build_report,
    finalize_support,
    quoted_facts,
    strip_mark,
)
from clauselens.reports.model import (
    SILENT_ANSWER,
    CappedModel,
    LabelBasis,
    NLILabel,
    NLIReportDraft,
    Report,
    ReportDraft,
    RuleQuote,
    from_contractnli,
    to_contractnli,
)
from clauselens.retrieval.types import Passage

#: Most sub-questions kept from the decomposition.
MAX_SUB_QUESTIONS = 3
#: Most follow-up questions asked per round.
MAX_FOLLOW_UPS = 2
#: Tokens reserved for instructions, question, context and the JSON schema in a draft prompt.
PROMPT_OVERHEAD_TOKENS = 1200
#: Upper bound on passage tokens in a draft prompt: keeps a draft to ~25 s of prompt reading
#: for the 1.5B model on 2 cores (~135 tok/s, ../shared/MODELS.md) while leaving room for answers.
DRAFT_PASSAGE_TOKENS = 3200
#: Reply budgets of the short calls (decomposition, stop decision), in tokens.
SHORT_MAX_TOKENS = 256
#: Characters of each labelled precedent shown in a draft prompt.
PRECEDENT_CHARS = 400


class SubQuestions(CappedModel):
    """Decomposition output."""

    caps: ClassVar[dict[str, int]] = {"sub_questions": MAX_SUB_QUESTIONS}
    mins: ClassVar[dict[str, int]] = {"sub_questions": 1}

    sub_questions: list[str] = Field(default_factory=list, description="1-3 short sub-questions.")


class StopDecision(CappedModel):
    """The Interrogator's structured judgement of its draft."""

    caps: ClassVar[dict[str, int]] = {"follow_up_questions": MAX_FOLLOW_UPS}

    complete: bool = Field(description="True if the draft fully answers the question.")
    reason: str = Field(default="", description="One sentence why.")
    follow_up_questions: list[str] = Field(default_factory=list, description="0-2 questions aimed at the gaps.")



def _ctx(context: str | None) -> str:
    return P.CONTEXT_BLOCK.format(context=context) if context else P.NO_CONTEXT


def _norm(q: str) -> str:
    return " ".join(q.lower().split()).rstrip("?. ")


def decompose(question: str, *, model: BaseChatModel, context: str | None = None,
              model_settings: ModelSettings | None = None) -> tuple[list[str], CallRecord]:
    """Sub-questions for ``question`` (at most :data:`MAX_SUB_QUESTIONS`; the question itself
    if the model returns none). Raises ``ModelResponseError`` from the model layer."""
    out, rec = call_structured(model, P.DECOMPOSE_SYSTEM, P.DECOMPOSE_USER.format(context_block=_ctx(context), question=question),
                               SubQuestions, agent="interrogator", step="decompose", model_settings=model_settings,
                               max_tokens=SHORT_MAX_TOKENS)
    subs: list[str] = []
    for q in out.sub_questions:
        q = " ".join(q.split())
        if q and _norm(q) not in {_norm(s) for s in subs}:
            subs.append(q)
    return (subs[:MAX_SUB_QUESTIONS] or [question]), rec


def _by_document(items: list[tuple[str, Passage]]) -> list[tuple[str, Passage]]:
    """``items`` round-robin across their documents (order within a document kept), so a
    budget that cuts the list still shows every document's best passages."""
    groups: dict[str, list[tuple[str, Passage]]] = {}
    for it in items:
        groups.setdefault(it[1].doc_id, []).append(it)
    if len(groups) < 2:
        return items
    out: list[tuple[str, Passage]] = []
    queues = list(groups.values())
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def document_names(documents: Sequence[Mapping[str, Any]] | None) -> dict[str, str]:
    """``doc_id -> name`` (title, else file name) of the run's documents (the Archivist's
    summaries), in order; empty without summaries (pre-indexed tools, a whole library)."""
    out: dict[str, str] = {}
    for d in documents or []:
        if d.get("doc_id"):
            out.setdefault(str(d["doc_id"]), str(d.get("title") or str(d.get("source_path") or d["doc_id"]).rsplit("/", 1)[-1]))
    return out


def passage_order(passages: Mapping[str, Passage], recent: Sequence[str]) -> list[tuple[str, Passage]]:
    """Passages for a draft: this round's new ones first (retrieval order), then the rest by score;
    with several documents, round-robin across the documents."""
    first = [(pid, passages[pid]) for pid in recent if pid in passages]
    seen = {pid for pid, _ in first}
    rest = sorted(((pid, p) for pid, p in passages.items() if pid not in seen), key=lambda x: -x[1].score)
    # interleave so earlier rounds' best evidence is not crowded out by a weak new round
    out: list[tuple[str, Passage]] = []
    while first or rest:
        if first:
            out.append(first.pop(0))
        if rest:
            out.append(rest.pop(0))
    return _by_document(out)


def precedents_block(precedents: Mapping | None) -> str:
    """The draft prompt's block of labelled precedents from other contracts (empty string when
    there are none): one line per precedent, ``[label] "text"``, text cut to
    :data:`PRECEDENT_CHARS` characters."""
    items = list((precedents or {}).get("precedents") or [])
    if not items:
        return ""
    lines = [P.PRECEDENT_LINE.format(label=from_contractnli(str(e.get("label"))) or str(e.get("label")),
                                     text=" ".join(str(e.get("text", "")).split())[:PRECEDENT_CHARS]) for e in items]
    return P.PRECEDENTS_BLOCK.format(lines="\n".join(lines))


def decide_label(llm_label: NLILabel | None, precedents: Mapping | None, vote_weight: float) -> LabelBasis:
    """The final NLI label from the model's label and the precedents tool's trace.

    With an abstaining trace (best relevance under the tool's threshold) the label is
    ``not_mentioned``; with a non-empty vote and ``vote_weight > 0``,
    ``argmax (1 - w) * onehot(llm_label) + w * vote`` (:func:`clauselens.agents.nli.combine`);
    otherwise the model's label. Never raises; returns a :class:`LabelBasis`.
    """
    pre = dict(precedents or {})
    vote = {k: float(v) for k, v in (pre.get("vote") or {}).items()}
    def basis(decided: NLILabel | None, source: Literal["model", "model+vote", "abstain"]) -> LabelBasis:
        return LabelBasis(decided=decided, source=source, llm_label=llm_label, vote=vote, vote_weight=vote_weight,
                          hypothesis_id=pre.get("hypothesis_id"), max_relevance=pre.get("max_relevance"),
                          precedents=list(pre.get("precedents") or []))

    if pre.get("abstain"):
        return basis("not_mentioned", "abstain")
    if vote_weight > 0 and any(vote.values()):
        bank_label = combine(to_contractnli(llm_label), vote, vote_weight)
        return basis(from_contractnli(bank_label), "model+vote")
    return basis(llm_label, "model")


def draft_report(
    question: str, passages: Mapping[str, Passage], *, model: BaseChatModel, recent: Sequence[str] = (),
    context: str | None = None, asked: Sequence[str] = (), previous: ReportDraft | None = None,
    nli: bool = False, model_settings: ModelSettings | None = None, precedents: Mapping | None = None,
    documents: Sequence[Mapping[str, Any]] | None = None,
) -> tuple[ReportDraft, CallRecord, list[str]]:
    """One draft from the passages that fit the budget. Returns ``(draft, call, shown_ids)``.

    Budget: ``min(DRAFT_PASSAGE_TOKENS, n_ctx - max_tokens - PROMPT_OVERHEAD_TOKENS)`` tokens,
    counted with the model's tokenizer where available. ``precedents`` (the ``precedents``
    tool's trace) adds labelled precedents from other contracts after the passages (they are
    guidance, never citable). ``documents`` are the run's document summaries: with several, the
    prompt names them and asks for each to be addressed, and :func:`mark_unaddressed` marks the
    ones the draft does not cite. Raises ``ModelResponseError``.
    """
    ms = model_settings or ModelSettings()
    budget = max(400, min(DRAFT_PASSAGE_TOKENS, ms.n_ctx - ms.max_tokens - PROMPT_OVERHEAD_TOKENS))
    block, shown = budget_passages(passage_order(passages, recent), budget, model)
    earlier = P.EARLIER_BLOCK.format(questions="; ".join(asked)) if asked else ""
    prev = ""
    if previous is not None:
        prev = P.PREVIOUS_DRAFT_BLOCK.format(answer=previous.answer or "-", gaps="; ".join(previous.knowledge_gaps) or "none")
    names = document_names(documents)
    docs_block = P.DOCUMENTS_BLOCK.format(n=len(names), names="; ".join(names.values())) if len(names) > 1 else ""
    user = P.DRAFT_USER.format(context_block=_ctx(context) + docs_block, question=question, earlier_block=earlier,
                               previous_draft_block=prev, passages=block or P.NO_PASSAGES,
                               precedents_block=precedents_block(precedents))
    system = P.DRAFT_SYSTEM + (P.DRAFT_NLI_RULE if nli else "")
    schema = NLIReportDraft if nli else ReportDraft  # hypothesis questions must carry a label
    draft, rec = call_structured(model, system, user, schema, agent="interrogator", step="draft", model_settings=ms)
    return mark_unaddressed(draft, passages, question, documents), rec, shown


def mark_unaddressed(draft: ReportDraft, passages: Mapping[str, Passage], question: str,
                     documents: Sequence[Mapping[str, Any]] | None) -> ReportDraft:
    """With several documents, a document that no finding of ``draft`` cites gets a knowledge
    gap (``"Not addressed: <name>"``) and a follow-up question aimed at it, so the stop rule
    researches it once more (:func:`next_questions` asks at least once when there are gaps).
    The report's own coverage lines replace these gaps (:func:`clauselens.reports.build.finalize_support`)."""
    names = document_names(documents)
    if not 1 < len(names) <= MAX_COVERAGE_DOCS:
        return draft
    cited = {passages[pid].doc_id for f in draft.findings for pid in f.passage_ids if pid in passages}
    missing = [(d, n) for d, n in names.items() if d not in cited]
    if not missing:
        return draft
    gaps = [g for g in draft.knowledge_gaps if not g.startswith(GAP_UNADDRESSED)]
    gaps += [f"{GAP_UNADDRESSED} {n}: no finding cites it" for _, n in missing]
    asks = [f"{question.rstrip(' ?')} in {n}?" for _, n in missing]
    return draft.model_copy(update={"knowledge_gaps": gaps, "follow_up_questions": asks + list(draft.follow_up_questions)})


def decide(question: str, draft: ReportDraft, *, model: BaseChatModel, asked: Sequence[str] = (),
           context: str | None = None, model_settings: ModelSettings | None = None) -> tuple[StopDecision, CallRecord]:
    """The model's :class:`StopDecision` on ``draft``. Raises ``ModelResponseError``."""
    findings = "; ".join(f.statement for f in draft.findings) or "none"
    user = P.DECIDE_USER.format(context_block=_ctx(context), question=question, asked="; ".join(asked) or "none",
                                answer=draft.answer or "-", findings=findings, gaps="; ".join(draft.knowledge_gaps) or "none")
    return call_structured(model, P.DECIDE_SYSTEM, user, StopDecision, agent="interrogator", step="decide",
                           model_settings=model_settings, max_tokens=SHORT_MAX_TOKENS)


def next_questions(
    draft: ReportDraft, decision: StopDecision, *, turn: int, max_turns: int, asked: Sequence[str],
    follow_ups_asked: int,
) -> tuple[list[str], str]:
    """The stop rule. Returns ``(follow_up_questions, reason)``; an empty list means stop.

    ``turn`` is the number of research rounds done so far (>= 1). Follow-ups come from the
    decision, else the draft's own follow-up questions, else its knowledge gaps turned into
    questions; questions already asked are never repeated.
    """
    if turn >= max_turns:
        return [], f"turn limit reached ({turn}/{max_turns})"
    gaps = [g for g in draft.knowledge_gaps if g.strip()]
    if decision.complete and not (gaps and follow_ups_asked == 0):
        return [], "judged complete" + (f": {decision.reason}" if decision.reason else "")
    done = {_norm(q) for q in asked}
    pool = list(decision.follow_up_questions) + list(draft.follow_up_questions)
    pool += [g if g.rstrip().endswith("?") else f"What does the contract say about {g.rstrip('.').lower()}?" for g in gaps]
    out: list[str] = []
    for q in pool:
        q = " ".join(q.split())
        if q and _norm(q) not in done:
            done.add(_norm(q))
            out.append(q)
        if len(out) >= MAX_FOLLOW_UPS:
            break
    if not out:
        return [], "nothing new to ask"
    why = "draft names knowledge gaps" if decision.complete else "judged incomplete"
    return out, why + (f": {decision.reason}" if decision.reason and not decision.complete else "")


# ---------------------------------------------------------------- the graph's steps
def silent_draft(question: str, nli: bool) -> ReportDraft:
    """The draft when no passage matched: the documents do not address the question (NLI:
    ``not_mentioned``). Written without a model call."""
    return ReportDraft(
        title=question, topic_summary=question, answer=SILENT_ANSWER, addressed=False,
        knowledge_gaps=["No passage in the documents matched the question."], conclusion=SILENT_ANSWER,
        label="not_mentioned" if nli else None,
    )


def interrogator_node(state: GraphState, res: AgentResources) -> dict[str, Any]:
    """The graph's ``interrogator`` step.

    First visit (``turn`` 0): :func:`decompose` the question into sub-questions for the
    Researcher (on a failed decomposition, the question as asked). After a research round:
    with no passages at all, :func:`silent_draft` (no model call); when the question asks how a
    term is defined and the passages hold its definition, the extractive draft of
    :func:`clauselens.agents.definitions.definition_draft` (no model call;
    ``Settings.extractive_definitions``); else :func:`draft_report`, :func:`decide` and the stop
    rule (:func:`next_questions`), and in NLI mode the label's basis (:func:`decide_label`).
    Sets ``route``: ``"research"`` with follow-ups pending, else ``"report"``. A failed draft
    keeps the previous one (raises ``ModelResponseError`` when there is none)."""
    settings = res.settings
    question, context = state["question"], state.get("context")
    nli = state.get("mode") == "nli"
    max_turns = int(state.get("max_turns") or settings.max_turns)
    ms = settings.model_for("interrogator")
    turn = int(state.get("turn") or 0)
    # issue #40: a ContractNLI hypothesis is labelled by the probe after one search (unless precedents are asked to vote)
    probe = nli and "precedents" not in res.tools()
    if turn == 0 and probe and probe_matches(question):
        return {"sub_questions": [question], "pending": [question], "route": "research", "follow_ups_asked": 0,
                "rule_target": "nli_probe",  # no search plan either: the hypothesis as asked is searched
                "events": [{"type": ET.NOTE, "text": "a ContractNLI hypothesis: the probe labels it, not decomposed"},
                           {"type": ET.DECOMPOSE, "sub_questions": [question]}]}
    if turn == 0:
        target = None if nli else rule_target(question, settings.depth)
        if target is not None:  # issue #38: a rule decides what to quote; no decomposition
            what = "quick depth: retrieval's best clauses" if target == "lead" else f"{target.replace('_', ' ')} question"
            subs, ev = [question], [{"type": ET.NOTE, "text": f"{what}: quoted by rule, not decomposed"}]
        else:
            try:
                subs, rec = decompose(question, model=res.model("interrogator"), context=context, model_settings=ms)
                ev = [{"type": ET.LLM_CALL, **rec.as_dict()}]
            except ModelResponseError as e:
                subs, ev = [question], [{"type": ET.NOTE, "text": f"decomposition failed, researching the question as asked: {e}"}]
        pending = list(dict.fromkeys([question, *subs]))  # the question as asked ranks the clauses that lead the report
        return {"sub_questions": subs, "pending": pending, "route": "research", "follow_ups_asked": 0,
                "rule_target": target, "events": ev + [{"type": ET.DECOMPOSE, "sub_questions": subs}]}

    passages = passages_of(state)
    asked = list(state.get("asked") or [])
    previous = ReportDraft.model_validate(state["draft"]) if state.get("draft") else None
    events: list[dict[str, Any]] = []
    chunks = next((list(cs) for t in res.tools().values() if (cs := getattr(t, "chunks", None))), []) if probe else []
    probed = probe_step(question, passages, turn, chunks) if probe else None
    if probed is not None:  # issue #40: labelled by the ContractNLI probe over the whole contract, evidence quoted; no model call
        return probed
    if not passages:  # the search's own reason ("no matching clause found: ... never mentions 'bribery'") is kept
        reason = None if nli else question_abstained(state.get("events") or [], question)
        draft = declined_draft(question, reason) if reason else silent_draft(question, nli)
        events.append({"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": [],
                       "note": "no passages retrieved; no model call"})
        return {"draft": draft.model_dump(mode="json"), "route": "report", "complete": True,
                "stop_reason": "nothing relevant found", "events": events}
    if not nli and settings.extractive_definitions:
        subs = [] if state.get("rule_target") == "definition" else state.get("sub_questions") or []
        ddraft = definition_draft(question, passages, documents=state.get("documents"), sub_questions=subs)
        if ddraft is not None and ddraft.follow_up_questions and not state.get("follow_ups_asked"):
            # issue #38: the meaning is given in a clause not retrieved yet ("has the meaning given in Section 9"):
            # research it once, by rule, whatever the turn limit (no model call: the plan is skipped)
            events.append({"type": ET.NOTE, "text": "the definition refers to " + "; ".join(ddraft.follow_up_questions)})
            return {"pending": list(ddraft.follow_up_questions), "route": "research", "follow_ups_asked": 1,
                    "rule_target": "definition", "events": events}
        if ddraft is not None:  # a definition is quoted, not paraphrased: no model call
            events.append({"type": ET.DRAFT, "turn": turn, "draft": ddraft.model_dump(mode="json"),
                           "shown": [pid for f in ddraft.findings for pid in f.passage_ids],
                           "note": "definition quoted from the passages (extractive); no model call"})
            return {"draft": ddraft.model_dump(mode="json"), "route": "report", "complete": True, "extractive": True,
                    "stop_reason": "definition found in the documents", "events": events}
    if not nli:
        ruled = rule_step(state, lambda: res.model("interrogator"), settings, passages, turn)
        if ruled is not None:  # issue #38: a named clause quoted by rule, or no clause passes the bar
            return ruled
    try:
        draft, rec, shown = draft_report(
            question, passages, model=res.model("interrogator"), recent=state.get("last_new_ids") or [],
            context=context, asked=asked, previous=previous, nli=nli, model_settings=ms,
            precedents=state.get("precedents"), documents=state.get("documents"))
    except ModelResponseError as e:
        if previous is None:
            raise
        events.append({"type": ET.NOTE, "text": f"draft {turn} failed, keeping the previous draft: {e}"})
        return {"route": "report", "complete": False, "stop_reason": "draft failed", "events": events}
    events += [{"type": ET.LLM_CALL, **rec.as_dict()},
               {"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": shown}]
    if turn >= max_turns:  # no round is left to research: the stop decision would change nothing (no call)
        decision = StopDecision(complete=False, reason="turn limit reached; the model was not asked to judge the draft")
    else:
        try:
            decision, drec = decide(question, draft, model=res.model("interrogator"), asked=asked,
                                    context=context, model_settings=ms)
            events.append({"type": ET.LLM_CALL, **drec.as_dict()})
        except ModelResponseError as e:
            decision = StopDecision(complete=False, reason=f"decision failed: {e}")
    follow_ups, why = next_questions(draft, decision, turn=turn, max_turns=max_turns, asked=asked,
                                     follow_ups_asked=int(state.get("follow_ups_asked") or 0))
    events.append({"type": ET.DECISION, "turn": turn, "decision": decision.model_dump(mode="json"),
                   "follow_up_questions": follow_ups, "reason": why})
    upd: dict[str, Any] = {"draft": draft.model_dump(mode="json"), "complete": decision.complete, "events": events}
    if nli:
        basis = decide_label(draft.label, state.get("precedents"), settings.retrieval.precedent_vote_weight)
        upd["label_basis"] = basis.model_dump(mode="json")
        events.append({"type": ET.LABEL, "turn": turn, **basis.model_dump(mode="json", exclude={"precedents"})})
    if follow_ups:
        upd.update(pending=follow_ups, route="research", follow_ups_asked=int(state.get("follow_ups_asked") or 0) + 1)
    else:
        upd.update(route="report", stop_reason=why)
    return upd


def declined(report: Report, draft: ReportDraft, passages: Mapping[str, Passage],
             documents: Sequence[Mapping[str, Any]] | None) -> Report:
    """The report of a question no retrieved clause passes the relevance bar for and whose draft
    quotes nothing verifiable (issue #38: decline cleanly, never a quote-less "Unverified" answer): the
    documents do not address it, and what the model drafted is kept under knowledge gaps as a line."""
    out = build_report(silent_draft(report.question, False), passages, question=report.question, context=report.context,
                       turns=report.turns, complete=report.complete, documents=documents)
    gap = f"No retrieved clause passed the relevance bar; the model's draft (not an answer) read: {strip_mark(draft.answer)}"
    # the model's findings stay listed, none of them a fact (each was checked, and failed)
    out = out.model_copy(update={"key_findings": report.key_findings, "citations": report.citations,
                                 "dropped_quotes": report.dropped_quotes,
                                 "knowledge_gaps": [*out.knowledge_gaps, gap[:400]]})
    return finalize_support(out, passages, documents)


def retrieval_warnings(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Distinct "graph retrieval unavailable ..." messages from the run's retrieval events (a
    tool's ``reason``, or the ``graph`` entry of a fused tool's trace), for the report."""
    out: list[str] = []
    for ev in ET.of_type(events, ET.RETRIEVAL):
        for r in ev.get("results") or []:
            graph = (r.get("trace") or {}).get("graph")
            for msg in (r.get("reason"), graph if isinstance(graph, str) else None):
                if isinstance(msg, str) and msg.startswith("graph retrieval unavailable") and msg not in out:
                    out.append(msg)
    return out


def report_node(state: GraphState, res: AgentResources) -> dict[str, Any]:
    """The graph's ``report`` step: the final :class:`~clauselens.reports.model.Report` from the
    last draft (:func:`clauselens.reports.build.build_report`: quote verification, deterministic
    support checks), then the support check of each finding -- by rule for an extractive
    definition draft (:func:`clauselens.agents.definitions.definitions_supported`), else by the
    model (:func:`check_support`, ``Settings.support_check``) -- and the files left out, the
    retrieval warnings and the documents' suspicious-text warnings. Returns the state update
    (``report``, ``events``)."""
    settings = res.settings
    nli = state.get("mode") == "nli"
    draft = ReportDraft.model_validate(state["draft"]) if state.get("draft") else silent_draft(state["question"], nli)
    basis = LabelBasis.model_validate(state["label_basis"]) if state.get("label_basis") else None
    passages, docs = passages_of(state), state.get("documents") or None
    rule_quotes = [RuleQuote.model_validate(q) for q in state.get("rule_quotes") or []]
    leads = not (nli or state.get("extractive") or state.get("rule_decided") or draft.addressed is False and not passages)
    if leads:  # issue #38: retrieval's best clauses for the question lead the report, whatever the model drafted
        rule_quotes = lead_quotes(state["question"], passages, question_ranking(state.get("events") or [], state["question"]),
                                  min_relevance=settings.lead_min_relevance, names=document_labels(docs))
        if not draft.addressed and not any(relevance(passages[q.passage_id]) is not None for q in rule_quotes):
            rule_quotes = []  # the model judged the passages silent and no trained relevance head says otherwise
    by_rule = bool(state.get("extractive")) or bool(state.get("reading_withheld")) or (bool(state.get("rule_decided")) and not any(
        ev.get("step") == "reading" for ev in ET.of_type(state.get("events") or [], ET.LLM_CALL)))
    r = build_report(draft, passages, question=state["question"], context=state.get("context"),
                     turns=int(state.get("turn") or 0), complete=bool(state.get("complete")), nli=nli,
                     label_basis=basis, documents=docs, rule_quotes=rule_quotes,
                     answer_by_rule=by_rule)
    calls: list[CallRecord] = []
    support: list[dict[str, Any]] = []  # issue #19: the verdict on each finding's (claim, quote) pair
    if state.get("extractive"):  # quoted definitions: the claim only names where the quote is
        r, support = definitions_supported(r, passages, docs)
    elif state.get("rule_decided"):  # a named clause quoted by rule, or declined: no model verdict
        support = [{"statement": f.statement, "support": f.support, "note": f.support_note, "source": "rules"}
                   for f in r.key_findings]
    elif settings.support_check:  # a silent report's findings have no verified quote: logged, never asked
        r, calls, support = check_support(r, passages, model=res.model("interrogator"), context=state.get("context"),
                                          model_settings=settings.model_for("interrogator"), documents=docs,
                                          verdict=settings.support_verdict)
        r, answer_calls, answer_verdict = check_answer(r, passages, model=res.model("interrogator"),
                                                       context=state.get("context"),
                                                       model_settings=settings.model_for("interrogator"), documents=docs,
                                                       verdict=settings.support_verdict)
        calls += answer_calls
        support += [answer_verdict] if answer_verdict else []
    r = refuse_injected(r, passages, docs, state.get("events") or [])  # issue #41: withheld, or the clauses' no
    if leads and not rule_quotes and not r.documents_silent and not any(f.cited_fact for f in r.key_findings):
        r = declined(r, draft, passages, docs)  # issue #38: no clause passes the bar and the model quoted none
    if settings.facts == "quotes":  # issue #19: the quotes are the facts, the statements the model's reading
        r = quoted_facts(r, by_rule=by_rule, definition=bool(state.get("extractive")))
    r.left_out = list(state.get("left_out") or [])
    r.retrieval_warnings = retrieval_warnings(state.get("events") or [])
    r.suspicious = [f"{Path(d.get('source_path') or '').name or d.get('title')}: {w}"
                    for d in state.get("documents") or [] for w in d.get("warnings") or [] if is_suspicious(w)]
    return {"report": r.model_dump(mode="json"), "events": [{"type": ET.LLM_CALL, **c.as_dict()} for c in calls] + [{
        "type": ET.REPORT, "citations": len(r.citations), "dropped_quotes": [d.model_dump() for d in r.dropped_quotes],
        "documents_silent": r.documents_silent, "stop_reason": state.get("stop_reason"),
        "verification": r.verification, "support": support, "unaddressed_documents": r.unaddressed_documents,
    }]}
