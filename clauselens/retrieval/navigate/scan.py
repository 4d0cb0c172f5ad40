"""navindex S1 -- scan: the model sees only the Config-6 indices of every document and returns
at most ``max_nodes`` ``(doc, node)`` pairs as JSON; pairs are validated against the indices and
invented ids are rejected and counted. If the indices do not fit the model's window they are
scanned in batches (documents, or node ranges of a large document) and the selections merged
round-robin, still at most ``max_nodes`` overall. After the "Inject or Navigate?" study
(issue #4); see :mod:`clauselens.retrieval.navigate`.
"""

from __future__ import annotations

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from clauselens.errors import RetrievalError
from clauselens.llm import count_tokens
from clauselens.retrieval.ledger import Ledger, LedgerEntry
from clauselens.retrieval.navigate import prompts as P
from clauselens.retrieval.navigate.index import NavCorpus, NavIndex, serialize_index
from clauselens.retrieval.navigate.llm import context_window, invoke_json

MAX_NODES = 10
"""The study's S1 limit: at most 10 nodes per query."""

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
