"""The run's heavy objects, shared by the agents' node functions and created on first use: each
agent's chat model (:class:`ModelPool`) and the Researcher's retrieval tools (from the tool
registry, :func:`clauselens.retrieval.registry.make_tools`).

They are passed to the node functions beside the state, never stored in it, so a LangGraph
checkpointer persists JSON-ready data only (see :mod:`clauselens.agents.state`). Front ends that
make their own tools share one :class:`ModelPool` with the graph, so an in-process model is loaded
once per process.
"""

from __future__ import annotations

from typing import Any, Mapping

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import Runnable

from clauselens.config import AgentName, Settings
from clauselens.retrieval.registry import make_tools
from clauselens.retrieval.types import RetrievalMethod

#: One chat model for every agent, ``{agent: model}`` for some of them, or None (from the settings).
ModelsArg = BaseChatModel | Runnable | Mapping[str, BaseChatModel | Runnable] | None
#: ``{tool name: RetrievalMethod}`` made (and indexed, or to be indexed) by the caller, or None (the registry's).
ToolsArg = Mapping[str, RetrievalMethod] | None


class ModelPool:
    """The run's chat models per agent, created on first use: a model the caller passed in for
    an agent (``models``), else ``clauselens.llm.get_chat_model(settings.model_for(agent), ...)``."""

    def __init__(self, settings: Settings, models: ModelsArg = None) -> None:
        self.settings = settings
        self._models_arg = models
        self._models: dict[str, Any] = {}

    def model(self, agent: AgentName) -> Any:
        """The chat model of ``agent`` ("archivist", "researcher" or "interrogator")."""
        m = self._models_arg
        if m is not None and not isinstance(m, Mapping):
            return m
        if isinstance(m, Mapping) and agent in m:
            return m[agent]
        if agent not in self._models:
            from clauselens.llm import get_chat_model

            self._models[agent] = get_chat_model(self.settings.model_for(agent), self.settings.models_dir)
        return self._models[agent]

    def supplied(self, agent: AgentName) -> Any | None:
        """The model the caller passed in for ``agent``; ``None`` when it is built from the settings."""
        m = self._models_arg
        if m is not None and not isinstance(m, Mapping):
            return m
        return m.get(agent) if isinstance(m, Mapping) else None

    def researcher(self) -> Any:
        """The Researcher's model (the getter the tool registry takes)."""
        return self.model("researcher")


class AgentResources:
    """What the node functions share besides the state: the run's ``settings``, its
    :class:`ModelPool` and the Researcher's tools (``tools`` as given, else
    ``settings.retrieval.tools`` made by the registry on the first :meth:`tools` call, with the
    pool's Researcher model for the tools that call a model)."""

    def __init__(self, settings: Settings, models: ModelsArg | ModelPool = None, tools: ToolsArg = None) -> None:
        self.settings = settings
        self.pool = models if isinstance(models, ModelPool) else ModelPool(settings, models)
        self._tools: dict[str, RetrievalMethod] | None = dict(tools) if tools is not None else None

    def model(self, agent: AgentName) -> Any:
        """The chat model of ``agent`` (see :meth:`ModelPool.model`)."""
        return self.pool.model(agent)

    def tools(self) -> dict[str, RetrievalMethod]:
        """The Researcher's tools by name."""
        if self._tools is None:
            self._tools = make_tools(self.settings, chat_model=self.pool.researcher)
        return self._tools


__all__ = ["AgentResources", "ModelPool", "ModelsArg", "ToolsArg"]
