"""navindex as a Researcher tool: S1 scan (LLM over indices) -> S2 fetch (deterministic),
and the S3 answer step as a separate function.

After the "Inject or Navigate?" study (issue #4):

* **S1 scan** — the model sees only the Config-6 indices of every document and returns at
  most ``max_nodes`` ``(doc, node)`` pairs as JSON; pairs are validated against the indices
  and invented ids are rejected and counted. If the indices do not fit the model's window
  they are scanned in batches (documents, or node ranges of a large document) and the
  selections merged round-robin, still at most ``max_nodes`` overall.
* **S2 fetch** — the nodes' verbatim text (a short parent node gets its descendants), plus
  one hop along ``cross_referenced_ids`` and to the defining clause of defined terms used.
* **S3 answer** — :func:`answer_from_passages`: answer only from the ``<provisions>``
  block, with amendment precedence, defined-term origin, ``[doc] Clause X`` citations and
  the exact refusal string :data:`~clauselens.retrieval.prompts_navindex.REFUSAL`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from clauselens.errors import RetrievalError
from clauselens.llm import count_tokens
from clauselens.parsing.types import Document, Node, Span
from clauselens.retrieval import prompts_navindex as P
from clauselens.retrieval.ledger import Ledger, LedgerEntry
from clauselens.retrieval.navindex_build import (
    NavIndex,
    build_nav_index,
    doc_aliases,
    serialize_index,
    write_nav_files,
)
from clauselens.retrieval.navindex_llm import context_window, invoke_json, invoke_text
from clauselens.retrieval.types import Passage, SearchResult

MAX_NODES = 10
"""The study's S1 limit: at most 10 nodes per query."""

EXPAND_CHILDREN_BELOW = 400
"""A picked node whose own text is shorter than this (characters) and that has children is
fetched with its descendants (e.g. ``4. Limitation of Liability`` heading over 4(a)-4(c))."""

MAX_PROVISION_CHARS = 4000
"""Cap on one fetched provision (characters), so a huge article cannot fill the window."""

MAX_HOPS_PER_NODE = 3
"""Cross-reference / definition hops added per picked node (S2)."""

SCAN_OUTPUT_RESERVE = 400
"""Tokens kept free in the window for the scan's JSON answer (10 pairs ~ 150-250 tokens)."""


class ScanPick(BaseModel):
    """One pair returned by S1. ``doc`` is the alias (``D1``) or the document id."""

    doc: str
    node: str


class ScanSelection(BaseModel):
    """S1's JSON answer. ``maxItems`` in the JSON schema lets grammar-constrained backends
    (llama.cpp) stop at 10 pairs: without it the 1.5B model listed every node of the index on
    an absent-answer question until ``max_tokens`` cut the JSON off."""

    nodes: list[ScanPick] = Field(default_factory=list, max_length=MAX_NODES)


