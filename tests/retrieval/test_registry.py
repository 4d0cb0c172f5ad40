"""The tool registry (clauselens.retrieval.registry): one name -> factory for every front end,
names checked against config.ToolName, the chat model asked for only by the tools that use it,
and the settings knobs (route, route_top, dedupe) reaching the hybrid retriever."""

from __future__ import annotations

import typing

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from pydantic import ValidationError

from clauselens.config import TOOL_NAMES, RetrievalSettings, Settings, ToolName
from clauselens.errors import ConfigError
from clauselens.retrieval.hybrid import HybridRetriever
from clauselens.retrieval.navigate.inject import InjectRetriever
from clauselens.retrieval.navigate.navindex import NavIndexRetriever
from clauselens.retrieval.registry import TOOL_FACTORIES, check_tool_names, make_tools
from clauselens.retrieval.rerank import LLMReranker


def _settings(tmp_path, **retrieval) -> Settings:
    return Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none", **retrieval))


def test_registry_names_are_the_settings_literal():
    assert tuple(TOOL_FACTORIES) == TOOL_NAMES == typing.get_args(ToolName)


def test_unknown_name_is_a_config_error_listing_the_valid_ones(tmp_path):
    with pytest.raises(ConfigError, match=r"unknown retrieval tool\(s\): navx; valid tools: hybrid, navindex, navembed"):
        check_tool_names(["hybrid", "navx"])
    s = _settings(tmp_path).model_copy(deep=True)
    s.retrieval.tools = ["hybrid", "bm99"]  # as the CLI's --tools does it: no pydantic validation
    with pytest.raises(ConfigError, match="bm99"):
        make_tools(s)
    with pytest.raises(Exception, match="hybrid"):  # from the environment, pydantic lists the valid names
        RetrievalSettings(tools=["bm99"])


def test_chat_model_is_requested_only_by_tools_that_need_one(tmp_path):
    asked: list[str] = []
    chat = FakeListChatModel(responses=["{}"])

    def model():
        asked.append("researcher")
        return chat

    tools = make_tools(_settings(tmp_path), chat_model=model)
    assert list(tools) == ["hybrid"] and isinstance(tools["hybrid"], HybridRetriever) and not asked
    tools = make_tools(_settings(tmp_path, tools=["navindex", "inject", "hybrid"]), chat_model=model)
    assert list(tools) == ["navindex", "inject", "hybrid"]
    assert isinstance(tools["navindex"], NavIndexRetriever) and isinstance(tools["inject"], InjectRetriever)
    assert asked == ["researcher", "researcher"]


def test_llm_reranker_gets_the_researcher_model(tmp_path):
    chat = FakeListChatModel(responses=["{}"])
    tools = make_tools(_settings(tmp_path, reranker="llm"), chat_model=lambda: chat)
    assert isinstance(tools["hybrid"].reranker, LLMReranker)
    with pytest.raises(ConfigError):  # no model to rerank with: a clear error, as before
        make_tools(_settings(tmp_path, reranker="llm"))


def test_navindex_without_a_model_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="needs a chat model"):
        make_tools(_settings(tmp_path, tools=["navindex"]))


def test_hybrid_knobs_come_from_settings(tmp_path):
    h = make_tools(_settings(tmp_path, route="never", route_top=3, dedupe=None))["hybrid"]
    assert (h.route, h.route_top, h.dedupe) == ("never", 3, None)
    h = make_tools(_settings(tmp_path))["hybrid"]
    assert (h.route, h.route_top, h.dedupe) == ("auto", 1, 0.5)
    with pytest.raises(ValidationError):
        RetrievalSettings(route="sometimes")


def test_tool_modules_import_no_heavy_library():
    """The split tool packages (issue #18) keep heavy imports lazy: importing the registry and
    every tool module leaves LightRAG, torch and llama.cpp unimported (a fresh interpreter)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = str(Path(__file__).resolve().parents[2])
    mods = ["clauselens.retrieval.registry", "clauselens.retrieval.lightrag.adapter", "clauselens.retrieval.lightrag.retriever",
            "clauselens.retrieval.lightrag.tool", *(f"clauselens.retrieval.navigate.{m}" for m in
            ("index", "llm", "prompts", "scan", "fetch", "answer", "navindex", "navembed", "inject", "tools"))]
    code = (f"import importlib, sys\nfor m in {mods!r}: importlib.import_module(m)\n"
            "print(sorted(h for h in ('lightrag', 'torch', 'llama_cpp', 'sentence_transformers') if h in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=repo,
                         env={**os.environ, "PYTHONPATH": repo})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
