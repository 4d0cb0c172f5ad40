"""The graph end to end with a scripted chat model and the real lexical retriever on a real
CUAD contract: routing, stop rules, context carried through, quote checking, silence,
transcript and checkpointing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.pipeline import ask, save_result
from clauselens.reports.model import SILENT_ANSWER
from clauselens.retrieval.hybrid import HybridRetriever
from tests.fakes import ScriptedChat

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CUAD_TXT = SHARED / "data/cuad/full_contract_txt/DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
QUESTION = "How can either party terminate the agreement and what notice is required?"
CONTEXT = "I am the Consultant (TruckThat LLC)."
VERBATIM = "Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) days prior written notice"
PARAPHRASE = "Either side can end the deal at any time with one month's notice"


@pytest.fixture(scope="module")
def doc():
    return load_document(CUAD_TXT)


def _tools(doc):
    r = HybridRetriever(None)  # lexical only: fast, no model weights
    r.index([doc])
    return {"hybrid": r}


def _draft(gaps=(), quote=VERBATIM, extra=()):
    return {
        "title": "Termination of the Consulting Agreement", "topic_summary": "Termination rights.",
        "legal_reasoning": "Clause 7.2 allows termination by either party.",
        "findings": [{"statement": "Either party may terminate on 30 days' written notice.", "passage_ids": ["P1"], "quote": quote},
                     *extra],
        "answer": "Either party may terminate with 30 days' prior written notice.", "addressed": True,
        "research_directions": [], "knowledge_gaps": list(gaps), "follow_up_questions": [],
        "conclusion": "30 days' written notice.",
    }


def _script(drafts, decisions, plan=None):
    return {
        "SubQuestions": [{"sub_questions": ["How can the agreement be terminated?", "What notice is required to terminate?"]}],
        "SearchPlan": [plan or {"queries": ["terminate written notice days"], "clause_refs": [], "defined_terms": [],
                                "agreement_names": [], "tools": ["hybrid"]}],
        "ReportDraft": drafts,
        "StopDecision": decisions,
        "Reading": [{"answer": "The quoted clause answers it."}],  # a question naming a clause (issue #38)
    }


def _settings(**kw) -> Settings:
    kw.setdefault("depth", "full")  # these tests drive the agent loop (quick depth: tests/agents/test_quick_depth.py)
    s = Settings(**kw)
    s.retrieval.top_k = 5
    return s


def test_stops_when_complete_without_gaps(doc):
    model = ScriptedChat(script=_script([_draft()], [{"complete": True, "reason": "clause 7.2 answers it", "follow_up_questions": []}]))
    res = ask([], QUESTION, _settings(), context=CONTEXT, models=model, tools=_tools(doc))
    r = res.report
    assert r.turns == 1 and r.complete
    # the finding's support verdict, then the answer's (its wording differs from the finding's)
    assert [c[0] for c in model.calls] == ["SubQuestions", "SearchPlan", "ReportDraft", "StopDecision", "SupportVerdict",
                                           "SupportVerdict"]
    assert "30 days' prior written notice" in model.calls[-1][2] and r.answer_support == "supported"
    assert res.transcript["stop_reason"].startswith("judged complete")
    # issue #38: retrieval's best clauses for the question lead the report as facts quoted by rule
    assert r.rule_findings and all(f.rule == "lead" and f.cited_fact for f in r.rule_findings)
    assert r.key_findings[: len(r.rule_findings)] == r.rule_findings
    # the model's verbatim quote is kept, located in clause 7.2, with an exact span into the document text
    (mf,) = r.model_findings
    (c,) = [r.citation(cid) for cid in mf.citation_ids]
    assert c.clause_ref and c.clause_ref.startswith("7")
    # widened from the model's phrase to the whole sentence (issue #19: quotes end at clause boundaries)
    assert doc.text[c.spans[0].start:c.spans[-1].end].startswith(VERBATIM) and c.quote.endswith("of this Agreement.")
    assert c.extended and mf.support == "supported" and r.verification == "verified"
    # the user's context is in every prompt
    assert all(CONTEXT in user for _, _, user in model.calls)


def test_follow_up_when_draft_names_a_gap_even_if_judged_complete(doc):
    gap = "The notice procedure of Section 12.7"
    model = ScriptedChat(script=_script(
        [_draft(gaps=[gap]), _draft()],
        [{"complete": True, "reason": "", "follow_up_questions": []}],
    ))
    res = ask([], QUESTION, _settings(), context=CONTEXT, models=model, tools=_tools(doc))
    assert res.report.turns == 2
    schemas = [c[0] for c in model.calls]
    assert schemas.count("SearchPlan") == 2 and schemas.count("ReportDraft") == 2
    retrievals = [e for e in res.transcript["events"] if e["type"] == "retrieval"]
    assert retrievals[1]["questions"] == ["What does the contract say about the notice procedure of section 12.7?"]
    # second draft prompt carries the earlier questions and the previous draft's gap
    second_draft_prompt = [c for c in model.calls if c[0] == "ReportDraft"][1][2]
    assert "Questions already researched" in second_draft_prompt and gap in second_draft_prompt


def test_stops_at_max_turns_when_never_complete(doc):
    model = ScriptedChat(script=_script(
        [_draft(gaps=["gap"])],
        [{"complete": False, "reason": "missing", "follow_up_questions": ["What about payment on termination?"]},
         {"complete": False, "reason": "missing", "follow_up_questions": ["Which clauses survive termination?"]},
         {"complete": False, "reason": "missing", "follow_up_questions": ["Is there a cure period?"]}],
    ))
    res = ask([], QUESTION, _settings(), max_turns=3, models=model, tools=_tools(doc))
    assert res.report.turns == 3 and not res.report.complete
    assert "turn limit" in res.transcript["stop_reason"]
    asked = res.transcript["asked"]
    assert asked[0] == QUESTION  # issue #38: the question as asked is researched too (it ranks the lead clauses)
    assert asked[3:] == ["What about payment on termination?", "What does the contract say about gap?",
                         "Which clauses survive termination?"]  # decision first, then gaps; never repeated
    # passages de-duplicated across rounds: ids unique per chunk
    chunk_ids = [p["chunk_id"] for p in res.transcript["passages"].values()]
    assert len(chunk_ids) == len(set(chunk_ids))


def test_paraphrase_dropped_and_listed_as_gap(doc, tmp_path):
    bad = {"statement": "Either side can end it quickly.", "passage_ids": ["P1"], "quote": PARAPHRASE}
    model = ScriptedChat(script=_script([_draft(extra=[bad])], [{"complete": True, "follow_up_questions": []}]))
    res = ask([], QUESTION, _settings(), models=model, tools=_tools(doc))
    r = res.report
    assert [d.quote for d in r.dropped_quotes] == [PARAPHRASE]
    assert any(PARAPHRASE in g for g in r.knowledge_gaps)
    assert [f.grounded for f in r.model_findings] == [True, False]
    for c in r.citations:
        assert " ".join("\n".join(doc.text[s.start:s.end] for s in c.spans).split()) == " ".join(c.quote.split())
    paths = save_result(res, tmp_path)
    t = json.loads(paths["transcript"].read_text())
    kinds = {e["type"] for e in t["events"]}
    assert {"decompose", "retrieval", "draft", "decision", "report", "llm_call"} <= kinds
    # + 1 support verdict; the answer is marked Partly unverified (a finding has no verified quote): not asked
    assert r.answer.startswith("Partly unverified")
    assert t["token_usage"]["llm_calls"] == 5 and t["token_usage"]["output_tokens"] > 0
    first = next(e for e in t["events"] if e["type"] == "retrieval")
    assert all("score" in p and p["passage_id"] for r_ in first["results"] for p in r_["passages"])
    assert paths["md"].exists() and paths["html"].exists() and paths["json"].exists()
    # the token ledger is written with the report: one entry, every model call, named by graph node
    led = json.loads(paths["ledger"].read_text())
    (entry,) = led["entries"]
    assert entry["mode"] == "hybrid" and entry["llm_calls"] == 5
    assert [c["stage"] for c in entry["calls"]] == ["interrogator", "researcher", "interrogator", "interrogator", "report"]
    assert entry["input_tokens"] == t["token_usage"]["input_tokens"]
    draft_call = next(e for e in t["events"] if e["type"] == "llm_call" and e["step"] == "draft")
    assert entry["answering_context_tokens"] == draft_call["usage"]["input_tokens"] > 0
    assert led["totals"]["hybrid"]["cost_usd"]["none"] > 0


def test_nothing_found_says_documents_silent(doc):
    model = ScriptedChat(script=_script([_draft()], [{"complete": True}],
                                        plan={"queries": ["clause 99.9"], "clause_refs": ["99.9"]}))
    model.script["SubQuestions"] = [{"sub_questions": ["What does clause 99.9 say?"]}]
    res = ask([], "What does clause 99.9 say?", _settings(), models=model, tools=_tools(doc))
    r = res.report
    assert r.documents_silent and r.answer.startswith(SILENT_ANSWER) and r.conclusion == SILENT_ANSWER
    assert r.citations == [] and r.key_findings == []
    assert "ReportDraft" not in [c[0] for c in model.calls]  # no draft call with no passages
    retr = next(e for e in res.transcript["events"] if e["type"] == "retrieval")
    assert all(x["abstained"] for x in retr["results"])


def test_ingest_from_paths_and_checkpointer_resumable_state(doc):
    from langgraph.checkpoint.memory import InMemorySaver

    from clauselens.graph import build_graph

    model = ScriptedChat(script=_script([_draft()], [{"complete": True}]))
    tools = {"hybrid": HybridRetriever(None)}
    saver = InMemorySaver()
    g = build_graph(_settings(), models=model, tools=tools, checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t1"}}
    out = g.invoke({"question": QUESTION, "paths": [str(CUAD_TXT)]}, config=cfg)
    assert out["report"]["citations"] and out["documents"][0]["chars"] == len(doc.text)
    snap = g.get_state(cfg)
    assert snap.values["report"] == out["report"] and snap.next == ()
    json.dumps(snap.values)  # the whole state is JSON-ready


def test_navindex_tool_calls_reach_the_run_ledger(doc, tmp_path):
    """With the Researcher pinned to navindex, the run's ledger holds the tool's own index
    scan (stage ``navindex:scan``, its static prefix counted as cacheable) besides the
    agents' calls, so token totals cover the whole run."""
    from clauselens.retrieval.navigate.navindex import NavIndexRetriever

    node = next(n for n in doc.nodes if n.ref == "7.2")
    scan = {"nodes": [{"doc": doc.id, "node": node.id}]}
    plan = {"queries": ["terminate written notice"], "clause_refs": [], "defined_terms": [], "agreement_names": [],
            "tools": ["navindex"]}
    model = ScriptedChat(script={**_script([_draft()], [{"complete": True, "follow_up_questions": []}], plan=plan),
                                 "ScanSelection": [scan]})
    tool = NavIndexRetriever(model)
    tool.index([doc])
    res = ask([], QUESTION, _settings(), models=model, tools={"navindex": tool})
    (entry,) = res.ledger.entries
    stages = [c.stage for c in entry.calls]
    assert "navindex:scan" in stages and stages.count("interrogator") == 3
    scan_call = entry.calls[stages.index("navindex:scan")]
    assert 0 < scan_call.cacheable_tokens <= scan_call.input_tokens
    assert tool.ledger.entries[0].calls[0].stage == "scan"  # the tool's own ledger keeps it too
    assert res.transcript["ledger"]["llm_calls"] == len(entry.calls)
    assert any(p["clause_ref"] == "7.2" for p in res.transcript["passages"].values())


