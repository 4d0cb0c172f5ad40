"""Build the navindex of a parsed document: a compact navigation file and a provision store.

Format (issue #4, after the "Inject or Navigate?" study): per document a
``<doc>.index.json`` (title, tags; per node: id, clause ref, heading, opening snippet,
keyword tags, cross-referenced ids, children, boolean flags, text length) and a
``<doc>.full.json`` (node id -> verbatim text). Flags come from the deterministic detectors
below (pure functions over one string). :func:`serialize_index` writes the token-optimised
form of the study's "Config 6": false/empty fields omitted, one-letter keys, no whitespace.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from pydantic import BaseModel, Field

from clauselens.parsing.types import Document, Node

SNIPPET_CHARS = 90
"""Length of the opening snippet kept per node (characters); a trade-off of the study's
index size against scan recall, not a published constant."""

N_KEYWORDS = 4
"""Keyword tags per node (most frequent non-stopword tokens of the node's own text)."""

# --- deterministic detectors (pure functions) ---------------------------------------------

_MONTHS = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
           r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?")
_MONEY_RE = re.compile(
    r"(?:[$€£¥]\s?(?:\d|\[\*+\]))"                      # $5, $ 5, $[***] (CUAD redactions)
    r"|(?:\b(?:USD|EUR|GBP|US\$)\s?\d)"                  # USD 5
    r"|(?:\d[\d,.]*\s?(?:USD|EUR|GBP|dollars|euros|pounds)\b)"  # 7,000,000 USD
    r"|(?:\b(?:million|billion|thousand)\s+(?:U\.?S\.?\s+)?(?:dollars|USD|euros)\b)",
    re.IGNORECASE,
)
_DATE_RE = re.compile(
    rf"(?:\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}})"    # March 30, 2009
    rf"|(?:\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTHS},?\s+\d{{4}})"  # 22 Dec. 2017
    r"|(?:\b\d{4}-\d{2}-\d{2}\b)"                                 # 2017-12-21
    r"|(?:\b\d{1,2}[/-]\d{1,2}[/-]\d{2,4}\b)"                     # 12-21-2017
    r"|(?:\bQ[1-4]\s+\d{4}\b)",                                   # Q3 2018
    re.IGNORECASE,
)
_PERCENT_RE = re.compile(r"\d+(?:\.\d+)?\s?(?:%|percent\b|per\s?cent\b)|\[\*+\]\s?%", re.IGNORECASE)
_LIABILITY_RE = re.compile(
    r"limitation\s+of\s+liability|liability\s+cap|cap\s+on\s+liability|aggregate\s+(?:liability|damages)"
    r"|shall\s+not\s+exceed|in\s+no\s+event\s+shall\b[^.]{0,80}\bliable|not\s+be\s+(?:responsible|liable)\s+for"
    r"|consequential\s+(?:or\s+\w+\s+)?damages|limitation\s+of\s+(?:the\s+)?liability",
    re.IGNORECASE,
)
_CONDITION_RE = re.compile(
    r"conditions?\s+precedent|subject\s+to\s+the\s+(?:satisfaction|fulfil+ment)|provided,?\s+(?:however,?\s+)?that"
    r"|\bunless\b|\bin\s+the\s+event\s+(?:of|that)\b|\bif\s+and\s+only\s+if\b|\bnotwithstanding\b"
    r"|\bonly\s+if\b|\bupon\s+the\s+occurrence\b|\bshould\s+\w+\s+(?:fail|deliver|breach)",
    re.IGNORECASE,
)
_DEFINITION_RE = re.compile(
    r"[\"“][A-Z][^\"”]{1,60}[\"”]\s+(?:shall\s+)?(?:mean|means|has\s+the\s+meaning|shall\s+have\s+the\s+meaning|includes?|is\s+defined)"
    r"|\((?:the\s+|each\s+a\s+|collectively,?\s+)?[\"“][A-Z][^\"”]{1,60}[\"”]\)",
)
_TOC_RE = re.compile(r"(?:\.{4,}|…{2,}|\s{3,})\s*\d{1,3}\s*$|^\s*table\s+of\s+contents\b", re.IGNORECASE | re.MULTILINE)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z\-]{2,}")
_STOP = frozenset(
    """the and for that with this shall such any all are from which other not may its their
    have has been will each under upon into than then there these those including without
    hereby hereto herein hereof thereof party parties agreement section clause provided
    however pursuant respect accordance following above below between also only who whom
    where when what would could should must can per one two three time date""".split()
)


