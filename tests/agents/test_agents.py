"""Pure parts of the agents: search-plan grounding and queries, the stop rule, passage
budgeting, capped schemas."""

from __future__ import annotations

from clauselens.agents.common import budget_passages
from clauselens.agents.interrogator import StopDecision, SubQuestions, next_questions, passage_order
from clauselens.agents.researcher import SearchPlan, build_queries, grounded_plan
from clauselens.parsing.types import Span
from clauselens.reports.model import ReportDraft
from clauselens.retrieval.types import Passage


def _p(i: int, n_chars: int = 400, score: float = 0.0) -> Passage:
    return Passage(chunk_id=f"c{i}", doc_id="d", node_id=f"n{i}", text="x" * n_chars, spans=[Span(start=0, end=n_chars)],
                   clause_ref=str(i), score=score)


def test_plan_drops_invented_exact_items_and_builds_queries():
    qs = ["What does clause 7.2 say about Confidential Information?"]
    plan = SearchPlan(queries=["terminate notice", "Terminate  Notice"], clause_refs=["7.2", "14.3(b)"],
                      defined_terms=["Confidential Information", "Agreement Names"], agreement_names=["Agreement 1"])
    g = grounded_plan(plan, qs)
    assert g.clause_refs == ["7.2"] and g.defined_terms == ["Confidential Information"] and g.agreement_names == []
    assert build_queries(qs, g) == [qs[0], "terminate notice", "clause 7.2", "Confidential Information"]
    multi = build_queries(["governing law?"], SearchPlan(agreement_names=["Reseller Agreement"]), multi_doc=True)
    assert multi == ["Consider Reseller Agreement; governing law?"]


def test_capped_lists_truncate_and_publish_max_items():
    plan = SearchPlan.model_validate({"queries": [f"q{i}" for i in range(40)]})
    assert len(plan.queries) == 4
    assert SearchPlan.model_json_schema()["properties"]["queries"]["maxItems"] == 4
    js = ReportDraft.model_json_schema()
    assert js["properties"]["findings"]["maxItems"] == 3 and js["properties"]["knowledge_gaps"]["maxItems"] == 3
    assert len(ReportDraft.model_validate({"title": "t", "findings": [{"statement": "s"}] * 9}).findings) == 3
    assert len(SubQuestions(sub_questions=list("abcdef")).sub_questions) == 3


def test_stop_rule():
    no_gap = ReportDraft(title="t")
    gap = ReportDraft(title="t", knowledge_gaps=["Cure period"], follow_up_questions=["Is there a cure period?"])
    done = StopDecision(complete=True, reason="ok")
    more = StopDecision(complete=False, reason="missing", follow_up_questions=["What notice is needed?"])
    assert next_questions(no_gap, done, turn=1, max_turns=3, asked=[], follow_ups_asked=0)[0] == []
    # a named gap gets one follow-up even when judged complete, but only once
    fu, why = next_questions(gap, done, turn=1, max_turns=3, asked=[], follow_ups_asked=0)
    assert fu == ["Is there a cure period?", "What does the contract say about cure period?"] and "gaps" in why
    assert next_questions(gap, done, turn=2, max_turns=3, asked=fu, follow_ups_asked=1)[0] == []
    # incomplete: decision's questions first; already-asked ones are not repeated
    fu, _ = next_questions(no_gap, more, turn=1, max_turns=3, asked=["what notice is needed"], follow_ups_asked=0)
    assert fu == []
    fu, _ = next_questions(gap, more, turn=1, max_turns=3, asked=[], follow_ups_asked=0)
    assert fu[0] == "What notice is needed?"
    # turn limit wins
    fu, why = next_questions(gap, more, turn=3, max_turns=3, asked=[], follow_ups_asked=0)
    assert fu == [] and "turn limit" in why


def test_budget_and_order():
    ps = {f"P{i}": _p(i, 400, score=i / 10) for i in range(1, 9)}
    order = passage_order(ps, recent=["P2", "P1"])
    assert [pid for pid, _ in order][:4] == ["P2", "P8", "P1", "P7"]
    block, shown = budget_passages(order, budget_tokens=300)
    assert 1 <= len(shown) < 8 and sum(len(b) for b in block.split("\n\n")) / 4 <= 300 + 10
    assert block.startswith("[P2] d | clause 2")
    # one huge passage is still shown, cut to fit
    block, shown = budget_passages([("P1", _p(1, 50_000))], budget_tokens=500)
    assert shown == ["P1"] and len(block) < 4000


def test_document_summary_of_a_pdf_and_of_plain_text():
    """One DocumentSummary (parsing.types) for every front end: a PDF's pages are counted, plain
    text has none (None, not 0), and the Archivist's JSON form is its dump."""
    from pathlib import Path

    from clauselens.agents.archivist import document_summary
    from clauselens.parsing import load_document
    from clauselens.parsing.types import DocumentSummary

    repo = Path(__file__).resolve().parents[2]
    pdf = load_document(repo / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf")
    txt = load_document(repo.parent / "shared" / "robustness" / "four_clause_contract.txt")
    s = DocumentSummary.of(pdf)
    assert s.pages == len(pdf.pages) > 0 and s.ocr_pages == 0 and s.file_name == "driven_deliveries_consulting_agreement.pdf"
    assert s.sha256 == pdf.sha256 and s.chars == len(pdf.text) and s.first_clauses and s.name == (pdf.title or s.file_name)
    t = DocumentSummary.of(txt)
    assert t.pages is None and t.chars == len(txt.text)
    assert document_summary(txt) == t.model_dump(mode="json") and DocumentSummary.model_validate(document_summary(txt)) == t