def test_transcript_token_usage_is_the_run_ledgers(doc, tmp_path):
    """One token count (issue #18): the transcript's ``token_usage`` totals are the run ledger's,
    a tool's own calls (navindex's scan, which no agent event records) included, and its speed
    is the output tokens per second of the calls the agents' graph nodes made."""
    from clauselens.retrieval.navigate.navindex import NavIndexRetriever

    node = next(n for n in doc.nodes if n.ref == "7.2")
    plan = {"queries": ["terminate written notice"], "clause_refs": [], "defined_terms": [], "agreement_names": [],
            "tools": ["navindex"]}
    model = ScriptedChat(script={**_script([_draft()], [{"complete": True, "follow_up_questions": []}], plan=plan),
                                 "ScanSelection": [{"nodes": [{"doc": doc.id, "node": node.id}]}]})
    tool = NavIndexRetriever(model)
    tool.index([doc])
    res = ask([], QUESTION, _settings(), models=model, tools={"navindex": tool})
    tu, totals = res.transcript["token_usage"], res.ledger.totals()
    keys = ("llm_calls", "input_tokens", "output_tokens")
    assert {k: tu[k] for k in keys} == {k: totals[k] for k in keys} and tu["input_tokens"] > 0
    events = [e for e in res.transcript["events"] if e["type"] == "llm_call"]
    (entry,) = res.ledger.entries
    agents = [c for c in entry.calls if c.stage in ("archivist", "researcher", "interrogator", "report")]
    scans = [c for c in entry.calls if c.stage == "navindex:scan"]
    assert len(agents) == len(events) and scans  # one scan per query the Researcher ran
    assert tu["llm_calls"] == len(events) + len(scans)  # the events alone missed the scans
    out, secs = sum(c.output_tokens for c in agents), sum(c.wall_s for c in agents)
    assert tu["output_tokens_per_s"] == (round(out / secs, 2) if secs and out else None)
    saved = json.loads(save_result(res, tmp_path)["transcript"].read_text())
    assert {k: saved["token_usage"][k] for k in keys} == {k: saved["ledger"][k] for k in keys}


