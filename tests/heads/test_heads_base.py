"""clauselens.heads.base and the cross-encoder's loading path, on a tiny randomly initialised
head the test builds itself (the committed head is checked in test_reranker_head.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.heads import base
from clauselens.heads.cross_encoder import HeadReranker, load_reranker


@pytest.fixture(scope="module")
def tiny_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import BertConfig, BertForSequenceClassification

    tok = base.load_tokenizer()
    cfg = BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, num_labels=1)
    root = tmp_path_factory.mktemp("heads")
    base.save_fp16(BertForSequenceClassification(cfg), "reranker", {"abstain_threshold": 0.4}, root)
    return root


def test_saved_head_verifies_and_scores(tiny_root: Path) -> None:
    meta = base.verify("reranker", tiny_root)
    assert meta["size"] == (tiny_root / "reranker" / base.WEIGHT_FILE).stat().st_size
    head = HeadReranker(tiny_root, max_length=64, batch_size=2)
    probs = head.score("Can they hire away our staff?", ["Neither party shall solicit employees.", "Governing law.", "x"])
    assert len(probs) == 3 and all(0.0 < p < 1.0 for p in probs)
    assert head.abstain_threshold == 0.4
    assert head.score("q", []) == []
    long_question = "Does the agreement say what happens to the merger consideration " * 30  # > max_length pieces
    assert len(head.score(long_question, ["Neither party shall solicit employees."] * 2)) == 2


def test_corrupt_weights_are_refused(tiny_root: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(tiny_root, root)
    w = root / "reranker" / base.WEIGHT_FILE
    data = bytearray(w.read_bytes())
    data[-1] ^= 0xFF
    w.write_bytes(bytes(data))
    with pytest.raises(base.HeadChecksumError, match="sha256"):
        base.verify("reranker", root)
    meta = json.loads((root / "reranker" / base.META_FILE).read_text())
    meta["size"] += 1
    (root / "reranker" / base.META_FILE).write_text(json.dumps(meta))
    with pytest.raises(base.HeadChecksumError, match="bytes"):
        base.verify("reranker", root)


def test_missing_head_is_said_once_and_is_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not base.installed("reranker", tmp_path)
    with pytest.raises(base.HeadMissingError, match="reranker head not installed"):
        base.head_meta("reranker", tmp_path)
    base._NOTICED.discard("reranker")
    assert load_reranker(tmp_path) is None
    assert load_reranker(tmp_path) is None
    err = capsys.readouterr().err
    assert err.count("reranker head not installed") == 1 and "reranking off" in err
