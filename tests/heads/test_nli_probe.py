"""The committed ContractNLI probe (issue #40): it loads offline from the repository's files (no skip), labels a
real ContractNLI test pair, quotes its evidence verbatim, and is what ``ask --mode nli`` and the benchmark's
``--mode head`` use; without it both fall back and say so."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from clauselens.agents.interrogator import interrogator_node
from clauselens.agents.nli import NLIConfig, classify, probe_step, whole_document
from clauselens.config import Settings
from clauselens.heads import nli_probe as P
from clauselens.heads.base import HeadMissingError
from clauselens.parsing.types import Chunk
from clauselens.retrieval.types import Passage

DATA = Path("/work/shared/data/contractnli/test.json")
#: One real test pair (document index in test.json, hypothesis id, gold label): "Confidential Information shall
#: only include technical information." (a Contradiction the committed probe labels with P = 0.92; gold evidence
#: spans 25 and 32, the probe's top span 25).
PAIR = (0, "nda-2", "Contradiction")


@pytest.fixture(scope="module")
def probe() -> P.NLIProbe:
    return P.load()  # the committed files: a missing or changed file fails here, never skips


@pytest.fixture(scope="module")
def pair() -> tuple[list[str], str, str]:
    d = json.loads(DATA.read_text())
    doc = d["documents"][PAIR[0]]
    assert doc["annotation_sets"][0]["annotations"][PAIR[1]]["choice"] == PAIR[2]
    return [doc["text"][a:b] for a, b in doc["spans"]], d["labels"][PAIR[1]]["hypothesis"], doc["text"]


def test_committed_head_is_small_checked_and_dev_trained(probe: P.NLIProbe) -> None:
    d = P.head_dir(P.NAME)
    size = sum((d / f).stat().st_size for f in (P.WEIGHT_FILE, P.VOCAB_FILE))
    assert size <= 50 * 2**20
    assert probe.meta["manifest"]["data"].endswith("dev.json") and "test.json is never read" in probe.meta["manifest"]["note"]
    assert [m["k"] for m in probe.meta["members"]] == [1, 3, 5] and len(probe.hids) == 17
    assert "train_nli_probe" in probe.meta["training_command"]


def test_labels_a_real_test_pair_and_quotes_its_evidence(probe: P.NLIProbe, pair) -> None:
    spans, hypothesis, text = pair
    dec = probe.decide(hypothesis, spans)
    assert dec is not None and dec.hypothesis_id == PAIR[1] and dec.cosine == 1.0
    assert dec.label == PAIR[2] and abs(sum(dec.proba.values()) - 1) < 1e-6
    assert dec.evidence[0] == 25 and all(spans[i] in text for i in dec.evidence)


def test_benchmark_path_uses_the_probe_without_a_model(pair) -> None:
    spans, hypothesis, _ = pair
    out = classify(hypothesis, spans, np.zeros(len(spans)), NLIConfig(head=True, vote_weight=1.0))
    assert out.source == "probe" and out.label == PAIR[2] and out.quote in spans
    assert out.matched_hypothesis == hypothesis and set(out.probabilities) == set(P.LABELS)


def test_paraphrase_matches_and_other_questions_do_not(probe: P.NLIProbe) -> None:
    h, cos = probe.match("The receiving party may not tell anyone that this agreement was negotiated.")
    assert h == "nda-10" and cos >= P.MATCH_MIN_COSINE
    h, cos = probe.match("What is the monthly fee for the hosting services?")
    assert h is None and cos < P.MATCH_MIN_COSINE
    with pytest.raises(P.ClauselensError, match="empty"):
        probe.decide("  ", ["some text"])


def test_ask_nli_labels_by_the_probe_with_no_model_call(pair) -> None:
    spans, hypothesis, _ = pair

    def no_model(*_a, **_k):
        raise AssertionError("the probe path must not call a model")

    res = SimpleNamespace(settings=Settings(), model=no_model, tools=dict)
    spans_text = " ".join(spans)
    first = interrogator_node({"question": hypothesis, "mode": "nli", "turn": 0}, res)  # type: ignore[arg-type]
    assert first["route"] == "research" and first["pending"] == [hypothesis] and first["rule_target"] == "nli_probe"
    passages = {f"P{i + 1}": Passage(chunk_id=f"c{i}", doc_id="d", node_id=f"n{i}", spans=[], text=" ".join(spans[j:j + 4]))
                for i, j in enumerate(range(0, len(spans), 4))}
    upd = probe_step(hypothesis, passages, 1)
    assert upd is not None and upd["rule_decided"] and upd["draft"]["label"] == "contradiction"
    quotes = [passages[q["passage_id"]].text[q["start"]:q["end"]] for q in upd["rule_quotes"]]
    assert quotes and all(q.strip() and q in spans_text for q in quotes)


def test_ask_reads_the_whole_contract_when_one_document_is_retrieved(pair) -> None:
    spans, hypothesis, _ = pair
    chunks = [Chunk(id=f"c{i}", kind="node", doc_id="d", node_id=f"n{i}", spans=[], text=" ".join(spans[j:j + 4]))
              for i, j in enumerate(range(0, len(spans), 4))]
    chunks.append(Chunk(id="other", kind="node", doc_id="e", node_id="m", spans=[], text="Another agreement."))
    retrieved = {"P1": Passage.from_chunk(chunks[0], 0.9, "hybrid")}  # retrieval missed the evidence (span 25)
    whole = whole_document(retrieved, chunks)
    assert whole["P1"] is retrieved["P1"] and len(whole) == len(chunks) - 1
    assert all(p.doc_id == "d" for p in whole.values())
    upd = probe_step(hypothesis, retrieved, 1, chunks)
    assert upd is not None and upd["draft"]["label"] == "contradiction"
    q = upd["rule_quotes"][0]  # the quoted passage travels with the update, so the report can cite it
    assert spans[25] in upd["passages"][q["passage_id"]]["text"][q["start"]:q["end"]]
    # two documents retrieved: the probe reads the retrieved passages only
    two = {**retrieved, "P2": Passage.from_chunk(chunks[-1], 0.5, "hybrid")}
    assert whole_document(two, chunks) == two


def test_without_the_head_it_falls_back_and_says_so(tmp_path: Path, capsys, monkeypatch) -> None:
    from clauselens.agents.nli import LabelOnlyVerdict
    from clauselens.heads import base

    with pytest.raises(HeadMissingError):
        P.NLIProbe(tmp_path)
    monkeypatch.setattr(P, "load", lambda root=None: P.NLIProbe(tmp_path))
    monkeypatch.setattr(base, "_NOTICED", set())
    out = classify("Receiving Party shall not disclose the fact that Agreement was agreed or negotiated.", ["x y"],
                   np.ones(1), NLIConfig(head=True, evidence_first=False),
                   ask=lambda msgs, schema: LabelOnlyVerdict(label="Entailment"))
    assert out.source == "llm" and out.label == "Entailment"  # as before the probe: the model decides
    assert P.load_or_none() is None
    err = capsys.readouterr().err
    assert err.count("nli_probe head not installed") == 1


def test_split_spans_keeps_text_verbatim() -> None:
    text = "The Recipient shall (a) keep it secret; (b) not copy it.\n\nThis lasts 3 years. U.S. law applies."
    parts = P.split_spans(text)
    assert parts == ["The Recipient shall", "(a) keep it secret;", "(b) not copy it.", "This lasts 3 years.", "U.S. law applies."]
    assert all(p in text for p in parts)
