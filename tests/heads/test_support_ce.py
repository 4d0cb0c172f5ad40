"""The cross-encoder support head (issue #40): loading, the stacked verdict, the verdict hook's choice of head, and
the training script's sampling / batching / threshold helpers.

A tiny randomly initialised BERT with the provisioned MiniLM vocabulary stands in for the trained weights (written
with ``base.save_fp16`` as the real head is), so the load path (sha256, config, threshold, stack) runs offline in
seconds; the trained head's behaviour on real text is measured by ``benchmarks/support_verdicts.py --head
--head-name support_ce``, not here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from clauselens.errors import ClauselensError
from clauselens.heads import base
from clauselens.heads import support as S
from clauselens.heads import support_ce as CE
from clauselens.heads import train_support_ce as T

CLAIM = "This Agreement is governed by the laws of the Federal Republic of Germany."
QUOTE = ("12.1. Governing Law. This Agreement shall be governed by, and construed in accordance with, the laws of "
         "the Federal Republic of Germany.")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    CE.load.cache_clear()
    S.load.cache_clear()
    yield
    CE.load.cache_clear()
    S.load.cache_clear()


def _tiny_head(root: Path, **meta: Any) -> dict[str, Any]:
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=30522, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                     max_position_embeddings=512, num_labels=1)
    return base.save_fp16(BertForSequenceClassification(cfg), CE.NAME, {"threshold": 0.5, "max_length": 64, **meta}, root)


def test_a_head_loads_scores_pairs_and_refuses_bad_input(tmp_path: Path) -> None:
    _tiny_head(tmp_path)
    head = CE.SupportCrossEncoder(tmp_path).load()
    z = head.logits([CLAIM, "Either party may terminate on notice."], [QUOTE, QUOTE])
    p = head.proba([CLAIM, "Either party may terminate on notice."], [QUOTE, QUOTE])
    assert z.shape == (2,) and np.allclose(p, 1 / (1 + np.exp(-z)))  # no stack: sigmoid of the logit
    assert head.threshold == 0.5 and head.supports(CLAIM, QUOTE) == (head.support(CLAIM, QUOTE) >= 0.5)
    with pytest.raises(ClauselensError, match="non-empty"):
        head.support(" ", QUOTE)
    with pytest.raises(ClauselensError, match="2 claims but 1 quotes"):
        head.logits([CLAIM, CLAIM], [QUOTE])


def test_the_stacked_verdict_reads_the_logit_and_the_lexical_features(tmp_path: Path) -> None:
    n = 1 + len(S.LEXICAL)
    coef = [0.0] * n
    coef[1 + S.LEXICAL.index("numbers_missing")] = -5.0  # only "a number of the claim the quote lacks" counts
    _tiny_head(tmp_path, stack={"features": ["logit", *S.LEXICAL], "mean": [0.0] * n, "scale": [1.0] * n,
                                "coef": coef, "intercept": 0.0})
    head = CE.SupportCrossEncoder(tmp_path).load()
    quote = "The Distributor shall pay the invoice within thirty (30) days."
    p = head.proba(["The Distributor shall pay the invoice within 30 days.",
                    "The Distributor shall pay the invoice within 60 days."], [quote, quote])
    assert p[0] == pytest.approx(0.5) and p[1] == pytest.approx(1 / (1 + np.exp(5.0)))
    meta = json.loads((tmp_path / CE.NAME / base.META_FILE).read_text())
    meta["stack"]["features"] = ["logit", "recall"]
    (tmp_path / CE.NAME / base.META_FILE).write_text(json.dumps(meta))
    with pytest.raises(base.HeadChecksumError, match="stacked on"):
        CE.SupportCrossEncoder(tmp_path).load()


def test_a_missing_or_changed_head_is_refused(tmp_path: Path) -> None:
    with pytest.raises(base.HeadMissingError, match="support_ce head not installed"):
        CE.SupportCrossEncoder(tmp_path).load()
    meta = _tiny_head(tmp_path)
    (tmp_path / CE.NAME / base.META_FILE).write_text(json.dumps({**meta, "sha256": "0" * 64}))
    with pytest.raises(base.HeadChecksumError, match="sha256"):
        CE.SupportCrossEncoder(tmp_path).load()
    (tmp_path / CE.NAME / base.META_FILE).write_text(json.dumps({k: v for k, v in meta.items() if k != "threshold"}))
    with pytest.raises(base.HeadChecksumError, match="threshold"):
        CE.SupportCrossEncoder(tmp_path).load()


def test_the_verdict_uses_the_cross_encoder_when_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from clauselens.agents.verdicts import head_verdict

    monkeypatch.setattr(base, "WEIGHTS", tmp_path)
    monkeypatch.setattr(base, "_NOTICED", set())
    with pytest.raises(base.HeadMissingError):  # neither head installed
        CE.load_verdict_head()
    _tiny_head(tmp_path, threshold=0.0)  # every pair passes: the verdict must come from this head
    assert isinstance(CE.load_verdict_head(), CE.SupportCrossEncoder)
    v = head_verdict(CLAIM, QUOTE, "head")
    assert v is not None and v.verdict == "supports" and ">= threshold 0.00" in v.reason


def test_sampling_keeps_each_kind_and_weights_the_easy_ones() -> None:
    pairs = ([{"kind": "claim_verbatim", "i": i} for i in range(400)] + [{"kind": "cuad_category", "i": i} for i in range(400)]
             + [{"kind": "claim_party_swap", "i": i} for i in range(5)])
    got = T.kinds(T.sample(pairs, 300, 0))
    assert set(got) == {"claim_verbatim", "cuad_category", "claim_party_swap"}
    assert got["claim_verbatim"] == pytest.approx(2 * got["cuad_category"], abs=2)  # KIND_WEIGHT 0.5
    assert T.sample(pairs, 0, 0) is pairs
    assert T.sample(pairs, 300, 0) == T.sample(pairs, 300, 0)  # seeded


def test_length_grouped_batches_hold_pairs_of_similar_length() -> None:
    import torch

    lengths = [10 * (i % 50) + 1 for i in range(800)]
    sampler = T.LengthGrouped(lengths)(None, batch_size=16, drop_last=False, generator=torch.Generator().manual_seed(0))
    batches = list(sampler)
    assert sorted(i for b in batches for i in b) == list(range(800))  # every pair once
    spread = np.mean([max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in batches])
    assert spread < 0.25 * (max(lengths) - min(lengths))  # a random batch spans nearly the whole range


def test_operating_curve_trades_one_error_for_the_other() -> None:
    from benchmarks.support_verdicts import operating_curve

    scored = [({"supports": True}, p) for p in (0.9, 0.8, 0.6, 0.3)] + [({"supports": False}, p) for p in (0.7, 0.2, 0.01)]
    curve = operating_curve(scored)
    passed = [c["unsupported_passed"]["x"] for c in curve]
    rejected = [c["supported_rejected"]["x"] for c in curve]
    assert passed == sorted(passed, reverse=True) and rejected == sorted(rejected)
    at = {c["threshold"]: c for c in curve}
    assert at[0.5]["unsupported_passed"]["x"] == 1 and at[0.5]["supported_rejected"]["x"] == 1
    assert at[0.5]["unsupported_passed"]["n"] == 3 and len(at[0.5]["unsupported_passed"]["wilson95"]) == 2
