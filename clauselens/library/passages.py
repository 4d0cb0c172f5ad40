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
(``"X" means ...``, parenthetical ``(the "X")`` and unquoted at a line start, ``1.10 INTELLECTUAL
PROPERTY shall mean ...``), as the offset of the defined term, so
"how is X defined" can go to the passage that defines X.

Because a passage stops at a node's first sub-clause, a definition whose body is a list
(``c) "Force Majeure" means`` / ``i) An Act of God;`` / ``ii) A strike ...``; ``... any of the
following events:`` / ``(i) ...``) is cut where its body begins: the passage holds the defined
term and the defining verb, and the list -- which *is* the definition -- is in the passages that
follow. :func:`definition_list` finds those (issue #19: the end-to-end benchmark's answer quoted
only ``c) "Force Majeure" means``), for the library's exact field and the extractive answer alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from clauselens.parsing.chunks import trim_span, windows
from clauselens.parsing.numbering import alpha_value, match_marker, roman_to_int, split_heading, title_words
from clauselens.parsing.terms import MEANS_RE, PAREN_DEF_RE, unquoted_definitions
from clauselens.parsing.types import Chunk, Document, SourcedText
from clauselens.retrieval.analyzer import normalize_ref

#: Upper bound on a passage's characters (see the module docstring).
PASSAGE_CHARS = 900
#: Characters of heading context prefixed to a passage for embedding and BM25.
CONTEXT_CHARS = 160


def library_passages(doc: Document, max_chars: int = PASSAGE_CHARS) -> list[Chunk]:
    """One passage per node body (windows of at most ``max_chars``), in document order.

    Each passage has exactly one span, ``text == doc.text[span]``; a node whose body is
    only its marker and heading and that has children yields none (its heading reaches the
    children through ``heading_path``; :func:`heading_only`). A lead-in before the sub-clauses
    ("16.5 This Agreement may be terminated by either Party upon the following:") is a passage.
    """
    text = doc.text
    out: list[Chunk] = []
    for node in doc.nodes:
        if node.kind == "root":
            continue
        body = trim_span(text, node.body_span.start, node.body_span.end)
        if body is None:
            continue
        if node.children and heading_only(text[body.start:body.end], node.heading):
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


def heading_only(body: str, heading: str | None = None) -> bool:
    """Is a node's own text only its marker and heading ("ARTICLE 3. TERM AND TERMINATION",
    "9. INTELLECTUAL PROPERTY", "3.11. Compliance with Laws.")? One line under 160 characters
    with nothing after the marker but a heading. Not a lead-in ending where its sub-clauses
    begin ("3.2 This Agreement ... shall terminate ... after:", "6.2.2. Bankruptcy. A party may
    terminate ... if:"): until record format 4 those were left out of the library too, so "Section
    3.2" found only 3.2.1 and a question about the grounds for termination missed the sentence that
    states them."""
    s = body.strip()
    if "\n" in s or len(s) >= 160:
        return False
    m = match_marker(s)
    rest = (m.rest if m is not None else s).strip()
    if heading and rest.startswith(heading):
        rest = rest[len(heading):]
    rest = rest.strip(" .:-–—")
    return not rest or title_words(rest) is not None or split_heading(rest) == rest


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


#: A clause number with lettered parts after dots, as questions write the "A." / "a." items of a tree
#: ("Section 7.D.b", "Section 3.B"): the tree records them as "7(D)(b)", "3(B)".
_LETTERED_REF = re.compile(r"\b(?i:sections?|clauses?|paragraphs?|articles?)\s+(\d{1,3}(?:\.\d{1,3})*)((?:\.[A-Za-z])+)(?![\w])")


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
    for m in _LETTERED_REF.finditer(question):  # "7.D.b": the item 7(d)(b), else clause 7
        num = ref_key(m.group(1)) or m.group(1)
        groups.append([num + "".join(f"({c.lower()})" for c in m.group(2).split(".") if c), num])
        rest = rest.replace(m.group(0), " " * len(m.group(0)), 1)
    for m in _PART_REF.finditer(rest):
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
    False)`` for the first ``(the "X")`` form, else ``(start of the term, end of the defining words,
    True)`` for an unquoted line-start ``X shall mean ...``
    (:func:`~clauselens.parsing.terms.unquoted_definitions`); ``None`` when ``text`` does not define it."""
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
    key = " ".join(term.split()).lower()
    return next(((d.start, d.end, True) for d in unquoted_definitions(text) if d.term.lower() == key), None)


def definitions(doc: Document) -> list[Definition]:
    """Every definition in ``doc``, in document order: a quoted term followed (after any
    ``or "Y"`` alternatives) by a defining word (``means``, ``shall have the meaning``,
    ``is``, ``:`` ...) is a ``means`` definition (the parser's
    :data:`~clauselens.parsing.terms.MEANS_RE` form, widened to ``"X" or "Y" means`` and
    ``"X" is``); a quoted term inside a parenthesis (the parser's
    :data:`~clauselens.parsing.terms.PAREN_DEF_RE` form, ``(the "X")``) is a parenthetical one; a
    term written without quotation marks at a line start (``1.10 INTELLECTUAL PROPERTY shall mean``,
    :func:`~clauselens.parsing.terms.unquoted_definitions`) is a ``means`` one too.
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
    out += [Definition(d.term, d.start, True) for d in unquoted_definitions(text)]
    out.sort(key=lambda d: d.offset)
    return out


