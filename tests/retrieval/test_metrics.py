"""LegalBench-RAG character-level metrics against the shared test vectors."""

import json

import pytest
from retrieval_testutil import DATA

from clauselens.retrieval.eval_metrics import document_mismatch, merge_spans, precision_recall

VECTORS = DATA / "legalbench-rag" / "metric_vectors.json"
# a checkout that does not sit beside ../shared collects (and skips) instead of erroring
CASES = json.loads(VECTORS.read_text())["cases"] if VECTORS.exists() else []


@pytest.mark.skipif(not VECTORS.exists(), reason="needs ../shared/data/legalbench-rag/metric_vectors.json")
@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_metric_vectors(case):
    ret = [(r["file_path"], *r["span"]) for r in case["retrieved"]]
    gold = [(g["file_path"], *g["span"]) for g in case["gold"]]
    p, r = precision_recall(ret, gold, merged=False)
    assert p == pytest.approx(case["precision_as_defined"], abs=1e-6)
    assert r == pytest.approx(case["recall_as_defined"], abs=1e-6)
    p, r = precision_recall(ret, gold, merged=True)
    assert p == pytest.approx(case["precision_merged"], abs=1e-6)
    assert r == pytest.approx(case["recall_merged"], abs=1e-6)


def test_merge_spans_per_file():
    assert merge_spans([("a", 5, 10), ("b", 0, 3), ("a", 0, 6), ("a", 20, 30)]) == [
        ("a", 0, 10), ("a", 20, 30), ("b", 0, 3)]


def test_document_mismatch():
    gold = [("a.txt", 0, 10)]
    assert document_mismatch(["a.txt", "b.txt", "c.txt", "a.txt"], gold) == 0.5
    assert document_mismatch([], gold) == 0.0
