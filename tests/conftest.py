"""Shared pytest fixtures.

Model fixtures (owned by the model layer, ``clauselens/llm``):

* ``small_model_path`` — the bundled Qwen2.5-Coder-0.5B GGUF, assembled once into
  ``~/.cache/clauselens/models`` (or ``$CLAUSELENS_CACHE_DIR/models``) and re-used.
* ``llama_server_url`` — a real OpenAI-compatible server (``python -m llama_cpp.server``) on
  the 0.5B model at a free localhost port, for the whole session; yields ``http://127.0.0.1:PORT/v1``.

Tests using the model fixtures should be marked ``@pytest.mark.slow``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

SMALL_MODEL = "qwen2.5-coder-0.5b"
SERVER_START_TIMEOUT_S = 180.0


@pytest.fixture(scope="session")
def small_model_path() -> Path:
    """Path of the assembled 0.5B GGUF (joined and sha256-checked on first use, then cached)."""
    from clauselens.config import Settings
    from clauselens.llm import ensure_model

    return ensure_model(SMALL_MODEL, Settings().models_dir)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def llama_server_url(small_model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start llama-cpp-python's OpenAI-compatible server on the 0.5B model; yield its ``/v1`` URL.

    Waits until ``GET /v1/models`` answers (at most ``SERVER_START_TIMEOUT_S``), fails with the
    server's log if it dies or never answers, and terminates it at the end of the session.
    """
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama_server") / "server.log"
    cmd = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(small_model_path),
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "4096", "--n_threads", "2",
    ]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base}/models", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer within {SERVER_START_TIMEOUT_S}s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
