"""benchmarks/contractnli_stack.py on small synthetic ContractNLI-shaped documents (no model, no data files)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from benchmarks.contractnli_stack import Config, Data, _accuracy, cue_counts, fit_predict

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
    data.hyps = {"h-share": {"hypothesis": "Receiving Party may share some Confidential Information with employees."},
                 "h-const": {"hypothesis": "Receiving Party shall not solicit representatives."}}
    data.hids = sorted(data.hyps)
    data.vecs = {d["id"]: rng.normal(size=(len(d["spans"]), 8)) for d in docs}
    data.hvec = {h: rng.normal(size=8) for h in data.hids}
    data.hneg = {"h-share": 0.0, "h-const": 1.0}
    data.cues = {d["id"]: np.asarray([cue_counts(d["text"][a:b]) for a, b in d["spans"]]) for d in docs}
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
                                 Config(k=1, inner=3, aug=1.0, pooled=0.3, label_emb=0.0),
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