#: A definition that stops where its body begins (``"Force Majeure" means``, ``... where:``,
#: ``... any of the following events:``): its body is a list in the sub-clauses that follow.
OPEN_END = re.compile(r"(?:\b(?:means|mean|includes?|including|shall\s+(?:mean|include)|as\s+follows|following)"
                      r"|[:—–-])\s*$", re.IGNORECASE)
#: Most characters of list text taken after a definition that ends open (:func:`definition_list`):
#: a force-majeure list of seven events is ~1,100 characters; a longer run is no longer one list.
LIST_CHARS = 1200
#: Largest gap between two windows of one node's body (the whitespace they were trimmed of; a
#: missing middle window, up to :data:`PASSAGE_CHARS` long, is wider).
_WINDOW_GAP = 200
#: A list marker or clause number just before a cut (``d)     `` before ``"Freight" means``).
_MARKER_AT_END = re.compile(r"(?:^|(?<=\s))(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|\([0-9]{1,3}\))\s*$", re.IGNORECASE)


def next_definition(text: str, start: int = 0) -> int | None:
    """Offset in ``text`` (at or after ``start``) of the opening quotation mark of the first
    ``"X" means ...`` definition (the rules of :func:`definitions`), or ``None``."""
    for m in _QUOTED_TERM.finditer(text, start):
        if _DEFINING.match(text, m.end()) or MEANS_RE.match(text, m.start()):
            return m.start()
    return None


def ends_open(text: str, term: str) -> bool:
    """True when ``text`` defines ``term`` (``"X" means ...``) and stops where the definition's
    body begins: no sentence end or other definition after the defining words, and the text
    ends with a defining verb, "following" or a colon / dash (:data:`OPEN_END`)."""
    found = find_definition(text, term)
    if found is None or not found[2]:
        return False
    rest = text[found[1]:]
    return bool(OPEN_END.search(text)) and next_definition(rest) is None and not re.search(r"\.\s", rest)


def _item_values(ref: str | None) -> set[int]:
    """The possible values of a clause reference's last list marker (``1.1(ii)`` -> {2};
    ``11.4(i)`` -> {1, 9}: Roman one or the letter i; ``3.2`` -> {2}); empty when there is none."""
    m = re.search(r"\(([A-Za-z0-9]{1,6})\)$|\.(\d{1,3})$|^(\d{1,3})$", ref or "")
    if m is None:
        return set()
    mark = next(g for g in m.groups() if g)
    if mark.isdigit():
        return {int(mark)}
    return {v for v in (roman_to_int(mark), alpha_value(mark)) if v is not None}


def definition_list(passages: Sequence[SourcedText], at: int, term: str,
                    max_chars: int = LIST_CHARS) -> list[tuple[int, int]]:
    """The list that continues the definition of ``term`` in ``passages[at]`` when that
    passage :func:`ends_open`: ``(index, end)`` of each following passage that holds part of
    it, ``end`` being where its part ends in the passage's text (before the next definition).

    ``passages`` are one agreement's passages in document order (all of them, or the retrieved
    ones sorted by span). A passage continues the list when it is the next window of the same
    node, or a sub-clause of the defining passage's node whose list marker comes next (the first
    item under a node, ``i)`` / ``(a)`` / ``1``, then ``ii)`` after ``i)``, ...), so a retrieved
    set that lacks an item in the middle yields only the items before it. The list stops at the
    first passage that is neither, at the next definition (``"Good Reason Process" shall
    mean ...`` inside the last item's passage: that passage is cut before it) and before
    ``max_chars`` characters of list text (the first item is always taken)."""
    head = passages[at]
    if not head.spans or not ends_open(head.text, term):
        return []
    base = head.heading_path
    out: list[tuple[int, int]] = []
    last: dict[int, tuple[list[str], set[int]]] = {}  # depth -> heading path and marker values of its last item
    prev, total = head, 0
    for i in range(at + 1, len(passages)):
        c = passages[i]
        if c.doc_id != head.doc_id or not c.spans:
            break
        if c.spans[0].start < prev.spans[-1].end:
            continue  # overlaps what is taken (a retrieved chunk with its ancestors)
        if c.node_id == prev.node_id:
            if c.spans[0].start - prev.spans[-1].end > _WINDOW_GAP:
                break
        else:
            path, vals = c.heading_path, _item_values(c.clause_ref)
            if not vals or len(path) <= len(base) or path[:len(base)] != base:
                break  # not a numbered sub-clause of the defining clause
            if len(path) > len(prev.heading_path):  # a level deeper: the first item under the passage before
                ok = path[:-1] == prev.heading_path and 1 in vals
            else:  # the next item after the last one at this level
                sib = last.get(len(path))
                ok = sib is not None and sib[0][:-1] == path[:-1] and any(v + 1 in vals for v in sib[1])
            if not ok:
                break  # an item is missing, or the list is over
            last = {d: x for d, x in last.items() if d < len(path)}
            last[len(path)] = (path, vals)
        nxt = next_definition(c.text)
        end = len(c.text) if nxt is None else nxt
        if nxt is not None:
            cut = _MARKER_AT_END.search(c.text, 0, end)
            end = len(c.text[:cut.start() if cut else end].rstrip())
        if end <= 0 or (out and total + end > max_chars):
            break
        out.append((i, end))
        total += end
        prev = c
        if nxt is not None:
            break
    return out


__all__ = ["CONTEXT_CHARS", "LIST_CHARS", "OPEN_END", "PASSAGE_CHARS", "Definition", "bare_number_re", "clause_markers",
           "context_line", "definition_list", "definitions", "embed_text", "ends_open", "find_definition",
           "library_passages", "next_definition", "ref_key", "ref_key_groups"]
