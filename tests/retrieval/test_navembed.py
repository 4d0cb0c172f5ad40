"""navembed: node embeddings, cosine top-40, rerank, keep 10 — on real parsed documents,
with a deterministic bag-of-words embedder (the real embedders are tested with the
Researcher's retrieval core)."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from clauselens.errors import RetrievalError
from clauselens.parsing import load_document
from clauselens.retrieval.navigate.navembed import NavEmbedRetriever
from clauselens.retrieval.types import RetrievalMethod

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
FED = "FEDERATEDGOVERNMENTINCOMESECURITIESINC_04_28_2020-EX-99.SERV AGREE-SERVICES AGREEMENT"


class HashingEmbedder:
    """Bag of lower-cased words hashed into 512 dims, L2-normalised."""

    name, dim = "hash", 512

    def _e(self, texts):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"[a-z]{3,}", t.lower()):
                out[i, zlib.crc32(w.encode()) % self.dim] += 1
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)

    embed_queries = embed_passages = _e


class ReverseReranker:
    """Reverses the candidates (so the test can see the reranker was applied)."""

    def rerank(self, query, passages, top):
        self.n = len(passages)
        return list(reversed(passages))[:top]


@pytest.fixture(scope="module")
def docs():
    return [load_document(CUAD / f"{FED}{s}.txt") for s in ("", "_AMENDMENT", "_SECONDAMENDMENT")]


def test_cosine_top_then_keep(docs):
    r = NavEmbedRetriever(HashingEmbedder())
    assert isinstance(r, RetrievalMethod)
    with pytest.raises(RetrievalError):
        r.search("x")
    r.index(docs)
    res = r.search("Which law governs the agreement? Commonwealth of Pennsylvania", k=20)
    assert len(res.passages) == 10 and "Commonwealth of Pennsylvania" in res.passages[0].text
    cos = [p.scores["cosine"] for p in res.passages]
    ranks = [p.ranks["cosine"] for p in res.passages]
    assert cos == sorted(cos, reverse=True) and ranks == sorted(ranks) and ranks[0] == 1 and ranks[-1] <= 40
    p = res.passages[0]
    d = next(x for x in docs if x.id == p.doc_id)
    assert p.text == d.text[p.spans[0].start:p.spans[0].end]
    assert len(r.search("fees", k=3).passages) == 3
    assert r.ledger.entries[-1].mode == "navembed" and r.ledger.entries[-1].llm_calls == 0


def test_reranker_sees_candidates_and_cuts_to_keep(docs):
    rr = ReverseReranker()
    r = NavEmbedRetriever(HashingEmbedder(), reranker=rr, candidates=12, keep=5)
    r.index(docs)
    base = NavEmbedRetriever(HashingEmbedder(), candidates=12, keep=12)
    base.index(docs)
    q = "payable monthly in arrears"
    res = r.search(q)
    assert rr.n == 12 and len(res.passages) == 5
    assert [p.node_id for p in res.passages] == [p.node_id for p in reversed(base.search(q, k=12).passages)][:5]


def test_kept_passages_never_overlap(docs):
    r = NavEmbedRetriever(HashingEmbedder())
    r.index(docs)
    # "Limitation of Liability" heading is embedded with 4(a)-(c); its children must not be kept twice
    res = r.search("limitation of liability indemnification FASC willful malfeasance gross negligence", k=10)
    ps = res.passages
    for i, a in enumerate(ps):
        for b in ps[i + 1:]:
            assert a.doc_id != b.doc_id or all(x.end <= y.start or y.end <= x.start for x in a.spans for y in b.spans)
