"""The agents' typed run state: the schema of the graph's state
(:func:`clauselens.graph.builder.build_graph`), which each agent's node function reads and
updates. It lives with the agents, not in ``graph/``, because the node functions are theirs
and the agents may not import the graph (docs/DESIGN.md, "Module map").

Everything in the state is JSON-ready (plain dicts/lists/str/int), so any LangGraph
checkpointer (memory, SQLite) can persist it and a run can be resumed or audited. Pydantic
objects are re-validated inside the nodes: ``passages`` holds
:class:`~clauselens.retrieval.types.Passage` dumps keyed by run-local id (``"P1"``),
``draft`` a :class:`~clauselens.reports.model.ReportDraft` dump, ``report`` a
:class:`~clauselens.reports.model.Report` dump.

Reducers: ``passages`` merges by id (a later round's better score replaces the entry);
``asked`` and ``events`` append.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, Mapping, TypedDict

from clauselens.retrieval.types import Passage


def merge_dicts(old: dict[str, Any] | None, new: dict[str, Any] | None) -> dict[str, Any]:
    """Reducer for ``passages``: union, the update wins on the same key."""
    out = dict(old or {})
    out.update(new or {})
    return out


class GraphInput(TypedDict, total=False):
    """What a caller passes to ``graph.invoke``. Only ``question`` is required.

    ``paths``: files for the Archivist (empty when the caller indexed the tools itself);
    ``context``: the user's situation/instructions, carried into every prompt;
    ``mode``: ``"report"`` (default) or ``"nli"`` (also asks for an entailment label);
    ``max_turns``: research rounds at most (default ``Settings.max_turns``);
    ``left_out``: one message per file that could not be read (set by the Archivist from
    ``paths``, or passed by a caller that read the files itself, e.g. a chat session).
    """

    question: str
    paths: list[str]
    context: str | None
    mode: Literal["report", "nli"]
    max_turns: int
    left_out: list[str]


class GraphState(GraphInput, total=False):
    """Full state (see module docs). ``turn`` counts research rounds done; ``route`` is the
    Interrogator's routing decision; ``stop_reason`` why it stopped. ``precedents`` is the
    ``precedents`` tool's trace (matched hypothesis, labelled precedents, kNN vote) and
    ``label_basis`` how an NLI label was decided (a ``LabelBasis`` dump)."""

    documents: list[dict[str, Any]]
    sub_questions: list[str]
    pending: list[str]
    asked: Annotated[list[str], operator.add]
    passages: Annotated[dict[str, dict[str, Any]], merge_dicts]
    last_new_ids: list[str]
    turn: int
    follow_ups_asked: int
    draft: dict[str, Any] | None
    precedents: dict[str, Any] | None
    label_basis: dict[str, Any] | None
    complete: bool
    route: Literal["research", "report"]
    stop_reason: str
    #: The draft quotes definitions found by the defined-term field, without a model call
    #: (``clauselens.agents.definitions``): its findings are judged by rule, not by the model.
    extractive: bool
    #: What a rule decides to quote (issue #38, :func:`clauselens.agents.delivery.rule_target`):
    #: ``"named_clause"``, ``"definition"``, ``"lead"`` (quick depth: retrieval's best clauses) or ``None`` (the
    #: model drafts; retrieval's best clauses still lead).
    rule_target: str | None
    #: Clauses quoted by rule (:class:`~clauselens.reports.model.RuleQuote` dumps), cited facts whatever the
    #: model drafts; ``rule_decided`` is True when the rule wrote the whole draft (no model verdicts).
    rule_quotes: list[dict[str, Any]]
    rule_decided: bool
    #: The model's reading copied no words of the quoted clauses (``delivery.grounded_evidence``): the answer
    #: shown was written by rule and the reading is listed under knowledge gaps.
    reading_withheld: bool
    report: dict[str, Any] | None
    events: Annotated[list[dict[str, Any]], operator.add]


def passages_of(state: Mapping[str, Any]) -> dict[str, Passage]:
    """The state's ``passages`` re-validated: run-local id -> :class:`~clauselens.retrieval.types.Passage`."""
    return {pid: Passage.model_validate(d) for pid, d in (state.get("passages") or {}).items()}
