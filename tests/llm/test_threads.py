"""The llama.cpp thread policy (``default_threads``/``resolve_threads``) and that thread settings
reach ``llama_cpp.Llama`` (no model is loaded: ``Llama`` is replaced by a recorder)."""

from __future__ import annotations

from pathlib import Path

import llama_cpp
import pytest

from clauselens.config import ModelSettings, Settings
from clauselens.llm import get_chat_model, llamacpp_chat
from clauselens.llm.llamacpp_chat import default_threads, resolve_threads, shared_llama


@pytest.mark.parametrize("cpus, expected", [(1, (1, 1)), (2, (1, 2)), (3, (1, 3)), (4, (2, 4)), (8, (4, 8)), (64, (32, 64))])
def test_default_threads_generate_on_half_and_read_prompts_on_all(cpus: int, expected: tuple[int, int]) -> None:
    assert default_threads(cpus) == expected


def test_explicit_settings_win() -> None:
    assert resolve_threads(None, None, cpus=2) == default_threads(2)
    assert resolve_threads(2, 2, cpus=2) == (2, 2)
    assert resolve_threads(3, 1, cpus=2) == (3, 1)  # more threads than CPUs: the user's choice
    assert resolve_threads(2, None, cpus=8) == (2, 2)  # n_threads alone caps both
    assert resolve_threads(None, 5, cpus=8) == (default_threads(8)[0], 5)
    assert resolve_threads(0, -1, cpus=4) == default_threads(4)  # <= 0 means "default", as in llama.cpp


class _Recorder:
    """Stands in for ``llama_cpp.Llama``: records its keyword arguments, loads nothing."""

    calls: list[dict] = []

    def __init__(self, **kwargs: object) -> None:
        _Recorder.calls.append(kwargs)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    _Recorder.calls = []
    monkeypatch.setattr(llama_cpp, "Llama", _Recorder)
    monkeypatch.setattr(llamacpp_chat, "install_greedy_grammar", lambda llm: llm)
    monkeypatch.setattr(llamacpp_chat, "amx_risk", lambda *a: False)
    monkeypatch.setattr(llamacpp_chat, "available_cpus", lambda: 4)
    monkeypatch.setattr(llamacpp_chat, "_LLAMAS", {})
    return _Recorder.calls


def test_thread_settings_reach_llama_and_key_the_cache(recorded: list[dict], tmp_path: Path) -> None:
    gguf = str(tmp_path / "m.gguf")
    a = shared_llama(gguf, 512, None)
    assert recorded[-1]["n_threads"] == 2 and recorded[-1]["n_threads_batch"] == 4
    assert shared_llama(gguf, 512, 2, n_threads_batch=4) is a  # same resolved threads: same instance
    b = shared_llama(gguf, 512, 2, n_threads_batch=1)
    assert b is not a and (recorded[-1]["n_threads"], recorded[-1]["n_threads_batch"]) == (2, 1)
    shared_llama(gguf, 512, 2)
    assert len(recorded) == 3  # (2, 4), (2, 1), (2, 2)


def test_model_settings_pass_through_the_factory(recorded: list[dict], tmp_path: Path) -> None:
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    model = get_chat_model(ModelSettings(model=str(gguf), n_threads=2, n_threads_batch=1), tmp_path)
    assert (model.n_threads, model.n_threads_batch) == (2, 1)
    model._llama()
    assert (recorded[-1]["n_threads"], recorded[-1]["n_threads_batch"]) == (2, 1)
    default = get_chat_model(ModelSettings(model=str(gguf)), tmp_path)
    assert (default.n_threads, default.n_threads_batch) == (None, None)
    default._llama()
    assert (recorded[-1]["n_threads"], recorded[-1]["n_threads_batch"]) == (2, 4)


def test_env_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUSELENS_RESEARCHER_MODEL__N_THREADS", "2")
    monkeypatch.setenv("CLAUSELENS_RESEARCHER_MODEL__N_THREADS_BATCH", "1")
    s = Settings()
    assert (s.researcher_model.n_threads, s.researcher_model.n_threads_batch) == (2, 1)
    assert (s.archivist_model.n_threads, s.archivist_model.n_threads_batch) == (None, None)
