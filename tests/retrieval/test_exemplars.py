"""Exemplar bank (dev only) and the NLI step's levers, on the real ContractNLI files.

A scikit-learn hashing bag-of-words encoder stands in for the neural embedder: fast,
deterministic, and enough to check the bank's logic (the embedder has its own tests).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from sklearn.feature_extraction.text import HashingVectorizer

from clauselens.agents.nli import NLIConfig, classify, combine
from clauselens.errors import ConfigError, ModelResponseError
from clauselens.llm import invoke_structured
from clauselens.retrieval.exemplars import ExemplarBank, encode_split_spans, load_contractnli

DATA = Path(__file__).resolve().parents[1].parent.parent / "shared" / "data" / "contractnli"
_HV = HashingVectorizer(n_features=2**10, alternate_sign=False, norm="l2")


def encode(texts):
    return _HV.transform(list(texts)).toarray().astype(np.float32)


@pytest.fixture(scope="module")
def dev():
    return load_contractnli(DATA / "dev.json")


@pytest.fixture(scope="module")
def test_split():
    return load_contractnli(DATA / "test.json")


@pytest.fixture(scope="module")
def bank(dev):
    return ExemplarBank.from_split(dev, encode, encoder_name="hashing")


def test_bank_is_built_from_dev_only_and_never_holds_a_test_document(bank, dev, test_split):
    assert bank.doc_ids <= dev.doc_ids
    assert not (bank.doc_ids & test_split.doc_ids)
    assert len(bank.hypothesis_ids) == 17
    with pytest.raises(ConfigError, match="dev.json only"):
        ExemplarBank.from_split(test_split, encode, forbidden_doc_ids=test_split.doc_ids)


def test_bank_holds_every_annotated_evidence_span_with_its_label(bank, dev):
    n_evidence = sum(len(d.evidence[h]) for d in dev.documents for h, lab in d.labels.items() if lab != "NotMentioned")
    ev = [e for e in bank.exemplars if e.kind == "evidence"]
    assert len(ev) == n_evidence
    n_nm = sum(lab == "NotMentioned" for d in dev.documents for lab in d.labels.values())
    assert sum(e.kind == "near_miss" for e in bank.exemplars) == n_nm
    docs = {d.id: d for d in dev.documents}
    for e in ev[:50]:
        assert docs[e.doc_id].text[e.span.start:e.span.end] == e.text
        assert docs[e.doc_id].labels[e.hypothesis_id] == e.label


def test_search_and_vote_respect_the_hypothesis_and_leave_one_out(bank):
    ex = next(e for e in bank.exemplars if e.kind == "evidence" and e.label == "Contradiction")
    v = encode([ex.text])[0]
    hits = bank.search(ex.hypothesis_id, v, k=3)
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert all(e.hypothesis_id == ex.hypothesis_id for e, _ in hits)
    assert all(e.doc_id != ex.doc_id for e, _ in bank.search(ex.hypothesis_id, v, k=20, exclude_doc=ex.doc_id))
    balanced = bank.search(ex.hypothesis_id, v, k=1, per_label=True)
    assert len({e.label for e, _ in balanced}) == len(balanced)
    vote = bank.vote(ex.hypothesis_id, v[None, :], n_neighbours=1)
    assert vote["Contradiction"] == pytest.approx(1.0)
    assert sum(bank.vote(ex.hypothesis_id, v[None, :], n_neighbours=7).values()) == pytest.approx(1.0)
    assert bank.relevance("nda-unknown", v[None, :]).size == 0


def test_knn_vote_beats_majority_on_dev_leave_one_document_out(bank, dev):
    """The vote must carry signal: on 120 dev pairs (their own document hidden from the bank)
    it must beat always-Entailment, the majority class."""
    vecs = encode_split_spans(dev, encode)
    cfg = NLIConfig(depth=3, vote_weight=1.0, n_neighbours=5)
    correct = majority = 0
    pairs = [(d, h) for d in dev.documents[:12] for h in sorted(d.labels)[:10]]
    for d, h in pairs:
        rel = bank.relevance(h, vecs[d.id], top_m=1, exclude_doc=d.id)
        dec = classify("", d.span_texts(), rel, cfg, bank=_Excl(bank, d.id), hypothesis_id=h, passage_vectors=vecs[d.id])
        correct += dec.label == d.labels[h]
        majority += d.labels[h] == "Entailment"
    assert correct > majority


class _Excl:
    def __init__(self, bank, doc):
        self.bank, self.doc = bank, doc

    def vote(self, *a, **kw):
        return self.bank.vote(*a, exclude_doc=self.doc, **kw)

    def search(self, *a, **kw):
        return self.bank.search(*a, exclude_doc=self.doc, **kw)


def test_combine_mixes_llm_label_and_vote():
    vote = {"Entailment": 0.2, "Contradiction": 0.7, "NotMentioned": 0.1}
    assert combine("NotMentioned", vote, 0.0) == "NotMentioned"
    assert combine("NotMentioned", vote, 0.9) == "Contradiction"
    assert combine(None, vote, 0.0) == "Contradiction"
    with pytest.raises(ValueError):
        combine(None, {}, 0.5)


def test_classify_levers_with_a_fake_llm(bank, test_split):
    d = test_split.documents[0]
    h = "nda-11"
    vecs = encode(d.span_texts())
    rel = bank.relevance(h, vecs)
    seen: list = []

    def ask(msgs, schema):
        seen.append(msgs)
        chat = FakeListChatModel(responses=[json.dumps({"quote": "x", "label": "Entailment"})])
        return invoke_structured(chat, msgs, schema, max_retries=0)

    dec = classify("Receiving Party shall not reverse engineer.", d.span_texts(), rel,
                   NLIConfig(depth=2, exemplars=1), ask=ask, bank=bank, hypothesis_id=h, passage_vectors=vecs)
    assert dec.label == "Entailment" and dec.source == "llm" and len(dec.evidence) == 2
    prompt = seen[-1][-1].content
    assert "OTHER contracts" in prompt and all(e.text.strip()[:30] in prompt for e in dec.evidence)
    assert dec.exemplar_ids and not any(x.split(":")[0] in test_split.doc_ids for x in dec.exemplar_ids)
    # abstention: a threshold above every relevance answers NotMentioned without the model
    n = len(seen)
    dec = classify("h", d.span_texts(), rel, NLIConfig(abstain_below=2.0), ask=ask)
    assert dec.label == "NotMentioned" and dec.source == "abstain" and len(seen) == n
    # a model that never answers in the schema raises (the benchmark counts it as a failure)
    bad = lambda msgs, schema: invoke_structured(FakeListChatModel(responses=["no idea"] * 3), msgs, schema,  # noqa: E731
                                                 max_retries=1)
    with pytest.raises(ModelResponseError):
        classify("h", d.span_texts(), rel, NLIConfig(), ask=bad)
    with pytest.raises(ValueError):
        classify("h", d.span_texts(), rel, NLIConfig(vote_weight=0.5), ask=ask)  # vote needs a bank
