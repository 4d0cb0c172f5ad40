"""Quote verification, report building and renderers, on real CUAD contract text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.parsing.types import Span
from clauselens.reports import Report, ReportDraft, build_report, to_html, to_markdown, write_report
from clauselens.reports.model import SILENT_ANSWER, DraftFinding
from clauselens.reports.verify import normalize_with_map, passage_offsets_to_doc_spans, verify_quote
from clauselens.retrieval.types import Passage

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CUAD_TXT = SHARED / "data/cuad/full_contract_txt/DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"


@pytest.fixture(scope="module")
def doc_text() -> str:
    return CUAD_TXT.read_text(encoding="utf-8")


def _passage(text: str, start_marker: str, end_marker: str, ref: str, **kw) -> Passage:
    s = text.index(start_marker)
    e = text.index(end_marker, s)
    return Passage(chunk_id=f"c-{ref}", doc_id="dd", node_id=f"n-{ref}", text=text[s:e], spans=[Span(start=s, end=e)],
                   clause_ref=ref, doc_title="Consulting Agreement", page_start=3, page_end=3, score=0.03, **kw)


@pytest.fixture(scope="module")
def passages(doc_text: str) -> dict[str, Passage]:
    p1 = _passage(doc_text, "7.2. Termination.", "7.3. Survival.", "7.2")
    p2 = _passage(doc_text, "9. Indemnification.", "(ii) performance", "9")
    # an ancestor-style chunk: heading span + clause span joined by "\n"
    h0 = doc_text.index("7. Term and Termination.")
    h1 = h0 + len("7. Term and Termination.")
    b0 = doc_text.index("7.1. Term.")
    b1 = doc_text.index("7.2. Termination.")
    p3 = Passage(chunk_id="c-7.1a", doc_id="dd", node_id="n-7.1", text=doc_text[h0:h1] + "\n" + doc_text[b0:b1],
                 spans=[Span(start=h0, end=h1), Span(start=b0, end=b1)], clause_ref="7.1", page_start=3)
    return {"P1": p1, "P2": p2, "P3": p3}


def test_verbatim_quote_kept_with_exact_doc_span(doc_text, passages):
    quote = "Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) days prior written notice"
    m = verify_quote(quote, passages, prefer=["P1"])
    assert m is not None and m.passage_id == "P1"
    assert len(m.doc_spans) == 1
    s = m.doc_spans[0]
    assert doc_text[s.start:s.end] == quote


def test_whitespace_and_nfkc_differences_still_match(doc_text, passages):
    # extra spaces/newlines, typographic quotes around, and an "ﬁ" ligature-free source vs NFKC
    quote = '  “The Company may   terminate this\nAgreement immediately and without prior notice”  '
    m = verify_quote(quote, passages)
    assert m is not None and m.passage_id == "P1"
    assert doc_text[m.doc_spans[0].start:m.doc_spans[0].end] == "The Company may terminate this Agreement immediately and without prior notice"
    # NFKC: a ligature in the source matches plain letters in the quote, and the span covers the ligature
    lig = Passage(chunk_id="x", doc_id="d", node_id="n", text="5.1 Conﬁdential Information shall be kept.", spans=[Span(start=10, end=52)])
    m2 = verify_quote("Confidential Information shall", {"P9": lig})
    assert m2 is not None and m2.text == "Conﬁdential Information shall"


def test_quote_across_ancestor_chunk_segments_maps_to_two_spans(doc_text, passages):
    quote = "7. Term and Termination. 7.1. Term. The initial term of this Agreement"
    m = verify_quote(quote, passages, prefer=["P3"])
    assert m is not None and m.passage_id == "P3"
    assert len(m.doc_spans) == 2
    got = " ".join(doc_text[s.start:s.end] for s in m.doc_spans)
    assert " ".join(got.split()) == quote


def test_paraphrase_dropped_and_listed(passages):
    assert verify_quote("Either party can end the contract on one month's notice", passages) is None
    draft = ReportDraft(
        title="Termination", answer="Thirty days' notice.",
        findings=[
            DraftFinding(statement="Either party may terminate on 30 days' notice.", passage_ids=["P1"],
                         quote="upon giving the other party thirty (30) days prior written notice"),
            DraftFinding(statement="Paraphrased.", passage_ids=["P1", "P77"],
                         quote="Either party can end the contract on one month's notice"),
        ],
        knowledge_gaps=["Notice formalities in Section 12.7 were not retrieved."],
    )
    r = build_report(draft, passages, question="How can the agreement be terminated?")
    assert [c.id for c in r.citations] == ["C1"]
    assert r.key_findings[0].citation_ids == ["C1"] and r.key_findings[0].grounded
    assert r.key_findings[1].citation_ids == [] and not r.key_findings[1].grounded
    assert r.key_findings[1].passage_ids == ["P1"]  # P77 was never retrieved
    assert [d.quote for d in r.dropped_quotes] == ["Either party can end the contract on one month's notice"]
    assert any("one month's notice" in g for g in r.knowledge_gaps)
    assert r.knowledge_gaps[0].startswith("Notice formalities")
    assert not r.documents_silent
    c = r.citations[0]
    assert c.clause_ref == "7.2" and c.page_start == 3 and c.doc_title == "Consulting Agreement"


def test_stitched_quote_keeps_its_verbatim_sentences(doc_text, passages):
    # seen with the 1.5B model: a heading stitched onto the clause text; not verbatim as a whole
    stitched = ("7. Term and Termination. Either Party may terminate this Agreement, with or without cause, upon giving "
                "the other party thirty (30) days prior written notice of such termination pursuant to Section 12.7 of "
                "this Agreement. The Company may terminate this Agreement immediately and without prior notice if "
                "Consultant refuses to or is unable to perform the Services")
    assert verify_quote(stitched, passages) is None
    draft = ReportDraft(title="t", findings=[DraftFinding(statement="s", passage_ids=["P1"], quote=stitched)])
    r = build_report(draft, passages, question="q")
    assert [c.passage_id for c in r.citations] == ["P1", "P1"]
    assert r.citations[0].quote.startswith("Either Party may terminate") and r.citations[0].quote.endswith("Section 12.7 of this Agreement.")
    assert r.citations[1].quote.startswith("The Company may terminate")
    for c in r.citations:
        assert doc_text[c.spans[0].start:c.spans[0].end] == c.quote
    assert r.key_findings[0].citation_ids == ["C1", "C2"] and r.key_findings[0].grounded
    assert [d.quote for d in r.dropped_quotes] == ["7.", "Term and Termination."]  # too short to cite alone
    assert all("too short to cite on its own" in d.reason and "not found" not in d.reason for d in r.dropped_quotes)
    assert not any('"7."' in g or "Term and Termination" in g for g in r.knowledge_gaps)  # audit trail only, no noise
    # a long piece that is not in the passages says so, not "too short"
    odd = stitched.replace("The Company may terminate", "The Company may at its whim end")
    r3 = build_report(ReportDraft(title="t", findings=[DraftFinding(statement="s", passage_ids=["P1"], quote=odd)]),
                      passages, question="q")
    long_missing = [d for d in r3.dropped_quotes if len(d.quote.split()) >= 6]
    assert long_missing and all(d.reason.endswith("not found verbatim in any retrieved passage") for d in long_missing)
    # a paraphrase of several sentences is still dropped whole
    para = "Either side can end it. The company can also end it at once if things go wrong."
    r2 = build_report(ReportDraft(title="t", findings=[DraftFinding(statement="s", quote=para)]), passages, question="q")
    assert r2.citations == [] and [d.quote for d in r2.dropped_quotes] == [para.rstrip(".")]


def test_quote_found_in_other_passage_than_cited(passages):
    draft = ReportDraft(title="t", findings=[DraftFinding(statement="s", passage_ids=["P1"],
                                                          quote="Consultant agrees to indemnify and hold harmless the Company")])
    r = build_report(draft, passages, question="q")
    assert r.citations[0].passage_id == "P2"
    assert r.key_findings[0].passage_ids == ["P1", "P2"]


def test_silent_when_nothing_retrieved_or_not_addressed(passages):
    draft = ReportDraft(title="Governing law", answer="Delaware law governs.",
                        findings=[DraftFinding(statement="x", passage_ids=["P1"], quote="laws of Delaware")])
    r = build_report(draft, {}, question="Which law governs?", nli=True)
    assert r.documents_silent and r.answer.startswith(SILENT_ANSWER) and r.conclusion == SILENT_ANSWER
    assert r.key_findings == [] and r.citations == [] and r.label == "not_mentioned"
    r2 = build_report(ReportDraft(title="t", addressed=False, answer="Not stated."), passages, question="Which law governs?")
    assert r2.documents_silent and SILENT_ANSWER in r2.answer
    # the model saying "not addressed" while quoting verified text is not silence
    r3 = build_report(ReportDraft(title="t", addressed=False, findings=[DraftFinding(
        statement="s", passage_ids=["P1"], quote="7.2. Termination.")]), passages, question="q")
    assert not r3.documents_silent


def test_offsets_inconsistent_spans_give_no_doc_span():
    p = Passage(chunk_id="x", doc_id="d", node_id="n", text="abc def", spans=[Span(start=0, end=3)])
    assert passage_offsets_to_doc_spans(p, 0, 3) == []
    norm, idx = normalize_with_map("  a \n\t b  ")
    assert norm == "a b" and idx == [2, 3, 7]


def test_renderers_have_five_sections_and_links(passages, tmp_path):
    draft = ReportDraft(
        title="Termination <rights>", topic_summary="Termination.", legal_reasoning="Clause 7.2 governs.",
        answer="30 days' written notice.", research_directions=["Check Section 12.7"],
        knowledge_gaps=["Notice address"], follow_up_questions=["What does 12.7 require?"], conclusion="30 days.",
        findings=[DraftFinding(statement="Either party may terminate.", passage_ids=["P1"],
                               quote="Either Party may terminate this Agreement, with or without cause")],
    )
    r = build_report(draft, passages, question="How to terminate?", context="I am the Consultant", turns=2, complete=True)
    md = to_markdown(r)
    for h in ("## 1. Topic summary", "## 2. Legal reasoning and key findings", "## 3. Answer and research directions",
              "## 4. Knowledge gaps and follow-up questions", "## 5. Cited sources", "## Conclusion"):
        assert h in md
    assert "[C1]" in md and "clause 7.2" in md and "I am the Consultant" in md
    html = to_html(r)
    assert 'href="#cite-C1"' in html and 'id="cite-C1"' in html
    assert "Termination &lt;rights&gt;" in html  # escaped
    assert "<script" not in html and "http" not in html.split("<body>")[1]
    paths = write_report(r, tmp_path / "out")
    back = Report.model_validate_json(paths["json"].read_text())
    assert back == r
    assert json.loads(paths["json"].read_text())["citations"][0]["quote"].startswith("Either Party may terminate")


def test_draft_schema_bounds_strings_and_requires_an_answer_for_grammar_backends():
    from clauselens.reports.model import ReportDraft

    js = ReportDraft.model_json_schema()
    assert js["properties"]["legal_reasoning"]["maxLength"] == 700
    assert "answer" in js["required"] and js["properties"]["answer"]["minLength"] == 1
    assert js["$defs"]["DraftFinding"]["properties"]["quote"]["maxLength"] == 300
    d = ReportDraft(title="t" * 500, legal_reasoning="r" * 5000)  # other backends: truncated, not failed
    assert len(d.title) == 100 and len(d.legal_reasoning) == 700 and d.legal_reasoning.endswith(" …") and d.answer == ""


def test_empty_model_answer_is_never_shown_as_an_empty_answer():
    from clauselens.parsing.types import Span
    from clauselens.reports.build import NO_ANSWER, UNVERIFIED_PREFIX, build_report
    from clauselens.reports.model import ReportDraft
    from clauselens.retrieval.types import Passage

    p = Passage(chunk_id="c1", doc_id="d", node_id="n", text="Either party may terminate on 30 days' notice.",
                spans=[Span(start=0, end=46)], clause_ref="7.2")
    r = build_report(ReportDraft(title="T", conclusion="Thirty days' notice."), {"P1": p}, question="How to terminate?")
    # no finding backs it: the conclusion stands in for the answer, marked unverified
    assert r.verification == "unverified" and r.answer == UNVERIFIED_PREFIX + "Thirty days' notice."
    assert any("no direct answer" in g for g in r.knowledge_gaps)
    r2 = build_report(ReportDraft(title="T"), {"P1": p}, question="How to terminate?")
    assert r2.answer.endswith(NO_ANSWER)


def test_unverified_report_marks_its_answer_and_conclusion_once():
    """Issue #19: a conclusion read "the definition is clear and unambiguous" under the
    Unverified banner. With no supported finding, answer and conclusion say they are the
    model's reading; a verified report's are untouched; finalising twice adds nothing."""
    from clauselens.parsing.types import Span
    from clauselens.reports.build import UNVERIFIED_PREFIX, build_report, finalize_support
    from clauselens.reports.model import DraftFinding, ReportDraft
    from clauselens.retrieval.types import Passage

    p = Passage(chunk_id="c1", doc_id="d", node_id="n", text="Either party may terminate on 30 days' notice.",
                spans=[Span(start=0, end=46)], clause_ref="7.2")
    wrong = ReportDraft(title="T", answer="Only the buyer may terminate.", conclusion="The clause is clear.",
                        findings=[DraftFinding(statement="Only the buyer may terminate.", passage_ids=["P1"],
                                               quote="the buyer alone may end it")])
    r = build_report(wrong, {"P1": p}, question="Who may terminate?")
    assert r.verification == "unverified"
    assert r.answer == UNVERIFIED_PREFIX + "Only the buyer may terminate."
    assert r.conclusion == UNVERIFIED_PREFIX + "The clause is clear."
    again = finalize_support(r, {"P1": p})
    assert again.answer == r.answer and again.conclusion == r.conclusion
    right = ReportDraft(title="T", answer="Either party, on 30 days' notice.", conclusion="Thirty days.",
                        findings=[DraftFinding(statement="Either party may terminate on 30 days' notice.",
                                               passage_ids=["P1"], quote="Either party may terminate on 30 days' notice.")])
    v = build_report(right, {"P1": p}, question="Who may terminate?")
    assert v.verification != "unverified" and v.answer == "Either party, on 30 days' notice."


def test_nli_draft_schema_requires_a_label_last():
    """Hypothesis questions use NLIReportDraft: ``label`` is required and non-null in the
    published schema (grammar backends write required fields in schema order, so it comes
    after the evidence), while the schema title stays ``ReportDraft``; a draft without a
    label does not validate."""
    import pydantic

    from clauselens.reports.model import NLIReportDraft, ReportDraft

    js = NLIReportDraft.model_json_schema()
    assert js["title"] == "ReportDraft"
    assert "label" in js["required"] and js["properties"]["label"]["enum"] == ["entailment", "contradiction", "not_mentioned"]
    assert list(js["properties"])[-1] == "label"
    assert "label" not in ReportDraft.model_json_schema()["required"]
    base = {"title": "t", "findings": [{"statement": "s", "passage_ids": ["P1"], "quote": "q"}]}
    with pytest.raises(pydantic.ValidationError):
        NLIReportDraft.model_validate(base)
    assert NLIReportDraft.model_validate({**base, "label": "contradiction"}).label == "contradiction"


def test_a_passage_header_the_model_copied_before_its_quote_is_not_part_of_the_quote() -> None:
    text = "2.1 The Receiving Party shall keep the Confidential Information strictly confidential."
    p = Passage(chunk_id="c-2.1", doc_id="nda", node_id="n-2.1", text=text, spans=[Span(start=0, end=len(text))])
    echoed = "2. Confidentiality Obligations > 2.1 | p. 1 The Receiving Party shall keep the Confidential Information"
    m = verify_quote(echoed, {"P1": p})
    assert m is not None and m.text == "The Receiving Party shall keep the Confidential Information"
    assert verify_quote("[P1] NDA | clause 2.1 | p. 1: The Receiving Party shall disclose", {"P1": p}) is None


def test_a_header_glued_after_a_quote_on_a_new_line_leaves_the_quote_verified() -> None:
    text = "2.1 The Receiving Party shall keep the Confidential Information strictly confidential."
    p = Passage(chunk_id="c-2.1", doc_id="nda", node_id="n-2.1", text=text, spans=[Span(start=0, end=len(text))])
    from clauselens.reports.verify import verify_pieces

    quote = "The Receiving Party shall keep the Confidential Information strictly confidential\n2. Confidentiality Obligations > 2.1 | p. 1"
    found, missing = verify_pieces(quote, {"P1": p})
    assert [m.text for m in found] == ["The Receiving Party shall keep the Confidential Information strictly confidential"]
    assert "Confidentiality Obligations > 2.1 | p." in missing  # the header is never cited


def test_a_quote_that_is_only_passage_ids_is_no_quote(passages) -> None:
    """Fresh-clone run: the model "quoted" P10; the report listed 'Quote removed: "P10"' under
    knowledge gaps, meaningless to a lawyer. Only ids is no quote: the finding is unverified."""
    from clauselens.reports.verify import clean_model_quote

    assert clean_model_quote("P10") == "" and clean_model_quote("[P3], P4") == ""
    assert clean_model_quote("P10 applies to the Products") == "P10 applies to the Products"
    draft = ReportDraft(title="t", answer="a", addressed=True,
                        findings=[DraftFinding(statement="The Company may pay the invoices.", passage_ids=["P1"], quote="P1")])
    r = build_report(draft, passages, question="q")
    assert not r.dropped_quotes and not any('"P1"' in g for g in r.knowledge_gaps)
    assert r.key_findings[0].support == "unverified" and not r.key_findings[0].cited_fact


def test_a_finding_with_only_ids_or_a_copied_header_cites_the_sentence_of_its_passage_that_says_its_claim(passages) -> None:
    """Issue #22 item 10 with the real 1.5B model: it quoted the passage header alone
    ("2. Confidentiality Obligations > 2.1 | p. 1"), so the right finding had no citation. The
    sentence of the cited passage that holds most of the claim's words is cited instead (the
    source's own text, marked ``selected``), and the model's quote is still listed as removed;
    a claim no sentence of its passages says gets nothing."""
    from clauselens.reports.verify import select_quote

    text = ("2.1 The Receiving Party shall keep the Confidential Information strictly confidential. "
            "2.2 The Receiving Party may disclose it to its employees who need to know.")
    p = Passage(chunk_id="c-2", doc_id="nda", node_id="n-2", text=text, spans=[Span(start=0, end=len(text))],
                clause_ref="2.1", doc_title="NDA", page_start=1)
    claim = "The Receiving Party must keep the Confidential Information strictly confidential."
    m = select_quote(claim, {"P1": p}, ["P1"])
    assert m is not None and m.text == "2.1 The Receiving Party shall keep the Confidential Information strictly confidential."
    assert select_quote(claim, {"P1": p}, []) is None  # only the passages the finding names
    assert select_quote("The NDA has no confidentiality obligations and clause 2 was deleted.", {"P1": p}, ["P1"]) is None
    # a model quote that only points at a named clause (its header or number) cites that clause's first sentence
    loose = "Clause 2.1 of the NDA imposes a strict confidentiality obligation."
    assert select_quote(loose, {"P1": p}, ["P1"]) is None
    m = select_quote(loose, {"P1": p}, ["P1"], "2. Confidentiality Obligations > 2.1 | p. 1")
    assert m is not None and m.text.startswith("2.1 The Receiving Party shall keep")
    for other in ("12.1 | p. 1", "2.10 Survival", "clause 7", "2.1 " + "word " * 12):
        assert select_quote(loose, {"P1": p}, ["P1"], other) is None, other
    assert select_quote(loose, {"P1": p}, [], "2. Confidentiality Obligations > 2.1 | p. 1") is None
    for quote in ("2. Confidentiality Obligations > 2.1 | p. 1", "P1"):
        draft = ReportDraft(title="t", answer="a", addressed=True,
                            findings=[DraftFinding(statement=claim, passage_ids=["P1"], quote=quote)])
        r = build_report(draft, {"P1": p}, question="q")
        f, = r.key_findings
        assert f.grounded and f.citation_ids == ["C1"] and f.support == "unchecked"  # the support checks still judge it
        c = r.citations[0]
        assert c.selected and c.quote.startswith("2.1 The Receiving Party shall keep") and c.clause_ref == "2.1"
        assert text[c.spans[0].start:c.spans[0].end] == c.quote
        if quote == "P1":
            assert not r.dropped_quotes
        else:
            assert [d.quote for d in r.dropped_quotes] == [quote] and "the sentence of P1" in r.dropped_quotes[0].reason
        assert "sentence chosen by clauselens" in to_markdown(r) and "sentence chosen by clauselens" in to_html(r)
    ok = build_report(ReportDraft(title="t", answer="a", addressed=True, findings=[DraftFinding(
        statement=claim, passage_ids=["P1"], quote="The Receiving Party shall keep the Confidential Information")]),
        {"P1": p}, question="q")
    assert not ok.citations[0].selected and "sentence chosen" not in to_markdown(ok)
