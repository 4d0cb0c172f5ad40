"""Rerankers (a tiny random cross-encoder built here; a scripted chat model) and the
embedding cache."""

import numpy as np
import pytest

from clauselens.errors import ConfigError, ModelUnavailableError
from clauselens.parsing.types import Span
from clauselens.retrieval.rerank import CrossEncoderReranker, LLMReranker, NoReranker, build_reranker
from clauselens.retrieval.types import Passage


def P(cid, text, score):
    return Passage(chunk_id=cid, doc_id="d", node_id=cid, text=text, spans=[Span(start=0, end=len(text))],
                   score=score, scores={"rrf": score}, method="rrf")


PASSAGES = [P("a", "Rent is payable monthly in advance.", .05), P("b", "This Agreement is governed by Irish law.", .04),
            P("c", "Notices go by recorded delivery.", .03), P("d", "Either party may terminate on 90 days notice.", .02)]


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory):
    """A randomly initialised 2-layer BERT cross-encoder (1 logit) with MiniLM's tokenizer."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    from clauselens.retrieval.embedders import _minilm_path

    d = tmp_path_factory.mktemp("tiny_reranker")
    tok = AutoTokenizer.from_pretrained(str(_minilm_path()))
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, num_labels=1, max_position_embeddings=512)
    BertForSequenceClassification(cfg).save_pretrained(d)
    tok.save_pretrained(d)
    return d


def test_flag_reranker_scores_and_reorders(tiny_cross_encoder):
    rr = build_reranker(str(tiny_cross_encoder))
    assert isinstance(rr, CrossEncoderReranker)
    scores = rr.score("governing law", [p.text for p in PASSAGES])
    assert len(scores) == 4 and all(0.0 < s < 1.0 for s in scores)  # sigmoid-normalised
    out = rr.rerank("governing law", PASSAGES, top_n=3)
    assert [p.chunk_id for p in out][3] == "d"  # beyond top_n: untouched, after the reranked ones
    head = out[:3]
    assert [p.score for p in head] == sorted((p.score for p in head), reverse=True)
    assert sorted(p.chunk_id for p in head) == ["a", "b", "c"]
    assert all(p.scores["rrf"] and p.ranks["rerank"] for p in head)
    assert np.allclose(sorted(scores[:3], reverse=True), [p.score for p in head], atol=1e-5)


def test_missing_reranker_path_is_a_user_error(tmp_path):
    with pytest.raises(ModelUnavailableError, match="not found"):
        build_reranker(str(tmp_path / "nope"))
    with pytest.raises(ConfigError):
        build_reranker("llm")
    assert isinstance(build_reranker("none"), NoReranker)


def test_llm_reranker_puts_yes_first():
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage

    model = FakeMessagesListChatModel(responses=[AIMessage(content=c) for c in ["No.", "Yes, clause 2.", "no", "yes"]])
    out = LLMReranker(model).rerank("governing law", PASSAGES, top_n=4)
    assert [p.chunk_id for p in out] == ["b", "d", "a", "c"]
    assert [p.score for p in out] == [1.0, 1.0, 0.0, 0.0]


def test_embedding_cache_skips_unchanged_texts(tmp_path):
    from clauselens.retrieval.embedders import get_embedder

    e = get_embedder("minilm", tmp_path)
    texts = ["The Lessee shall pay rent monthly.", "Notices shall be sent by recorded delivery.",
             "The Lessee shall pay rent monthly."]
    v1 = e.embed_passages(texts)
    assert v1.shape == (3, 384) and v1.dtype == np.float32
    assert np.allclose(np.linalg.norm(v1, axis=1), 1.0, atol=1e-5)
    assert e.misses == 2 and np.allclose(v1[0], v1[2])
    e2 = get_embedder("minilm", tmp_path)  # a new process would see the same file
    v2 = e2.embed_passages(texts[:2] + ["A new clause."])
    assert e2.hits == 2 and e2.misses == 1
    assert np.allclose(v1[:2], v2[:2])
    q = e2.embed_queries(["rent"])
    assert q.shape == (1, 384)
    assert (tmp_path / "embeddings" / "minilm.sqlite").exists()


def test_unknown_embedder_is_config_error():
    from clauselens.retrieval.embedders import get_embedder

    with pytest.raises(ConfigError, match="unknown embedder"):
        get_embedder("word2vec-nonexistent")
