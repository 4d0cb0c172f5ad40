"""Single-pass "retrieve then classify" NLI step, with cross-document exemplars.

Given a hypothesis (a yes/no statement about a contract) and passages the Researcher
retrieved from the contract, decide Entailment / Contradiction / NotMentioned
(ContractNLI's labels; Koreeda & Manning, Findings of EMNLP 2021). Levers, each a field
of :class:`NLIConfig` so a benchmark can switch them one at a time:

* ``depth`` -- how many retrieved passages the model sees;
* ``exemplars`` -- few-shot precedents per label from the
  :class:`~clauselens.retrieval.exemplars.ExemplarBank` (same hypothesis, other
  contracts, nearest to the top passage), as in PAKTON's same-hypothesis span exemplars;
* ``vote_weight`` -- mix of the LLM's label (one-hot) and the bank's similarity-weighted
  kNN vote: ``score = (1 - w) * onehot(llm) + w * vote``; ``w = 1`` needs no LLM at all;
* ``evidence_first`` -- quote-then-label output schema vs label only;
* ``abstain_below`` -- if the best passage's relevance is below this, answer
  NotMentioned without asking the model (the retrieval score separates "silent" from
  "contradicts").

A model whose output never validates raises
:class:`~clauselens.errors.ModelResponseError` (no silent fallback): callers count it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence, cast

import numpy as np
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from clauselens import events as ET
from clauselens.agents import prompts_nli as P
from clauselens.parsing.types import Chunk
from clauselens.retrieval.exemplars import LABELS, ContractNLILabel, Exemplar, ExemplarBank
from clauselens.retrieval.types import Passage


class EvidenceFirstVerdict(BaseModel):
    """Model output with the deciding quote first, then the label."""

    quote: str = Field(description="the sentence that decides the hypothesis, copied verbatim; empty if none")
    label: ContractNLILabel


class LabelOnlyVerdict(BaseModel):
    """Model output with the label only."""

    label: ContractNLILabel


#: ``ask(messages, schema) -> instance of schema``; raises ModelResponseError when output never validates.
StructuredAsk = Callable[[list[BaseMessage], type[BaseModel]], BaseModel]


@dataclass(frozen=True)
class NLIConfig:
    """Levers of the NLI step (see module docstring). ``n_neighbours`` is the kNN vote's k;
    ``exemplar_chars`` truncates each few-shot exemplar (characters)."""

    depth: int = 3
    exemplars: int = 0
    vote_weight: float = 0.0
    evidence_first: bool = True
    abstain_below: float | None = None
    n_neighbours: int = 10
    exemplar_chars: int = 400
    #: Issue #40: the ContractNLI probe (``clauselens.heads.nli_probe``; else the cross-encoder ``clauselens.heads.nli``)
    #: labels the pair from the passages, no model call and no bank; when neither is installed (one notice each) or the
    #: hypothesis is none of the probe's, the levers above decide.
    head: bool = False

    def tag(self) -> str:
        """Short stable name of this configuration, e.g. ``k3-ex1-v0.5-ef-ab0.45``."""
        t = f"k{self.depth}-ex{self.exemplars}-v{self.vote_weight:g}-{'ef' if self.evidence_first else 'lo'}"
        if self.abstain_below is not None:
            t += f"-ab{self.abstain_below:g}"
        if self.n_neighbours != 10:
            t += f"-nn{self.n_neighbours}"
        return t + ("-head" if self.head else "")


class EvidencePassage(BaseModel):
    """A passage shown as evidence: its index in the caller's list, text and relevance."""

    index: int
    text: str
    relevance: float


class NLIDecision(BaseModel):
    """Outcome of one hypothesis. ``source`` says who decided: ``llm``, ``vote``,
    ``llm+vote`` or ``abstain``; ``vote`` is the kNN label distribution (empty if unused)."""

    label: ContractNLILabel
    source: str
    llm_label: ContractNLILabel | None = None
    quote: str | None = None
    vote: dict[str, float] = Field(default_factory=dict)
    max_relevance: float | None = None
    evidence: list[EvidencePassage] = Field(default_factory=list)
    exemplar_ids: list[str] = Field(default_factory=list)
    #: ``source == "probe"``: the ContractNLI hypothesis the probe matched and its class probabilities.
    matched_hypothesis: str | None = None
    probabilities: dict[str, float] = Field(default_factory=dict)


