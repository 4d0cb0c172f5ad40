"""The library's passages and exact fields, cut from the Archivist's clause tree.

A library passage is one node's own text (a clause body up to its first sub-clause), split
into windows of at most :data:`PASSAGE_CHARS` characters, so that what is embedded fits the
embedder's window: all-MiniLM-L6-v2 truncates at 256 word pieces (Reimers & Gurevych 2019;
the model card's ``max_seq_length``), about 1,000 characters of English contract text at
~4 characters per piece. Issue #17 measured 2,000-character chunks being embedded by their
first half only. The ancestors travel as context: :func:`embed_text` prefixes the heading
path (``"5 Manufacture of Bromelain SP / 5.8"``) to the text that is embedded and indexed,
while the passage's span stays the node's own text, so a citation maps back exactly.

Exact fields per passage: the normalised clause reference (``14.3(b)``; see
:func:`clauselens.retrieval.analyzer.normalize_ref`). Per agreement: every definition
(``"X" means ...`` and parenthetical ``(the "X")``), as the offset of the defined term, so
"how is X defined" can go to the passage that defines X.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from clauselens.parsing.chunks import trim_span, windows
from clauselens.parsing.terms import MEANS_RE, PAREN_DEF_RE
from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.analyzer import normalize_ref

#: Upper bound on a passage's characters (see the module docstring).
PASSAGE_CHARS = 900
#: Characters of heading context prefixed to a passage for embedding and BM25.
CONTEXT_CHARS = 160


def library_passages(doc: Document, max_chars: int = PASSAGE_CHARS) -> list[Chunk]:
    """One passage per node body (windows of at most ``max_chars``), in document order.

    Each passage has exactly one span, ``text == doc.text[span]``; a node whose body is
    only its heading line and that has children yields none (its heading reaches the
    children through ``heading_path``).
    """
    text = doc.text
    out: list[Chunk] = []
    for node in doc.nodes:
        if node.kind == "root":
            continue
        body = trim_span(text, node.body_span.start, node.body_span.end)
        if body is None:
            continue
        if node.children and "\n" not in text[body.start:body.end].strip() and body.end - body.start < 160:
            continue
        for i, w in enumerate(windows(text, body, max_chars)):
            out.append(Chunk(
                id=f"{doc.id}:{node.id}:{i}", doc_id=doc.id, node_id=node.id,
                kind="node" if w == body else "window", text=text[w.start:w.end], spans=[w],
                clause_ref=node.ref, heading_path=[*node.path, node.path_label] if node.kind != "paragraph" else [],
                page_start=doc.page_of(w.start), page_end=doc.page_of(max(w.end - 1, w.start)),
                doc_title=doc.title, source_path=doc.source_path,
            ))
    return out


def context_line(chunk: Chunk) -> str:
    """The ancestors' labels of a passage, ``" / "``-joined and cut to :data:`CONTEXT_CHARS`."""
    ctx = " / ".join(h for h in chunk.heading_path[:-1] if h)
    return ctx[:CONTEXT_CHARS]


def embed_text(chunk: Chunk) -> str:
    """What is embedded and BM25-indexed for a passage: its heading context, then its text."""
    ctx = context_line(chunk)
    return f"{ctx}\n{chunk.text}" if ctx else chunk.text


def ref_key(ref: str | None) -> str | None:
    """The exact clause-number field: :func:`normalize_ref`, then leading zeros dropped from
    each dotted number (``"Section 8.02"`` and a tree's ``8.2`` are one clause), ``None``
    for no reference."""
    if not ref:
        return None
    r = normalize_ref(ref)
    m = re.match(r"^(\d+(?:\.\d+)*)(.*)$", r)
    if not m:
        return r
    return ".".join(str(int(x)) for x in m.group(1).split(".")) + m.group(2)


#: A top-level part a question names by its label: ``Schedule 2``, ``Exhibit B``, ``Annex A``,
#: ``Appendix I``, ``Article IV`` / ``Article 4`` (the tree's refs for these nodes keep the
#: word: ``"Exhibit B"`` -> key ``exhibitb``; see :class:`clauselens.parsing.types.Node`).
_PART_REF = re.compile(
    r"\b((?i:schedule|exhibit|annex|appendix|article))(?i:s)?\s+(\d{1,3}(?:\.\d{1,3})*|[IVXLC]{1,6}\b|[A-Z]{1,2}\b)"
    r"((?i:\s?\([a-z0-9]{1,4}\))*)")  # the label's word in any case, its letters as printed (capitals)


