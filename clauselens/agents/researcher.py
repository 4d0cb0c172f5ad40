"""The Researcher: turns the Interrogator's questions into searches and runs them.

One round = one LLM call (:class:`SearchPlan`: keyword queries + exact items — clause
numbers, defined terms, agreement names — + which configured tools to use), then every
query on every chosen tool (:class:`~clauselens.retrieval.types.RetrievalMethod`). Passages
are de-duplicated by chunk id across queries, tools and rounds: a chunk keeps the run-local
id (``"P1"``, ``"P2"``, ...) it got when first seen and its best score.

:func:`researcher_node` is the Researcher's step in the agents' graph
(:mod:`clauselens.graph.builder`): one round for the Interrogator's pending questions.

The first round also looks up the passage of each sentence the Archivist flagged as an instruction to AI
readers (:func:`flagged_instructions`, OWASP LLM01): it is kept among the run's passages (not among the new
ones a draft reads first) so the Interrogator's guard (:func:`clauselens.agents.refusal.refuse_injected`) can
answer a question that restates the instruction from the clauses that say otherwise, even when the question's
own searches did not reach the instruction (issue #41).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import Field

from clauselens import events as ET
from clauselens.agents import prompts_researcher as P
from clauselens.agents.common import CallRecord, call_structured
from clauselens.agents.resources import AgentResources
from clauselens.agents.state import GraphState, passages_of
from clauselens.config import ModelSettings
from clauselens.errors import ModelResponseError
from clauselens.parsing.injection import FLAG_PREFIX, instruction_like
from clauselens.reports.model import CappedModel
from clauselens.retrieval.types import Passage, RetrievalMethod

#: At most this many queries per round (questions + rewrites + exact items), to bound CPU time.
MAX_QUERIES = 6
#: At most this many passages a round adds (best first), so drafts stay within the window.
MAX_NEW_PER_ROUND = 12
#: The first query's best passages kept whatever their score (the question as asked: issue #38's lead clauses
#: and a named clause's sub-clauses come from them).
KEEP_FIRST = 4
#: Reply budget of the plan call (a full plan is ~100 tokens).
PLAN_MAX_TOKENS = 256
#: Anchor tools: searched once, in the first round, with the user's own question (a labelled
#: bank's hypothesis), never with the plan's rewrites or the sub-questions, which would not match.
ANCHOR_TOOLS = ("precedents",)
#: At most this many flagged instructions are looked up in a round (:func:`flagged_instructions`).
MAX_FLAGGED = 5
#: The quoted sentence of an instruction warning (``parsing.injection.flag_instructions``).
_FLAGGED_QUOTE = re.compile(r': "(.+?)(?:\.\.\.)?" - treated as contract text')


class SearchPlan(CappedModel):
    """The Researcher model's structured output (list lengths capped, see :class:`CappedModel`)."""

    caps: ClassVar[dict[str, int]] = {"queries": 4, "clause_refs": 4, "defined_terms": 3, "agreement_names": 2, "tools": 4}
    mins: ClassVar[dict[str, int]] = {"queries": 2}  # the 1.5B model returned no queries without it

    queries: list[str] = Field(default_factory=list, description="2-4 keyword search queries.")
    clause_refs: list[str] = Field(default_factory=list, description="Clause numbers named, e.g. 7.2.")
    defined_terms: list[str] = Field(default_factory=list, description="Defined terms named.")
    agreement_names: list[str] = Field(default_factory=list, description="Agreement names named.")
    tools: list[str] = Field(default_factory=list, description="Search tools to use.")


@dataclass
class ResearchRound:
    """What one round produced: ``passages`` (run-local id -> Passage, new and re-scored),
    ``new_ids`` (ids first seen this round, best first), the per-query ``results`` for the
    transcript, the ``plan`` and the LLM ``call`` (None if the plan step failed). ``precedents`` is
    the trace of the ``precedents`` tool (matched hypothesis, labelled precedents, kNN vote) when
    an anchor tool answered, else None."""

    passages: dict[str, Passage]
    new_ids: list[str]
    results: list[dict[str, Any]]
    plan: SearchPlan
    call: CallRecord | None
    notes: list[str] = field(default_factory=list)
    precedents: dict[str, Any] | None = None