def top_passages(relevance: np.ndarray, depth: int) -> list[int]:
    """Indices of the ``depth`` most relevant passages, best first (ties: earlier first)."""
    order = np.argsort(-np.asarray(relevance, dtype=float), kind="stable")
    return [int(i) for i in order[:depth]]


def combine(llm_label: str | None, vote: dict[str, float], vote_weight: float) -> ContractNLILabel:
    """``argmax_l (1 - w) * [llm_label == l] + w * vote[l]`` over E, C, N (ties: E > C > N).

    With no LLM label the vote decides; raises ``ValueError`` if neither is available.
    """
    if llm_label is None and not any(vote.values()):
        raise ValueError("nothing to decide with: no LLM label and an empty vote")
    w = 1.0 if llm_label is None else vote_weight
    scores = {lab: (1 - w) * (1.0 if lab == llm_label else 0.0) + w * vote.get(lab, 0.0) for lab in LABELS}
    return max(LABELS, key=lambda lab: scores[lab])


def build_messages(hypothesis: str, passages: Sequence[str], exemplars: Sequence[Exemplar],
                   evidence_first: bool, *, exemplar_chars: int = 400,
                   passages_header: str = P.PASSAGES_HEADER, question_last: bool = False) -> list[BaseMessage]:
    """System + user messages for one hypothesis (prompts from :mod:`prompts_nli`).

    ``question_last``: put the hypothesis after the passages (``USER_TEMPLATE_QUESTION_LAST``)
    instead of before them (``USER_TEMPLATE``); the wording is the same.
    """
    ex = ""
    if exemplars:
        lines = [P.EXEMPLAR_LINE.format(label=e.label, text=" ".join(e.text.split())[:exemplar_chars]) for e in exemplars]
        ex = P.EXEMPLARS_HEADER + "\n" + "\n".join(lines) + "\n\n"
    body = "\n".join(f"[{i + 1}] {p.strip()}" for i, p in enumerate(passages)) if passages else P.NO_PASSAGES
    template = P.USER_TEMPLATE_QUESTION_LAST if question_last else P.USER_TEMPLATE
    user = template.format(
        exemplars=ex, hypothesis=hypothesis, passages_header=passages_header, passages=body,
        instruction=P.EVIDENCE_FIRST if evidence_first else P.LABEL_ONLY)
    return [SystemMessage(content=P.SYSTEM), HumanMessage(content=user)]


def probe_label(hypothesis: str, passages: Sequence[str], passage_vectors: np.ndarray | None = None) -> NLIDecision | None:
    """The ContractNLI probe's decision (:mod:`clauselens.heads.nli_probe`, no model call) over a contract's
    ``passages`` (its sentences / list items; ``passage_vectors``: their MiniLM vectors, if at hand); its evidence
    spans are quoted verbatim. None when the probe is not installed (one notice) or ``hypothesis`` is none of
    its ContractNLI hypotheses."""
    from clauselens.heads.nli_probe import load_or_none as load_probe

    probe = load_probe()
    if probe is None:
        return None
    dec = probe.decide(hypothesis, passages, vecs=passage_vectors)
    if dec is None:
        return None
    ev = [EvidencePassage(index=i, text=passages[i], relevance=sc) for i, sc in zip(dec.evidence, dec.scores)]
    return NLIDecision(label=cast(ContractNLILabel, dec.label), source="probe", evidence=ev,
                       quote=None if dec.label == "NotMentioned" else passages[dec.evidence[0]],
                       matched_hypothesis=dec.hypothesis, probabilities=dec.proba)


