"""The ContractNLI probe's fitting (clauselens.heads.train_nli_probe.fit, the code benchmarks/contractnli_stack.py
cross-validates and the shipped weights come from) on small synthetic ContractNLI-shaped documents (no model,
no data files), and its save / load round trip."""

from __future__ import annotations

import random

import numpy as np
import pytest

from benchmarks.contractnli_stack import Data, _accuracy, fit_predict
from clauselens.heads import nli_probe as P
from clauselens.heads.nli_probe import Config, SpanDoc, cue_counts
from clauselens.heads.train_nli_probe import doc_annotations, doc_spans, fit

FILLER = ["This Agreement is governed by the laws of {s}.", "Notices shall be sent to the address of {s}.",
          "The term of this Agreement is {n} years.", "Each party represents that it has authority to sign, {s}.",
          "Headings are for convenience only in {s}.", "This Agreement may be executed in {n} counterparts."]
STATES = ["Delaware", "New York", "Texas", "Ohio", "Utah", "Iowa"]
EVIDENCE = {"Entailment": "The Recipient may disclose Confidential Information to its employees who need to know it.",
            "Contradiction": "The Recipient shall not disclose Confidential Information to any of its employees."}


def _doc(i: int, label: str, rng: random.Random) -> dict:
    sents = [f.format(s=rng.choice(STATES), n=rng.randint(2, 9)) for f in rng.sample(FILLER, 5)]
    ev: list[int] = []
    if label != "NotMentioned":
        pos = rng.randint(0, len(sents))
        sents.insert(pos, EVIDENCE[label])
        ev = [pos]
    text, spans = "", []
    for s in sents:
        spans.append([len(text), len(text) + len(s)])
        text += s + "\n"
    return {"id": i, "text": text, "spans": spans,
            "annotation_sets": [{"annotations": {"h-share": {"choice": label, "spans": ev},
                                                 "h-const": {"choice": "NotMentioned", "spans": []}}}]}


def _data(docs: list[dict]) -> Data:
    """A Data without the embedder: random unit vectors stand in for the MiniLM span vectors."""
    rng = np.random.default_rng(0)
    data = Data.__new__(Data)
    data.dev, data.test = docs, []
    data.hyps = {"h-share": "Receiving Party may share some Confidential Information with employees.",
                 "h-const": "Receiving Party shall not solicit representatives."}
    data.hids = sorted(data.hyps)
    data.docs = {d["id"]: SpanDoc(doc_spans(d), rng.normal(size=(len(d["spans"]), 8))) for d in docs}
    return data


@pytest.fixture(scope="module")
def docs() -> list[dict]:
    rng = random.Random(1)
    labels = ["Entailment", "Contradiction", "NotMentioned"] * 8
    return [_doc(i, lab, rng) for i, lab in enumerate(labels)]


def test_cue_counts_see_negation_and_permission() -> None:
    c = dict(zip(("not", "shall_not", "without", "only", "except", "may", "shall", "any", "prohibit"),
                 cue_counts("The Recipient shall not disclose any information, except as it may be required.")))
    assert c["not"] == 1 and c["shall_not"] == 1 and c["except"] == 1 and c["may"] == 1 and c["any"] == 1
    assert c["only"] == 0 and c["without"] == 0


@pytest.mark.parametrize("cfg", [Config(k=1, label_emb=0.0), Config(k=2, emb=1.0, ctx=0.5, cues=1.0),
                                 Config(k=1, inner=3, aug=1.0, label_emb=0.0),
                                 Config(k=2, emb=1.0, ec=1.0, ec_inner=3)])
def test_held_out_documents_are_labelled_from_their_evidence(docs: list[dict], cfg: Config) -> None:
    data = _data(docs)
    tr, te = docs[:15], docs[15:]
    proba, recalls = fit_predict(cfg, data, tr, te)
    assert set(proba) == {(d["id"], h) for d in te for h in data.hids}
    assert all(abs(p.sum() - 1) < 1e-6 for p in proba.values())
    share = {key: p for key, p in proba.items() if key[1] == "h-share"}
    assert _accuracy(share, [{**d, "annotation_sets": [{"annotations": {"h-share": d["annotation_sets"][0]["annotations"]["h-share"]}}]}
                             for d in te]) >= 0.75
    # a hypothesis with one training label predicts it; the evidence span is found for every E/C pair
    assert all(np.argmax(p) == 2 for key, p in proba.items() if key[1] == "h-const")
    assert len(recalls) == sum(d["annotation_sets"][0]["annotations"]["h-share"]["choice"] != "NotMentioned" for d in te)
    assert np.mean(recalls) >= 0.8


def test_pooled_variants_are_refused(docs: list[dict]) -> None:
    with pytest.raises(ValueError, match="retired"):
        fit_predict(Config(pooled=0.5), _data(docs), docs[:15], docs[15:])


def test_ensemble_saves_as_fp16_and_loads_with_the_same_labels(docs: list[dict], tmp_path) -> None:
    data = _data(docs)
    members = [Config(k=k, emb=1.0, ec=1.0, ec_inner=3) for k in (1, 2)]
    model = fit(members, [data.docs[d["id"]] for d in docs[:15]], [doc_annotations(d) for d in docs[:15]], data.hyps)
    meta = P.save(model, {"training_command": "test"}, tmp_path)
    loaded = P.NLIProbe(tmp_path)
    assert loaded.meta["sha256"] == meta["sha256"] and len(loaded.model.members) == 2
    for d in docs[15:]:
        for h in data.hids:
            a, b = model.predict(data.docs[d["id"]], h)[0], loaded.model.predict(data.docs[d["id"]], h)[0]
            assert np.abs(a - b).max() < 0.02 and np.argmax(a) == np.argmax(b)
    # a changed weight file is refused
    w = tmp_path / P.NAME / P.WEIGHT_FILE
    w.write_bytes(w.read_bytes()[:-2] + b"xx")
    with pytest.raises(P.HeadChecksumError):
        P.NLIProbe(tmp_path)


def test_members_must_share_their_evidence_rankers(docs: list[dict]) -> None:
    data = _data(docs)
    with pytest.raises(ValueError, match="share"):
        fit([Config(emb=1.0), Config(emb=0.0)], [data.docs[d["id"]] for d in docs], [doc_annotations(d) for d in docs], data.hyps)
