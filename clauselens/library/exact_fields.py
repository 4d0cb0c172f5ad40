"""A library search's exact fields (issue #17): the rows of the clause a question names by number
(``Section 14.3(b)``, ``Schedule 2``) and of the passage defining the term it asks about, in the
order they are shown. A mixin of :class:`~clauselens.library.library.Library`, split out of
``library.py`` (issue #43); it reads the catalogue only."""

from __future__ import annotations

import re
from typing import Sequence

from clauselens.library.parts import LibraryParts
from clauselens.library.passages import definition_list, ref_key
from clauselens.retrieval.types import Passage

#: An exact-field key of a top-level part (:func:`clauselens.library.passages.ref_key_groups`).
PART_KEY = re.compile(r"^(schedule|exhibit|annex|appendix|article)([a-z0-9.]+(?:\([a-z0-9]{1,4}\))*)$")

def show_ref(key: str) -> str:
    """A key as a reader writes it: ``schedule2`` -> ``Schedule 2``, ``articleiv`` -> ``Article IV``."""
    m = PART_KEY.match(key)
    if not m:
        return key
    ident = m.group(2)
    return f"{m.group(1).title()} {ident.upper() if ident.isalpha() else ident}"


class ExactFields(LibraryParts):
    """Exact-field row finders over ``self.catalogue`` (see the module docstring)."""

    def _order_exact(self, by_ref: Sequence[Sequence[Passage]], ranked: Sequence[Passage], k: int) -> list[Passage]:
        """The passages of the clauses a question names, in the order they are shown. When they fit
        in the top ``k`` they keep the order of :meth:`_named_clause_rows` (the clause's own first
        passage first). When they do not -- a long clause cut into many passages, a number the
        agreement restarts in each schedule ("Section 7" three times), a clause with many sub-clauses --
        the rest of the question chooses: each clause's passages after its first are ordered by their
        place in the ranked list (BM25 + dense, RRF; those it does not hold keep their order after those
        it does), and several clauses take turns, so a second named clause is not pushed out by the
        first one's passages."""
        if sum(len(ps) for ps in by_ref) <= k:
            return [p for ps in by_ref for p in ps]
        place = {p.chunk_id: i for i, p in enumerate(ranked)}
        ordered = [list(ps[:1]) + sorted(ps[1:], key=lambda p: place.get(p.chunk_id, len(place))) for ps in by_ref if ps]
        return [ps[turn] for turn in range(max(len(ps) for ps in ordered)) for ps in ordered if turn < len(ps)]

    def _sub_clause_rows(self, docs: Sequence[str], ref: str) -> list[int]:
        """Rows of the sub-clauses of clause ``ref``; none for a schedule, exhibit or annex label,
        whose passages are found by :meth:`_clause_rows`."""
        return [] if PART_KEY.match(ref) else self.catalogue.rows_under_ref(docs, ref)

    def _rows_of_spellings(self, docs: Sequence[str], spellings: Sequence[str]) -> list[int]:
        """The rows of the first spelling of one named clause the agreements have (see
        :func:`~clauselens.library.passages.ref_key_groups`). "Section 7.D.b" is spelled
        ``7(d)(b)``, then ``7``: clause 7 stands in only when the tree did not read 7's lettered
        items; when it did (7(a), 7(B), ...) a letter it lacks ("Section 7.F") is a clause the
        agreement does not have."""
        for i, key in enumerate(spellings):
            subs = self._sub_clause_rows(docs, key)
            if i and spellings[0].startswith(key + "(") and any(
                    re.fullmatch(re.escape(key) + r"(?:\([a-z]\))+", ref_key(c.clause_ref) or "")
                    for c in self.catalogue.passages(subs)):
                return []
            if rows := self._named_clause_rows(docs, key, subs):
                return rows
        return []

    def _named_clause_rows(self, docs: Sequence[str], ref: str, subs: Sequence[int]) -> list[int]:
        """The rows a question naming clause ``ref`` is about: the clause's own (:meth:`_clause_rows`),
        then its sub-clauses' ``subs`` (a question about "Section 7" is about 7.1, 7(a), ... too; see
        :meth:`_order_exact` for which are shown), or its sub-clauses' alone when the clause has no
        text of its own in the store (an "ARTICLE IX" heading, then 9.1, 9.2). Empty: the
        agreements do not have the clause."""
        own = self._clause_rows(docs, ref)
        have = set(own)
        return own + [r for r in subs if r not in have]

    def _clause_rows(self, docs: Sequence[str], ref: str, *, fallback: bool = True) -> list[int]:
        """Rows of clause ``ref`` in ``docs``, from the surest evidence to the weakest: the
        tree's passages with that number; the passage holding the printed marker (a clause
        the tree missed); for ``6.1(c)``, the passages of 6.1 that print ``(c)``; the first
        passage printing the number in running text outside a cross-reference. Empty when
        the agreements print the number nowhere."""
        from clauselens.library.passages import bare_number_re

        rows = self.catalogue.rows_with_ref(docs, ref)
        part = PART_KEY.match(ref)
        if part:  # "schedule2": the tree's node, else the passage printing the label at a line start
            if not rows and fallback:
                label = re.compile(rf"(?im)^[ \t]*{part.group(1)}[ \t]+{re.escape(part.group(2))}\b")
                for d in docs:
                    hit = next((r for r, text in self.catalogue.rows_containing(d, f"{part.group(1)} {part.group(2)}")
                                if label.search(text)), None)
                    if hit is not None:
                        rows.append(hit)
            return rows
        for d in docs if not rows else ():
            for off in self.catalogue.marker_offsets(d, ref):
                r = self.catalogue.row_at(d, off)
                if r is not None:
                    rows.append(r)
        if rows or not fallback:
            return rows
        m = re.match(r"^(.+)(\([a-z0-9]{1,4}\))$", ref)
        if m:
            parent = self._clause_rows(docs, m.group(1), fallback=False)
            item = m.group(2)
            rows = [r for r, c in zip(parent, self.catalogue.passages(parent)) if item in c.text.lower()]
            if rows:
                return rows
        if re.fullmatch(r"\d+(?:\.\d+)+", ref):
            pat = bare_number_re(ref)
            for d in docs:
                hit = next((r for r, text in self.catalogue.rows_containing(d, ref) if pat.search(text)), None)
                if hit is not None:
                    rows.append(hit)
        return rows

    def _definition_rows(self, docs: Sequence[str], term: str) -> list[int]:
        """Rows of the passages defining ``term`` in ``docs`` (``means`` definitions first),
        each followed by the rows of the list its definition continues into when the passage
        stops where the definition's body begins (:func:`~clauselens.library.passages.definition_list`:
        ``c) "Force Majeure" means`` and its sub-clauses ``i) An Act of God;`` ...): the list
        is the definition, and the answer can only quote passages that were retrieved."""
        out: list[int] = []
        for d in docs:
            defs = sorted(self.catalogue.definitions_of(d, term), key=lambda x: (not x[2], x[1]))
            if not defs:
                continue
            rows = self.catalogue.rows_of([d])
            chunks = self.catalogue.passages(rows)
            for _, off, _ in defs[:2]:
                for i, (row, c) in enumerate(zip(rows, chunks)):
                    if c.spans[0].start <= off < c.spans[0].end:
                        out.append(int(row))
                        out += [int(rows[j]) for j, _ in definition_list(chunks, i, term)]
                        break
        return out


__all__ = ["PART_KEY", "ExactFields", "show_ref"]
