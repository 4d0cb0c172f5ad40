"""The :class:`Report`: a typed, grounded answer to one question about one or more contracts.

Five sections (issue #2 / #8): (1) title and topic summary; (2) legal reasoning and key
findings; (3) answer and research directions; (4) knowledge gaps and follow-up questions;
(5) cited sources — plus a short conclusion. Every :class:`Citation` quotes text that was
verified verbatim against a retrieved passage (see :mod:`clauselens.reports.verify`) and
carries its way back to the source: document, clause reference, page(s) and character
spans ``[start, end)`` into ``Document.text``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clauselens.parsing.types import Span

NLILabel = Literal["entailment", "contradiction", "not_mentioned"]

SILENT_ANSWER = "The documents provided do not address this question."

#: Whether a finding's quote supports its claim (issue #19). ``supported``: verified quote,
#: the deterministic checks pass and the model judged it supporting; ``unchecked``: verified
#: quote and the deterministic checks pass, but the model's verdict was not asked (disabled)
#: or failed; ``contradicted`` / ``unrelated``: the quote says otherwise / something else
#: (deterministic negation or party-role mismatch, or the model's verdict); ``unverified``: no
#: quote could be verified in the documents. Only ``supported`` and ``unchecked`` findings
#: are shown as cited facts.
SupportStatus = Literal["supported", "unchecked", "contradicted", "unrelated", "unverified"]
#: Statuses shown as cited facts.
CITED_FACT = ("supported", "unchecked")
#: The report as a whole: ``verified`` every finding is a cited fact; ``partial`` some are;
#: ``unverified`` none (the answer rests on the model alone); ``silent`` the documents do not
#: address the question.
Verification = Literal["verified", "partial", "unverified", "silent"]


class Citation(BaseModel):
    """One verified quote.

    ``id`` is the report-local citation id (``"C1"``); ``passage_id`` the run-local id of the
    retrieved passage the quote was found in (``"P3"``); ``chunk_id`` / ``doc_id`` / ``node_id``
    point into the index and the parsed document. ``spans`` are the quote's exact character
    ranges in ``Document.text`` (more than one only when the quote crosses the boundary of
    two spans of an ancestor chunk). ``quote`` is the source text itself (not the model's copy).
    """

    id: str
    passage_id: str
    chunk_id: str
    doc_id: str
    node_id: str | None = None
    doc_title: str | None = None
    source_path: str | None = None
    clause_ref: str | None = None
    heading_path: list[str] = Field(default_factory=list)
    page_start: int | None = None
    page_end: int | None = None
    spans: list[Span] = Field(default_factory=list)
    quote: str
    #: True when the model's quote was widened to whole words / the enclosing clause
    #: (:func:`clauselens.reports.verify.extend_match`); ``quote`` is then the whole clause.
    extended: bool = False

    @property
    def location(self) -> str:
        """Human location: ``"Consulting Agreement, clause 5.1, p. 3"``."""
        parts = [self.doc_title or self.source_path or self.doc_id]
        if self.clause_ref:
            parts.append(f"clause {self.clause_ref}")
        elif self.heading_path:
            parts.append(self.heading_path[-1])
        if self.page_start is not None:
            if self.page_end is not None and self.page_end != self.page_start:
                parts.append(f"pp. {self.page_start}-{self.page_end}")
            else:
                parts.append(f"p. {self.page_start}")
        return ", ".join(parts)


class Finding(BaseModel):
    """A key finding. ``passage_ids`` are the passages it relies on (``"P1"``);
    ``citation_ids`` the verified quotes it cites. ``grounded`` is False when the
    model's supporting quote could not be verified (the finding is then the model's claim only).
    ``support`` says whether the quote supports the claim (:data:`SupportStatus`) and
    ``support_note`` why not (or how it was decided)."""

    statement: str
    passage_ids: list[str] = Field(default_factory=list)
    citation_ids: list[str] = Field(default_factory=list)
    grounded: bool = True
    support: SupportStatus = "unchecked"
    support_note: str = ""

    @property
    def cited_fact(self) -> bool:
        """True when the finding may be shown as a cited fact (verified quote that supports it)."""
        return self.grounded and bool(self.citation_ids) and self.support in CITED_FACT


class DroppedQuote(BaseModel):
    """A quote the model offered that is not verbatim in any retrieved passage."""

    quote: str
    passage_id: str | None = None
    reason: str


class LabelBasis(BaseModel):
    """How an NLI label was reached, for the audit trail.

    ``decided``: the label this basis gives (the report's ``label``); ``llm_label``: the
    Interrogator model's label; ``vote``: the precedents' similarity-weighted kNN vote
    ({"Entailment", "Contradiction", "NotMentioned"} -> share, sums to 1; empty without
    precedents); ``vote_weight`` w in ``argmax (1 - w) * onehot(llm) + w * vote``
    (:func:`clauselens.agents.nli.combine`); ``source``: ``model`` (no usable vote),
    ``model+vote``, or ``abstain`` (the best precedent relevance ``max_relevance`` was below the
    tool's threshold: nothing in the contract resembles the precedents' evidence);
    ``hypothesis_id`` the precedent bank's matched hypothesis; ``precedents`` the labelled
    precedents shown to the model ({label, doc_id, kind, text, similarity})."""

    decided: NLILabel | None = None
    llm_label: NLILabel | None = None
    vote: dict[str, float] = Field(default_factory=dict)
    vote_weight: float = 0.0
    source: Literal["model", "model+vote", "abstain"] = "model"
    hypothesis_id: str | None = None
    max_relevance: float | None = None
    precedents: list[dict[str, Any]] = Field(default_factory=list)


class Report(BaseModel):
    """The final answer. ``documents_silent`` is True when nothing retrieved addresses the
    question; then ``answer`` and ``conclusion`` say so plainly. ``label`` is only set for
    NLI-style questions (ContractNLI: entailment / contradiction / not_mentioned); ``label_basis``
    then says whether the model's label or the precedents' vote decided it.
    ``turns`` is the number of research rounds; ``complete`` whether the Interrogator judged
    the answer complete (False when it stopped at ``max_turns``)."""

    title: str
    question: str
    context: str | None = None
    topic_summary: str = ""
    legal_reasoning: str = ""
    key_findings: list[Finding] = Field(default_factory=list)
    answer: str = ""
    research_directions: list[str] = Field(default_factory=list)
    knowledge_gaps: list[str] = Field(default_factory=list)
    follow_up_questions: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    conclusion: str = ""
    documents_silent: bool = False
    dropped_quotes: list[DroppedQuote] = Field(default_factory=list)
    label: NLILabel | None = None
    label_basis: LabelBasis | None = None
    turns: int = 0
    complete: bool = False
    documents: list[str] = Field(default_factory=list)
    #: input files that could not be read and were left out of the answer, one message each
    #: ("scan.pdf: the file is empty (0 bytes)").
    left_out: list[str] = Field(default_factory=list)
    #: see :data:`Verification`; ``verification_note`` says it in one sentence for the reader.
    verification: Verification = "unverified"
    verification_note: str = ""
    #: documents of the run no cited fact comes from, each with the reason ("title: reason").
    unaddressed_documents: list[str] = Field(default_factory=list)

    @property
    def unsupported_findings(self) -> list[Finding]:
        """Findings not shown as cited facts (contradicted, unrelated or unverified)."""
        return [f for f in self.key_findings if not f.cited_fact]
    #: retrieval that could not run as asked, one message each ("graph retrieval unavailable:
    #: extraction produced 0 entities ...; graph-only mode ... no passages were retrieved").
    retrieval_warnings: list[str] = Field(default_factory=list)
    #: content that may be aimed at AI tools rather than at the parties, one line each, naming
    #: document, page and clause or position: invisible text left out at extraction, and visible
    #: sentences addressed to an AI or telling the reader to ignore instructions (not followed).
    suspicious: list[str] = Field(default_factory=list)

    def citation(self, cid: str) -> Citation:
        """The citation with id ``cid``; raises ``KeyError``."""
        for c in self.citations:
            if c.id == cid:
                return c
        raise KeyError(cid)


_SENTENCE_STOP = re.compile(r"[.!?;](?=[\s\"'’”)]|$)")


def whole_sentences(text: str) -> str:
    """``text`` (cut at a length limit) up to its last full sentence: through the last ``. ! ? ;``
    that ends a sentence, when that keeps at least a third of it; otherwise up to its last whole
    word, with " …" to show it was cut. Text that already ends a sentence is returned as is."""
    t = text.rstrip()
    if not t or t[-1] in ".!?;" or t.endswith((".\"", ".'", ".”", ".)")):
        return t
    ends = [m.end() for m in _SENTENCE_STOP.finditer(t)]
    if ends and ends[-1] >= len(t) / 3:
        return t[:ends[-1]].rstrip()
    room = t[:max(1, len(t) - 2)]  # the result is never longer than the text
    head = room.rsplit(None, 1)[0] if " " in room.strip() else room
    return head.rstrip(",;: ") + " …"


class CappedModel(BaseModel):
    """A model-facing schema whose list fields have a maximum length.

    ``caps`` (field -> n) is published as JSON-schema ``maxItems`` (llama.cpp's grammar then
    cannot emit more, which stops a small model from repeating one item until ``max_tokens``:
    seen with the 0.5B model on a query list) and enforced on validation by truncation, so a
    backend that ignores ``maxItems`` does not cost a retry.
    """

    caps: ClassVar[dict[str, int]] = {}
    #: string field -> n characters, published as JSON-schema ``maxLength`` (llama.cpp's grammar
    #: then ends the string there: stops a small model rambling in one field until ``max_tokens``
    #: cuts the JSON off, seen with the 0.5B model in a draft's ``legal_reasoning``) and enforced
    #: on validation by truncation. A truncated quote is a prefix of the model's quote, so it is
    #: still checked verbatim like any other.
    str_caps: ClassVar[dict[str, int]] = {}
    #: fields published as required (strings with ``minLength`` 1): a grammar-constrained model
    #: must write them, and llama.cpp's grammar writes required properties first, in schema order,
    #: before any optional one (seen: the 0.5B model skipped an optional ``answer``; the 1.5B
    #: model skipped optional ``findings``, so nothing was cited), while validation keeps
    #: their defaults so other backends are not failed for leaving them out.
    publish_required: ClassVar[tuple[str, ...]] = ()
    #: field -> n published as JSON-schema ``minItems`` only (a grammar-constrained model must
    #: fill the list; other backends are not failed for an empty list).
    mins: ClassVar[dict[str, int]] = {}

    #: prose fields cut by their ``str_caps`` (the grammar ends the string mid-sentence at
    #: ``maxLength``) are trimmed back to their last full sentence (:func:`whole_sentences`), so
    #: no section of a report ends mid-sentence (issue #19).
    sentence_fields: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="before")
    @classmethod
    def _truncate_lists(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            for name, n in cls.caps.items():
                if isinstance(data.get(name), list):
                    data[name] = data[name][:n]
            for name, n in cls.str_caps.items():
                if isinstance(data.get(name), str):
                    cut = len(data[name]) >= n
                    data[name] = data[name][:n]
                    if cut and name in cls.sentence_fields:
                        data[name] = whole_sentences(data[name])
        return data

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        js = handler(core_schema)
        target = handler.resolve_ref_schema(js)
        for name, n in cls.caps.items():
            if name in target.get("properties", {}):
                target["properties"][name]["maxItems"] = n
        for name, n in cls.mins.items():
            if name in target.get("properties", {}):
                target["properties"][name]["minItems"] = n
        for name, n in cls.str_caps.items():
            if name in target.get("properties", {}):
                target["properties"][name]["maxLength"] = n
        for name in cls.publish_required:
            if name in target.get("properties", {}):
                if target["properties"][name].get("type") == "string":
                    target["properties"][name]["minLength"] = 1
                req = target.setdefault("required", [])
                if name not in req:
                    req.append(name)
        return js


class DraftFinding(CappedModel):
    """A finding as the model writes it: a statement, the passages it relies on (``"P1"``)
    and one exact quote from one of them."""

    caps: ClassVar[dict[str, int]] = {"passage_ids": 3}
    str_caps: ClassVar[dict[str, int]] = {"statement": 280, "quote": 300}
    sentence_fields: ClassVar[tuple[str, ...]] = ("statement",)

    statement: str = Field(description="One finding, in one or two sentences.")
    passage_ids: list[str] = Field(default_factory=list, description='Ids of supporting passages, e.g. ["P1"].')
    quote: str = Field(default="", description="An exact sentence copied from a cited passage.")


class ReportDraft(CappedModel):
    """What the Interrogator's model returns for a draft (the JSON schema it is asked to
    fill). :func:`clauselens.reports.build.build_report` verifies its quotes and turns it
    into a :class:`Report`. Kept small so a 1.5B model can fill it in one reply."""

    caps: ClassVar[dict[str, int]] = {"findings": 3, "research_directions": 3, "knowledge_gaps": 3,
                                      "follow_up_questions": 3}
    #: Sized from the default model's drafts (issue #19): in the four committed 1.5B drafts
    #: (docs/examples/*/report.transcript.json) legal_reasoning reached its old cap of 500, the
    #: conclusion 298 of 300 and one finding's statement 200 of 200 (cut mid-sentence), while the
    #: whole draft took 285-409 output tokens of 1,024. So the prose caps were raised
    #: (legal_reasoning 700, conclusion 450, statement 280) and ``ModelSettings.max_tokens`` to
    #: 1,536: every field filled to its cap is ~3,800 characters (~1,000 tokens), inside the
    #: budget, so no reply is cut off; a field the grammar still ends at its cap is trimmed to its
    #: last full sentence (``sentence_fields``).
    str_caps: ClassVar[dict[str, int]] = {"title": 100, "topic_summary": 300, "legal_reasoning": 700,
                                          "answer": 500, "conclusion": 450}
    publish_required: ClassVar[tuple[str, ...]] = ("topic_summary", "legal_reasoning", "findings", "answer", "conclusion")
    sentence_fields: ClassVar[tuple[str, ...]] = ("topic_summary", "legal_reasoning", "answer", "conclusion")
    #: a grammar-constrained model must write at least one finding (seen: the 1.5B model left
    #: ``findings`` empty once the prose fields were required, so nothing was cited).
    mins: ClassVar[dict[str, int]] = {"findings": 1}

    title: str = Field(description="Short title of the report.")
    topic_summary: str = Field(default="", description="What the question is about, 1-2 sentences.")
    legal_reasoning: str = Field(default="", description="How the passages answer the question.")
    findings: list[DraftFinding] = Field(default_factory=list)
    answer: str = Field(default="", description="Direct answer to the question.")
    addressed: bool = Field(default=True, description="False if no passage addresses the question.")
    research_directions: list[str] = Field(default_factory=list)
    knowledge_gaps: list[str] = Field(default_factory=list, description="What the passages do not say.")
    follow_up_questions: list[str] = Field(default_factory=list)
    conclusion: str = Field(default="", description="One-sentence conclusion.")
    label: NLILabel | None = Field(default=None, description="Only for hypothesis questions.")


class NLIReportDraft(ReportDraft):
    """The draft schema for hypothesis questions (``mode="nli"``): the same fields, but
    ``label`` is required and non-null, so a grammar-constrained backend must write it
    (llama.cpp's grammar may skip optional properties, as it did for optional ``answer`` and
    ``findings``, see :class:`CappedModel`). The JSON-schema title stays ``ReportDraft``."""

    model_config = ConfigDict(title="ReportDraft")

    label: NLILabel = Field(description='"entailment", "contradiction" or "not_mentioned".')
