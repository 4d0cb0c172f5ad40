"""langgraph.json points at importable factories that build the real graphs."""

import importlib.util
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_langgraph_json_graphs_load(tmp_path, monkeypatch):
    # an OpenAI-compatible backend makes no network call until the first request,
    # so the graphs can be built without a model on disk
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path))
    for agent in ("ARCHIVIST", "RESEARCHER", "INTERROGATOR"):
        monkeypatch.setenv(f"CLAUSELENS_{agent}_MODEL__BACKEND", "openai")
        monkeypatch.setenv(f"CLAUSELENS_{agent}_MODEL__BASE_URL", "http://127.0.0.1:9/v1")
    spec = json.loads((REPO / "langgraph.json").read_text())
    nodes = {}
    for name, target in spec["graphs"].items():
        path, attr = target.split(":")
        mod_spec = importlib.util.spec_from_file_location(f"lg_{name}", REPO / path)
        mod = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(mod)
        graph = getattr(mod, attr)({"configurable": {}})
        nodes[name] = set(graph.get_graph().nodes)
    assert {"clarify", "answer"} <= nodes["clauselens_chat"]
    assert {"archivist", "researcher", "interrogator", "report"} <= nodes["clauselens"]
    assert (tmp_path / "sessions.sqlite").exists()