def has_money(text: str) -> bool:
    """True if ``text`` states a money amount (``$5``, ``$[***]``, ``7,000,000 USD``,
    ``seven million dollars``). Deterministic regex detector."""
    return bool(_MONEY_RE.search(text))


def has_date(text: str) -> bool:
    """True if ``text`` contains a calendar date (``March 30, 2009``, ``22 Dec. 2017``,
    ``2017-12-21``, ``12-21-2017``) or a calendar quarter (``Q3 2018``)."""
    return bool(_DATE_RE.search(text))


def has_percentage(text: str) -> bool:
    """True if ``text`` contains a percentage (``10%``, ``5 percent``, ``[***]%``)."""
    return bool(_PERCENT_RE.search(text))


def has_liability_limit(text: str) -> bool:
    """True if ``text`` limits or excludes liability (``limitation of liability``,
    ``shall not exceed``, ``in no event shall ... be liable``, consequential damages)."""
    return bool(_LIABILITY_RE.search(text))


def has_condition(text: str) -> bool:
    """True if ``text`` states a condition or proviso (conditions precedent, ``provided
    that``, ``unless``, ``in the event of``, ``notwithstanding``, ``only if``)."""
    return bool(_CONDITION_RE.search(text))


def has_party(text: str, parties: Iterable[str]) -> bool:
    """True if ``text`` names one of ``parties`` (case-sensitive whole-word match, so the
    defined alias ``Adviser`` matches but ``advisers`` does not)."""
    for p in parties:
        p = p.strip()
        if len(p) >= 2 and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text):
            return True
    return False


def is_definition_text(text: str) -> bool:
    """True if ``text`` defines a term: ``"X" means ...`` or an inline ``(the "X")``."""
    return bool(_DEFINITION_RE.search(text))


def is_toc_entry(text: str) -> bool:
    """True if ``text`` looks like a table-of-contents line (dotted leader or wide gap then
    a page number, or a ``Table of Contents`` heading) and is short (< 300 characters)."""
    return len(text) < 300 and bool(_TOC_RE.search(text.strip()))


def keywords(text: str, n: int = N_KEYWORDS) -> list[str]:
    """The ``n`` most frequent non-stopword words (lower-cased, >= 3 letters) of ``text``,
    ties broken by first occurrence."""
    words = [w.lower() for w in _WORD_RE.findall(text)]
    counts = Counter(w for w in words if w not in _STOP)
    first: dict[str, int] = {}
    for i, w in enumerate(words):
        first.setdefault(w, i)
    return [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], first[kv[0]]))[:n]]


# --- the index model ------------------------------------------------------------------------


class NavNode(BaseModel):
    """One node of a navigation index (short JSON keys via :func:`serialize_index`)."""

    id: str
    ref: str | None = None
    heading: str | None = None
    snippet: str = ""
    keywords: list[str] = Field(default_factory=list)
    cross_referenced_ids: list[str] = Field(default_factory=list)
    children: list[str] = Field(default_factory=list)
    is_definition: bool = False
    has_money: bool = False
    has_date: bool = False
    has_percentage: bool = False
    has_liability_limit: bool = False
    has_condition: bool = False
    has_party: bool = False
    is_toc_entry: bool = False
    text_length: int = 0


class NavIndex(BaseModel):
    """The navigation file of one document (``<doc>.index.json``)."""

    doc_id: str
    title: str | None = None
    doc_type: str = "agreement"
    tags: list[str] = Field(default_factory=list)
    nodes: list[NavNode] = Field(default_factory=list)

    def node_ids(self) -> set[str]:
        """The set of node ids in this index."""
        return {n.id for n in self.nodes}


def node_text(doc: Document, node: Node) -> str:
    """The node's own verbatim text (``doc.text[body_span]``, heading included)."""
    return doc.text[node.body_span.start:node.body_span.end]


def _party_names(doc: Document) -> list[str]:
    """Party names and their defined aliases: ``doc.parties`` plus terms defined in the
    preamble (e.g. ``"Adviser"``, ``"FASC"``)."""
    names = list(doc.parties)
    pre = {n.id for n in doc.nodes if n.kind in ("preamble", "root")}
    names += [t.term for t in doc.defined_terms.values() if t.node_id in pre]
    return names


