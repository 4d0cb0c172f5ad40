"""Character-level retrieval metrics of LegalBench-RAG (Pipitone & Houir Alami 2024,
arXiv:2408.10343, section 4; ``legalbenchrag/run_benchmark.py``).

For one test with gold snippets ``G`` and the top-k retrieved snippets ``R`` (each a
``(file_path, start, end)``, half-open):

* **as defined** by the benchmark: ``overlap = sum_{r in R} sum_{g in G, same file} |r ∩ g|``;
  ``precision = overlap / sum_r |r|``; ``recall = overlap / sum_g |g|``. Overlapping
  retrieved snippets are *not* merged, so a span retrieved twice counts twice and recall
  can exceed 1.
* **merged** (our headline): retrieved snippets are first merged per file into disjoint
  intervals; then the same formulas. Recall is at most 1.

Both are 0 when nothing is retrieved. Gold snippets of one test are disjoint (the upstream
validator enforces it). **DRM** (document-level retrieval mismatch) is the share of
retrieved passages whose file holds no gold snippet.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Sequence

Snippet = tuple[str, int, int]  # (file_path, start, end)


def merge_spans(snippets: Iterable[Snippet]) -> list[Snippet]:
    """Merge overlapping or touching ``[start, end)`` intervals per file; sorted output."""
    by_file: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for f, s, e in snippets:
        if e > s:
            by_file[f].append((s, e))
    out: list[Snippet] = []
    for f in sorted(by_file):
        cur: tuple[int, int] | None = None  # the open merged (start, end)
        for s, e in sorted(by_file[f]):
            if cur is not None and s <= cur[1]:
                cur = (cur[0], max(cur[1], e))
            else:
                if cur is not None:
                    out.append((f, *cur))
                cur = (s, e)
        if cur is not None:
            out.append((f, *cur))
    return out


def _overlap(retrieved: Sequence[Snippet], gold: Sequence[Snippet]) -> int:
    gold_by_file: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for f, s, e in gold:
        gold_by_file[f].append((s, e))
    total = 0
    for f, s, e in retrieved:
        for gs, ge in gold_by_file.get(f, ()):
            total += max(0, min(e, ge) - max(s, gs))
    return total


def precision_recall(retrieved: Sequence[Snippet], gold: Sequence[Snippet], merged: bool = False) -> tuple[float, float]:
    """``(precision, recall)`` in [0, 1] (recall may exceed 1 when ``merged=False``).

    ``retrieved``: the top-k snippets (all spans of the top-k passages), in any order.
    ``gold``: the test's gold snippets. ``merged``: merge retrieved spans per file first.
    """
    r = merge_spans(retrieved) if merged else [x for x in retrieved if x[2] > x[1]]
    ov = _overlap(r, gold)
    r_len = sum(e - s for _, s, e in r)
    g_len = sum(e - s for _, s, e in gold)
    return (ov / r_len if r_len else 0.0, ov / g_len if g_len else 0.0)


def document_mismatch(retrieved_files: Sequence[str], gold: Sequence[Snippet]) -> float:
    """Share (0..1) of retrieved passages (one file each) from a file with no gold span;
    0.0 when nothing is retrieved."""
    if not retrieved_files:
        return 0.0
    gold_files = {f for f, _, _ in gold}
    return sum(f not in gold_files for f in retrieved_files) / len(retrieved_files)
