"""Issue #19 item 4, "a report worth forwarding": every rendering (Markdown, HTML, DOCX; the JSON
as fields) carries the date, the model of each agent, the clauselens version and the documents
with their dates, and the not-legal-advice notice; no line is just "none"; character offsets are
never visible text; the DOCX opens with python-docx and holds the quotes verbatim and the
unverified banner. Rendered from real runs: a scripted chat model on a real CUAD contract."""

from __future__ import annotations

import html as html_lib
import io
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import docx
import pytest

from clauselens import __version__
from clauselens.config import Settings
from clauselens.pipeline import ask, describe_model, save_result
from clauselens.reports import Report, to_docx, to_html, to_markdown
from clauselens.reports.model import NOTICE, RunInfo, SourceDocument
from clauselens.reports.render import header_fields
from clauselens.reports.render_parts import LEAD_GAPS_NOTE
from clauselens.retrieval.hybrid import HybridRetriever
from tests.fakes import ScriptedChat

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "full_contract_txt"
DRIVEN = CUAD / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
QUESTION = "How can either party terminate this agreement, and how much notice is required?"
TERMINATE = "Either Party may terminate this Agreement, with or without cause"
OFFSETS = re.compile(r"chars\b|\[\d+,\s*\d+\)|\b\d{4,6}\s*[-–]\s*\d{4,6}\b")
FILLER = {"none", "- none", "-", "n/a", "none.", "- no verified quotes"}


def _model(findings: list[dict], **draft: object) -> ScriptedChat:
    return ScriptedChat(script={
        "SubQuestions": [{"sub_questions": ["How can either party terminate the agreement?"]}],
        "SearchPlan": [{"queries": ["terminate agreement written notice"], "clause_refs": ["7.2"], "defined_terms": [],
                        "agreement_names": [], "tools": ["hybrid"]}],
        "ReportDraft": [{"title": "Termination", "topic_summary": "How the agreement ends.",
                         "legal_reasoning": "Clause 7.2 governs termination.",
                         "answer": "Either party may terminate on thirty days' written notice.", "addressed": True,
                         "conclusion": "Thirty days' written notice.", "findings": findings, **draft}],
        "StopDecision": [{"complete": True, "reason": "", "follow_up_questions": []}],
    })


def _run(model: ScriptedChat):
    s = Settings().model_copy(update={"use_store": False, "depth": "full"})  # a report of the model's findings
    return ask([DRIVEN], QUESTION, s, models=model, tools={"hybrid": HybridRetriever(None)}, max_turns=1)


@pytest.fixture(scope="module")
def partial():
    """One finding whose quote is verbatim in clause 7.2, one whose quote is not in the contract."""
    return _run(_model([
        {"statement": "Either party may terminate on thirty days' written notice.", "passage_ids": ["P1"], "quote": TERMINATE},
        {"statement": "The non-compete lasts five years.", "passage_ids": ["P1"], "quote": "a quote that is not in the contract"},
    ]))


@pytest.fixture(scope="module")
def unverified():
    """The chat failure of issue #19: no finding has a verified quote."""
    return _run(_model([{"statement": "The non-compete lasts five years.", "passage_ids": ["P1"],
                         "quote": "the non-compete lasts five years"}],
                       answer="The non-compete lasts five years.", conclusion="Five years."))


@pytest.fixture(scope="module")
def silent():
    """The model finds nothing that addresses the question: no findings, no citations."""
    return _run(_model([], addressed=False, answer="", conclusion="", legal_reasoning="", topic_summary=""))


@pytest.fixture(scope="module")
def verified():
    return _run(_model([{"statement": "Either party may terminate on thirty days' written notice.", "passage_ids": ["P1"],
                         "quote": TERMINATE}]))


def html_text(page: str) -> str:
    """What a reader sees of an HTML page: tags, styles and attributes removed."""
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", "\n", page))


def docx_text(data: bytes) -> str:
    d = docx.Document(io.BytesIO(data))
    return "\n".join(p.text for p in d.paragraphs)