def classify(
    hypothesis: str,
    passages: Sequence[str],
    relevance: np.ndarray,
    config: NLIConfig,
    *,
    ask: StructuredAsk | None = None,
    bank: ExemplarBank | None = None,
    hypothesis_id: str | None = None,
    passage_vectors: np.ndarray | None = None,
) -> NLIDecision:
    """Decide one hypothesis from a contract's candidate passages.

    ``passages``: all candidate texts of the contract (n); ``relevance``: (n,) scores,
    higher is more relevant (e.g. :meth:`ExemplarBank.relevance`); ``passage_vectors``:
    (n, dim) embeddings, needed for exemplars and the vote. ``ask`` is the structured LLM
    call (``None`` only with ``vote_weight == 1``).

    Raises ``ValueError`` for an inconsistent configuration and whatever ``ask`` raises
    (:class:`~clauselens.errors.ModelResponseError` when the output never validates).
    """
    rel = np.asarray(relevance, dtype=float)
    idx = top_passages(rel, config.depth)
    evidence = [EvidencePassage(index=i, text=passages[i], relevance=float(rel[i])) for i in idx]
    max_rel = float(rel[idx[0]]) if idx else None
    if config.head:
        probed = probe_label(hypothesis, passages, passage_vectors)
        if probed is not None:  # issue #40: the ContractNLI probe reads all the passages itself (its own evidence ranker)
            return probed.model_copy(update={"max_relevance": max_rel})
        from clauselens.heads.nli import load_or_none

        head = load_or_none("NLI labels from the head")
        if head is not None:  # the head reads its own number of passages (its rule's k), best first
            top = [passages[i] for i in top_passages(rel, int(head.rule["k"]))]
            label, _, best = head.decide(hypothesis, top)
            return NLIDecision(label=cast(ContractNLILabel, label), source="head", max_relevance=max_rel, evidence=evidence,
                               quote=top[best] if best >= 0 else None)
    needs_bank = config.exemplars > 0 or config.vote_weight > 0
    if needs_bank and (bank is None or hypothesis_id is None or passage_vectors is None):
        raise ValueError("exemplars and the vote need an exemplar bank, a hypothesis id and passage vectors")
    if config.vote_weight < 1 and ask is None:
        raise ValueError("an LLM is needed unless vote_weight == 1")
    if config.abstain_below is not None and (max_rel is None or max_rel < config.abstain_below):
        return NLIDecision(label="NotMentioned", source="abstain", max_relevance=max_rel, evidence=evidence)
    vote: dict[str, float] = {}
    if bank is not None and hypothesis_id is not None and passage_vectors is not None and idx:
        # computed whenever possible (and recorded) so the vote lever can be re-weighted offline
        vote = bank.vote(hypothesis_id, passage_vectors[idx], weights=rel[idx].clip(min=0),
                         n_neighbours=config.n_neighbours)
    if config.vote_weight >= 1:
        if not any(vote.values()):
            return NLIDecision(label="NotMentioned", source="abstain", max_relevance=max_rel, evidence=evidence)
        return NLIDecision(label=combine(None, vote, 1.0), source="vote", vote=vote, max_relevance=max_rel,
                           evidence=evidence)
    shots: list[Exemplar] = []
    # (with exemplars > 0, a missing bank, hypothesis id or passage vectors raised above)
    if config.exemplars > 0 and idx and bank is not None and hypothesis_id is not None and passage_vectors is not None:
        found = bank.search(hypothesis_id, passage_vectors[idx[0]], k=config.exemplars, per_label=True)
        shots = [e for e, _ in found]
    msgs = build_messages(hypothesis, [e.text for e in evidence], shots, config.evidence_first,
                          exemplar_chars=config.exemplar_chars)
    if ask is None:  # (vote_weight < 1 here, so the check above raised already)
        raise ValueError("an LLM is needed unless vote_weight == 1")
    # ask returns an instance of the schema it is given
    verdict = cast("EvidenceFirstVerdict | LabelOnlyVerdict",
                   ask(msgs, EvidenceFirstVerdict if config.evidence_first else LabelOnlyVerdict))
    llm_label = verdict.label
    use_vote = config.vote_weight > 0 and any(vote.values())
    label = combine(llm_label, vote, config.vote_weight) if use_vote else llm_label
    return NLIDecision(
        label=label, source="llm+vote" if use_vote else "llm", llm_label=llm_label,
        quote=getattr(verdict, "quote", None), vote=vote, max_relevance=max_rel, evidence=evidence,
        exemplar_ids=[f"{e.doc_id}:{e.span.start}-{e.span.end}" for e in shots],
    )


