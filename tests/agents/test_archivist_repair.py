"""The Archivist's optional LLM tree repair (``repair_tree``) with a fake chat model, on the
real SECURIAN contract (``../shared/data/cuad``), whose TXT puts clauses 4.2 and 4.3 after the
signature block, so the rules leave them at top level beside ``4 Miscellaneous``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "parsing"))
from parsing_paths import cuad_txt  # noqa: E402

from clauselens.agents.archivist import repair_tree, tree_suspicions  # noqa: E402
from clauselens.config import Settings  # noqa: E402
from clauselens.parsing import load_document, load_text_document  # noqa: E402


@pytest.fixture(scope="module")
def securian():
    return load_document(cuad_txt("SECURIANFUNDSTRUST"))


def _by_ref(doc, ref):
    (n,) = [n for n in doc.nodes if n.ref == ref]
    return n


class RecordingFake(FakeListChatModel):
    """FakeListChatModel that keeps the messages it was sent."""

    seen: list = []

    def _call(self, messages, stop=None, run_manager=None, **kwargs):
        self.seen.append(messages)
        return super()._call(messages, stop=stop, run_manager=run_manager, **kwargs)


def _fake(*payloads) -> RecordingFake:
    return RecordingFake(responses=[json.dumps(p) for p in payloads], seen=[])


def _frozen(doc):
    return doc.text, [(n.id, n.span, n.body_span, n.ref, n.heading) for n in doc.nodes]


def test_detector_flags_the_numbering_break(securian):
    sus = dict(tree_suspicions(securian))
    assert sus[_by_ref(securian, "4.2").id] == "4.2 follows sibling 4"
    clean = load_text_document("1. Term\n\n1.1 One year.\n\n1.2 Renewal.\n\n2. Fees\n\n2.1 Monthly.\n", doc_id="clean")
    assert tree_suspicions(clean) == []


def test_off_by_default_and_no_call_without_suspicions(securian):
    assert Settings().archivist_llm_repair is False
    model = _fake({"fixes": []})
    assert repair_tree(securian, model, settings=Settings()) is securian
    clean = load_text_document("1. Term\n\n1.1 One year.\n\n2. Fees\n", doc_id="clean")
    assert repair_tree(clean, model) is clean
    assert model.i == 0  # the fake was never asked


def test_valid_fix_moves_nodes_and_keeps_text_and_spans(securian):
    four, n42, n43 = _by_ref(securian, "4"), _by_ref(securian, "4.2"), _by_ref(securian, "4.3")
    model = _fake({"fixes": [{"id": n42.id, "parent_id": four.id}, {"id": n43.id, "parent_id": four.id}]})
    records: list = []
    out = repair_tree(securian, model, settings=Settings(archivist_llm_repair=True), records=records)
    assert out is not securian and _frozen(out) == _frozen(securian)
    m4, m42, m43 = _by_ref(out, "4"), _by_ref(out, "4.2"), _by_ref(out, "4.3")
    assert m42.parent_id == m4.id and m43.parent_id == m4.id
    assert m4.children == [_by_ref(out, "4.1").id, m42.id, m43.id]
    assert m42.id not in out.nodes[0].children and m43.id not in out.nodes[0].children
    assert m42.level == m4.level + 1 == 2 and m42.path == ["4 Miscellaneous"]
    assert any("moved" in w for w in out.warnings)
    # the input document is untouched
    assert _by_ref(securian, "4.2").parent_id == securian.nodes[0].id
    assert records and records[0].step == "repair_tree"
    assert records[0].output == {"fixes": [{"id": n42.id, "parent_id": four.id}, {"id": n43.id, "parent_id": four.id}]}
    # the model saw node lines (id | ref | heading | level | parent | <= 80 chars), not the clauses
    prompt = model.seen[0][-1].content
    line = next(ln for ln in prompt.splitlines() if ln.startswith(n42.id + " |"))
    assert line.split(" | ")[1:5] == ["4.2", "Interpretation", "1", securian.nodes[0].id]
    assert len(line.split(" | ")[-1]) <= 80
    assert securian.text[n43.body_span.start:n43.body_span.end][200:260] not in prompt


def test_invented_ids_are_rejected(securian):
    model = _fake({"fixes": [{"id": "n9999", "parent_id": "n0"}, {"id": _by_ref(securian, "4.2").id, "parent_id": "x17"}]})
    out = repair_tree(securian, model)
    assert [(n.id, n.parent_id, n.level, n.children, n.path) for n in out.nodes] == \
        [(n.id, n.parent_id, n.level, n.children, n.path) for n in securian.nodes]
    assert any("rejected n9999->n0 (unknown id)" in w for w in out.warnings)


def test_parent_after_the_node_or_a_cycle_is_rejected(securian):
    four, n41 = _by_ref(securian, "4"), _by_ref(securian, "4.1")
    model = _fake({"fixes": [{"id": four.id, "parent_id": n41.id},            # own descendant
                             {"id": n41.id, "parent_id": _by_ref(securian, "4.3").id}]})  # comes later
    out = repair_tree(securian, model)
    assert _by_ref(out, "4").parent_id == securian.nodes[0].id and _by_ref(out, "4.1").parent_id == four.id
    assert sum(w.count("must precede") for w in out.warnings) == 2


def test_a_response_that_tries_to_change_text_changes_only_parents(securian):
    n42, four = _by_ref(securian, "4.2"), _by_ref(securian, "4")
    model = _fake({"text": "HACKED", "fixes": [{"id": n42.id, "parent_id": four.id, "text": "Rewritten clause.",
                                                 "heading": "New", "ref": "9.9", "span": {"start": 0, "end": 3}}]})
    out = repair_tree(securian, model)
    assert _frozen(out) == _frozen(securian)
    assert "HACKED" not in out.text and "Rewritten clause." not in out.text
    m42 = _by_ref(out, "4.2")
    assert m42.parent_id == four.id and m42.heading == n42.heading and m42.span == n42.span