def test_archivist_llm_repair_runs_in_the_graph_only_when_enabled(tmp_path):
    """``archivist_llm_repair`` on: the Archivist node asks the model to re-parent the nodes
    its detector flags in the real SECURIAN contract (clauses 4.2/4.3 parsed under the root)
    and the transcript records the call; off (default): no repair call."""
    from tests.parsing.parsing_paths import cuad_txt

    path = cuad_txt("SECURIANFUNDSTRUST")
    parsed = load_document(path)
    four = next(n for n in parsed.nodes if n.ref == "4")
    fixes = [{"id": n.id, "parent_id": four.id} for n in parsed.nodes if n.ref in ("4.2", "4.3")]
    script = {**_script([_draft()], [{"complete": True, "follow_up_questions": []}]), "TreeRepair": [{"fixes": fixes}]}
    for enabled in (False, True):
        model = ScriptedChat(script=script)
        s = _settings(archivist_llm_repair=enabled, use_store=False)
        res = ask([path], "What does clause 4.2 say?", s, models=model, tools={"hybrid": HybridRetriever(None)})
        repairs = [c for c in model.calls if c[0] == "TreeRepair"]
        assert len(repairs) == int(enabled)
        steps = [e.get("step") for e in res.transcript["events"] if e["type"] == "llm_call"]
        assert ("repair_tree" in steps) is enabled
        if enabled:
            assert "4.2" in repairs[0][2] and "moved" in " ".join(res.transcript["documents"][0]["warnings"])