def whole_document(passages: Mapping[str, Passage], chunks: Sequence[Chunk]) -> dict[str, Passage]:
    """The retrieved ``passages`` plus every other indexed chunk of their document, in document order, when they
    come from one document (none retrieved: when the chunks do) -- the probe reads a whole contract, as ContractNLI's
    span-NLI does; else ``passages``."""
    docs = {p.doc_id for p in passages.values()} or {c.doc_id for c in chunks}
    if len(docs) != 1:
        return dict(passages)
    have = {p.chunk_id: pid for pid, p in passages.items()}
    out: dict[str, Passage] = {}
    n = len(passages)
    for c in chunks:
        if c.doc_id not in docs:
            continue
        if c.id in have:
            out[have[c.id]] = passages[have[c.id]]
        else:
            n += 1
            out[f"P{n}"] = Passage.from_chunk(c, 0.0, "nli_probe")
    return out if out else dict(passages)


def probe_step(question: str, passages: Mapping[str, Passage], turn: int, chunks: Sequence[Chunk] = ()) -> dict[str, Any] | None:
    """``ask --mode nli`` (the Interrogator's step after a search): the ContractNLI probe labels ``question`` over
    the retrieved passages' whole document (``chunks``: the indexed chunks, :func:`whole_document`) cut into
    sentence / list-item spans; its evidence spans are quoted verbatim by rule (``nli_evidence``) and the draft
    carries the label (no model call; the state update of a rule-decided draft, with the quoted passages). None when
    the probe is not installed or the question is none of its hypotheses (the model drafts as before)."""
    from clauselens.heads.nli_probe import split_spans
    from clauselens.reports.model import ReportDraft, RuleQuote, from_contractnli

    passages = whole_document(passages, chunks) if chunks else dict(passages)
    items: list[tuple[str, str]] = []
    seen: set[str] = set()  # a span repeated by overlapping chunks (a clause with its heading, its parent) is read once
    for pid, p in passages.items():
        for span in split_spans(p.text):
            if span not in seen:
                seen.add(span)
                items.append((pid, span))
    if not items:
        return None
    dec = probe_label(question, [s for _, s in items])
    if dec is None:
        return None
    said = {"Entailment": "the agreement states it", "Contradiction": "the agreement states the opposite",
            "NotMentioned": "no retrieved clause states it or its opposite"}[dec.label]
    answer = f"{dec.label}: {said} (ContractNLI probe; read as: {dec.matched_hypothesis})"
    quotes = []
    for n, e in enumerate(dec.evidence[:3] if dec.label != "NotMentioned" else []):
        pid, span = items[e.index]
        start = passages[pid].text.find(span)
        quotes.append(RuleQuote(passage_id=pid, start=start, end=start + len(span), kind="nli_evidence",
                                statement="The probe's top evidence for the hypothesis." if n == 0
                                else "Further evidence the probe read for the hypothesis."))
    draft = ReportDraft(title=question[:100], topic_summary=f"Hypothesis: {dec.matched_hypothesis}",
                        legal_reasoning="Labelled by the ContractNLI span probe (trained on ContractNLI dev); no model call.",
                        answer=answer, addressed=dec.label != "NotMentioned", conclusion=answer,
                        knowledge_gaps=[said.capitalize() + "."] if dec.label == "NotMentioned" else [],
                        label=from_contractnli(dec.label))
    event = {"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"), "shown": [q.passage_id for q in quotes],
             "note": "labelled by the ContractNLI probe (" + ", ".join(f"P({lab}) = {p:.3f}" for lab, p in dec.probabilities.items())
             + "); no model call"}
    return {"draft": draft.model_dump(mode="json"), "rule_quotes": [q.model_dump() for q in quotes], "rule_decided": True,
            "passages": {q.passage_id: passages[q.passage_id].model_dump(mode="json") for q in quotes},
            "route": "report", "complete": True, "events": [event], "stop_reason": "labelled by the ContractNLI probe"}


def probe_matches(question: str) -> bool:
    """Whether the installed ContractNLI probe answers ``question`` (a notice once when it is not installed)."""
    from clauselens.heads.nli_probe import load_or_none as load_probe

    probe = load_probe()
    return probe is not None and bool(question.strip()) and probe.match(question)[0] is not None
