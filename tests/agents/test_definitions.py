"""The extractive definition draft (clauselens.agents.definitions) on real CUAD definitions,
and through the graph: a definition question gets no model draft."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.agents.definitions import asked_term, definition_draft
from clauselens.config import Settings
from clauselens.parsing.types import Span
from clauselens.pipeline import ask
from clauselens.reports.verify import find_quote
from clauselens.retrieval.hybrid import HybridRetriever
from clauselens.retrieval.types import Passage
from tests.fakes import ScriptedChat

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
DEV = CUAD.parent.parent.parent / "clause-qa-dev" / "questions.jsonl"
pytestmark = pytest.mark.skipif(not DEV.exists(), reason="needs ../shared/data (CUAD and the clause-QA dev set)")


def _passage(pid: str, file: str, start: int, end: int, doc: str | None = None) -> Passage:
    text = (CUAD / file).read_text(encoding="utf-8")[start:end]
    return Passage(chunk_id=pid, doc_id=doc or file, node_id=pid, text=text, spans=[Span(start=start, end=end)],
                   source_path=str(CUAD / file), doc_title="AGREEMENT")


def _dev(kind: str) -> list[dict]:
    return [q for q in map(json.loads, DEV.read_text().splitlines()) if q["type"] == kind]


def test_every_dev_definition_is_quoted_verbatim_from_its_gold_span() -> None:
    """Each of the 20 dev definitions, in a window of text around it (the definition list it
    sits in): one finding, its quote found verbatim in the passage and inside the gold span."""
    for q in _dev("defined_term"):
        g = q["gold"][0]
        lo, hi = max(0, g["span"][0] - 300), g["span"][1] + 300
        p = _passage("P1", g["file_path"].split("/", 1)[1], lo, hi)
        d = definition_draft(q["question"], {"P1": p})
        assert d is not None, q["id"]
        f = d.findings[0]
        m = find_quote(f.quote, "P1", p)
        assert m is not None, (q["id"], f.quote)
        at = lo + p.text.find(f.quote[:40])
        assert g["span"][0] - 20 <= at < g["span"][1], (q["id"], f.quote[:80])


def test_questions_that_ask_more_than_a_definition_go_to_the_model() -> None:
    assert asked_term("How is 'Territory' defined in the Nanophase agreement?") == "Territory"
    assert asked_term("What does 'Territory' mean in the Nanophase agreement and who may sell there?") is None
    assert asked_term("How is 'Territory' defined?", ["How is 'Territory' defined?", "Who may sell in it?"]) is None
    for q in _dev("paraphrase") + _dev("exact"):
        assert asked_term(q["question"]) is None, q["id"]


def test_two_agreements_defining_the_term_get_one_finding_each_named_apart() -> None:
    mw = "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"
    text = (CUAD / mw).read_text(encoding="utf-8")
    i = text.index('(the "Product")')
    a = _passage("P1", mw, text.rfind("Whereas", 0, i), i + 16, doc="mw")
    ver = "VERICELCORP_08_06_2019-EX-10.10-SUPPLY AGREEMENT.txt"
    vt = (CUAD / ver).read_text(encoding="utf-8")
    j = vt.index('"Product" means')
    b = _passage("P2", ver, j - 5, j + 200, doc="vericel")
    d = definition_draft("How is 'Product' defined in the MediWound supply agreement?", {"P1": a, "P2": b})
    assert d is not None and len(d.findings) == 2
    assert d.findings[0].quote.endswith('(the "Product")') and '"Product" means' in d.findings[1].quote
    assert "MEDIWOUNDLTD" in d.findings[0].statement and "VERICELCORP" in d.findings[1].statement
    assert all(find_quote(f.quote, pid, p) for f, (pid, p) in zip(d.findings, [("P1", a), ("P2", b)]))
    assert definition_draft("How is 'Facility' defined in the MediWound supply agreement?", {"P1": a}) is None


def test_graph_answers_a_definition_question_without_a_draft_call() -> None:
    """Through the whole graph (pipeline.ask) on a real CUAD agreement: decomposition and search
    run, the draft is the definition quoted verbatim, and the model is never asked to draft."""
    dxk = CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
    model = ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["How is 'Working Day' defined?"]}],
        "SearchPlan": [{"queries": ["Working Day"], "clause_refs": [], "defined_terms": ["Working Day"],
                        "agreement_names": [], "tools": ["hybrid"]}],
        "SupportVerdict": [{"verdict": "contradicts", "reason": "the 1.5B model's noise, never asked"}],
    })
    res = ask([dxk], "How is 'Working Day' defined in the Dexcel manufacturing agreement?", Settings(),
              models=model, tools={"hybrid": HybridRetriever(None)}, max_turns=2)
    assert "ReportDraft" not in [c[0] for c in model.calls] and "StopDecision" not in [c[0] for c in model.calls]
    r = res.report
    assert len(r.citations) == 1 and '"Working Day" shall mean a day excluding Friday and Saturday' in r.citations[0].quote
    assert r.key_findings[0].cited_fact and r.key_findings[0].support == "supported" and r.verification == "verified"
    assert "SupportVerdict" not in [c[0] for c in model.calls]  # judged by rule: the quote is the definition
    ev = [e for e in res.transcript["events"] if e["type"] == "draft"]
    assert ev and "no model call" in ev[0]["note"]
    rep = next(e for e in res.transcript["events"] if e["type"] == "report")
    assert [x["source"] for x in rep["support"]] == ["rules"]
    # quotes are the facts (Settings.facts); the statement and the answer were written by rule, not
    # by the model, so they are not called its reading and the answer is not marked
    from clauselens.reports import to_markdown
    from clauselens.reports.build import is_marked
    from clauselens.reports.render import READING_LABEL, RULE_LABEL

    assert r.facts == "quotes" and r.readings == "rules" and not is_marked(r.answer)
    md = to_markdown(r)
    assert f"_{RULE_LABEL}:_" in md and READING_LABEL not in md and "verified quote of the definition" in r.verification_note


def test_a_definition_whose_body_is_a_list_in_the_next_clauses_says_it_goes_on() -> None:
    """End-to-end dev run: the library passage of the Purolator 'Force Majeure' definition is its
    own clause, 'c) "Force Majeure" means', and the list is in the sub-clauses after it. When the
    list is not among the passages (here: only the defining one), the quote is still the
    agreement's words, but the report says the definition goes on and is not quoted; a definition
    quoted whole says nothing of the kind. (With the list retrieved it is quoted:
    tests/agents/test_definition_lists.py.)"""
    text = 'c)     "Force Majeure" means'
    p = Passage(chunk_id="P1", doc_id="pur", node_id="n9", text=text, spans=[Span(start=100, end=100 + len(text))],
                clause_ref="1.1(c)", doc_title="MARKETING AND TRANSPORTATION SERVICES AGREEMENT")
    d = definition_draft("How is 'Force Majeure' defined in the Purolator-Dynamex courier agreement?", {"P1": p})
    assert d is not None and d.findings[0].quote == text
    assert d.knowledge_gaps and 'the definition of "Force Majeure" goes on after the quoted words' in d.knowledge_gaps[0]
    assert "clause 1.1(c)" in d.knowledge_gaps[0]
    whole = '1.6 "Facility" means CBC\'s production facility in Tou-Liu City, Taiwan.'
    q = Passage(chunk_id="P1", doc_id="mw", node_id="n6", text=whole, spans=[Span(start=0, end=len(whole))],
                clause_ref="1.6", doc_title="SUPPLY AGREEMENT")
    d2 = definition_draft("How does the MediWound supply agreement define Facility?", {"P1": q})
    assert d2 is not None and not d2.knowledge_gaps


def test_a_recital_definition_starts_at_whereas_not_at_the_previous_recitals_and():
    """The fresh-clone run: MediWound's "Product" quoted from "and Whereas, CBC ..."."""
    from clauselens.agents.definitions import _definition_at

    text = (CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt").read_text(encoding="utf-8")
    found = _definition_at(text, "Product")
    assert found is not None and found[2]
    assert text[found[0]:found[1]].startswith("Whereas, CBC has invented")
    assert _definition_at('one; and Whereas, CBC makes widgets (the "Product")', "Product")[0] == len("one; and ")


def test_the_finding_names_the_clause_number_printed_with_the_definition() -> None:
    """Held-out run: the clause tree put "1.27 "Minimum Order Requirements"" inside the passage of 1.26 and the
    finding said "defines ... in clause 1.26" beside a quote that reads 1.27."""
    kitov = "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
    text = (CUAD / kitov).read_text(encoding="utf-8")
    i = text.index('1.26 "Marketing Authorization"')
    p = _passage("P1", kitov, i, text.index("Batch.", i) + 6).model_copy(update={"clause_ref": "1.26"})
    d = definition_draft("How is 'Minimum Order Requirements' defined in the Dexcel / Kitov agreement?", {"P1": p})
    assert d is not None and d.findings[0].quote.startswith('1.27 "Minimum Order Requirements"')
    assert d.findings[0].statement.endswith("in clause 1.27.") and "(clause 1.27)" in d.answer
    # a quote that prints no number keeps the passage's
    q = p.model_copy(update={"text": p.text.replace("1.27 ", ""), "clause_ref": "1.27"})
    d = definition_draft("How is 'Minimum Order Requirements' defined in the Dexcel / Kitov agreement?", {"P1": q})
    assert d is not None and d.findings[0].statement.endswith("in clause 1.27.")


def test_a_definition_under_a_lettered_clause_is_a_fact_whatever_the_location_line_says() -> None:
    """Blind set new3 (nic-def-1): the definition of 'Warranty Period' in the NICE / Flextronics outsourcing
    agreement was quoted verbatim, but the statement checks read clauselens' own location line as a restated
    question and the quote was not shown as a fact."""
    nice = CUAD / "NICELTD_06_26_2003-EX-4.5-OUTSOURCING AGREEMENT.txt"
    q = "How is 'Warranty Period' defined in the NICE Systems-Flextronics Israel manufacturing outsourcing agreement of January 2002?"
    res = ask([nice], q, Settings(), models=ScriptedChat(script={}), tools={"hybrid": HybridRetriever(None)}, max_turns=1)
    r = res.report
    assert r.key_findings and all(f.cited_fact and f.support == "supported" for f in r.key_findings if f.grounded)
    assert any("WARRANTY PERIOD" in c.quote for c in r.citations) and r.verification == "verified"
    assert r.readings == "rules" and not r.answer.startswith("Unverified")  # the answer is written by rule