def test_nli_with_precedents_tool_shows_labelled_precedents_and_records_the_vote(tmp_path):
    """ContractNLI test contract 21, hypothesis nda-2 (gold: Contradiction). The precedents tool
    (dev bank, hashing encoder) answers the user's own question once; the draft prompt carries
    the labelled precedents; the model's label and the precedents' vote are both recorded and
    combined (weight 0.7), and the report explains how the label was decided."""
    from clauselens.reports.render import to_html, to_markdown
    from clauselens.retrieval.exemplars import ExemplarBank, load_contractnli
    from clauselens.retrieval.precedents import PrecedentRetriever
    from tests.retrieval.test_precedents import DATA, HashingEmbedder

    dev, test = load_contractnli(DATA / "dev.json"), load_contractnli(DATA / "test.json")
    d = next(x for x in test.documents if x.id == "21")
    f = tmp_path / "contractnli-test-21.txt"
    f.write_text(d.text, encoding="utf-8")
    contract = load_document(f)
    prec = PrecedentRetriever(ExemplarBank.from_split(dev, HashingEmbedder().embed_passages, encoder_name="hashing"),
                              dev.hypotheses, HashingEmbedder())
    tools = _tools(contract) | {"precedents": prec}
    prec.index([contract])
    question = test.hypotheses["nda-2"]
    draft = {"title": "Confidential Information", "topic_summary": "Scope.", "legal_reasoning": "-", "findings": [],
             "answer": "The agreement covers technical information.", "addressed": True, "research_directions": [],
             "knowledge_gaps": [], "follow_up_questions": [], "conclusion": "Entailed.", "label": "entailment"}
    model = ScriptedChat(script=_script([draft], [{"complete": True, "reason": "ok", "follow_up_questions": []}],
                                        plan={"queries": ["confidential information technical"], "tools": ["hybrid"]}))
    res = ask([], question, _settings(), models=model, tools=tools, mode="nli")
    r = res.report
    draft_prompt = next(u for s, _, u in model.calls if s == "ReportDraft")
    assert "How the same question was judged in other contracts" in draft_prompt
    assert "[contradiction]" in draft_prompt or "[entailment]" in draft_prompt
    retrieval = next(e for e in res.transcript["events"] if e["type"] == "retrieval")
    prec_rows = [x for x in retrieval["results"] if x["tool"] == "precedents"]
    assert len(prec_rows) == 1 and prec_rows[0]["query"] == question and prec_rows[0]["trace"]["hypothesis_id"] == "nda-2"
    b = r.label_basis
    assert b is not None and b.llm_label == "entailment" and b.hypothesis_id == "nda-2" and b.vote
    assert b.source in ("model+vote", "abstain") and r.label == b.decided
    assert any(e["type"] == "label" for e in res.transcript["events"])
    assert "How the label was decided" in to_markdown(r) and "How the label was decided" in to_html(r)