def _int_to_roman(n: int) -> str:
    out = ""
    for v, r in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out, n = out + r, n - v
    return out


def ref_key_groups(question: str) -> list[list[str]]:
    """The clause references ``question`` names, as groups of exact-field keys, each group
    one reference in the spellings a tree may have recorded for it: ``Section 7.2(d)`` ->
    ``[["7.2(d)"]]``; ``Schedule 2`` -> ``[["schedule2", "scheduleii"]]`` (never clause 2);
    ``Article IV`` -> ``[["articleiv", "article4", "4"]]``; ``Exhibit B`` -> ``[["exhibitb"]]``.
    A dotted number after "Article" (``Article 6.1(c)``) is an ordinary clause number."""
    from clauselens.parsing.numbering import roman_to_int
    from clauselens.retrieval.analyzer import clause_refs_in

    groups: list[list[str]] = []
    rest = question
    for m in _PART_REF.finditer(question):
        word, ident, tail = m.group(1).lower(), m.group(2), normalize_ref(m.group(3) or "")
        if "." in ident:
            if word == "article":
                continue  # "Article 6.1(c)": the clause number 6.1(c)
            keys = [f"{word}{ident}{tail}"]
        else:
            n = int(ident) if ident.isdigit() else roman_to_int(ident)
            if ident.isalpha() and (n is None or len(ident) > 1 and not ident.isupper()):
                n = None  # "Exhibit B", "Schedule AA": letters, not a Roman numeral
            keys = [f"{word}{ident.lower()}{tail}"]
            if n is not None and ident.isdigit():
                keys.append(f"{word}{_int_to_roman(n)}{tail}")
            elif n is not None:
                keys.append(f"{word}{n}{tail}")
            if word == "article" and n is not None:
                keys.append(f"{n}{tail}")
        groups.append(list(dict.fromkeys(keys)))
        rest = rest.replace(m.group(0), " " * len(m.group(0)), 1)
    for r in clause_refs_in(rest):
        k = ref_key(r)
        if k and [k] not in groups:
            groups.append([k])
    return groups


#: A clause number printed as a marker: at a line start, after a run of spaces (flattened
#: layouts) or after a sentence end, optionally after "Section"/"Article"/..., followed by
#: a capital, a parenthesis or a bracket (``16.4   If the JVC``, ``Section 8.02. Divested``).
_MARKER = re.compile(
    r"(?:^|\n|[ \t]{2,}|(?<=[.;:])[ \t]+)[ \t]*(?:(?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE|Paragraph|PARAGRAPH)[ \t]+)?"
    r"(\d{1,3}(?:\.\d{1,3})+(?:\([a-zA-Z0-9]{1,4}\))*|\d{1,3}(?:\([a-zA-Z0-9]{1,4}\))+)\.?[ \t]+(?=[A-Z(\[\"“])"
    r"|(?:^|\n)[ \t]*(\d{1,3}(?:\.\d{1,3})+)\.?[ \t]+(?=[a-z])", re.MULTILINE)
#: A clause number anywhere in running text that is not a cross-reference ("Section 5.3"),
#: an amount ("$5.3", "5.3%") or part of a longer number: the last fallback of the exact field.
_BARE = "(?<![\\w.$€£§])(?<!Section )(?<!section )(?<!Article )(?<!article )(?<!Clause )(?<!clause )(?<!paragraph )(?<!Paragraph ){}(?![\\w%]|\\.\\d)"


def bare_number_re(ref: str) -> "re.Pattern[str]":
    """A regex for clause number ``ref`` (a ref key such as ``5.3``) printed in running text
    outside a cross-reference, amount or longer number (see :data:`_BARE`)."""
    return re.compile(_BARE.format(re.escape(ref)))


