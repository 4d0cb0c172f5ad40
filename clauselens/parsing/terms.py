"""Defined terms and cross-references over a built clause tree (pure functions).

Definitions recognised: ``"X" means|shall mean|has the meaning|shall have the meaning|
includes|refers to`` (straight or curly quotes, optional ``The term``) and, at a line start, the
same without quotation marks (``1.10 INTELLECTUAL PROPERTY shall mean``, ``Effective Date: means``;
:func:`unquoted_definitions`) — these mark their node ``is_definition`` — and parenthetical definitions ``(the "X")``, ``(each, a "X")``,
``(collectively, the "X")``, ``(hereinafter referred to as the "X")``.
Cross-references: ``Section 5.17``, ``Sections 5.17 and 5.18``, ``clause 14.3(b)``,
``paragraph (c)``, ``Article IV``, ``§ 3.2``, ``Schedule 2``, ``Exhibit B``, ``Annex A``.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from clauselens.parsing.numbering import roman_to_int
from clauselens.parsing.types import CrossReference, DefinedTerm, Document, Node, Span

_TERM = r"[\"“]([A-Z0-9][^\"”\n]{0,80}?)[\"”]"
MEANS_RE = re.compile(_TERM + r"\s*(?:,\s*)?(?:shall\s+mean|means|mean|shall\s+have\s+the\s+meaning|has\s+the\s+meaning"
                               r"|shall\s+include|includes|refers\s+to|is\s+defined)\b")
#: An unquoted definition at the start of a line, as some agreements write them: "1.10 INTELLECTUAL
#: PROPERTY shall mean ...", "1.1.3 Effective Date: means ...", "DISABILITY shall mean ...": an optional
#: clause number or list marker, a term of one to six capitalised words (with "of", "and", "or", "the",
#: "for", "in", "to" between them), an optional colon or comma, and a defining verb. Group ``term``.
UNQUOTED_MEANS_RE = re.compile(
    r"(?m)^[ \t]*(?:(?:\d+(?:\.\d+)*\.?|\(?[A-Za-z0-9]{1,4}[.)])[ \t]+)*"
    r"(?P<term>[A-Z][\w&/-]*(?:[ \t]+(?:(?:of|and|or|the|for|in|to)[ \t]+)?[A-Z0-9][\w&/-]*){0,5})"
    r"[ \t]*[:,]?[ \t]+(?:shall[ \t]+mean|means|shall[ \t]+have[ \t]+the[ \t]+meaning|has[ \t]+the[ \t]+meaning)\b")
#: First words that open a sentence, not a term ("The term ... means", "This Agreement means", "By ...").
_NOT_A_TERM = frozenset("""a an the this that these those such each any all no none nothing neither either it its
by in for as if where when which who upon under with without from to of on at""".split())


class UnquotedDefinition(NamedTuple):
    """One :data:`UNQUOTED_MEANS_RE` definition: the ``term`` (whitespace normalised), where it
    starts and ends in the text, and where the defining words end."""

    term: str
    start: int
    term_end: int
    end: int


def unquoted_definitions(text: str) -> list[UnquotedDefinition]:
    """Every :data:`UNQUOTED_MEANS_RE` definition in ``text``, in order; a term whose first word
    opens sentences (:data:`_NOT_A_TERM`) is not one."""
    out = []
    for m in UNQUOTED_MEANS_RE.finditer(text):
        term = " ".join(m.group("term").split())
        if len(term) >= 2 and term.split()[0].lower() not in _NOT_A_TERM:
            out.append(UnquotedDefinition(term, m.start("term"), m.end("term"), m.end()))
    return out


PAREN_DEF_RE = re.compile(
    r"\((?:[^()\"“”]{0,60}?\b)?(?:the\s+|each\s+(?:a|an)\s+|each,?\s+(?:a|an)\s+|collectively,?\s+(?:the\s+)?|individually,?\s+(?:a|an)\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?|referred\s+to\s+as\s+(?:the\s+)?|an?\s+)?"
    + _TERM + r"(?:\s*(?:or|and|,)\s*(?:the\s+)?" + _TERM + r")?\s*\)"
)
XREF_RE = re.compile(
    r"(?<![\w§])(?P<word>Sections?|SECTIONS?|[Cc]lauses?|[Pp]aragraphs?|[Ss]ubsections?|Articles?|ARTICLES?|Schedules?|SCHEDULES?|Exhibits?|EXHIBITS?|Annex(?:es)?|ANNEX|Appendix|APPENDIX|§§?)(?:(?<=§)\s*|\s+)"
    r"(?P<targets>(?:\d{1,3}(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,5}\))*|\([a-zA-Z0-9]{1,5}\)(?:\([a-zA-Z0-9]{1,5}\))*|[IVXLC]{1,6}\b|[A-Z]{1,2}\b)"
    r"(?:\s*(?:,|and|or|through|to|-)\s*(?:\d{1,3}(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,5}\))*|\([a-zA-Z0-9]{1,5}\)(?:\([a-zA-Z0-9]{1,5}\))*|[IVXLC]{1,6}\b|[A-Z]\b))*)"
)
_TARGET = re.compile(r"\d{1,3}(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,5}\))*|\([a-zA-Z0-9]{1,5}\)(?:\([a-zA-Z0-9]{1,5}\))*|[IVXLC]{1,6}\b|[A-Z]{1,2}\b")


class _Locator:
    """Innermost node holding an offset, in O(log n + depth): nodes are in document order
    and nested, so it is the last node starting at or before the offset, or an ancestor."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.by_id = {n.id: n for n in nodes}
        self.starts = [n.span.start if n.kind != "root" else -1 for n in nodes]

    def __call__(self, offset: int) -> Node:
        i = bisect.bisect_right(self.starts, offset) - 1
        n = self.nodes[max(i, 0)]
        while n.kind != "root" and not (n.span.start <= offset < max(n.span.end, n.span.start + 1)):
            n = self.by_id[n.parent_id] if n.parent_id else self.nodes[0]
        return n


