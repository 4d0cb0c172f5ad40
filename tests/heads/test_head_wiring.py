"""``retrieval.library_rerank = "head"`` in ``open_library``: the head is attached with the
threshold its head.json records (or the configured one), and a machine without the head opens
the library with reranking off after one notice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clauselens.heads import base
from clauselens.heads.cross_encoder import HeadReranker


@pytest.fixture
def settings_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__LIBRARY_RERANK", "head")
    return tmp_path


def _open() -> Any:
    from clauselens.config import Settings
    from clauselens.library.opening import open_library

    return open_library(Settings(), "h", create=True)


def test_missing_head_leaves_reranking_off(settings_env: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(base, "WEIGHTS", settings_env / "no-weights")
    base._NOTICED.discard("reranker")
    assert _open().reranker is None
    assert _open().reranker is None
    assert capsys.readouterr().err.count("reranker head not installed") == 1


def test_installed_head_is_attached_with_its_threshold(settings_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from transformers import BertConfig, BertForSequenceClassification

    cfg = BertConfig(vocab_size=base.load_tokenizer().vocab_size, hidden_size=32, num_hidden_layers=1,
                     num_attention_heads=2, intermediate_size=64, num_labels=1)
    base.save_fp16(BertForSequenceClassification(cfg), "reranker", {"abstain_threshold": 0.35, "max_length": 64},
                   settings_env / "weights")
    monkeypatch.setattr(base, "WEIGHTS", settings_env / "weights")
    lib = _open()
    assert isinstance(lib.reranker, HeadReranker) and lib.rerank_abstain == 0.35
    assert lib.reranker.max_length == 64
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__LIBRARY_RERANK_ABSTAIN", "0.2")
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__LIBRARY_RERANK_TOP", "15")
    lib = _open()
    assert (lib.rerank_abstain, lib.rerank_top) == (0.2, 15)