def clause_markers(text: str) -> list[tuple[str, int]]:
    """``(ref key, offset)`` of every printed clause-number marker in ``text``, keeping, for a
    number printed more than once (a table of contents, then the body), the occurrence
    followed by the longest stretch of text before the next marker (the body, not the
    contents line). The exact field falls back to these when the clause tree missed a
    number, so a clause is never declared absent while the text prints it."""
    found = [(ref_key(m.group(1) or m.group(2)) or "", m.start(1) if m.group(1) else m.start(2))
             for m in _MARKER.finditer(text)]
    best: dict[str, tuple[int, int]] = {}
    for i, (key, off) in enumerate(found):
        gap = (found[i + 1][1] if i + 1 < len(found) else len(text)) - off
        if key not in best or gap > best[key][1]:
            best[key] = (off, gap)
    return [(k, off) for k, (off, _) in best.items()]


@dataclass(frozen=True)
class Definition:
    """Where an agreement defines ``term``: offset of the quoted term; ``means`` is True for
    a ``"X" means ...`` definition, False for a parenthetical ``(the "X")``."""

    term: str
    offset: int
    means: bool


_QUOTED_TERM = re.compile(r"[\"“]([A-Za-z0-9][^\"”\n]{0,80}?)[\"”]")
#: After a quoted term (and any ``or "Y"`` alternatives): the words that make it a definition.
_DEFINING = re.compile(
    r"\s*(?:(?:,?\s*(?:or|and)\s+|,\s*)[\"“][^\"”\n]{1,80}[\"”]\s*)*(?:\)\s*)?,?\s*"
    r"(?:shall\s+mean|means|mean|shall\s+have\s+the\s+meaning|has\s+the\s+meaning|have\s+the\s+meaning"
    r"|shall\s+include|includes|refers?\s+to|shall\s+refer|is\s+defined|is|are|shall\s+be|:|-|–|—)\s", re.IGNORECASE)


def find_definition(text: str, term: str) -> tuple[int, int, bool] | None:
    """Where ``text`` defines ``term``, by the same rules as :func:`definitions`:
    ``(start of the quoted term, end of the defining words, means)`` for the first
    ``"X" means ...`` form, else ``(start of the opening parenthesis, end of the closing one,
    False)`` for the first ``(the "X")`` form; ``None`` when ``text`` does not define it."""
    quoted = re.compile(rf"[\"“]{re.escape(term)}[\"”]", re.IGNORECASE)
    hits = list(quoted.finditer(text))
    for m in hits:
        d = _DEFINING.match(text, m.end())
        if d is not None or MEANS_RE.match(text, m.start()):
            return m.start(), d.end() if d is not None else m.end(), True
    for m in hits:
        open_at = text.rfind("(", max(0, m.start() - 60), m.start())
        close_at = text.find(")", m.end())
        if open_at >= 0 and ")" not in text[open_at:m.start()] and 0 <= close_at - m.end() <= 2:
            return open_at, close_at + 1, False
    return None


def definitions(doc: Document) -> list[Definition]:
    """Every definition in ``doc``, in document order: a quoted term followed (after any
    ``or "Y"`` alternatives) by a defining word (``means``, ``shall have the meaning``,
    ``is``, ``:`` ...) is a ``means`` definition (the parser's
    :data:`~clauselens.parsing.terms.MEANS_RE` form, widened to ``"X" or "Y" means`` and
    ``"X" is``); a quoted term inside a parenthesis (the parser's
    :data:`~clauselens.parsing.terms.PAREN_DEF_RE` form, ``(the "X")``) is a parenthetical one.
    The lookup prefers ``means`` definitions."""
    text = doc.text
    out: list[Definition] = []
    for m in _QUOTED_TERM.finditer(text):
        term = " ".join(m.group(1).split()).strip(" ,.")
        if len(term) < 2:
            continue
        if _DEFINING.match(text, m.end()) or MEANS_RE.match(text, m.start()):
            out.append(Definition(term, m.start(1), True))
            continue
        before = text[max(0, m.start() - 60):m.start()]
        if "(" in before and ")" not in before[before.rfind("("):]:
            out.append(Definition(term, m.start(1), False))
    for m in PAREN_DEF_RE.finditer(text):
        for g in (1, 2):
            if m.group(g) and not any(d.offset == m.start(g) for d in out):
                out.append(Definition(" ".join(m.group(g).split()).strip(" ,."), m.start(g), False))
    out.sort(key=lambda d: d.offset)
    return out


__all__ = ["CONTEXT_CHARS", "PASSAGE_CHARS", "Definition", "bare_number_re", "clause_markers", "context_line", "definitions",
           "embed_text", "find_definition", "library_passages", "ref_key", "ref_key_groups"]
