"""Issue #38: deliver the clause retrieval found. A question naming a clause number gets that clause quoted by
rule (the model writes only a reading, or nothing with ``reading`` off); a definition question takes the
extractive path without decomposition; every other report leads with retrieval's best clauses for the
question as asked; a question whose own search finds nothing is declined without a model draft. Real CUAD
contracts, lexical hybrid retrieval, a scripted chat model (its calls are counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.agents.delivery import (
    LEAD_CHARS,
    NO_READING,
    lead_quotes,
    named_clause_quotes,
    quote_window,
    rule_target,
)
from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.pipeline import ask
from clauselens.reports import to_markdown
from clauselens.reports.build import READING_PREFIX
from clauselens.reports.render import LEAD_LABEL, RULE_HEADING
from clauselens.retrieval.hybrid import HybridRetriever
from clauselens.retrieval.types import Passage, SearchResult
from tests.fakes import ScriptedChat

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "full_contract_txt"
DRIVEN = CUAD / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"


@pytest.fixture(scope="module")
def doc():
    return load_document(DRIVEN)


def _tools(doc):
    r = HybridRetriever(None)
    r.index([doc])
    return {"hybrid": r}


def _settings(**kw) -> Settings:
    s = Settings(**kw)
    s.retrieval.top_k = 6
    return s


@pytest.mark.parametrize("question, target", [
    ("What does Section 3.2 of the consulting agreement provide?", "named_clause"),
    ("Under clause 14(b)(ii), who pays?", "named_clause"),
    ("What is in Schedule 2?", "named_clause"),
    ('How does the consulting agreement define "Confidential Information"?', "definition"),
    ("Can they walk away early without a reason?", None),
    ("Is there a 30 day notice period for termination?", None),
])
def test_rule_target(question, target):
    assert rule_target(question) == target


def test_named_clause_is_quoted_by_rule_with_one_reading_call(doc):
    q = "What does Section 3.2 of the consulting agreement provide?"
    model = ScriptedChat(script={"Reading": [{"answer": "Clause 3.2 gives the Company rights in pre-existing materials."}]})
    res = ask([], q, _settings(), models=model, tools=_tools(doc), max_turns=1)
    r = res.report
    assert [c[0] for c in model.calls] == ["Reading"]  # no decomposition, no search plan, no draft, no verdict
    (f,) = [f for f in r.rule_findings if f.rule == "named_clause"][:1]
    c = r.citation(f.citation_ids[0])
    assert c.clause_ref == "3.2" and "Pre-Existing Materials" in c.quote and f.cited_fact
    text = doc.text
    assert " ".join(c.quote.split()) == " ".join("\n".join(text[s.start:s.end] for s in c.spans).split())
    assert r.verification == "verified" and r.answer.startswith(READING_PREFIX)
    assert "3.2" in model.calls[0][2] and "Pre-Existing Materials" in model.calls[0][2]  # the reading sees the quote
    md = to_markdown(r)
    assert md.index(f"**{RULE_HEADING}**") < md.index("Pre-Existing Materials")


def test_no_reading_means_no_model_call(doc):
    q = "What does Section 3.2 of the consulting agreement provide?"
    model = ScriptedChat(script={})
    res = ask([], q, _settings(reading=False), models=model, tools=_tools(doc), max_turns=1)
    r = res.report
    assert model.calls == []
    assert r.rule_findings and r.rule_findings[0].rule == "named_clause" and r.answer == NO_READING
    assert r.readings == "rules" and not r.answer.startswith(READING_PREFIX)


def test_definition_question_is_extractive_without_decomposition(doc):
    q = 'How does the consulting agreement define "Confidential Information"?'
    model = ScriptedChat(script={})
    res = ask([], q, _settings(), models=model, tools=_tools(doc), max_turns=1)
    r = res.report
    assert model.calls == []
    assert r.readings == "rules" and r.key_findings and all(f.cited_fact for f in r.key_findings)
    assert "Confidential Information" in r.citations[0].quote


class _Abstaining:
    """A retrieval tool that finds nothing for one query (as the library does for an absent topic)."""

    name = "abstaining"

    def __init__(self, inner: HybridRetriever, question: str) -> None:
        self.inner, self.question = inner, question

    def index(self, documents):
        self.inner.index(documents)

    def search(self, query: str, k: int = 8) -> SearchResult:
        if query == self.question:
            return SearchResult(query=query, abstained=True, reason="no matching clause found: the agreement never "
                                                                    "mentions 'bribery'")
        return self.inner.search(query, k)


def test_a_question_whose_own_search_finds_nothing_is_declined_without_a_draft(doc):
    q = "Does the agreement forbid bribing officials?"
    tool = _Abstaining(_tools(doc)["hybrid"], q)
    model = ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["What does the agreement say about payments?"]}],
        "SearchPlan": [{"queries": ["payment"], "clause_refs": [], "defined_terms": [], "agreement_names": [],
                        "tools": ["abstaining"]}],
    })
    res = ask([], q, _settings(), models=model, tools={"abstaining": tool}, max_turns=1)
    r = res.report
    assert "ReportDraft" not in [c[0] for c in model.calls]
    assert r.documents_silent and r.verification == "silent" and not r.key_findings
    assert "bribery" in r.answer


def _passage(pid: str, text: str, start: int, head: float | None = None, ref: str = "1.1") -> Passage:
    from clauselens.parsing.types import Span

    return Passage(chunk_id=f"c{pid}", doc_id="d", node_id=f"n{pid}", text=text, spans=[Span(start=start, end=start + len(text))],
                   clause_ref=ref, score=0.5, scores={"head": head} if head is not None else {}, method="hybrid")


def test_lead_quotes_respect_the_head_bar_overlap_and_headings():
    long = "This clause sets out the duties of the parties in ordinary course. " * 3
    ps = {
        "P1": _passage("1", "ARTICLE 5 TERM", 0),  # a heading: too short to speak to anything
        "P2": _passage("2", long, 100, head=0.2),  # below the bar
        "P3": _passage("3", long, 400, head=0.9),
        "P4": _passage("4", long, 420, head=0.95),  # overlaps P3: the same characters, quoted once
        "P5": _passage("5", long, 900),  # no head score: retrieval's ranking alone
    }
    out = lead_quotes("what are the duties?", ps, ["P1", "P2", "P3", "P4", "P5"], min_relevance=0.5)
    assert [q.passage_id for q in out] == ["P3", "P5"] and all(q.kind == "lead" for q in out)
    assert "P(relevant) 0.90" in out[0].statement


def test_quote_window_keeps_the_best_sentence_within_the_limit(doc):
    text = doc.text
    q = "How much notice does a party have to give to terminate?"
    a, b = quote_window(text[:20000], q)
    assert b - a <= LEAD_CHARS and "terminate" in text[a:b]
    short = "Either Party may terminate this Agreement on thirty (30) days notice."
    assert quote_window("  " + short + "\n", q) == (2, 2 + len(short))


def test_named_clause_quotes_need_the_exact_field():
    p = _passage("1", "3.2. Pre-Existing Materials. The Consultant keeps its pre-existing materials.", 0, ref="3.2")
    assert named_clause_quotes("What does Section 3.2 say?", {"P1": p}, ["P1"]) == []  # not retrieved as exact
    exact = p.model_copy(update={"method": "exact"})
    sub = _passage("2", "3.2(a) Any licence granted survives termination of the Agreement.", 80, ref="3.2(a)")
    other = _passage("3", "3.20 Another clause whose number only begins the same way.", 200, ref="3.20")
    ps = {"P1": exact, "P2": sub.model_copy(update={"method": "exact"}), "P3": other.model_copy(update={"method": "exact"})}
    out = named_clause_quotes("What does Section 3.2 say?", ps, ["P1", "P2", "P3"])
    assert [q.passage_id for q in out] == ["P1", "P2"] and all(q.kind == "named_clause" for q in out)


def test_lead_label_and_heading_in_markdown(doc):
    model = ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["How can the agreement be terminated?"]}],
        "SearchPlan": [{"queries": ["terminate notice"], "clause_refs": [], "defined_terms": [], "agreement_names": [],
                        "tools": ["hybrid"]}],
        "ReportDraft": [{"title": "t", "answer": "On thirty days' notice.", "addressed": True, "conclusion": "c",
                         "findings": [{"statement": "The quote is not in the contract.", "passage_ids": ["P1"],
                                       "quote": "a sentence that is not in the contract at all"}]}],
    })
    res = ask([], "How can either party end this agreement, and with how much notice?", _settings(depth="full"), models=model,
              tools=_tools(doc), max_turns=1)
    r = res.report
    assert r.rule_findings and all(f.rule == "lead" and f.cited_fact for f in r.rule_findings)
    assert not r.documents_silent and r.verification == "partial"
    md = to_markdown(r)
    assert f"**{RULE_HEADING}**" in md and LEAD_LABEL in md and md.index(RULE_HEADING) < md.index("**Key findings**")
    assert any("terminat" in r.citation(f.citation_ids[0]).quote.lower() for f in r.rule_findings)


ALLIED = CUAD.parents[1] / "legalbench-rag" / "corpus" / "cuad" / \
    "AlliedEsportsEntertainmentInc_20190815_8-K_EX-10.34_11788308_EX-10.34_Sponsorship Agreement.txt"


@pytest.fixture(scope="module")
def allied_library(tmp_path_factory):
    from clauselens.library import Library

    lib = Library.open(tmp_path_factory.mktemp("lib") / "allied", embedder_name="none")  # lexical: no weights
    lib.add([ALLIED])
    return lib


def test_a_meaning_given_by_reference_is_followed_and_both_are_quoted(allied_library):
    """'"Term" has the meaning given in Section 3': the definition and Section 3 are quoted, no model call."""
    model = ScriptedChat(script={})
    res = ask([], 'How does the sponsorship agreement define "Term"?', _settings(), models=model,
              tools={"library": allied_library.retriever()}, max_turns=1)
    r = res.report
    assert model.calls == [] and r.verification == "verified"
    quotes = [r.citation(f.citation_ids[0]).quote for f in r.key_findings]
    assert quotes[0].startswith('2.9 "Term" has the meaning given in Section 3')
    assert any(q.startswith("3. Term of this Agreement. This Agreement shall be valid for five (5) years") for q in quotes)


def test_a_referred_clause_missing_from_the_text_is_researched_once_and_said(allied_library):
    """Schedule 3, which gives "Sponsorship Fee" its meaning, is not in the filed text: one rule-made research
    round asks for it, the library says it is not there, and the report says so under knowledge gaps."""
    model = ScriptedChat(script={})
    res = ask([], 'How does the sponsorship agreement define "Sponsorship Fee"?', _settings(), models=model,
              tools={"library": allied_library.retriever()}, max_turns=1)
    r = res.report
    assert model.calls == [] and res.transcript["asked"][-1] == "What does Schedule 3 say?"
    assert r.key_findings and "Schedule 3" in r.citation(r.key_findings[0].citation_ids[0]).quote
    assert any("Schedule 3" in g and "not among the retrieved passages" in g for g in r.knowledge_gaps)


def test_a_lead_clause_far_behind_the_best_on_every_ranker_is_left_out():
    text = "Either party may terminate this agreement on thirty days written notice to the other."
    best = _passage("1", text, 0).model_copy(update={"scores": {"bm25": 5.0, "dense": 0.72}})
    near = _passage("2", text, 200).model_copy(update={"scores": {"bm25": 3.0, "dense": 0.32}})  # BM25 within half
    far = _passage("3", text, 400).model_copy(update={"scores": {"bm25": 1.0, "dense": 0.44}})  # severability-like
    ps = {"P1": best, "P2": far, "P3": near}
    assert [q.passage_id for q in lead_quotes("how to terminate?", ps, ["P1", "P2", "P3"])] == ["P1", "P3"]


def test_an_item_the_tree_did_not_read_is_quoted_from_its_clause():
    """"Article 6.1(c)" where the tree holds 6.1 whole: the exact field returns 6.1, and 6.1 is quoted."""
    p = _passage("1", "6.1 Lock-up. (a) ... (c) No party shall transfer its JVC shares for three years.", 0, ref="6.1")
    ps = {"P1": p.model_copy(update={"method": "exact"}), "P2": _passage("2", "6.10 Other matters of the company.", 90,
                                                                          ref="6.10").model_copy(update={"method": "exact"})}
    out = named_clause_quotes("What does Article 6.1(c) impose?", ps, ["P1", "P2"])
    assert [q.passage_id for q in out] == ["P1"]