def renderings(report: Report) -> dict[str, str]:
    return {"md": to_markdown(report), "html": html_text(to_html(report)), "docx": docx_text(to_docx(report))}


def test_header_fields_come_from_the_run(partial):
    run = partial.report.run
    assert run is not None
    when = datetime.fromisoformat(run.generated_utc)
    assert when.tzinfo is not None and abs(datetime.now(timezone.utc) - when) < timedelta(minutes=10)
    assert run.models == {"researcher": "scripted-test (supplied by the caller)",
                          "interrogator": "scripted-test (supplied by the caller)"}
    assert run.clauselens_version.startswith(__version__)
    (d,) = run.documents
    assert d.file_name == DRIVEN.name and d.title and d.effective_date  # the Archivist's date from the preamble
    assert partial.transcript["models_used"] == run.models
    fields = dict(header_fields(partial.report))
    assert fields["Generated"] == [when.strftime("%Y-%m-%d %H:%M UTC")]
    assert fields["Model"] == ["scripted-test (supplied by the caller), for the researcher and interrogator"]
    assert fields["Document"] == [f"{d.title} ({DRIVEN.name}), dated {d.effective_date}"]


def test_every_format_carries_header_and_notice(partial):
    run = partial.report.run
    assert run is not None
    js = json.loads(partial.report.model_dump_json())
    assert js["notice"] == NOTICE and js["run"]["documents"][0]["effective_date"] == run.documents[0].effective_date
    for fmt, text in renderings(partial.report).items():
        flat = " ".join(text.split())
        assert NOTICE in flat, fmt
        assert datetime.fromisoformat(run.generated_utc).strftime("%Y-%m-%d %H:%M UTC") in flat, fmt
        assert "scripted-test (supplied by the caller)" in flat, fmt
        assert run.clauselens_version in flat, fmt
        assert f"dated {run.documents[0].effective_date}" in flat and DRIVEN.name in flat, fmt


def test_offsets_only_inside_links_and_complete_in_the_json(partial):
    rep = partial.report
    assert rep.citations and all(c.spans for c in rep.citations)
    starts = [str(s.start) for c in rep.citations for s in c.spans]
    for fmt, text in renderings(rep).items():
        assert not OFFSETS.search(text), (fmt, OFFSETS.search(text))
        assert not any(n in text for n in starts), fmt
    page = to_html(rep)
    c = rep.citations[0]
    spans = ",".join(f"{s.start}-{s.end}" for s in c.spans)
    title = ", ".join(f"{s.start}-{s.end}" for s in c.spans)
    assert f'data-spans="{spans}"' in page and f"characters {title}" in page  # in the link's attributes only
    assert json.loads(rep.model_dump_json())["citations"][0]["spans"] == [s.model_dump() for s in c.spans]


@pytest.mark.parametrize("case", ["partial", "unverified", "verified", "silent"])
def test_no_filler_lines(case, request):
    rep: Report = request.getfixturevalue(case).report
    assert not rep.research_directions and not rep.follow_up_questions  # the sections that used to say "none"
    for fmt, text in renderings(rep).items():
        lines = [x.strip().strip("*_").strip().lower() for x in text.splitlines()]
        assert not [x for x in lines if x in FILLER], fmt
        assert "research directions" not in text.lower(), fmt  # no heading promises a list that is not there
        assert "follow-up questions" not in text.lower(), fmt
    if case == "silent":
        assert rep.documents_silent and not rep.key_findings and not rep.citations
        md = to_markdown(rep)
        assert "No key findings: nothing retrieved from the documents addresses the question." in md
        assert md.count(rep.conclusion) == 1  # the conclusion repeats the answer: said once
        # nothing for a topic summary or gaps: those sections are left out, the rest numbered without holes
        assert [x for x in md.splitlines() if x.startswith("## ")] == [
            "## 1. Legal reasoning and key findings", "## 2. Answer", "## 3. Cited sources"]
    if case == "verified":
        assert rep.verification == "verified" and not rep.knowledge_gaps
        # led by retrieval's best clauses (quick depth): the gaps line says what was not checked, never "no gaps"
        assert any(f.rule == "lead" for f in rep.key_findings)
        for fmt, text in renderings(rep).items():
            flat = " ".join(text.split())
            assert LEAD_GAPS_NOTE in flat and "No knowledge gaps recorded" not in flat, fmt


