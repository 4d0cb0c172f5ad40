"""Reciprocal Rank Fusion (RRF) of any number of ranked passage lists.

Cormack, Clarke & Buettcher (2009), "Reciprocal Rank Fusion outperforms Condorcet and
individual Rank Learning Methods", SIGIR '09, eq. 1: ``RRFscore(d) = sum_r 1 / (k + r(d))``
with ``k = 60`` and ``r(d)`` the 1-based rank of ``d`` in ranking ``r``. We add an optional
per-ranking weight ``w_r`` (``w_r / (k + r(d))``), as weighted RRF implementations do
(e.g. Milvus ``WeightedRanker``/Elasticsearch ``rrf`` with weights).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from clauselens.retrieval.types import Passage

RRF_K = 60  # Cormack et al. (2009), section 2


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[Passage]],
    k: int = RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[Passage]:
    """Fuse ranked lists of passages by RRF.

    Args:
        rankings: ranker name -> passages, best first. A passage is identified by its
            ``chunk_id``; duplicates inside one list keep their best rank. Empty lists
            contribute nothing (so an all-zero lexical list, passed as ``[]``, gives no
            rank-1 credit to an arbitrary clause).
        k: the RRF constant (> 0), default 60.
        weights: optional ranker name -> weight (default 1.0 each; must be >= 0).

    Returns:
        New :class:`Passage` objects, highest fused score first (ties: by the best
        single-list rank, then ``chunk_id``). Each keeps the per-stage ``scores`` and
        ``ranks`` of every list it appeared in (keyed by ranker name), plus
        ``scores["rrf"]``; ``score`` is the fused score and ``method`` is ``"rrf"``.

    Raises:
        ValueError: ``k <= 0`` or a negative weight.
    """
    if k <= 0:
        raise ValueError(f"RRF k must be positive, got {k}")
    weights = dict(weights or {})
    if any(w < 0 for w in weights.values()):
        raise ValueError("RRF weights must be >= 0")
    fused: dict[str, float] = {}
    best_rank: dict[str, int] = {}
    merged: dict[str, Passage] = {}
    for name, ranked in rankings.items():
        w = float(weights.get(name, 1.0))
        seen: set[str] = set()
        for rank, p in enumerate(ranked, start=1):
            cid = p.chunk_id
            if cid in seen:
                continue
            seen.add(cid)
            if cid not in merged:
                # shallow copy with fresh score/rank dicts: the text and spans are shared, never
                # mutated; a deep copy of every passage was 84% of the lexical search's time at 160k
                # passages (issue #17)
                merged[cid] = p.model_copy(update={"scores": dict(p.scores), "ranks": dict(p.ranks)})
            m = merged[cid]
            m.scores.update(p.scores)
            m.scores.setdefault(name, p.score)
            m.ranks.update(p.ranks)
            m.ranks[name] = rank
            fused[cid] = fused.get(cid, 0.0) + w / (k + rank)
            best_rank[cid] = min(best_rank.get(cid, rank), rank)
    order = sorted(merged, key=lambda c: (-fused[c], best_rank[c], c))
    out: list[Passage] = []
    for cid in order:
        p = merged[cid]
        p.score = fused[cid]
        p.scores["rrf"] = fused[cid]
        p.method = "rrf"
        out.append(p)
    return out
