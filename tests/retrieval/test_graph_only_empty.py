"""Issue #22 item 8: ``--mode lightrag`` when graph extraction found 0 entities. The run used to
abstain with 0 passages while its message said hybrid retrieval was used; now the message says
nothing was retrieved and why, and the report (not only the transcript) says "graph retrieval
unavailable". The graph is a fake that extracted nothing (no LightRAG, no model)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from clauselens.agents.interrogator import retrieval_warnings
from clauselens.cli import app
from clauselens.retrieval.hybrid import HybridRetriever
from clauselens.retrieval.lightrag.adapter import GraphUnavailableError
from clauselens.retrieval.lightrag.tool import GraphTool, HybridPlusGraph
from tests.fakes import ScriptedChat

ZERO = ("graph retrieval unavailable: extraction produced 0 entities from 2 chunks (model fake); "
        "small local models often extract none - use a larger or GPU-served model")
CONTRACT = "1. Confidentiality. The Receiving Party shall keep the Information secret.\n\n2. Term. Five years.\n"


class EmptyGraph:
    """A LightRAG retriever whose extraction produced 0 entities."""

    def index(self, documents) -> None:
        raise GraphUnavailableError(ZERO)

    def search(self, query, k=8, **kw):
        raise GraphUnavailableError(ZERO)


def test_graph_only_tool_says_nothing_was_retrieved_not_hybrid() -> None:
    tool = GraphTool(EmptyGraph())  # graph-only: no fallback
    tool.index([])
    res = tool.search("confidentiality", 3)
    assert res.abstained and not res.passages
    assert res.reason.startswith("graph retrieval unavailable") and "no passages were retrieved" in res.reason
    assert "hybrid retrieval is used" not in res.reason



@pytest.fixture
def graph_only_ask(monkeypatch):
    from clauselens import pipeline

    real = pipeline.ask
    script = {
        "SubQuestions": [{"sub_questions": ["What must the Receiving Party keep secret?"]}],
        "SearchPlan": [{"queries": ["keep secret"], "clause_refs": [], "defined_terms": [],
                        "agreement_names": [], "tools": ["lightrag"]}] * 4,
        "ReportDraft": [{"title": "Confidentiality", "topic_summary": "-", "legal_reasoning": "-", "findings": [],
                         "answer": "The documents do not say.", "addressed": False, "research_directions": [],
                         "knowledge_gaps": [], "follow_up_questions": [], "conclusion": "-"}] * 4,
        "StopDecision": [{"complete": True}] * 4,
    }

    def fake_ask(paths, question, settings, **kw):
        assert settings.retrieval.tools == ["lightrag"]  # --mode lightrag pins the graph tool
        kw.update(models=ScriptedChat(script=script), tools={"lightrag": GraphTool(EmptyGraph())})
        return real(paths, question, settings, **kw)

    monkeypatch.setattr(pipeline, "ask", fake_ask)


def test_ask_mode_lightrag_with_empty_graph_reports_it(tmp_path, graph_only_ask, monkeypatch) -> None:
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    doc = tmp_path / "nda.txt"
    doc.write_text(CONTRACT)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["ask", str(doc), "What must be kept secret?", "--mode", "lightrag", "--out", str(out)])
    assert "Traceback" not in res.output and res.exit_code == 0, res.output
    assert "hybrid retrieval is used" not in res.output
    md = (out / "report.md").read_text()
    assert "Retrieval warnings" in md and "graph retrieval unavailable: extraction produced 0 entities" in md
    assert "no passages were retrieved" in md
    assert "graph retrieval unavailable" in (out / "report.html").read_text()
    rep = json.loads((out / "report.json").read_text())
    assert len(rep["retrieval_warnings"]) == 1 and rep["retrieval_warnings"][0].startswith("graph retrieval unavailable")
    assert not rep["citations"]


def test_hybrid_plus_empty_graph_says_hybrid_only_and_the_report_lists_it(tmp_path) -> None:
    from clauselens.parsing.loader import load_document

    both = HybridPlusGraph(HybridRetriever(None), EmptyGraph())
    p = tmp_path / "c.txt"
    p.write_text(CONTRACT)
    both.index([load_document(p)])
    res = both.search("Receiving Party secret", 2)
    assert res.passages and res.trace["graph"] == ZERO + "; hybrid results only"
    events = [{"type": "retrieval", "results": [{"reason": None, "trace": res.trace}]}] * 2
    assert retrieval_warnings(events) == [ZERO + "; hybrid results only"]