def test_docx_opens_with_quotes_verbatim_and_the_banner(partial, unverified, tmp_path):
    paths = save_result(partial, tmp_path)
    assert set(paths) >= {"md", "html", "json", "docx"}
    d = docx.Document(str(paths["docx"]))
    text = "\n".join(p.text for p in d.paragraphs)
    assert partial.report.citations
    for c in partial.report.citations:
        assert c.quote in text  # verbatim, line breaks included
        assert f"[{c.id}] {c.location}" in text
    assert d.paragraphs[0].style.name == "Title" and d.paragraphs[0].text == "Termination"
    headings = [p.text for p in d.paragraphs if p.style.name.startswith("Heading")]
    assert headings[:2] == ["1. Topic summary", "2. Legal reasoning and key findings"] and "5. Cited sources" in headings
    assert "⚠ Partly unverified" in text and "Unverified: The non-compete lasts five years. (no verified quote)" in text
    assert d.core_properties.title == "Termination"
    rep = unverified.report  # issue #38: retrieval's best clauses lead as facts; the model's claim is still no fact
    assert rep.verification == "partial" and rep.rule_findings and not any(f.cited_fact for f in rep.model_findings)
    text = docx_text(to_docx(rep))
    assert "⚠ Partly unverified" in text and "The clauses that speak to this" in text
    assert "Unverified: The non-compete lasts five years. (no verified quote)" in text
    for c in rep.citations:
        assert c.quote in text


def test_header_for_several_models_and_an_undated_document():
    rep = Report(title="t", question="q", run=RunInfo(
        generated_utc="2026-12-02T03:30:12+00:00", clauselens_version="0.1.0",
        models={"researcher": "a (in-process llama.cpp)", "interrogator": "b (OpenAI-compatible server at http://x/v1)"},
        documents=[SourceDocument(title="NDA", file_name="nda.txt", pages=1), SourceDocument(file_name="b.pdf")]))
    fields = dict(header_fields(rep))
    assert fields["Models"] == ["researcher: a (in-process llama.cpp); interrogator: b (OpenAI-compatible server at http://x/v1)"]
    assert fields["Documents"] == ["NDA (nda.txt), no date found in its opening text, 1 page",
                                   "b.pdf, no date found in its opening text"]
    md = to_markdown(rep)
    assert "- **Documents:**\n  - NDA (nda.txt)" in md and "2026-12-02 03:30 UTC" in md
    assert Report(title="t", question="q").notice == NOTICE and NOTICE in to_markdown(Report(title="t", question="q"))


def test_describe_model_names_a_gguf_or_server_model():
    class Local:
        model_path = "/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"

    class Server:
        model_name = "Qwen/Qwen2.5-7B-Instruct"

    assert describe_model(Local()) == "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    assert describe_model(Server()) == "Qwen/Qwen2.5-7B-Instruct"


def test_section_titles_follow_what_the_sections_hold(partial):
    full = partial.report.model_copy(update={"research_directions": ["Check Section 12.7 on notices."],
                                             "follow_up_questions": ["Does termination affect accrued fees?"]})
    for fmt, text in renderings(full).items():
        for t in ("3. Answer and research directions", "4. Knowledge gaps and follow-up questions", "Research directions",
                  "Check Section 12.7 on notices.", "Does termination affect accrued fees?"):
            assert t in text, (fmt, t)
        assert text.count("Follow-up questions") == 1 and text.count("Knowledge gaps") >= 1, fmt
    only_gaps = renderings(partial.report)
    for fmt, text in only_gaps.items():  # one list in section 4: its heading names it, no sub-heading
        assert "4. Knowledge gaps" in text and text.count("Knowledge gaps") == 1, fmt