def _innermost(nodes: list[Node], offset: int) -> Node:
    """The deepest node whose span contains ``offset`` (root if none)."""
    return _Locator(nodes)(offset)


def find_defined_terms(doc: Document) -> dict[str, DefinedTerm]:
    """Definitions in ``doc`` (first definition of a term wins), with the nodes using each.

    Side effect on ``doc.nodes``: sets ``is_definition`` on nodes with a ``means``-style
    definition and lists each node's ``defined_terms``. Usage is a case-sensitive
    whole-word match outside the defining occurrence.
    """
    text = doc.text
    terms: dict[str, DefinedTerm] = {}
    hits: list[tuple[str, int, int, bool]] = []
    for m in MEANS_RE.finditer(text):
        hits.append((m.group(1), m.start(1), m.end(1), True))
    for m in PAREN_DEF_RE.finditer(text):
        for g in (1, 2):
            if m.group(g):
                hits.append((m.group(g), m.start(g), m.end(g), False))
    for d in unquoted_definitions(text):  # the term's own span, as printed (its spaces may be doubled)
        hits.append((d.term, d.start, d.term_end, True))
    hits.sort(key=lambda h: h[1])
    locate = _Locator(doc.nodes)
    for term, s, e, means in hits:
        term = " ".join(term.split()).strip(" ,.")
        if len(term) < 2:
            continue
        node = locate(s)
        if means:
            node.is_definition = True
        if term not in node.defined_terms:
            node.defined_terms.append(term)
        if term not in terms:
            terms[term] = DefinedTerm(term=term, node_id=node.id, span=Span(start=s, end=e))
    # Usage: every whole-word occurrence of every term, in one pass over the text (linear in its
    # length; one regex scan per term made a 3 MB file take minutes). A term starts with [A-Z0-9],
    # so an occurrence starts at a word start and shares the term's first word.
    by_first: dict[str, list[str]] = {}
    for term in terms:
        first = _WORD.match(term)
        if first:
            by_first.setdefault(first.group(0), []).append(term)
    used: dict[str, dict[str, None]] = {t: {} for t in terms}
    for w in _WORD_START.finditer(text):
        cands = by_first.get(w.group(0))
        if not cands:
            continue
        pos = w.start()
        for term in cands:
            end = pos + len(term)
            if not text.startswith(term, pos) or (end < len(text) and _WORD_CHAR.match(text, end)):
                continue
            dt = terms[term]
            if dt.span.start <= pos < dt.span.end:
                continue
            nid = locate(pos).id
            if nid != "n0":
                used[term].setdefault(nid)
    for term, dt in terms.items():
        dt.used_in = list(used[term])
    return terms


_WORD = re.compile(r"\w+")
_WORD_START = re.compile(r"(?<!\w)\w+")
_WORD_CHAR = re.compile(r"\w")


