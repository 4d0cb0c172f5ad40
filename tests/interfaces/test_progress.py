"""The one progress formatter (issue #43): ``clauselens ask``'s lines and the chat / web UI's
``round`` events come from :func:`clauselens.interfaces.progress.progress_lines`, reading the run
events through their typed payloads."""

from __future__ import annotations

from typing import Any

import pytest

from clauselens import events as ET
from clauselens.interfaces.progress import ProgressLine, draft_preview, progress_lines, progress_status, progress_text

RESEARCH = {"turn": 2, "events": [{"type": ET.NOTE, "text": "x"},
                                  {"type": ET.RETRIEVAL, "turn": 2, "questions": ["a", "b"], "results": [{}, {}, {}],
                                   "new_passage_ids": ["p1"]}]}
REPORT = {"report": {"citations": [{}, {}]},
          "events": [{"type": ET.REPORT, "citations": 2, "verification": "partial",
                      "support": [{"part": "finding", "support": "supported"}, {"part": "finding", "support": "contradicted"},
                                  {"part": "answer", "support": "unsupported"}]}]}


def test_lines_per_node() -> None:
    assert [x.plain() for x in progress_lines("researcher", RESEARCH)] == [
        "Round 2: Researcher searched 2 question(s) (3 searches), 1 new passage(s)"]
    assert progress_text("report", REPORT) == ("Report ready: 1 of 2 findings supported by their quotes; the answer is not "
                                               "supported (partial); 2 verified citation(s)")
    # issue #38: a reading that judged no quoted clause answers is never "3 of 3 findings supported"
    from clauselens.reports.model import READING_UNANSWERED_GAP

    lead = [{"part": "finding", "support": "supported"}] * 3
    unanswered = {"report": {"citations": [{}, {}, {}], "knowledge_gaps": [READING_UNANSWERED_GAP]},
                  "events": [{"type": ET.REPORT, "citations": 3, "verification": "partial", "support": lead}]}
    assert progress_text("report", unanswered) == (
        "Report ready: 3 clause(s) quoted word for word; the model's reading judged that none answers the question "
        "(partial); 3 verified citation(s)")
    declined = {"report": {"citations": []}, "events": [{"type": ET.REPORT, "citations": 0, "verification": "silent",
                                                           "support": []}]}
    assert progress_text("report", declined) == ("Report ready: declined: the documents do not address the question; "
                                                 "nothing quoted")  # not "0 of 0 findings supported (silent)" (tryout)
    subs = progress_lines("interrogator", {"sub_questions": ["q1", "q2"], "events": []})
    assert subs == [ProgressLine("Sub-questions", "2: q1 | q2")]
    dec = {"events": [{"type": ET.NOTE, "text": "draft 1 failed"},
                      {"type": ET.DECISION, "turn": 1, "decision": {"complete": False}, "reason": "gap",
                       "follow_up_questions": ["notice?"]}], "route": "research"}
    assert [x.plain() for x in progress_lines("interrogator", dec)] == [
        "Note: draft 1 failed", "Draft 1: Interrogator drafted an answer (incomplete): gap -> follow-up: notice?"]
    assert progress_status("interrogator", dec) == "Researcher: searching..."
    arch = {"documents": [{"title": "NDA", "chars": 1234, "pages": 2, "numbered_clauses": 9, "warnings": ["hidden text"]}],
            "left_out": ["x.pdf: the file is empty (0 bytes)"]}
    lines = progress_lines("archivist", arch)
    assert [(x.plain(), x.level, x.indent) for x in lines] == [
        ("Ingested: NDA: 1,234 chars, 2 pages, 9 numbered clauses", "info", False),
        ("warning: hidden text", "warning", True),
        ("Left out (cannot be read): x.pdf: the file is empty (0 bytes)", "error", False)]
    assert progress_lines("clarify", {}) == [] and progress_text("researcher", {"events": []}) is None
    assert draft_preview("word " * 50, 20) == "…" + ("word " * 50).strip()[-19:]


def test_chat_runner_emits_the_same_lines_as_round_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """:class:`GraphInterrogate`'s progress callback turns each line into one ``round`` event."""
    from clauselens.config import Settings
    from clauselens.interfaces import engine

    emitted: list[dict[str, Any]] = []
    calls: dict[str, Any] = {}

    def fake_ask(paths: Any, question: str, settings: Any, **kw: Any) -> str:
        calls.update(kw)
        kw["progress"]("researcher", RESEARCH)
        kw["progress"]("report", REPORT)
        kw["progress"](ET.DRAFT_TEXT, {"text": "so far", "field": "answer"})
        return "result"

    import clauselens.pipeline as pipeline
    from clauselens.agents.archivist_dialogue import ArchivistRequest

    monkeypatch.setattr(pipeline, "ask", fake_ask)
    gi = engine.GraphInterrogate(Settings(), models=object(), tools_factory=dict)
    assert gi.run(ArchivistRequest(question="q?"), {}, [], emitted.append) == "result"
    rounds = [e["text"] for e in emitted if e["type"] == ET.ROUND]
    assert rounds == [progress_text("researcher", RESEARCH), progress_text("report", REPORT)]
    assert {"type": ET.DRAFT_TEXT, "text": "so far", "field": "answer"} in emitted