class _AnchorSpy:
    """An anchor tool (named ``precedents``) that records its queries and answers with a trace."""

    name = "precedents"

    def __init__(self) -> None:
        self.queries: list[str] = []

    def index(self, documents) -> None:
        """Nothing to index: the spy answers every query with the same trace."""

    def search(self, query: str, k: int = 8):
        from clauselens.retrieval.types import SearchResult

        self.queries.append(query)
        return SearchResult(query=query, passages=[], abstained=False, trace={"hypothesis_id": "h1"})


def test_researcher_node_searches_anchor_tools_once_with_the_users_question_and_plans_only_for_other_tools():
    """The Researcher's node function on its own (agents.researcher.researcher_node): an anchor
    tool gets the user's question in the first round only, never the pending sub-questions; with
    no tool but anchors there is nothing to plan, so the model is not called."""
    from clauselens.agents.researcher import researcher_node
    from clauselens.agents.resources import AgentResources

    spy = _AnchorSpy()
    model = ScriptedChat(script=_script([], []))  # would answer a plan; model.calls shows whether it was asked
    res = AgentResources(_settings(), model, {"precedents": spy})
    first = researcher_node({"question": QUESTION, "pending": ["What notice is required?"]}, res)
    assert spy.queries == [QUESTION] and model.calls == []
    assert first["turn"] == 1 and first["precedents"] == {"hypothesis_id": "h1"}
    assert [e["type"] for e in first["events"]] == ["retrieval"]
    later = researcher_node({"question": QUESTION, "pending": ["What notice is required?"], "turn": 1}, res)
    assert spy.queries == [QUESTION] and "precedents" not in later and later["turn"] == 2


def test_router_after_the_interrogator():
    from clauselens.graph.builder import after_interrogator

    assert after_interrogator({"question": "q", "route": "research"}) == "researcher"
    assert after_interrogator({"question": "q", "route": "report"}) == "report"
    assert after_interrogator({"question": "q"}) == "report"


def test_the_draft_answer_is_shown_while_it_is_written(doc):
    """Issue #19 item 3: a run with a progress callback gets ``draft_text`` updates with the
    draft's answer (pipeline.DraftWatcher over LangGraph's ``messages`` stream); plans, stop
    decisions and support verdicts show nothing. The scripted model replies whole (one message),
    the in-process model token by token (slow test in tests/test_injection_e2e.py)."""
    model = ScriptedChat(script=_script([_draft()], [{"complete": True, "reason": "7.2", "follow_up_questions": []}]))
    seen: list[tuple[str, dict]] = []
    res = ask([], QUESTION, _settings(), models=model, tools=_tools(doc), progress=lambda n, u: seen.append((n, u)))
    drafts = [u for n, u in seen if n == "draft_text"]
    assert drafts == [{"text": "Either party may terminate with 30 days' prior written notice.", "field": "answer"}]
    assert [n for n, _ in seen if n != "draft_text"][:1] == ["archivist"] and res.report.answer


def test_draft_watcher_follows_a_draft_token_by_token_and_ignores_other_calls(monkeypatch):
    from langchain_core.messages import AIMessageChunk

    from clauselens import pipeline

    monkeypatch.setattr(pipeline, "DRAFT_TEXT_INTERVAL_S", 0.0)
    seen: list[dict] = []
    w = pipeline.DraftWatcher(lambda n, u: seen.append(u))
    plan = '{"queries": ["terminate notice"], "clause_refs": []}'
    for i in range(0, len(plan), 4):
        w.feed(AIMessageChunk(content=plan[i:i + 4], id="plan"), {})
    draft = json.dumps({"title": "Termination", "topic_summary": "Clause 7.2.", "findings": [],
                        "answer": "Either party may terminate on thirty days' notice."})
    for i in range(0, len(draft), 3):
        w.feed(AIMessageChunk(content=draft[i:i + 3], id="draft"), {})
    w.feed(AIMessageChunk(content="", id="draft", usage_metadata={"input_tokens": 9, "output_tokens": 9, "total_tokens": 18}), {})
    assert seen and seen[0]["field"] == "title" and {s["field"] for s in seen} == {"title", "topic_summary", "answer"}
    answers = [s["text"] for s in seen if s["field"] == "answer"]
    assert len(answers) > 3 and all(b.startswith(a) for a, b in zip(answers, answers[1:]))
    assert answers[-1] == "Either party may terminate on thirty days' notice."
