"""Issue #19: the model's supports / contradicts / unrelated verdict on each key finding, the
multi-document draft (every document addressed or named as a gap), and both through the graph
— with a scripted chat model on real CUAD contract text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clauselens.agents.interrogator import check_support, mark_unaddressed, passage_order
from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.parsing.types import Span
from clauselens.pipeline import ask
from clauselens.reports import ReportDraft, build_report, to_markdown
from clauselens.reports.build import UNVERIFIED_PREFIX
from clauselens.reports.model import DraftFinding
from clauselens.retrieval.hybrid import HybridRetriever
from clauselens.retrieval.types import Passage
from tests.fakes import ScriptedChat

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "full_contract_txt"
DRIVEN = CUAD / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
NEON = CUAD / "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.txt"


def _clause(text: str, start: str, end: str, doc: str, ref: str, score: float = 0.03, heading: str = "") -> Passage:
    s = text.index(start)
    e = text.index(end, s)
    return Passage(chunk_id=f"{doc}-{ref}", doc_id=doc, node_id=f"n-{ref}", text=text[s:e], spans=[Span(start=s, end=e)],
                   clause_ref=ref, doc_title=doc.upper(), score=score, heading_path=[f"{ref} {heading}"] if heading else [])


@pytest.fixture(scope="module")
def passages() -> dict[str, Passage]:
    d, n = DRIVEN.read_text(encoding="utf-8"), NEON.read_text(encoding="utf-8")
    return {
        "P1": _clause(d, "7.2. Termination.", "7.3. Survival.", "dd", "7.2", 0.9),
        "P2": _clause(d, "4.3 Non-Solicitation.", "4.4 Non-Circumvention", "dd", "4.3", 0.8, heading="Non-Solicitation"),
        "P3": _clause(d, "12.2. Assignability.", "12.3. Entire", "dd", "12.2", 0.7),
        "P4": _clause(n, "Neither this Agreement nor any", "Subject to the preceding", "neon", "7", 0.1),
    }


def _verdicts(*vs: tuple[str, str]) -> ScriptedChat:
    return ScriptedChat(script={"SupportVerdict": [{"reason": r, "verdict": v} for v, r in vs]})


def test_model_verdicts_decide_which_findings_are_cited_facts(passages):
    draft = ReportDraft(title="t", answer="a", findings=[
        DraftFinding(statement="Either party may terminate on thirty days' written notice.", passage_ids=["P1"],
                     quote="Either Party may terminate this Agreement, with or without cause"),
        # passes the rules (same party, action and polarity, no number); only its reading of the period is wrong
        DraftFinding(statement="The Consultant will not solicit or hire away any person employed by the Company for five months.",
                     passage_ids=["P2"],
                     quote="for a period of five (5) years"),
        DraftFinding(statement="The Consultant may assign its rights.", passage_ids=["P3"],
                     quote="Consultant may not sell, assign or delegate"),  # caught by the rules: no model call
    ])
    r0 = build_report(draft, passages, question="q")
    assert [f.support for f in r0.key_findings] == ["unchecked", "unchecked", "contradicted"]
    model = _verdicts(("supports", "7.2 gives either party 30 days' notice."),
                      ("contradicts", "The quoted clause says five years after it ends."))
    r, calls, log = check_support(r0, passages, model=model, context="I am the Consultant")
    assert [f.support for f in r.key_findings] == ["supported", "contradicted", "contradicted"]
    assert len(calls) == 2 and [c[0] for c in model.calls] == ["SupportVerdict", "SupportVerdict"]
    assert [e["source"] for e in log] == ["model", "model", "rules"]
    # the prompt carries the claim, the whole (extended) clause text, its location and the user's context
    _, _, user = model.calls[1]
    assert "CLAIM: The Consultant will not solicit or hire away any person employed by the Company for five months." in user
    assert "solicit, divert or hire away" in user
    assert "clause 4.3" in user and "Non-Solicitation" in user and "I am the Consultant" in user
    assert r.verification == "partial" and "2 of 3 key findings" in r.verification_note
    md = to_markdown(r)
    assert ("- **Unsupported (contradicted):** The Consultant will not solicit or hire away any person employed by "
            "the Company for five months." in md)
    assert "model: The quoted clause says five years after it ends." in md
    assert "[C1]" in next(x for x in md.splitlines() if x.startswith("- Either party may terminate"))
    assert sum(g.startswith("Unsupported claim") for g in r.knowledge_gaps) == 2


def test_all_findings_rejected_marks_the_answer_unverified(passages):
    draft = ReportDraft(title="t", answer="The non-solicit lasts five years.", findings=[
        DraftFinding(statement="The non-solicitation period is five years.", passage_ids=["P2"],
                     quote="for a period of five (5) years")])
    model = _verdicts(("unrelated", "It does not say."))
    r, calls, _ = check_support(build_report(draft, passages, question="q"), passages, model=model)
    assert len(calls) == 1 and r.key_findings[0].support == "unrelated"
    assert r.verification == "unverified" and to_markdown(r).count("⚠ Unverified") == 1


def test_a_failed_verdict_leaves_the_finding_unchecked_and_says_so(passages):
    draft = ReportDraft(title="t", answer="a", findings=[DraftFinding(
        statement="Either party may terminate on notice.", passage_ids=["P1"], quote="Either Party may terminate this Agreement")])
    r, calls, _ = check_support(build_report(draft, passages, question="q"), passages,
                                model=ScriptedChat(script={"SupportVerdict": ["not json at all"]}))
    (f,) = r.key_findings
    assert f.support == "unchecked" and f.cited_fact and "support check failed" in f.support_note
    assert calls == [] and "not by the model" in r.verification_note


def test_draft_passages_alternate_documents_and_unaddressed_documents_get_a_follow_up(passages):
    order = [pid for pid, _ in passage_order(passages, [])]
    assert order.index("P4") == 1  # the weak second contract is not crowded out by the first one's clauses
    draft = ReportDraft(title="t", answer="a", findings=[DraftFinding(statement="s", passage_ids=["P3"], quote="x")])
    docs = [{"doc_id": "dd", "title": "DD"}, {"doc_id": "neon", "title": "NEON"}]
    marked = mark_unaddressed(draft, passages, "Who may assign these agreements?", docs)
    assert marked.knowledge_gaps == ["Not addressed: NEON: no finding cites it"]
    assert marked.follow_up_questions[0] == "Who may assign these agreements in NEON?"
    assert mark_unaddressed(draft, passages, "q", docs[:1]) == draft  # one document: nothing to mark
    assert mark_unaddressed(draft, passages, "q", None) == draft  # no named documents (a whole library)


def test_graph_two_contracts_each_addressed_and_verdicts_in_transcript(tmp_path):
    tools = {"hybrid": HybridRetriever(None)}  # lexical; the Archivist ingests both files and indexes it
    draft = {"title": "Assignment", "topic_summary": "t", "legal_reasoning": "r", "answer": "Either party can assign.",
             "addressed": True, "conclusion": "c",
             "findings": [{"statement": "Either party can assign this agreement without consent.", "passage_ids": ["P1"],
                           "quote": "Consultant may not sell, assign or deleg"}]}
    model = ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["Who may assign the agreement?"]}],
        "SearchPlan": [{"queries": ["assign agreement consent"], "clause_refs": [], "defined_terms": [],
                        "agreement_names": [], "tools": ["hybrid"]}],
        "ReportDraft": [draft], "StopDecision": [{"complete": True, "reason": "", "follow_up_questions": []}],
    })
    s = Settings(depth="full")  # the model's findings and their verdicts: the agent loop
    s.retrieval.top_k = 6
    res = ask([DRIVEN, NEON], "Can either party assign these agreements without consent?", s, models=model, tools=tools,
              max_turns=2)
    r = res.report
    drafts = [c for c in model.calls if c[0] == "ReportDraft"]
    assert "The question concerns 2 documents" in drafts[0][2]
    assert len(drafts) == 2  # the unaddressed second contract got a research round of its own
    # issue #38: retrieval's best clauses for the question lead as facts from both agreements; the model's
    # only finding is still rejected by the rules, and its answer, which the quoted clauses contradict, is marked
    assert r.rule_findings and all(f.cited_fact and f.rule == "lead" for f in r.rule_findings)
    assert not any(f.cited_fact for f in r.model_findings) and r.model_findings[0].support == "contradicted"
    assert r.verification == "partial" and r.answer.startswith(UNVERIFIED_PREFIX)
    ev = next(e for e in res.transcript["events"] if e["type"] == "report")
    assert ev["verification"] == "partial" and [x["source"] for x in ev["support"]][-1] == "rules"
    assert "SupportVerdict" not in [c[0] for c in model.calls]  # rules already rejected the only finding
    assert {r.citation(f.citation_ids[0]).doc_id for f in r.rule_findings} == {d["doc_id"] for d in res.transcript["documents"]}


def test_cli_ask_prints_the_unverified_banner(monkeypatch, passages):
    """``clauselens ask``: the report's banner, and the warning again under it, when no finding is
    supported (the chat failure: "the non-compete lasts five years", 0 verified citations)."""
    from typer.testing import CliRunner

    import clauselens.pipeline as pipeline
    from clauselens.cli import app

    doc = load_document(DRIVEN)
    tools = {"hybrid": HybridRetriever(None)}
    tools["hybrid"].index([doc])
    model = ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["How long does the non-compete last?"]}],
        "SearchPlan": [{"queries": ["non-compete period years"], "clause_refs": [], "defined_terms": [],
                        "agreement_names": [], "tools": ["hybrid"]}],
        "ReportDraft": [{"title": "Non-compete", "answer": "The non-compete lasts five years.", "addressed": True,
                         "conclusion": "Five years.", "findings": [{"statement": "The non-compete lasts five years.",
                                                                     "passage_ids": ["P1"], "quote": "five years"}]}],
        "StopDecision": [{"complete": True, "reason": "", "follow_up_questions": []}],
    })
    real = pipeline.ask
    monkeypatch.setattr(pipeline, "ask", lambda paths, q, settings, **kw: real(
        [], q, settings, context=kw.get("context"), models=model, tools=tools, max_turns=1, progress=kw.get("progress")))
    res = CliRunner().invoke(app, ["ask", str(DRIVEN), "How long does the non-compete last?", "--depth", "full"])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    # issue #38: retrieval's best clauses lead as facts; the model's claim is not one, and the banner says so
    assert out.count("⚠ Partly unverified") == 2  # in the report and again below it
    assert "Unverified: The non-compete lasts five years." in out and "The clauses that speak to this" in out
    # clauses quoted by rule are counted as verbatim, not "supported"; the model's own finding is the one checked
    assert re.search(r"Report ready: \d clause\(s\) quoted word for word \(retrieval's best matches[^)]*\); "
                     r"0 of 1 of the model's findings supported by their quotes \(partial\)", out)


def test_graph_silent_report_still_logs_a_verdict_per_finding():
    """The CI failure of 2026-12-01: the model said nothing addresses the question, yet listed
    findings with quotes that are not in the documents; the report is silent and the transcript's
    report event must still judge every finding (by the rules), without asking the model."""
    tools = {"hybrid": HybridRetriever(None)}
    draft = {"title": "Termination", "answer": "", "addressed": False, "conclusion": "",
             "findings": [{"statement": "The agreement ends when the Trust pays the Company.", "passage_ids": ["P1"],
                           "quote": "this sentence is not in the contract"},
                          {"statement": "Either party may end it on notice.", "passage_ids": ["P1"], "quote": ""}]}
    model = ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["When does the agreement terminate?"]}],
        "SearchPlan": [{"queries": ["termination"], "clause_refs": [], "defined_terms": [], "agreement_names": [],
                        "tools": ["hybrid"]}],
        "ReportDraft": [draft], "StopDecision": [{"complete": True, "reason": "", "follow_up_questions": []}],
    })
    res = ask([DRIVEN], "When does this agreement terminate?", Settings(depth="full"), models=model, tools=tools, max_turns=1)
    r = res.report
    assert r.documents_silent and r.verification == "silent" and len(r.key_findings) == 2
    ev = next(e for e in res.transcript["events"] if e["type"] == "report")
    assert ev["verification"] == "silent" and [x["source"] for x in ev["support"]] == ["rules", "rules"]
    assert all(x["support"] == "unverified" for x in ev["support"])
    assert "SupportVerdict" not in [c[0] for c in model.calls]


def test_an_answer_its_cited_quotes_do_not_support_is_marked_and_listed(passages):
    """Issue #19 (end-to-end dev run, nan-ex-1): the 1.5B cited the right clause but answered
    something it does not say. The answer is checked against the cited facts' quotes: when the
    model says they do not support it, answer and conclusion are marked unverified, the report is
    partly verified and the gap names the answer; a supported answer is untouched; an answer that
    restates a supported finding needs no call."""
    from clauselens.agents.interrogator import check_answer
    from clauselens.reports.build import UNVERIFIED_PREFIX

    finding = DraftFinding(statement="Either party may terminate on thirty days' written notice.", passage_ids=["P1"],
                           quote="Either Party may terminate this Agreement, with or without cause")
    wrong = ReportDraft(title="t", answer="Only the Company may terminate, and only for cause.", conclusion="For cause only.",
                        findings=[finding])
    r0, _, _ = check_support(build_report(wrong, passages, question="q"), passages,
                             model=_verdicts(("supports", "7.2 says so.")))
    assert r0.verification == "verified" and r0.answer_support == "unchecked"
    model = _verdicts(("contradicts", "7.2 lets either party terminate, with or without cause."))
    r, calls, rec = check_answer(r0, passages, model=model)
    assert len(calls) == 1 and "CLAIM: Only the Company may terminate, and only for cause." in model.calls[0][2]
    assert "Either Party may terminate this Agreement" in model.calls[0][2]
    assert r.answer_support == "contradicted" and rec and rec["part"] == "answer" and rec["source"] == "model"
    assert r.verification == "partial" and "the answer is not supported" in r.verification_note
    assert r.answer == UNVERIFIED_PREFIX + "Only the Company may terminate, and only for cause."
    assert r.conclusion.startswith(UNVERIFIED_PREFIX)
    assert any(g.startswith("Unsupported claim (the answer; contradicted") for g in r.knowledge_gaps)
    assert r.key_findings[0].cited_fact  # the finding itself stays a cited fact
    ok, calls, _ = check_answer(r0, passages, model=_verdicts(("supports", "yes")))
    assert len(calls) == 1 and ok.verification == "verified" and ok.answer == r0.answer
    same = ReportDraft(title="t", answer=finding.statement, findings=[finding])
    s0, _, _ = check_support(build_report(same, passages, question="q"), passages, model=_verdicts(("supports", "yes")))
    s, calls, rec = check_answer(s0, passages, model=_verdicts(("contradicts", "never asked")))
    assert calls == [] and s.answer_support == "supported" and rec and rec["source"] == "rules"


def test_a_finding_that_restates_the_question_is_not_a_cited_fact(passages):
    """The same run's finding was the question itself ("… when is a purchase order treated as
    accepted?") with a verified quote, and the 1.5B judged it "supported". A question claims
    nothing: the rules mark it unrelated before any model verdict."""
    draft = ReportDraft(title="t", answer="a", findings=[DraftFinding(
        statement="Under clause 7.2, how can the agreement be terminated?", passage_ids=["P1"],
        quote="Either Party may terminate this Agreement, with or without cause")])
    r = build_report(draft, passages, question="q")
    (f,) = r.key_findings
    assert f.support == "unrelated" and "question" in f.support_note and not f.cited_fact


def test_the_evidence_first_verdict_counts_a_support_beside_a_missing_part_as_unrelated():
    """``style="evidence"`` (benchmarks/support_verdicts.py): the model copies the quote's words that state
    the claim and names what they leave out; a "supports" beside a named missing part is not a support."""
    from clauselens.agents.interrogator import judge_support

    quote = "The Executive shall receive full salary during any period of sickness absence."
    claim = "The Executive receives full salary during sickness absence of up to 26 weeks."
    chat = ScriptedChat(script={"SupportEvidenceVerdict": [
        {"evidence": "shall receive full salary during any period of sickness absence", "missing": "up to 26 weeks",
         "verdict": "supports"},
        {"evidence": "shall receive full salary during any period of sickness absence", "missing": "none",
         "verdict": "supports"},
        {"evidence": "", "missing": "", "verdict": "contradicts"},
    ]})
    v, _ = judge_support(claim, quote, "9.1", model=chat, style="evidence")
    assert v.verdict == "unrelated" and "not stated: up to 26 weeks" in v.reason and "evidence:" in v.reason
    v, _ = judge_support(claim, quote, "9.1", model=chat, style="evidence")
    assert v.verdict == "supports" and "not stated" not in v.reason
    v, _ = judge_support(claim, quote, "9.1", model=chat, style="evidence")
    assert v.verdict == "contradicts" and v.reason == "no evidence in the quote"
