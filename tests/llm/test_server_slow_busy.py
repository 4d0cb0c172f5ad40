"""Issue #22 item 9: a model server that is down, slow, or busy gets three different messages,
and the timeout is a setting (``request_timeout_s``) and a CLI option (``ask/chat --timeout``).

A tiny HTTP server on 127.0.0.1 plays the slow (sleeps before answering) and busy (HTTP 503 /
429) server; a released port plays the one that is not running."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from typer.testing import CliRunner

from clauselens.config import ModelSettings
from clauselens.errors import ModelBusyError, ModelTimeoutError, ModelUnavailableError
from clauselens.llm import get_chat_model


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server(behaviour: str) -> tuple[ThreadingHTTPServer, str, list[int]]:
    """A server that ``sleep``s 5 s on every request, or answers ``503``/``429``; returns
    (server, base_url, hit counter)."""
    hits: list[int] = []
    stop = threading.Event()

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a) -> None:  # keep pytest output clean
            pass

        def _answer(self) -> None:
            hits.append(1)
            if behaviour == "sleep":
                stop.wait(5.0)
                return
            code = int(behaviour)
            body = b'{"error": {"message": "busy"}}'
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Retry-After", "0")
            self.end_headers()
            self.wfile.write(body)

        do_GET = _answer
        do_POST = _answer

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    srv._stop_event = stop  # type: ignore[attr-defined]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/v1", hits


@pytest.fixture
def server(request) -> Iterator[tuple[str, str]]:
    srv, url, _hits = _server(request.param)
    yield url, request.param
    srv._stop_event.set()  # type: ignore[attr-defined]
    srv.shutdown()
    srv.server_close()


def _model(url: str, tmp_path: Path, timeout: float = 300.0):
    ms = ModelSettings(backend="openai", model="local", base_url=url, max_retries=0, request_timeout_s=timeout)
    return get_chat_model(ms, tmp_path)


@pytest.mark.parametrize("server", ["sleep"], indirect=True)
def test_slow_server_is_timed_out_not_unreachable(server, tmp_path: Path) -> None:
    url, _ = server
    t0 = time.monotonic()
    with pytest.raises(ModelTimeoutError) as ei:
        _model(url, tmp_path, timeout=0.5).invoke([HumanMessage(content="hello")])
    assert time.monotonic() - t0 < 4  # the setting is honoured (the server sleeps 5 s)
    msg = str(ei.value)
    assert f"model server at {url} timed out" in msg and "within 0.5 s" in msg
    assert "--timeout" in msg and "cannot reach" not in msg


@pytest.mark.parametrize("server", ["503", "429"], indirect=True)
def test_busy_server_says_busy(server, tmp_path: Path) -> None:
    url, code = server
    with pytest.raises(ModelBusyError) as ei:
        _model(url, tmp_path).invoke([HumanMessage(content="hello")])
    msg = str(ei.value)
    assert f"model server at {url} is busy (HTTP {code}" in msg
    assert "cannot reach" not in msg and "timed out" not in msg
    assert isinstance(ei.value, ModelUnavailableError) and ei.value.exit_code == 4  # stops the run


def test_server_not_listening_says_unreachable(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    with pytest.raises(ModelUnavailableError) as ei:
        _model(url, tmp_path).invoke([HumanMessage(content="hello")])
    assert not isinstance(ei.value, (ModelTimeoutError, ModelBusyError))
    assert f"cannot reach model server at {url} (is it running?)" in str(ei.value)


@pytest.mark.parametrize("server", ["sleep"], indirect=True)
def test_structured_probe_times_out_with_the_setting(server, tmp_path: Path) -> None:
    """The JSON-mode probe (GET /models) uses the same timeout and says timed out."""
    from pydantic import BaseModel

    from clauselens.llm import invoke_structured
    from clauselens.llm.structured import _FLAVOUR_CACHE

    class A(BaseModel):
        a: str

    url, _ = server
    _FLAVOUR_CACHE.pop(url, None)
    t0 = time.monotonic()
    with pytest.raises(ModelTimeoutError, match="timed out"):
        invoke_structured(_model(url, tmp_path, timeout=0.5), [HumanMessage(content="hi")], A)
    assert time.monotonic() - t0 < 4


@pytest.mark.parametrize("server", ["sleep"], indirect=True)
def test_ask_timeout_option(server, tmp_path: Path, monkeypatch) -> None:
    """``ask --timeout 0.5`` reaches the model settings of every agent; the timeout ends the run
    with exit 4 and one line naming the server and the option, no traceback."""
    from clauselens import pipeline
    from clauselens.cli import app

    url, _ = server
    seen = {}

    def fake_ask(paths, question, settings, **kw):
        seen.update({a: settings.model_for(a).request_timeout_s for a in ("archivist", "researcher", "interrogator")})
        get_chat_model(settings.model_for("researcher"), tmp_path).invoke([HumanMessage(content=question)])

    monkeypatch.setattr(pipeline, "ask", fake_ask)
    doc = tmp_path / "c.txt"
    doc.write_text("1. Term. This Agreement lasts two years.\n")
    res = CliRunner().invoke(app, ["ask", str(doc), "How long?", "--base-url", url, "--timeout", "0.5"])
    assert seen == {"archivist": 0.5, "researcher": 0.5, "interrogator": 0.5}
    assert res.exit_code == 4, res.output
    assert "Traceback" not in res.output
    assert f"model server at {url} timed out" in res.output.replace("\n", "")

    res = CliRunner().invoke(app, ["ask", str(doc), "How long?", "--timeout", "0"])
    assert res.exit_code == 3 and "--timeout must be a positive number" in res.output


def test_chat_has_timeout_option() -> None:
    from clauselens.interfaces.commands import _settings

    s = _settings(None, "http://127.0.0.1:9/v1", 7.0)
    assert {s.model_for(a).request_timeout_s for a in ("archivist", "researcher", "interrogator")} == {7.0}
    assert _settings(None, None).researcher_model.request_timeout_s == 300.0
