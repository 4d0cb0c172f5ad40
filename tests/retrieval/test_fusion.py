"""Reciprocal Rank Fusion maths (Cormack et al. 2009)."""

import pytest

from clauselens.parsing.types import Span
from clauselens.retrieval.fusion import reciprocal_rank_fusion
from clauselens.retrieval.types import Passage


def P(cid, score=1.0, method="x"):
    return Passage(chunk_id=cid, doc_id="d", node_id=cid, text=cid, spans=[Span(start=0, end=1)],
                   score=score, scores={method: score}, method=method)


def test_rrf_scores_and_order():
    fused = reciprocal_rank_fusion({"bm25": [P("a", 9, "bm25"), P("b", 5, "bm25")],
                                    "dense": [P("b", .8, "dense"), P("c", .7, "dense")]}, k=60)
    by = {p.chunk_id: p for p in fused}
    assert by["b"].score == pytest.approx(1 / 62 + 1 / 61)
    assert by["a"].score == pytest.approx(1 / 61)
    assert by["c"].score == pytest.approx(1 / 62)
    assert [p.chunk_id for p in fused] == ["b", "a", "c"]
    assert by["b"].ranks == {"bm25": 2, "dense": 1}
    assert by["b"].scores["bm25"] == 5 and by["b"].scores["dense"] == .8
    assert by["b"].scores["rrf"] == by["b"].score and by["b"].method == "rrf"


def test_rrf_weights_change_winner():
    lists = {"bm25": [P("a"), P("b")], "dense": [P("b"), P("a")]}
    assert reciprocal_rank_fusion(lists, weights={"bm25": 2.0})[0].chunk_id == "a"
    assert reciprocal_rank_fusion(lists, weights={"dense": 2.0})[0].chunk_id == "b"


def test_rrf_empty_list_gives_no_credit_and_duplicates_keep_best_rank():
    fused = reciprocal_rank_fusion({"bm25": [], "dense": [P("z"), P("y"), P("z")]})
    assert [p.chunk_id for p in fused] == ["z", "y"]
    assert fused[0].score == pytest.approx(1 / 61)
    assert "bm25" not in fused[0].ranks


def test_rrf_rejects_bad_k():
    with pytest.raises(ValueError):
        reciprocal_rank_fusion({"a": [P("a")]}, k=0)