def _snippet(text: str, heading: str | None, ref: str | None) -> str:
    s = " ".join(text.split())
    for lead in (ref, heading):
        if lead and s.startswith(lead):
            s = s[len(lead):].lstrip(" .:-–)")
    return s[:SNIPPET_CHARS].rstrip() + ("…" if len(s) > SNIPPET_CHARS else "")


def build_nav_index(doc: Document) -> tuple[NavIndex, dict[str, str]]:
    """Build the navigation index and the provision store of ``doc``.

    Returns ``(index, full)`` where ``full`` maps node id -> verbatim own text. The root node
    and nodes with no text of their own are left out of the index (their children stay).
    Tags are the document's type plus its most frequent keywords.
    """
    parties = _party_names(doc)
    nodes: list[NavNode] = []
    full: dict[str, str] = {}
    indexed = {n.id for n in doc.nodes if n.kind != "root" and node_text(doc, n).strip()}
    for n in doc.nodes:
        if n.id not in indexed:
            continue
        text = node_text(doc, n)
        full[n.id] = text
        nodes.append(NavNode(
            id=n.id, ref=n.ref, heading=n.heading, snippet=_snippet(text, n.heading, n.ref),
            keywords=keywords(text), cross_referenced_ids=[x for x in n.cross_referenced_ids if x in indexed],
            children=[c for c in n.children if c in indexed],
            is_definition=n.is_definition or is_definition_text(text), has_money=has_money(text),
            has_date=has_date(text), has_percentage=has_percentage(text),
            has_liability_limit=has_liability_limit(text), has_condition=has_condition(text),
            has_party=has_party(text, parties), is_toc_entry=is_toc_entry(text), text_length=len(text),
        ))
    tags = list(dict.fromkeys([doc.doc_type, *keywords(doc.text, 6)]))
    return NavIndex(doc_id=doc.id, title=doc.title, doc_type=doc.doc_type, tags=tags, nodes=nodes), full


_FLAG_KEYS = {
    "is_definition": "D", "has_money": "M", "has_date": "T", "has_percentage": "P",
    "has_liability_limit": "L", "has_condition": "C", "has_party": "Y", "is_toc_entry": "O",
}


def compact_index(index: NavIndex, doc_alias: str | None = None) -> dict:
    """The Config-6 dict of ``index``: one-letter keys, false/empty fields omitted, flags as
    ``"D":1``. ``doc_alias`` replaces the (often long) document id in the ``d`` field."""
    out: dict = {"d": doc_alias or index.doc_id}
    if index.title:
        out["t"] = index.title
    out["y"] = index.doc_type
    if index.tags:
        out["g"] = index.tags
    nodes = []
    for n in index.nodes:
        c: dict = {"i": n.id}
        for key, val in (("r", n.ref), ("h", n.heading), ("s", n.snippet), ("k", n.keywords),
                         ("x", n.cross_referenced_ids), ("c", n.children)):
            if val:
                c[key] = val
        for flag, key in _FLAG_KEYS.items():
            if getattr(n, flag):
                c[key] = 1
        c["l"] = n.text_length
        nodes.append(c)
    out["n"] = nodes
    return out


def serialize_index(index: NavIndex, doc_alias: str | None = None) -> str:
    """Token-optimised serialisation (Config 6 of the study): compact JSON, no whitespace,
    non-ASCII kept as is. See :data:`clauselens.retrieval.navigate.prompts.INDEX_LEGEND`."""
    return json.dumps(compact_index(index, doc_alias), separators=(",", ":"), ensure_ascii=False)


def write_nav_files(doc: Document, out_dir: Path) -> tuple[Path, Path]:
    """Write ``<out_dir>/<doc.id>.index.json`` (readable, full keys) and
    ``<out_dir>/<doc.id>.full.json``; returns both paths. Writes via temp file + rename."""
    index, full = build_nav_index(doc)
    out_dir.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^\w.\-]+", "_", doc.id)
    paths = (out_dir / f"{safe}.index.json", out_dir / f"{safe}.full.json")
    for path, payload in zip(paths, (index.model_dump(), full)):
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
    return paths


def doc_aliases(docs: Sequence[Document]) -> dict[str, str]:
    """Short aliases ``D1``, ``D2``, ... for documents in the given order (alias -> doc id),
    so that the scan prompt does not repeat long file-name ids."""
    return {f"D{i + 1}": d.id for i, d in enumerate(docs)}


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
