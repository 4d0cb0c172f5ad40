"""navindex S2 -- fetch (deterministic): the picked nodes' verbatim text (a short parent node
gets its descendants), plus one hop along ``cross_referenced_ids`` and to the defining clause of
defined terms used. After the "Inject or Navigate?" study (issue #4); see
:mod:`clauselens.retrieval.navigate`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from clauselens.parsing.types import Document, Node, Span
from clauselens.retrieval.navigate.index import NavCorpus
from clauselens.retrieval.navigate.scan import MAX_NODES
from clauselens.retrieval.types import Passage

EXPAND_CHILDREN_BELOW = 400
"""A picked node whose own text is shorter than this (characters) and that has children is
fetched with its descendants (e.g. ``4. Limitation of Liability`` heading over 4(a)-4(c))."""

MAX_PROVISION_CHARS = 4000
"""Cap on one fetched provision (characters), so a huge article cannot fill the window."""

MAX_HOPS_PER_NODE = 3
"""Cross-reference / definition hops added per picked node (S2)."""


def doc_label(doc: Document) -> str:
    """Short label used in provisions blocks and citations: the title, else the file stem."""
    label = doc.title or Path(doc.source_path).stem or doc.id
    return " ".join(label.split())[:80]


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


def passage_of_node(doc: Document, node: Node, method: str, score: float, via: str | None = None) -> Passage:
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
        out.append(passage_of_node(doc, node, method, score, via))

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
