"""A reading that copies a quoted sentence but puts another party in it (issues #40, #38).

The unsupported readings the hand labels caught are mostly near-copies of the clause with one word changed: "HOVIONE is
responsible for conducting any recall of Finished Product" over "INTERSECT shall be responsible for conducting any recall
of Finished Product" (a new user's tryout, 2026-12-07). The assertion rules (:func:`clauselens.reports.support_claims.check_claim`)
compare modal phrases of a known action lexicon, and "is responsible for conducting" is none.

:func:`swapped_party` aligns each sentence of the reading with the quoted sentence it copies most (word sequences compared
with :class:`difflib.SequenceMatcher`, Ratcliff & Obershelp 1988; a copy is a ratio of at least :data:`MIN_COPY`) and looks
at the words the reading replaced: when a replaced span of the quote names one party and the reading's span names another
-- both names of the quoted sentence itself, or of the agreement's ``parties`` -- the reading says of one party what the
clause says of the other. Names are capitalised words; "Party", "Agreement" and the like are not names.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Iterable, Sequence

from clauselens.reports.support_claims import Parties, SupportIssue, party_table

#: Least similarity of a reading's sentence to the quoted sentence it copies.
MIN_COPY = 0.6
_WORD = re.compile(r"[A-Za-z][\w&'’.-]*[A-Za-z0-9]|[A-Za-z]")
_SENT = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(\"“])")
#: Capitalised words that are no party's name.
_NOT_NAMES = frozenset("""
the this that these those a an and or of in on to for by with under any each either neither both all such no not its their his
her party parties agreement section clause article schedule exhibit annex appendix term terms date effective company's
shall will may must is are be if upon unless except otherwise notwithstanding subject provided however within after before
""".split())


def _names(words: Iterable[str], parties: Parties) -> set[str]:
    known = {w.lower() for name, aliases in party_table(parties) for w in _WORD.findall(" ".join([name, *aliases]))}
    return {w.lower() for w in words if w[:1].isupper() and w.lower() not in _NOT_NAMES and (len(w) > 2 or w.isupper())
            and (not known or w.lower() in known)}


def _sentences(text: str) -> list[str]:
    return [s for s in _SENT.split(" ".join(text.split())) if s.strip()]


def swapped_party(reading: str, quotes: Sequence[str], parties: Parties = ()) -> SupportIssue | None:
    """The party a sentence of ``reading`` puts where the quoted sentence it copies names another, or ``None``."""
    sents = [s for q in quotes for s in _sentences(q)]
    for r in _sentences(reading):
        rw = _WORD.findall(r)
        if len(rw) < 5:
            continue
        best, ratio = None, 0.0
        for s in sents:
            m = SequenceMatcher(None, [w.lower() for w in rw], [w.lower() for w in _WORD.findall(s)], autojunk=False)
            if m.ratio() > ratio:
                best, ratio = s, m.ratio()
        if best is None or ratio < MIN_COPY:
            continue
        qw = _WORD.findall(best)
        in_quote = _names(qw, parties)
        m = SequenceMatcher(None, [w.lower() for w in rw], [w.lower() for w in qw], autojunk=False)
        for op, i1, i2, j1, j2 in m.get_opcodes():
            if op != "replace":
                continue
            mine = _names(rw[i1:i2], parties) & in_quote
            theirs = _names(qw[j1:j2], parties)
            if mine and theirs and not mine & theirs:
                said, was = sorted(mine)[0], sorted(theirs)[0]
                return SupportIssue("party", f"the reading copies the clause but names {said.upper()} where it says "
                                             f"{was.upper()} (\u201c{' '.join(qw[max(0, j1 - 2):j2 + 4])}\u201d)")
    return None


__all__ = ["MIN_COPY", "swapped_party"]
