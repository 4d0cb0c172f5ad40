"""Shared pytest fixtures.

Model fixtures (owned by the model layer, ``clauselens/llm``):

* ``small_model_path`` — the bundled Qwen2.5-Coder-0.5B GGUF, assembled once into
  ``~/.cache/clauselens/models`` (or ``$CLAUSELENS_CACHE_DIR/models``) and re-used.
* ``llama_server_url`` — a real OpenAI-compatible server (``python -m llama_cpp.server``) on
  the 0.5B model at a free localhost port, for the whole session; yields ``http://127.0.0.1:PORT/v1``.

Tests using the model fixtures should be marked ``@pytest.mark.slow``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

SMALL_MODEL = "qwen2.5-coder-0.5b"
SERVER_START_TIMEOUT_S = 180.0


@pytest.fixture(scope="session")
def small_model_path() -> Path:
    """Path of the assembled 0.5B GGUF (joined and sha256-checked on first use, then cached)."""
    from clauselens.config import Settings
    from clauselens.llm import ensure_model

    return ensure_model(SMALL_MODEL, Settings().models_dir)


@pytest.fixture(scope="session")
def llama_server_url(small_model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start llama-cpp-python's OpenAI-compatible server on the 0.5B model; yield its ``/v1`` URL.

    Waits until ``GET /v1/models`` answers (at most ``SERVER_START_TIMEOUT_S``), fails with the
    server's log if it dies or never answers, and terminates it at the end of the session
    (``benchmarks/llama_server.py``, shared with the benchmarks).
    """
    from benchmarks.llama_server import llama_server

    log_path = tmp_path_factory.mktemp("llama_server") / "server.log"
    try:
        with llama_server(small_model_path, log_path, timeout_s=SERVER_START_TIMEOUT_S) as base:
            yield base
    except RuntimeError as e:  # the server died or never answered (the message holds its log)
        pytest.fail(str(e))
