"""llama-cpp-python's own OpenAI-compatible server (``python -m llama_cpp.server``) on 127.0.0.1:
the stand-in for a GPU server here (``../shared/MODELS.md``, "OpenAI-compatible serving"). One
starter for the benchmarks and the test fixture ``llama_server_url`` (``tests/conftest.py``)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

START_TIMEOUT_S = 180.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ready(base: str) -> bool:
    try:
        return httpx.get(f"{base}/models", timeout=2.0).status_code == 200
    except httpx.HTTPError:  # not listening yet
        return False


@contextmanager
def llama_server(model_path: Path, log_path: Path, *, threads: int = 2, n_ctx: int = 4096,
                 timeout_s: float = START_TIMEOUT_S) -> Iterator[str]:
    """Start the server on ``model_path`` at a free port; yield its ``/v1`` URL once ``GET /v1/models``
    answers; terminate it on exit. Raises ``RuntimeError`` (with the server log's tail) if it exits
    or does not answer within ``timeout_s``."""
    port = free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--host", "127.0.0.1",
                                 "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads)],
                                stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + timeout_s
        while not _ready(base):
            if proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama_cpp.server did not answer within {timeout_s:.0f}s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
