"""Chunks for retrieval, built from the clause tree; each maps back to exact spans.

Kinds (see :class:`clauselens.parsing.types.Chunk`): ``node`` (one node's own body),
``ancestor`` (the heading lines of its ancestors, then its body), ``descendant`` (the node
with all its children, only when that fits ``max_chars``), ``window`` (pieces of bodies
longer than ``max_chars``, and every chunk of an unstructured document). Chunks with the
same spans are emitted once.
"""

from __future__ import annotations

from clauselens.parsing.types import Chunk, Document, Node, Span

#: Upper bound on one chunk's characters (≈ 500 tokens of English legal text at ~4 chars/token).
MAX_CHARS = 2000


def trim_span(text: str, s: int, e: int) -> Span | None:
    """``[s, e)`` without leading/trailing white space, or ``None`` when nothing is left."""
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return Span(start=s, end=e) if e > s else None


#: An ancestor's heading line is cut to this many characters in ancestor chunks.
HEADING_MAX_CHARS = 160


def heading_span(doc: Document, node: Node) -> Span | None:
    """The first line of a node (its marker and heading), trimmed; cut after the heading
    text (or at a word boundary within :data:`HEADING_MAX_CHARS`) when that line runs on
    into the clause body. ``None`` if empty."""
    s = node.body_span.start
    nl = doc.text.find("\n", s, node.body_span.end)
    e = node.body_span.end if nl < 0 else nl
    if e - s > HEADING_MAX_CHARS:
        k = doc.text.find(node.heading, s, e) if node.heading else -1
        if k >= 0 and k + len(node.heading or "") - s <= HEADING_MAX_CHARS:
            e = k + len(node.heading or "")
        else:
            sp = doc.text.rfind(" ", s, s + HEADING_MAX_CHARS)
            e = sp if sp > s else s + HEADING_MAX_CHARS
    return trim_span(doc.text, s, e)


def windows(text: str, span: Span, max_chars: int = MAX_CHARS) -> list[Span]:
    """Split ``span`` into pieces of at most ``max_chars``, cutting at a paragraph break,
    else a sentence end, else a space, in the last two-thirds of each piece."""
    out: list[Span] = []
    s, end = span.start, span.end
    while end - s > max_chars:
        lo, hi = s + max_chars // 3, s + max_chars
        cut = -1
        for pat in ("\n\n", "\n", ". ", "; ", " "):
            k = text.rfind(pat, lo, hi)
            if k >= 0:
                cut = k + len(pat.rstrip(" ")) if pat.strip() else k + len(pat)
                break
        if cut <= s:
            cut = hi
        sp = trim_span(text, s, cut)
        if sp:
            out.append(sp)
        s = cut
    sp = trim_span(text, s, end)
    if sp:
        out.append(sp)
    return out


def build_chunks(doc: Document, max_chars: int = MAX_CHARS) -> list[Chunk]:
    """Node, ancestor-aware and descendant-aware chunks of ``doc``, de-duplicated.

    Every chunk satisfies ``chunk.text == "\\n".join(doc.text[s.start:s.end] for s in
    chunk.spans)`` and carries ``clause_ref``, ``heading_path`` (ancestors' labels, then the
    node's), pages, ``doc_title`` and ``source_path``. Root nodes are skipped; a node whose
    own body is only its heading line yields no node chunk when it has children.

    Returns:
        chunks in document order of their nodes.
    """
    text = doc.text
    by_id = {n.id: n for n in doc.nodes}
    out: list[Chunk] = []
    seen: set[tuple[tuple[int, int], ...]] = set()

    def emit(node: Node, kind: str, spans: list[Span]) -> None:
        key = tuple((s.start, s.end) for s in spans)
        if not spans or key in seen:
            return
        seen.add(key)
        # pages of the node's own stretch, not of the ancestors' headings an ancestor chunk prefixes (a tryout cited
        # clause 12.7 "pp. 6-7": its heading "12. Miscellaneous." is on p. 6, the clause on p. 7 only)
        own = next((spans[i:] for i in range(len(spans) - 1, 0, -1) if spans[i].start - spans[i - 1].end > 2), spans)
        starts = [s.start for s in own]
        ends = [s.end for s in own]
        out.append(Chunk(
            id=f"{doc.id}:{node.id}:{kind}:{len(out)}", doc_id=doc.id, node_id=node.id, kind=kind,  # type: ignore[arg-type]
            text="\n".join(text[s.start:s.end] for s in spans), spans=spans, clause_ref=node.ref,
            heading_path=[*node.path, node.path_label] if node.kind != "paragraph" else [],
            page_start=doc.page_of(min(starts)), page_end=doc.page_of(max(max(ends) - 1, min(starts))),
            doc_title=doc.title, source_path=doc.source_path,
        ))

    for node in doc.nodes:
        if node.kind == "root":
            continue
        body = trim_span(text, node.body_span.start, node.body_span.end)
        if body is None:
            continue
        if not doc.structured:
            for w in windows(text, body, max_chars):
                emit(node, "window", [w])
            continue
        head = heading_span(doc, node)
        only_heading = head is not None and head.end >= body.end
        ancestors: list[Span] = []
        p = node.parent_id
        while p and p != "n0":
            a = by_id[p]
            hs = heading_span(doc, a)
            if hs:
                ancestors.append(hs)
            p = a.parent_id
        ancestors.reverse()
        if body.end - body.start <= max_chars:
            if not (only_heading and node.children):
                emit(node, "node", [body])
                if ancestors:
                    emit(node, "ancestor", [*ancestors, body])
        else:
            pieces = windows(text, body, max_chars)
            for w in pieces:
                emit(node, "window", [*ancestors, w] if ancestors else [w])
        if node.children:
            full = trim_span(text, node.span.start, node.span.end)
            if full and full.end - full.start <= max_chars:
                emit(node, "descendant", [*ancestors, full] if ancestors else [full])
    return out