def _dedup(items: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for it in items:
        s = " ".join(str(it).split())
        if s and s.lower() not in seen:
            seen.add(s.lower())
            out.append(s)
    return out


def grounded_plan(plan: SearchPlan, questions: Sequence[str]) -> SearchPlan:
    """Drop exact items (clause refs, defined terms, agreement names) that do not occur in
    the questions: small models copy examples or invent clause numbers, and an invented
    clause number would pull in an unrelated clause."""
    text = " ".join(" ".join(questions).lower().split())

    def keep(items: Sequence[str]) -> list[str]:
        return [i for i in items if " ".join(i.lower().lstrip("§").split()) and " ".join(i.lower().lstrip("§").split()) in text]

    return plan.model_copy(update={"clause_refs": keep(plan.clause_refs), "defined_terms": keep(plan.defined_terms),
                                   "agreement_names": keep(plan.agreement_names)})


def build_queries(questions: Sequence[str], plan: SearchPlan, *, multi_doc: bool = False,
                  max_queries: int = MAX_QUERIES) -> list[str]:
    """The queries to run: the questions themselves, the plan's rewrites, ``"clause X"`` for
    each clause ref, each defined term, de-duplicated, at most ``max_queries``. With
    several documents and a named agreement, queries take the retriever's
    ``"Consider <agreement>; <query>"`` form so it routes to that agreement."""
    qs = list(questions) + list(plan.queries)
    qs += [f"clause {r.strip().lstrip('§').strip()}" for r in plan.clause_refs if r.strip()]
    qs += list(plan.defined_terms)
    qs = _dedup(qs)[:max_queries]
    names = _dedup(plan.agreement_names)
    if multi_doc and len(names) == 1:
        qs = [f"Consider {names[0]}; {q}" for q in qs]
    return qs


def choose_tools(plan: SearchPlan, tools: Mapping[str, RetrievalMethod]) -> list[str]:
    """The configured tools the plan names; all configured tools if it names none of them."""
    chosen = [t for t in _dedup(plan.tools) if t in tools]
    return chosen or list(tools)


def research_round(
    questions: Sequence[str],
    *,
    model: BaseChatModel | None,
    tools: Mapping[str, RetrievalMethod],
    known: Mapping[str, Passage],
    k: int = 8,
    context: str | None = None,
    model_settings: ModelSettings | None = None,
    multi_doc: bool = False,
    anchor_query: str | None = None,
    anchor_tools: Mapping[str, RetrievalMethod] | None = None,
    instruction_queries: Sequence[str] = (),
) -> ResearchRound:
    """Plan (LLM) and run the searches for ``questions``.

    ``known`` are the passages of earlier rounds (run-local id -> Passage). If the model's
    plan cannot be parsed (``ModelResponseError``) the raw questions are searched and the
    failure is noted, so one bad reply does not end the run. ``anchor_tools`` (e.g. the
    ``precedents`` tool, which answers only the user's own question) are searched once with
    ``anchor_query``, not with the plan's queries; the last non-abstaining anchor trace
    becomes :attr:`ResearchRound.precedents`. ``instruction_queries`` (:func:`flagged_instructions`) each add
    the passage holding that instruction, if the first tool finds it and no passage of the run holds an instruction
    yet (module docstring). Returns a
    :class:`ResearchRound`.
    """
    plan = SearchPlan()
    call: CallRecord | None = None
    notes: list[str] = []
    if model is not None:
        ctx = P.CONTEXT_BLOCK.format(context=context) if context else ""
        user = P.PLAN_USER.format(context_block=ctx, questions="\n".join(f"- {q}" for q in questions))
        try:
            plan, call = call_structured(model, P.PLAN_SYSTEM.format(tools=", ".join(tools)), user, SearchPlan,
                                         agent="researcher", step="plan", model_settings=model_settings,
                                         max_tokens=PLAN_MAX_TOKENS)
        except ModelResponseError as e:
            notes.append(f"search plan failed, searched the questions as written: {e}")
    plan = grounded_plan(plan, questions)
    queries = build_queries(questions, plan, multi_doc=multi_doc)
    by_chunk = {p.chunk_id: pid for pid, p in known.items()}
    next_no = 1 + max((int(pid[1:]) for pid in known if pid[1:].isdigit()), default=0)
    updated: dict[str, Passage] = {}
    fresh: dict[str, Passage] = {}
    results: list[dict[str, Any]] = []
    precedents: dict[str, Any] | None = None
    runs = [(name, q) for name in choose_tools(plan, tools) for q in queries]
    if anchor_query:
        runs += [(name, anchor_query) for name in (anchor_tools or {})]
    all_tools = {**tools, **(anchor_tools or {})}
    for tool_name, q in runs:
        tool = all_tools[tool_name]
        res = tool.search(q, k)
        if tool_name in (anchor_tools or {}) and not res.abstained:
            precedents = dict(res.trace)
        rows = []
        for p in res.passages:
            p = p.model_copy(update={"method": p.method or tool_name})
            pid = by_chunk.get(p.chunk_id)
            if pid is not None:
                old = updated.get(pid) or known[pid]
                if p.score > old.score:
                    updated[pid] = p
            else:
                cur = fresh.get(p.chunk_id)
                if cur is None or p.score > cur.score:
                    fresh[p.chunk_id] = p
            rows.append({"chunk_id": p.chunk_id, "clause_ref": p.clause_ref, "score": round(p.score, 6),
                         "scores": {k_: round(v, 6) for k_, v in p.scores.items()}, "ranks": p.ranks})
        results.append({"tool": tool_name, "query": q, "abstained": res.abstained, "reason": res.reason,
                        "passages": rows, **({"trace": res.trace} if res.trace else {})})
    # the first query's best passages always get ids (issue #38: the question as asked ranks the clauses
    # that lead the report), then the rest by score
    first_q = {row["chunk_id"] for r in results if queries and r["query"] == queries[0] and r["tool"] in tools
               for row in r["passages"][:KEEP_FIRST]}
    ranked = sorted(fresh.values(), key=lambda p: (p.chunk_id not in first_q, -p.score))[:MAX_NEW_PER_ROUND]
    new_ids: list[str] = []
    for p in ranked:
        pid = f"P{next_no}"
        next_no += 1
        by_chunk[p.chunk_id] = pid
        updated[pid] = p
        new_ids.append(pid)
    held = any(instruction_like(" ".join(p.text.split())) for p in [*known.values(), *updated.values()])
    for q in () if held else instruction_queries[:MAX_FLAGGED]:
        row = _instruction_passage(q, tools, by_chunk, f"P{next_no}")
        if row is not None:
            pid, p, result = row
            next_no += 1
            by_chunk[p.chunk_id] = pid
            updated[pid] = p
            results.append(result)
    for r in results:
        for row in r["passages"]:
            row["passage_id"] = by_chunk.get(row["chunk_id"])
    return ResearchRound(passages=updated, new_ids=new_ids, results=results, plan=plan, call=call, notes=notes,
                         precedents=precedents)


def flagged_instructions(documents: Sequence[Mapping[str, Any]] | None) -> list[str]:
    """The sentences of ``documents``' instruction warnings (``possible instruction to an AI reader in clause
    9.4: "Any AI system ..." - treated as contract text, not followed``), as search queries."""
    out: list[str] = []
    for d in documents or []:
        for w in d.get("warnings") or []:
            m = _FLAGGED_QUOTE.search(w) if str(w).startswith(FLAG_PREFIX) else None
            if m and m.group(1) not in out:
                out.append(m.group(1))
    return out


def _instruction_passage(query: str, tools: Mapping[str, RetrievalMethod], by_chunk: Mapping[str, str],
                         pid: str) -> tuple[str, Passage, dict[str, Any]] | None:
    """``(pid, passage, result row)``: the first tool's best passage for a flagged instruction's sentence that
    holds an instruction to AI readers and is not among the run's passages yet, else ``None``."""
    name = next(iter(tools), None)
    if name is None:
        return None
    res = tools[name].search(query, 3)
    hit = next((p for p in res.passages if instruction_like(" ".join(p.text.split()))), None)
    if hit is None or hit.chunk_id in by_chunk:
        return None
    hit = hit.model_copy(update={"method": hit.method or name})
    return pid, hit, {"tool": name, "query": query, "purpose": "flagged instruction", "abstained": res.abstained,
                      "reason": res.reason, "passages": [{"chunk_id": hit.chunk_id, "clause_ref": hit.clause_ref,
                                                          "score": round(hit.score, 6), "scores": {}, "ranks": {}}]}


def researcher_node(state: GraphState, res: AgentResources) -> dict[str, Any]:
    """The graph's ``researcher`` step: one :func:`research_round` for ``state["pending"]`` (the
    question itself when nothing is pending) with the configured tools, the anchor tools
    (:data:`ANCHOR_TOOLS`) searched with the user's question in the first round only. No tool
    but anchors: no plan, so no model call. Returns the state update (new and re-scored
    ``passages``, ``last_new_ids``, ``asked``, ``turn`` + 1, the ``precedents`` trace when an
    anchor answered, ``events``)."""
    settings = res.settings
    pending = list(state.get("pending") or [state["question"]])
    known = passages_of(state)
    all_tools = res.tools()
    anchors = {n: t for n, t in all_tools.items() if n in ANCHOR_TOOLS}
    tools_ = {n: t for n, t in all_tools.items() if n not in ANCHOR_TOOLS}
    first = not int(state.get("turn") or 0)
    rr = research_round(
        pending, model=res.model("researcher") if tools_ and not state.get("rule_target") else None, tools=tools_, known=known,
        k=settings.retrieval.top_k, context=state.get("context"), model_settings=settings.model_for("researcher"),
        multi_doc=len(state.get("documents") or []) > 1,
        anchor_query=state["question"] if first else None, anchor_tools=anchors,
        instruction_queries=flagged_instructions(state.get("documents")) if first else (),
    )
    turn = int(state.get("turn") or 0) + 1
    events: list[dict[str, Any]] = []
    if rr.call is not None:
        events.append({"type": ET.LLM_CALL, **rr.call.as_dict()})
    events += [{"type": ET.NOTE, "text": n} for n in rr.notes]
    events.append({"type": ET.RETRIEVAL, "turn": turn, "questions": pending, "plan": rr.plan.model_dump(mode="json"),
                   "results": rr.results, "new_passage_ids": rr.new_ids})
    upd: dict[str, Any] = {"passages": {pid: p.model_dump(mode="json") for pid, p in rr.passages.items()},
                           "last_new_ids": rr.new_ids, "asked": pending, "turn": turn, "pending": [], "events": events}
    if rr.precedents is not None:
        upd["precedents"] = rr.precedents
    return upd
