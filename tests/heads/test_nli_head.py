"""The NLI head (issue #40).

Always run: the contract-level rule of :meth:`NLIHead.decide` (on stubbed span probabilities), a missing
or corrupt head refused with a clear error, and the product hook (``NLIConfig(head=True)``) falling back
to the other levers with one notice when no head is installed.

Run once a head is committed under ``clauselens/heads/weights/nli/`` (none is: the one trained so far
scored below the per-hypothesis majority floor on ContractNLI test; see ``clauselens.heads.nli``): its
checksum, offline load, and a real ContractNLI test span (an NDA the head never saw:
Mutual-Non-Disclosure-Agreement-Inventor-Product-Development, hypothesis nda-11) labelled Entailment and
an unrelated clause NotMentioned.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from clauselens.errors import ClauselensError
from clauselens.heads import base
from clauselens.heads import nli as N

HYPOTHESIS = "Receiving Party shall not reverse engineer any objects which embody Disclosing Party's Confidential Information."
EVIDENCE = ("Neither party shall reverse engineer, disassemble or decompile any prototypes, software or other tangible "
            "objects which embody the other party's Confidential Information and which are provided to the party hereunder.")
UNRELATED = ("This Agreement shall be governed by and construed in accordance with the laws of the State of New York, "
             "without regard to its conflict of laws principles.")
needs_head = pytest.mark.skipif(not base.installed(N.NAME), reason="no NLI head committed (see the module docstring)")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


class StubHead(N.NLIHead):
    """``probs`` from a table keyed by the premise; the rule from ``meta``."""

    def __init__(self, table: dict[str, list[float]], rule: dict[str, float]) -> None:
        super().__init__()
        self.table, self.meta = table, {"rule": rule}

    def probs(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.asarray([self.table[p] for p, _ in pairs])


def test_decide_applies_the_rule_over_the_first_k_passages() -> None:
    table = {"ent": [0.7, 0.1, 0.2], "con": [0.2, 0.5, 0.3], "none": [0.1, 0.1, 0.8]}
    rule = {"k": 2, "threshold": 0.4, "contradiction_weight": 1.0}
    assert StubHead(table, rule).decide("h", ["none", "ent", "con"])[0] == "Entailment"
    assert StubHead(table, rule).decide("h", ["none", "con", "ent"])[0] == "Contradiction"  # "ent" is past k
    # both read: Contradiction only when P(C) * contradiction_weight > P(E) (0.5 * w vs 0.7)
    assert StubHead(table, rule).decide("h", ["ent", "con"])[0] == "Entailment"
    assert StubHead(table, {**rule, "contradiction_weight": 1.2}).decide("h", ["con", "ent"])[0] == "Entailment"
    assert StubHead(table, {**rule, "contradiction_weight": 1.5}).decide("h", ["ent", "con"])[0] == "Contradiction"
    label, scores, best = StubHead(table, {**rule, "threshold": 0.75}).decide("h", ["ent", "con"])
    assert label == "NotMentioned" and best == -1 and scores["Entailment"] == pytest.approx(0.7)
    assert StubHead(table, rule).decide("h", [])[0] == "NotMentioned"
    with pytest.raises(ClauselensError, match="hypothesis is empty"):
        StubHead(table, rule).decide("  ", ["ent"])


def test_missing_and_corrupt_heads_are_refused(tmp_path: Path) -> None:
    with pytest.raises(base.HeadMissingError, match="nli head not installed"):
        N.NLIHead(tmp_path).load()
    d = tmp_path / N.NAME
    d.mkdir()
    (d / base.WEIGHT_FILE).write_bytes(b"not weights")
    (d / base.CONFIG_FILE).write_text("{}")
    (d / base.META_FILE).write_text('{"sha256": "' + "0" * 64 + '"}')
    with pytest.raises(base.HeadChecksumError):
        N.NLIHead(tmp_path).load()


def test_product_hook_falls_back_to_the_model_when_no_head(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from clauselens.agents.nli import LabelOnlyVerdict, NLIConfig, classify

    monkeypatch.setattr(base, "WEIGHTS", tmp_path)  # nothing installed here
    monkeypatch.setattr(base, "_NOTICED", set())
    N.load.cache_clear()
    asked: list[str] = []

    def ask(msgs, schema):  # type: ignore[no-untyped-def]
        asked.append(schema.__name__)
        return LabelOnlyVerdict(label="Contradiction")

    cfg = NLIConfig(depth=2, evidence_first=False, head=True)
    dec = classify(HYPOTHESIS, [UNRELATED, EVIDENCE], np.asarray([0.2, 0.9]), cfg, ask=ask)
    assert dec.source == "llm" and dec.label == "Contradiction" and asked == ["LabelOnlyVerdict"]
    assert cfg.tag().endswith("-head")
    classify(HYPOTHESIS, [EVIDENCE], np.asarray([0.9]), cfg, ask=ask)
    assert capsys.readouterr().err.count("nli head not installed") == 1  # said once


@needs_head
def test_committed_weights_match_their_checksum_and_record_their_training() -> None:
    meta = base.verify(N.NAME)
    assert meta["size"] <= 50 * 1024 * 1024
    assert "train_nli" in meta["training_command"] and "dev.json only" in meta["data"]["source"]
    assert set(meta["rule"]) >= {"k", "threshold", "contradiction_weight"}


@needs_head
def test_real_contractnli_span_is_entailment_and_an_unrelated_clause_not_mentioned() -> None:
    head = N.NLIHead().load()
    p = head.probs([(EVIDENCE, HYPOTHESIS), (UNRELATED, HYPOTHESIS)])
    assert p.shape == (2, 3) and N.LABELS[int(p[0].argmax())] == "Entailment"
    assert head.decide(HYPOTHESIS, [EVIDENCE])[0] == "Entailment"
    assert head.decide(HYPOTHESIS, [UNRELATED])[0] == "NotMentioned"


@needs_head
def test_corrupt_committed_weights_are_refused(tmp_path: Path) -> None:
    shutil.copytree(base.head_dir(N.NAME), tmp_path / N.NAME)
    f = tmp_path / N.NAME / base.WEIGHT_FILE
    data = bytearray(f.read_bytes())
    data[-1] ^= 0xFF
    f.write_bytes(bytes(data))
    with pytest.raises(base.HeadChecksumError):
        N.NLIHead(tmp_path).load()