def _ref_key(ref: str) -> str:
    """Comparable form of a reference: lower case, no spaces, Article numerals as integers, leading
    zeros dropped ("1.01" is "1.1": the tree keeps a number as printed)."""
    r = ref.lower().replace(" ", "")
    m = re.match(r"^article([ivxlc]+|\d+)$", r)
    if m:
        v = m.group(1)
        return f"article{int(v) if v.isdigit() else roman_to_int(v)}"
    return re.sub(r"\d+", lambda d: str(int(d.group())), r)


def _word_kind(word: str) -> str:
    w = word.lower().rstrip("s").replace("§", "section")
    if w.startswith("annex"):
        return "annex"
    return w


def find_cross_references(doc: Document) -> list[CrossReference]:
    """Every cross-reference in ``doc``, resolved to a node where possible.

    ``Section/clause/paragraph 5.17(b)`` resolves by normalised ``ref``; a bare ``(c)``
    resolves against the referring node's ancestors (``14.3`` + ``(c)``) then globally;
    ``Article IV`` / ``Article 4`` match either numeral; ``Schedule 2`` etc. match the
    schedule's ref. The marker of the node itself (its own heading) is not a reference.
    Unresolved references are kept with ``target_node_id=None``.

    Side effect: fills ``Node.cross_referenced_ids``.
    """
    nodes = doc.nodes
    by_key: dict[str, list[Node]] = {}
    for n in nodes:
        if n.ref:
            by_key.setdefault(_ref_key(n.ref), []).append(n)
    by_id = {n.id: n for n in nodes}
    starts = {n.span.start for n in nodes}
    locate = _Locator(nodes)
    out: list[CrossReference] = []
    for m in XREF_RE.finditer(doc.text):
        if m.start() in starts:
            continue  # a heading, not a reference
        kind = _word_kind(m.group("word"))
        src = locate(m.start())
        external = is_external(doc.text, m.end(), amendment=doc.doc_type == "amendment")
        for t in _TARGET.finditer(m.group("targets")):
            tgt = t.group(0)
            if kind in ("section", "clause", "paragraph", "subsection") and not (tgt[0].isdigit() or tgt.startswith("(")):
                continue
            if kind in ("schedule", "exhibit", "annex", "appendix"):
                target_ref = f"{'Annex' if kind == 'annex' else kind.capitalize()} {tgt}"
            elif kind == "article":
                target_ref = f"Article {tgt}"
            else:
                target_ref = tgt
            target = None if external else _resolve(target_ref, src, by_key, by_id)
            out.append(CrossReference(text=doc.text[m.start():m.end()], span=Span(start=m.start(), end=m.end()),
                                      from_node_id=src.id, target_ref=target_ref, target_node_id=target.id if target else None,
                                      external=external))
            if target and target.id != src.id and target.id not in src.cross_referenced_ids:
                src.cross_referenced_ids.append(target.id)
    return out


_EXTERNAL = re.compile(
    r"^[\s,]*(?:of|under|in|to)\s+(?:the\s+|that\s+certain\s+|such\s+|said\s+)?"
    r"(?!this\b|these\b|hereof\b)((?:[A-Z0-9][\w&.,'’\-]*\s+){0,8}?(?:Act|Code|Rules?|Regulations?|Agreements?|Amendment(?:\s+#?\d+)?|Plan|Lease|Note|Statute|Convention|Directive|U\.S\.C\.?|CFR|C\.F\.R\.?))\b"
)


def is_external(text: str, end: int, *, amendment: bool = False) -> bool:
    """Does the reference ending at ``end`` point into another instrument: "… of the
    Securities Act", "… of the Split Dollar Agreement", "… under Amendment #2"? In an
    amendment, "… of the Agreement" is the base agreement, hence external too; elsewhere
    "the Agreement" is this one."""
    m = _EXTERNAL.match(text[end:end + 160])
    if not m:
        return False
    name = " ".join(m.group(1).split())
    if name in ("Agreement", "Agreements") and not amendment:
        return False
    return True


def _resolve(target_ref: str, src: Node, by_key: dict[str, list[Node]], by_id: dict[str, Node]) -> Node | None:
    keys = [_ref_key(target_ref)]
    if target_ref.startswith("("):
        p: str | None = src.id
        while p:
            n = by_id[p]
            if n.ref and not n.ref.startswith("("):
                base = n.ref.split("(")[0] if "(" in n.ref else n.ref
                keys.insert(len(keys) - 1, _ref_key(n.ref + target_ref))
                keys.insert(len(keys) - 1, _ref_key(base + target_ref))
            p = n.parent_id
    for k in keys:
        cands = by_key.get(k)
        if cands:
            return cands[0]
    return None
