"""The same agreement twice (issue #42): a PDF and its TXT, or one file copied, are one agreement.

Detection on ``add`` in two steps:

1. **Candidates by MinHash.** Each agreement's words (lower-cased letters and digits of its
   passages, in order) are cut into 5-word shingles and summarised by a 128-permutation MinHash
   (Broder 1997, "On the resemblance and containment of documents"; ``datasketch.MinHash``); the
   share of equal hash values estimates the Jaccard similarity of the shingle sets (standard error
   about 0.04 at 128 permutations). Agreements at :data:`CANDIDATE_JACCARD` or above are candidates
   (a CUAD PDF and its TXT: 0.97 and 1.0; the signatures are compared with one NumPy comparison,
   which at a firm's few thousand agreements needs no LSH banding).
2. **Confirmation by a word diff** (``difflib.SequenceMatcher`` on the two word lists): the
   texts are the same agreement only when every difference is *page furniture* -- a run of words
   one side repeats (a running header or footer: "Source: ATN INTERNATIONAL, 10-Q, 11/8/2019"), or
   at most :data:`PAGE_NUMBER_WORDS` words holding a digit (a page number) -- or the same
   characters split differently ("31st" / "31", "agree-ment", a PDF's fake bold "pprreeppaaiidd"). Any other difference -- a changed
   number, a sentence added or struck -- makes it a different text: an amendment, a revised draft
   or a re-scan with changes is *not* a copy (amendments keep their precedence,
   :mod:`clauselens.library.versions`).

A copy stays in the library, listed as a copy of its original; search and resolution leave it
out, so each clause is returned once.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

NUM_PERM = 128
SHINGLE = 5
#: Estimated Jaccard similarity of the 5-word shingles at which a pair is compared word by word.
CANDIDATE_JACCARD = 0.85
#: An inserted or deleted run of at most this many words with a digit counts as a page number.
PAGE_NUMBER_WORDS = 3
_WORD = re.compile(r"[a-z0-9]+")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)\b")


def words_of(texts: Iterable[str]) -> list[str]:
    """Lower-cased letter/digit words of ``texts`` in order."""
    return [w for t in texts for w in _WORD.findall(t.lower())]


def signature(words: Sequence[str]) -> np.ndarray:
    """The MinHash hash values (uint64, :data:`NUM_PERM`) of the 5-word shingles of ``words``."""
    from datasketch import MinHash

    m = MinHash(num_perm=NUM_PERM, seed=1)
    n = max(1, len(words) - SHINGLE + 1)
    m.update_batch([" ".join(words[i:i + SHINGLE]).encode("utf-8") for i in range(n)])
    return np.asarray(m.hashvalues, dtype=np.uint64)


def jaccard(sig: np.ndarray, sigs: np.ndarray) -> np.ndarray:
    """Estimated Jaccard similarity of ``sig`` with each row of ``sigs``."""
    if not len(sigs):
        return np.zeros(0, np.float32)
    return (np.asarray(sigs) == sig[None, :]).mean(axis=1).astype(np.float32)


@dataclass
class Comparison:
    """The word diff's verdict: ``same`` text, and the first real difference when not."""

    same: bool
    difference: str = ""


def _squash(s: str) -> str:
    """Characters compared for a replaced run: ordinals' suffixes dropped ("31st" -> "31") and
    repeated letters collapsed (a PDF's fake bold prints each letter twice: "pprreeppaaiidd")."""
    return re.sub(r"(.)\1+", r"\1", _ORDINAL.sub(r"\1", s))


def _mask(run: Sequence[str]) -> str:
    """A run of words with its numbers (and their ordinal suffixes) as ``#``: a running footer with
    its page number ("... contracting parties 7 Source: ...") is the same on every page."""
    return re.sub(r"\d+(?: ?(?:st|nd|rd|th)\b)?", "#", " ".join(run))


def same_text(a: Sequence[str], b: Sequence[str]) -> Comparison:
    """Whether word lists ``a`` and ``b`` are one text up to page furniture (module docstring)."""
    ops = [o for o in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if o[0] != "equal"]
    runs: list[tuple[str, tuple[str, ...]]] = []
    for tag, i1, i2, j1, j2 in ops:
        x, y = list(a[i1:i2]), list(b[j1:j2])
        if tag == "replace":
            if _squash("".join(x)) == _squash("".join(y)):
                continue
            return Comparison(False, f"'{' '.join(x[:12])}' / '{' '.join(y[:12])}'")
        side, run = ("a", tuple(x)) if tag == "delete" else ("b", tuple(y))
        runs.append((side, run))
    masked = Counter((s, _mask(r)) for s, r in runs)
    for side, run in runs:
        if masked[(side, _mask(run))] >= 2:
            continue  # repeated on one side: a running header or footer
        if len(run) <= PAGE_NUMBER_WORDS and any(any(ch.isdigit() for ch in w) for w in run):
            continue  # a page number
        return Comparison(False, f"'{' '.join(run[:12])}' only in {'the first' if side == 'a' else 'the second'}")
    return Comparison(True)


def note_copy(catalogue: Any, doc_id: str, texts: Sequence[str]) -> tuple[str, float] | None:
    """Store the signature of agreement ``doc_id`` (passage ``texts`` in order) and, when it is a
    copy of an agreement already in ``catalogue``, record it as that agreement's copy; returns
    ``(original doc id, estimated Jaccard)`` or ``None``. A copy of a copy points to the original."""
    if not getattr(catalogue, "keeps_signatures", False) or importlib.util.find_spec("datasketch") is None:
        return None  # datasketch not installed: copies are not detected (the agreement is added as usual)
    words = words_of(texts)
    sig = signature(words)
    ids, sigs, copy_of = catalogue.signatures()
    keep = [i for i, d in enumerate(ids) if d != doc_id]
    found: tuple[str, float] | None = None
    if keep and sigs.size:
        sim = jaccard(sig, sigs[keep])
        for j in np.argsort(-sim)[:3]:
            if sim[j] < CANDIDATE_JACCARD:
                break
            other = ids[keep[int(j)]]
            other_words = words_of(c.text for c in catalogue.passages(catalogue.rows_of([other])))
            if same_text(other_words, words).same:
                found = (copy_of.get(other, other), float(sim[j]))
                break
    catalogue.put_signature(doc_id, sig, found[0] if found else None)
    return found


def release_copies(catalogue: Any, removed: Sequence[str]) -> None:
    """After agreements ``removed`` left the library: the first remaining copy of each becomes the
    original, and the other copies point to it."""
    if not getattr(catalogue, "keeps_signatures", False):
        return
    _, _, copy_of = catalogue.signatures()
    for gone in removed:
        orphans = sorted(d for d, o in copy_of.items() if o == gone and d not in removed)
        if orphans:
            catalogue.set_copy_of(orphans[0], None)
            for d in orphans[1:]:
                catalogue.set_copy_of(d, orphans[0])


__all__ = ["CANDIDATE_JACCARD", "Comparison", "jaccard", "note_copy", "release_copies", "same_text", "signature",
           "words_of"]
