"""The Archivist: reads the user's files into :class:`~clauselens.parsing.types.Document` s
and indexes them in the Researcher's tools. Parsing is deterministic; the one model call is
the optional, off-by-default tree repair (:func:`repair_tree`, prompts in
``prompts_archivist``).

Errors are the parser's own :class:`~clauselens.errors.IngestError` s (missing, empty,
encrypted, image-only without OCR, ...), raised unchanged so the CLI prints their message.

:func:`archivist_node` is the Archivist's step in the agents' graph
(:mod:`clauselens.graph.builder`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from clauselens import events as ET
from clauselens.agents.resources import AgentResources
from clauselens.agents.state import GraphState
from clauselens.config import Settings
from clauselens.errors import FOLDER_NOT_FILE, IngestError, NoTextError
from clauselens.parsing.store import DocumentStore, parse_file
from clauselens.parsing.types import Document, DocumentSummary
from clauselens.retrieval.types import RetrievalMethod


def load_one(path: str | Path, settings: Settings, *, store: DocumentStore | None = None) -> Document:
    """Parse one file, re-using a stored parse when the file's bytes and parse options are
    unchanged.

    With ``settings.use_store`` (default) the parse goes through ``store`` or, when none is
    given, a :class:`~clauselens.parsing.DocumentStore` at ``settings.store_dir / "documents"``
    (pass one ``store`` to count ``store.hits`` across files). Password and OCR options come
    from ``settings``; a PDF with more than ``settings.max_pages`` pages is refused before
    parsing. Raises :class:`IngestError` (``"file not found"`` for a missing path, ``"not a
    file"`` for a directory, the page limit) or the parser's own ingest errors; a failed parse
    writes nothing to the store."""
    p = Path(path)
    if not p.exists():
        raise IngestError(str(path), "file not found")
    if not p.is_file():
        raise IngestError(str(path), FOLDER_NOT_FILE if p.is_dir() else "not a file")
    pw, ocr, dpi, limit = settings.pdf_password, settings.ocr, settings.ocr_dpi, settings.max_pages
    if settings.use_store:
        store = store if store is not None else DocumentStore(settings.store_dir / "documents")
        doc = store.load(p, password=pw, ocr=ocr, ocr_dpi=dpi, max_pages=limit, max_text_mb=settings.max_text_mb,
                         pdf_engine=settings.pdf_engine)
    else:
        doc = parse_file(p, password=pw, ocr=ocr, ocr_dpi=dpi, max_pages=limit, max_text_mb=settings.max_text_mb,
                         pdf_engine=settings.pdf_engine)
    if not doc.text.strip():  # the parser should already refuse this; never index an empty document
        raise NoTextError(p.name, "no text found")
    return doc


def ingest(paths: Sequence[str | Path], settings: Settings) -> list[Document]:
    """Parse every path, in order, through one store (see :func:`load_one`). Raises
    :class:`IngestError` on the first bad file (and :class:`IngestError` ``"no files given"``
    for an empty list)."""
    if not paths:
        raise IngestError("(none)", "no files given")
    store = DocumentStore(settings.store_dir / "documents") if settings.use_store else None
    return [load_one(p, settings, store=store) for p in paths]


def ingest_all(paths: Sequence[str | Path], settings: Settings, *,
               load: Callable[[Path], Document] | None = None) -> tuple[list[Document], list[IngestError]]:
    """Parse every path, in order, through one store, continuing past files that cannot be read
    (``ask``'s Archivist node and the chat sessions' ``ingest``).

    ``load`` parses one path (default: :func:`load_one` with ``settings`` and one store for all
    files; a chat session passes its own loader). Returns (documents, one :class:`IngestError`
    per file left out). Raises when no file could be read at all: that file's own error when
    there was one, else an :class:`IngestError` naming every file and its problem (and
    ``"no files given"`` for an empty list)."""
    if not paths:
        raise IngestError("(none)", "no files given")
    store = DocumentStore(settings.store_dir / "documents") if load is None and settings.use_store else None
    read = load or (lambda p: load_one(p, settings, store=store))
    docs: list[Document] = []
    failed: list[IngestError] = []
    for p in paths:
        try:
            docs.append(read(Path(p)))
        except IngestError as e:
            failed.append(e)
    if not docs:
        if len(failed) == 1:
            raise failed[0]
        raise IngestError("", f"none of the {len(failed)} files could be read: " + "; ".join(str(e) for e in failed))
    return docs, failed


def document_summary(doc: Document) -> dict[str, Any]:
    """The JSON form of ``doc``'s :class:`~clauselens.parsing.types.DocumentSummary`, as the run
    state, transcripts and chat sessions keep it."""
    return DocumentSummary.of(doc).model_dump(mode="json")


def index_tools(tools: Mapping[str, RetrievalMethod], documents: Sequence[Document]) -> None:
    """Index ``documents`` in every tool (each tool's ``index`` replaces its previous index)."""
    for tool in tools.values():
        tool.index(documents)


def archivist_node(state: GraphState, res: AgentResources) -> dict[str, Any]:
    """The graph's ``archivist`` step: parse ``state["paths"]`` (a file that cannot be read is
    left out and named in the report, not fatal; see :func:`ingest_all`), optionally repair the
    trees (:func:`repair_tree`, ``Settings.archivist_llm_repair``), and index the documents in
    every Researcher tool. With no ``paths`` the caller indexed the tools: nothing is parsed
    and the ``ingest`` event says so. Returns the state update (``documents``: the
    :func:`document_summary` of each, ``left_out``, ``events``)."""
    settings = res.settings
    paths = list(state.get("paths") or [])
    if not paths:
        return {"events": [{"type": ET.INGEST, "skipped": True, "reason": "no paths: tools indexed by the caller",
                            "left_out": list(state.get("left_out") or [])}]}
    t0 = time.perf_counter()
    docs, failed = ingest_all(paths, settings)
    left_out = [str(e) for e in failed]
    repair_events: list[dict[str, Any]] = []
    if settings.archivist_llm_repair:  # optional: the model may re-parent flagged nodes, never edit text
        records: list = []
        docs = [repair_tree(d, res.model("archivist"), settings=settings, records=records) for d in docs]
        repair_events = [{"type": ET.LLM_CALL, **r.as_dict()} for r in records]
    t1 = time.perf_counter()
    index_tools(res.tools(), docs)
    summaries = [document_summary(d) for d in docs]
    return {"documents": summaries, "left_out": left_out, "events": repair_events + [{
        "type": ET.INGEST, "documents": summaries, "left_out": left_out, "parse_seconds": round(t1 - t0, 3),
        "index_seconds": round(time.perf_counter() - t1, 3), "tools": list(res.tools()),
    }]}

# ---------------------------------------------------------------- optional LLM tree repair
_DOTTED = r"^(\d+(?:\.\d+)*)$"


def tree_suspicions(doc: Document) -> list[tuple[str, str]]:
    """Deterministic signs that the rules built a wrong tree: ``(node_id, reason)`` pairs.

    Reasons: the document was split without numbering (``structured=False``, node id of the
    root); a dotted number under a numbered parent that it does not continue (``4.1`` under
    ``3``); a numbering break between consecutive numbered siblings of the same depth
    (``1.1`` then ``1.3``, or ``2`` then ``2.1`` as siblings). Only plain dotted numbers
    (``1``, ``4.1``, ``2.3.1``) are compared. Empty list = nothing suspicious."""
    import re

    dotted = re.compile(_DOTTED)
    out: list[tuple[str, str]] = []
    if not doc.structured:
        out.append((doc.nodes[0].id if doc.nodes else "", "no clause numbering found (paragraph-split document)"))
    by_id = {n.id: n for n in doc.nodes}
    for n in doc.nodes:
        m = dotted.match(n.ref or "")
        parent = by_id.get(n.parent_id or "")
        pm = dotted.match((parent.ref or "") if parent else "")
        if m and pm and not m.group(1).startswith(pm.group(1) + "."):
            out.append((n.id, f"{n.ref} sits under {parent.ref}"))  # type: ignore[union-attr]
        prev = None
        for cid in n.children:
            cm = dotted.match(by_id[cid].ref or "") if cid in by_id else None
            if not cm:
                continue
            cur = [int(x) for x in cm.group(1).split(".")]
            if prev is not None:
                ok = len(cur) == len(prev[1]) and cur[:-1] == prev[1][:-1] and cur[-1] == prev[1][-1] + 1
                if not ok:
                    out.append((cid, f"{by_id[cid].ref} follows sibling {by_id[prev[0]].ref}"))
            prev = (cid, cur)
    return out


def repair_tree(
    doc: Document, model: Any, *, settings: Settings | None = None, records: list | None = None,
    max_nodes: int = 160,
) -> Document:
    """Optionally let ``model`` fix the parents of a tree the rules flagged (off by default:
    ``Settings.archivist_llm_repair``; with ``settings`` given and the flag off, or when
    :func:`tree_suspicions` finds nothing, ``doc`` is returned as is and no model is called).

    The model gets only a node list (id, ref, heading, level, parent id, first 80 characters
    of the node's own text; at most ``max_nodes`` nodes: the flagged ones, their parents and
    their neighbours) and returns ``{"fixes": [{"id", "parent_id"}]}`` via
    :func:`clauselens.agents.common.call_structured` (prompts in
    :mod:`clauselens.agents.prompts_archivist`). A fix is applied only when both ids were in
    the list shown (invented ids are rejected), the node is not the root, and the new parent
    comes before the node in document order and is not the node or one of its descendants.
    Applied: ``parent_id``, both parents' ``children`` (kept in document order), and the
    ``level`` and ``path`` of the node and its descendants. Nothing else changes: the text,
    every node's ``span``/``body_span``, refs and headings are as parsed (checked with
    assertions; spans are not widened, so a new parent's span need not cover the moved node).
    Returns a new :class:`Document` with a warning naming the moved and rejected fixes;
    ``records`` (if given) receives the :class:`~clauselens.agents.common.CallRecord`.
    Raises ``ModelResponseError``/``ModelUnavailableError`` from the model layer unchanged."""
    from pydantic import BaseModel, Field

    from clauselens.agents.common import call_structured
    from clauselens.agents.prompts_archivist import REPAIR_SYSTEM, REPAIR_USER

    class ParentFix(BaseModel):
        id: str
        parent_id: str

    class TreeRepair(BaseModel):
        fixes: list[ParentFix] = Field(default_factory=list)

    if settings is not None and not settings.archivist_llm_repair:
        return doc
    sus = tree_suspicions(doc)
    if not sus or len(doc.nodes) < 2:
        return doc
    index = {n.id: i for i, n in enumerate(doc.nodes)}
    by_id = {n.id: n for n in doc.nodes}
    keep: set[int] = {0}
    for nid, _ in sus:
        if nid not in index:
            continue
        i = index[nid]
        keep.update(range(max(1, i - 8), min(len(doc.nodes), i + 9)))
        p = by_id[nid].parent_id
        while p and p in index:
            keep.add(index[p])
            p = by_id[p].parent_id
    shown = [doc.nodes[i] for i in sorted(keep)][:max_nodes]
    shown_ids = {n.id for n in shown}

    def line(n: Any) -> str:
        own = " ".join(doc.text[n.body_span.start:n.body_span.end].split())[:80]
        return f"{n.id} | {n.ref or '-'} | {n.heading or '-'} | {n.level} | {n.parent_id or '-'} | {own}"

    user = REPAIR_USER.format(suspicions="\n".join(f"- {nid}: {why}" for nid, why in sus[:30]),
                              root_id=doc.nodes[0].id, nodes="\n".join(line(n) for n in shown))
    ms = settings.archivist_model if settings is not None else None
    result, rec = call_structured(model, REPAIR_SYSTEM, user, TreeRepair, agent="archivist", step="repair_tree",
                                  model_settings=ms, max_tokens=800)
    if records is not None:
        records.append(rec)

    before_text = doc.text
    before_spans = {n.id: (n.span.model_dump(), n.body_span.model_dump(), n.ref, n.heading) for n in doc.nodes}
    new = doc.model_copy(deep=True)
    nodes = {n.id: n for n in new.nodes}
    order = {n.id: i for i, n in enumerate(new.nodes)}

    def descendants(nid: str) -> set[str]:
        out, stack = set(), [nid]
        while stack:
            for c in nodes[stack.pop()].children:
                if c not in out:
                    out.add(c)
                    stack.append(c)
        return out

    moved: list[str] = []
    rejected: list[str] = []
    root_id = new.nodes[0].id
    for fx in result.fixes:
        if fx.id not in shown_ids or fx.parent_id not in shown_ids or fx.id == root_id:
            rejected.append(f"{fx.id}->{fx.parent_id} (unknown id)")
            continue
        node, target = nodes[fx.id], nodes[fx.parent_id]
        if node.parent_id == target.id:
            continue
        if order[target.id] >= order[node.id] or target.id in descendants(node.id):
            rejected.append(f"{fx.id}->{fx.parent_id} (parent must precede and not descend from the node)")
            continue
        old = nodes[node.parent_id] if node.parent_id in nodes else None
        if old is not None:
            old.children = [c for c in old.children if c != node.id]
        target.children = sorted([*target.children, node.id], key=order.__getitem__)
        node.parent_id = target.id
        moved.append(f"{node.id}->{target.id}")
    if moved:
        for n in new.nodes[1:]:  # document order: parents are re-levelled before their children
            par = nodes[n.parent_id] if n.parent_id in nodes else None
            n.level = (par.level + 1) if par is not None else n.level
            n.path = ([*par.path, par.label if (par.ref or par.heading) else par.kind.capitalize()]
                      if par is not None and par.id != root_id else [])
    if moved or rejected:
        new.warnings.append(f"LLM tree repair: moved {', '.join(moved) or 'nothing'}"
                            + (f"; rejected {', '.join(rejected)}" if rejected else ""))
    # the repair never rewrites text or spans
    assert new.text == before_text
    assert {n.id: (n.span.model_dump(), n.body_span.model_dump(), n.ref, n.heading) for n in new.nodes} == before_spans
    return new
