"""A command that needs an extra that is not installed says which one and how to install it
(issue #18), instead of an ImportError traceback."""

from __future__ import annotations

import importlib.util

import pytest
from typer.testing import CliRunner

from clauselens.cli import app
from clauselens.config import Settings
from clauselens.errors import ConfigError
from clauselens.extras import EXTRAS, require_extra


@pytest.fixture
def without(monkeypatch):
    """``without(*modules)``: make those modules look not installed."""
    real = importlib.util.find_spec

    def hide(*modules: str) -> None:
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in modules else real(name, *a))
    return hide


def test_every_extra_is_installed_here() -> None:
    for extra in EXTRAS:  # scripts/setup.sh installs them all: nothing is skipped in CI for a missing extra
        require_extra(extra, "the test suite")


@pytest.mark.parametrize("cmd,extra,module", [("serve", "web", "uvicorn"), ("mcp", "mcp", "mcp")])
def test_front_end_without_its_extra_says_what_to_install(cmd, extra, module, without, tmp_path):
    without(module)
    r = CliRunner().invoke(app, [cmd], env={"CLAUSELENS_CACHE_DIR": str(tmp_path), "COLUMNS": "200"})
    assert r.exit_code == ConfigError.exit_code, r.output
    assert f"clauselens {cmd} needs the optional dependencies clauselens[{extra}] (not installed: {module})" in r.output
    assert f"pip install -e '.[{extra}]'" in r.output and "Traceback" not in r.output


def test_lightrag_tool_without_its_extra_is_a_config_error(without, tmp_path):
    from clauselens.retrieval.registry import ToolContext, make_tool

    without("lightrag")
    with pytest.raises(ConfigError, match=r"the lightrag retrieval tool needs .*clauselens\[lightrag\]"):
        make_tool("lightrag", ToolContext(Settings(cache_dir=tmp_path)))