@dataclass
class NavCorpus:
    """Everything navindex knows about the indexed documents."""

    docs: dict[str, Document] = field(default_factory=dict)
    indices: dict[str, NavIndex] = field(default_factory=dict)
    full: dict[str, dict[str, str]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # alias -> doc id

    @classmethod
    def build(cls, documents: Sequence[Document]) -> "NavCorpus":
        """Index ``documents`` (order kept; aliases ``D1..Dn`` in that order)."""
        c = cls()
        c.aliases = doc_aliases(documents)
        for d in documents:
            c.docs[d.id] = d
            c.indices[d.id], c.full[d.id] = build_nav_index(d)
        return c

    def alias_of(self, doc_id: str) -> str:
        """The ``Dn`` alias of ``doc_id``."""
        return next(a for a, d in self.aliases.items() if d == doc_id)

    def resolve_doc(self, doc: str) -> str | None:
        """Doc id for an alias or id as the model wrote it, or ``None``."""
        doc = doc.strip()
        if doc in self.aliases:
            return self.aliases[doc]
        return doc if doc in self.docs else None


def doc_label(doc: Document) -> str:
    """Short label used in provisions blocks and citations: the title, else the file stem."""
    label = doc.title or Path(doc.source_path).stem or doc.id
    return " ".join(label.split())[:80]


def validate_picks(selection: ScanSelection, corpus: NavCorpus, max_nodes: int = MAX_NODES
                   ) -> tuple[list[tuple[str, str]], list[dict[str, str]]]:
    """Keep the pairs whose document and node exist (deduplicated, order kept, at most
    ``max_nodes``). Returns ``(valid (doc_id, node_id) pairs, rejected pairs)``; TOC
    entries are rejected too (the prompt forbids them)."""
    valid: list[tuple[str, str]] = []
    rejected: list[dict[str, str]] = []
    for p in selection.nodes:
        doc_id = corpus.resolve_doc(p.doc)
        idx = corpus.indices.get(doc_id) if doc_id else None
        node = next((n for n in idx.nodes if n.id == p.node.strip()), None) if idx else None
        if doc_id is None or node is None or node.is_toc_entry:
            rejected.append({"doc": p.doc, "node": p.node})
            continue
        pair = (doc_id, node.id)
        if pair not in valid and len(valid) < max_nodes:
            valid.append(pair)
    return valid, rejected


def _split_index(index: NavIndex, alias: str, budget: int, counter) -> list[str]:
    """Serialise ``index`` as one or more parts, each within ``budget`` tokens."""
    whole = serialize_index(index, alias)
    if counter(whole) <= budget or len(index.nodes) <= 1:
        return [whole]
    mid = len(index.nodes) // 2
    a = index.model_copy(update={"nodes": index.nodes[:mid]})
    b = index.model_copy(update={"nodes": index.nodes[mid:]})
    return _split_index(a, alias, budget, counter) + _split_index(b, alias, budget, counter)


def plan_scan_batches(corpus: NavCorpus, budget_tokens: int, counter) -> list[str]:
    """Group the serialised indices into batches of at most ``budget_tokens`` tokens each
    (one JSON object per line). Documents are packed greedily in order; a document larger
    than the budget is split into node ranges. Raises ``RetrievalError`` if nothing is
    indexed or the budget is not positive."""
    if not corpus.docs:
        raise RetrievalError("navindex has no documents: index some documents first")
    if budget_tokens <= 0:
        raise RetrievalError("the model's context window is too small for the navindex scan prompt")
    parts: list[tuple[str, int]] = []
    for doc_id, idx in corpus.indices.items():
        for s in _split_index(idx, corpus.alias_of(doc_id), budget_tokens, counter):
            parts.append((s, counter(s)))
    batches: list[list[str]] = [[]]
    used = 0
    for s, n in parts:
        if batches[-1] and used + n > budget_tokens:
            batches.append([])
            used = 0
        batches[-1].append(s)
        used += n
    return ["\n".join(b) for b in batches]


def _round_robin(lists: list[list[tuple[str, str]]], limit: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for i in range(max((len(x) for x in lists), default=0)):
        for x in lists:
            if i < len(x) and x[i] not in out and len(out) < limit:
                out.append(x[i])
    return out


def scan_messages(indices: str, question: str, max_nodes: int = MAX_NODES) -> list:
    """The S1 messages: system rules + legend, then indices and question (indices first,
    so system + indices form a static, cacheable prefix)."""
    return [SystemMessage(P.SCAN_SYSTEM.format(max_nodes=max_nodes, legend=P.INDEX_LEGEND)),
            HumanMessage(P.SCAN_USER.format(indices=indices, question=question))]


def scan(model: BaseChatModel, corpus: NavCorpus, question: str, max_nodes: int = MAX_NODES,
         ledger: Ledger | None = None, entry: LedgerEntry | None = None) -> dict:
    """S1. Returns ``{"picks": [(doc_id, node_id)], "rejected": [...], "batches": n,
    "index_tokens": tokens of all indices}``. Raises ``ModelResponseError`` if the model's
    output never validates, ``RetrievalError`` if nothing is indexed."""
    counter = lambda s: count_tokens(model, s)  # noqa: E731
    fixed = sum(counter(m.content) for m in scan_messages("", question, max_nodes))
    budget = context_window(model) - fixed - SCAN_OUTPUT_RESERVE
    batches = plan_scan_batches(corpus, budget, counter)
    per_batch: list[list[tuple[str, str]]] = []
    rejected: list[dict[str, str]] = []
    index_tokens = 0
    for b in batches:
        msgs = scan_messages(b, question, max_nodes)
        b_tokens = counter(b)
        index_tokens += b_tokens
        prefix = counter(msgs[0].content) + b_tokens
        if ledger is not None and entry is not None:
            with ledger.recording(entry, "scan", cacheable_tokens=prefix):
                sel = invoke_json(model, msgs, ScanSelection)
        else:
            sel = invoke_json(model, msgs, ScanSelection)
        valid, bad = validate_picks(sel, corpus, max_nodes)
        per_batch.append(valid)
        rejected += bad
    if entry is not None:
        entry.invented_ids += len(rejected)
    return {"picks": _round_robin(per_batch, max_nodes), "rejected": rejected,
            "batches": len(batches), "index_tokens": index_tokens}


def _descendants(doc: Document, node: Node) -> list[Node]:
    out: list[Node] = []
    for cid in node.children:
        try:
            child = doc.node(cid)
        except KeyError:
            continue
        out.append(child)
        out += _descendants(doc, child)
    return out


def _provision(doc: Document, node: Node, method: str, score: float, via: str | None = None) -> Passage:
    """The verbatim text of ``node`` (with descendants when it is a short parent), as a Passage."""
    spans = [node.body_span]
    if node.children and (node.body_span.end - node.body_span.start) < EXPAND_CHILDREN_BELOW:
        spans = [Span(start=node.body_span.start, end=min(node.span.end, node.body_span.start + MAX_PROVISION_CHARS))]
    else:
        spans = [Span(start=node.body_span.start, end=min(node.body_span.end, node.body_span.start + MAX_PROVISION_CHARS))]
    text = "\n".join(doc.text[s.start:s.end] for s in spans)
    p = Passage(
        chunk_id=f"{doc.id}#{node.id}", doc_id=doc.id, node_id=node.id, text=text, spans=spans,
        clause_ref=node.ref, heading_path=list(node.path), page_start=node.page_start,
        page_end=node.page_end, doc_title=doc_label(doc), source_path=doc.source_path,
        score=score, scores={method: score}, method=method,
    )
    if via:
        p.scores["hop"] = 1.0
    return p


def hop_targets(doc: Document, node: Node) -> list[str]:
    """One hop from ``node``: its ``cross_referenced_ids`` then the defining nodes of the
    defined terms its text uses (preamble/root definitions such as party names excluded),
    at most :data:`MAX_HOPS_PER_NODE`, never ``node`` itself."""
    kinds = {n.id: n.kind for n in doc.nodes}
    out: list[str] = []
    for x in node.cross_referenced_ids:
        if x != node.id and x in kinds and x not in out:
            out.append(x)
    for t in doc.defined_terms.values():
        if node.id in t.used_in and t.node_id != node.id and kinds.get(t.node_id) not in (None, "root", "preamble") \
                and t.node_id not in out:
            out.append(t.node_id)
    return out[:MAX_HOPS_PER_NODE]


def fetch(corpus: NavCorpus, picks: Sequence[tuple[str, str]], k: int = 2 * MAX_NODES,
          method: str = "navindex", hop: bool = True) -> list[Passage]:
    """S2 (deterministic). Picked nodes first (score 1.0 down to ~0.5 by rank), then one
    hop along cross-references / definitions (score 0.1, ``scores["hop"]``), deduplicated
    (a node already inside a fetched parent's span is skipped), at most ``k`` passages."""
    out: list[Passage] = []
    seen: set[tuple[str, str]] = set()

    def covered(doc_id: str, node: Node) -> bool:
        return any(p.doc_id == doc_id and any(s.start <= node.body_span.start and node.body_span.end <= s.end
                                              for s in p.spans) for p in out)

    def add(doc_id: str, node_id: str, score: float, via: str | None) -> None:
        doc = corpus.docs[doc_id]
        try:
            node = doc.node(node_id)
        except KeyError:
            return
        if (doc_id, node_id) in seen or covered(doc_id, node) or len(out) >= k:
            return
        seen.add((doc_id, node_id))
        out.append(_provision(doc, node, method, score, via))

    for rank, (d, n) in enumerate(picks):
        add(d, n, 1.0 - rank / (2 * max(len(picks), 1)), None)
    if hop:
        for d, n in list(picks):
            doc = corpus.docs[d]
            try:
                node = doc.node(n)
            except KeyError:
                continue
            for t in hop_targets(doc, node):
                add(d, t, 0.1, n)
    return out


def _clause_label(p: Passage) -> str:
    if p.clause_ref:
        return p.clause_ref if re.match(r"(?i)(article|section|schedule|exhibit|annex|clause)\b", p.clause_ref) \
            else f"Clause {p.clause_ref}"
    return (p.heading_path[-1] if p.heading_path else "") or f"node {p.node_id}"


def provisions_block(passages: Sequence[Passage]) -> str:
    """The ``<provisions>`` block of S3: one ``<provision doc=... clause=... node=...>``
    element per passage, verbatim text inside."""
    parts = ["<provisions>"]
    for p in passages:
        parts.append(f'<provision doc="{p.doc_title or p.doc_id}" clause="{_clause_label(p)}" node="{p.node_id}">')
        parts.append(p.text.strip())
        parts.append("</provision>")
    parts.append("</provisions>")
    return "\n".join(parts)


class Answer(BaseModel):
    """An answer from S3 / inject. ``refused``: the model said :data:`REFUSAL` (or there
    was nothing to answer from); ``context_tokens``: tokens of the context it read."""

    text: str
    refused: bool = False
    context_tokens: int = 0


def is_refusal(text: str) -> bool:
    """True if ``text`` contains the refusal string (case/space-insensitive)."""
    norm = lambda s: " ".join(s.lower().split()).rstrip(".")  # noqa: E731
    return norm(P.REFUSAL) in norm(text)


def answer_from_passages(model: BaseChatModel, question: str, passages: Sequence[Passage],
                         ledger: Ledger | None = None, entry: LedgerEntry | None = None) -> Answer:
    """S3: answer ``question`` only from ``passages`` (rendered by :func:`provisions_block`).

    With no passages the refusal string is returned without calling the model (an empty
    provisions block cannot support an answer). The answering-context tokens are added to
    ``entry`` when given.
    """
    if not passages:
        return Answer(text=P.REFUSAL, refused=True, context_tokens=0)
    block = provisions_block(passages)
    ctx = count_tokens(model, block)
    msgs = [SystemMessage(P.ANSWER_SYSTEM), HumanMessage(P.ANSWER_USER.format(provisions=block, question=question))]
    if ledger is not None and entry is not None:
        entry.answering_context_tokens += ctx
        with ledger.recording(entry, "answer", cacheable_tokens=count_tokens(model, P.ANSWER_SYSTEM)):
            text = invoke_text(model, msgs)
    else:
        text = invoke_text(model, msgs)
    return Answer(text=text, refused=is_refusal(text), context_tokens=ctx)


class NavIndexRetriever:
    """navindex as a :class:`~clauselens.retrieval.types.RetrievalMethod`.

    ``index(documents)`` builds the indices (and writes ``<doc>.index.json`` /
    ``<doc>.full.json`` under ``store_dir`` when given). ``search(query, k)`` runs S1 + S2
    and returns the picked provisions then their one-hop provisions (at most ``k``; S1
    itself picks at most ``min(k, max_nodes)``); every LLM call is written to ``ledger``.
    ``trace`` holds picks, rejected (invented) ids, batches and index tokens.
    """

    name = "navindex"

    def __init__(self, model: BaseChatModel, ledger: Ledger | None = None, max_nodes: int = MAX_NODES,
                 store_dir: Path | None = None) -> None:
        self.model = model
        self.ledger = ledger or Ledger(label="navindex")
        self.max_nodes = max_nodes
        self.store_dir = store_dir
        self.corpus = NavCorpus()
        self._n = 0

    def index(self, documents: Sequence[Document]) -> None:
        """Build (replace) the navindex of ``documents``."""
        self.corpus = NavCorpus.build(documents)
        if self.store_dir is not None:
            for d in documents:
                write_nav_files(d, self.store_dir)

    def search(self, query: str, k: int = 2 * MAX_NODES, query_id: str | None = None) -> SearchResult:
        """S1 + S2 for ``query``. Abstains (empty passages, reason) when the scan picks nothing."""
        self._n += 1
        entry = self.ledger.start(query_id or f"q{self._n}", self.name)
        res = scan(self.model, self.corpus, query, min(k, self.max_nodes), self.ledger, entry)
        passages = fetch(self.corpus, res["picks"], k=k)
        trace = {"picks": [list(p) for p in res["picks"]], "rejected": res["rejected"],
                 "batches": res["batches"], "index_tokens": res["index_tokens"], "ledger_entry": len(self.ledger.entries) - 1}
        if not passages:
            return SearchResult(query=query, abstained=True, reason="no matching clause found", trace=trace)
        return SearchResult(query=query, passages=passages, trace=trace)

    def entry_for(self, result: SearchResult) -> LedgerEntry:
        """The ledger entry of a ``search`` result (to add the S3 answer call to it)."""
        return self.ledger.entries[result.trace["ledger_entry"]]
