"""Issue #19: quotes that support the claim. PDF-artefact normalisation, extension of cut quotes
to clause boundaries, the deterministic negation / party-role checks, and how unsupported
findings, unaddressed documents and unverified answers show in the report (MD / HTML / JSON),
on real CUAD contract text (no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.parsing.types import Span
from clauselens.reports import ReportDraft, build_report, to_html, to_json, to_markdown
from clauselens.reports.model import DraftFinding, Report
from clauselens.reports.render import verification_banner
from clauselens.reports.support import assertions, check_claim
from clauselens.reports.verify import clause_bounds, normalize, verify_quote
from clauselens.retrieval.types import Passage

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "full_contract_txt"
DRIVEN = CUAD / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
NEON = CUAD / "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.txt"


def _clause(text: str, start: str, end: str, *, doc: str, ref: str, title: str) -> Passage:
    s = text.index(start)
    e = text.index(end, s)
    return Passage(chunk_id=f"{doc}-{ref}", doc_id=doc, node_id=f"n-{ref}", text=text[s:e], spans=[Span(start=s, end=e)],
                   clause_ref=ref, doc_title=title, page_start=6, score=0.03)


@pytest.fixture(scope="module")
def driven() -> str:
    return DRIVEN.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def passages(driven: str) -> dict[str, Passage]:
    neon = NEON.read_text(encoding="utf-8")
    return {
        "P1": _clause(driven, "12.2. Assignability.", "12.3. Entire", doc="dd", ref="12.2", title="Consulting Agreement"),
        "P2": _clause(driven, "7.2. Termination.", "7.3. Survival.", doc="dd", ref="7.2", title="Consulting Agreement"),
        "P3": _clause(driven, "4.3 Non-Solicitation.", "4.4 Non-Circumvention", doc="dd", ref="4.3", title="Consulting Agreement"),
        "P4": _clause(neon, "Neither this Agreement nor any", "Subject to the preceding", doc="neon", ref="7",
                      title="Distributor Agreement"),
    }


# ------------------------------------------------------------------ normalisation (PDF artefacts)

def test_pdf_artefacts_normalise_to_the_same_form():
    assert normalize("termi-\nnation of the “Agreement” — ﬁnal") == normalize('Termination of the "agreement" - final')
    assert normalize("self-\nemployed") == normalize("self-employed") == normalize("self- employed")
    assert normalize("Conﬂict\u00adfree ‘notice’ – 30 days") == normalize("Conflictfree 'notice' - 30 days")
    assert normalize("may not") != normalize("may") and normalize("30 days") != normalize("3 days")


def test_quote_through_hyphenation_ligature_and_curly_quotes_maps_back_to_source():
    src = "5.1 The Recipient shall keep all Conﬁdential Information in strict conﬁ-\ndence and shall not disclose it to any “Third Party” – ever."
    p = Passage(chunk_id="c", doc_id="d", node_id="n", text=src, spans=[Span(start=100, end=100 + len(src))])
    m = verify_quote('shall keep all Confidential Information in strict confidence and shall not disclose it to any "Third Party" - ever',
                     {"P1": p})
    assert m is not None and m.text.startswith("shall keep all Conﬁdential") and m.text.endswith("ever")
    assert m.doc_spans == [Span(start=100 + src.index("shall keep"), end=100 + src.index("ever") + 4)]
    assert verify_quote("shall keep all Confidential Information in strict confidence and may disclose it", {"P1": p}) is None


def test_demo_quote_of_clause_7_2_is_not_removed_for_its_capitalisation(passages):
    # docs/examples/demo: the model wrote "Either party" where the contract says "Either Party";
    # the report removed the quote as "not found verbatim" while citing 7.2 elsewhere
    quote = ("Either party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) "
             "days prior written notice of such termination pursuant to Section 12.7 of this Agreement")
    m = verify_quote(quote, passages)
    assert m is not None and m.passage_id == "P2" and m.text.startswith("Either Party may terminate")


# ------------------------------------------------------------------ clause boundaries

def test_quote_cut_mid_word_is_extended_to_the_clause(passages):
    t = passages["P1"].text
    a = t.index("Consultant may not sell, assign or deleg")
    s, e, full = clause_bounds(t, a, a + len("Consultant may not sell, assign or deleg"))
    assert full and t[s:e] == ("Except as may otherwise be provided in this Agreement, Consultant may not sell, assign or "
                               "delegate any rights or obligations under this Agreement.")
    # a whole sentence is left as it is (apart from its full stop)
    a2 = t.index("Notwithstanding")
    s2, e2, _ = clause_bounds(t, a2, t.index("consent.", a2) + len("consent"))
    assert t[s2:e2].startswith("Notwithstanding") and t[s2:e2].endswith("consent.")


def test_overlong_clause_falls_back_to_whole_words():
    t = "A " + "very " * 300 + "long clause."
    a = t.index("ery")
    s, e, full = clause_bounds(t, a, a + 7, max_chars=100)
    assert not full and t[s:e] == "very very"


# ------------------------------------------------------------------ negation and party role

def test_assertions_read_party_action_and_polarity(passages):
    got = set(assertions(passages["P1"].text))
    assert ("consultant", "assign", True) in {(a.party, a.action, a.negated) for a in got}
    assert ("company", "assign", False) in {(a.party, a.action, a.negated) for a in got}
    neon = {(a.party, a.action, a.negated) for a in assertions(passages["P4"].text)}
    assert (None, "assign", True) in neon and ("licensor", "assign", False) in neon  # "Neither ... shall be assigned"


@pytest.mark.parametrize("claim,pid,kind", [
    ("Either party can assign this agreement without consent.", "P1", "party"),  # only the Company may
    ("The Consultant may assign its rights under the agreement.", "P1", "negation"),
    ("The Company may assign this Agreement without the Consultant's consent.", "P1", None),
    ("The Consultant may not assign or delegate its obligations.", "P1", None),
    ("The Consultant may solicit Company employees after the agreement ends.", "P3", "negation"),
    ("The Consultant will not solicit Company employees for five years.", "P3", None),
    ("Either party may terminate on thirty days' written notice.", "P2", None),
    ("The Company may terminate immediately if the Consultant breaches.", "P2", None),
    ("Either party can assign the agreement without consent.", "P4", "negation"),  # "Neither ... shall be assigned"
    ("Neither party may assign without the other party's consent.", "P4", None),
    ("The non-compete lasts five years.", "P3", None),  # no modal over a known action: left to the model
])
def test_check_claim(passages, claim, pid, kind):
    issue = check_claim(claim, passages[pid].text)
    assert (issue.kind if issue else None) == kind


# ------------------------------------------------------------------ the report

DOCS = [{"doc_id": "dd", "title": "Consulting Agreement"}, {"doc_id": "neon", "title": "Distributor Agreement"}]


def _two_contract_report(passages) -> Report:
    """The issue's first failure: two contracts, "either party can assign without consent", citing
    12.2 with a quote cut mid-word that says the opposite; the second contract not addressed."""
    draft = ReportDraft(
        title="Assignment", answer="Either party can assign without consent.", conclusion="Either party can assign.",
        findings=[DraftFinding(statement="Either party can assign this agreement without consent.", passage_ids=["P1"],
                               quote="Consultant may not sell, assign or deleg")],
    )
    return build_report(draft, passages, question="Can either party assign these agreements without consent?",
                        context="I am the consultant", documents=DOCS)


def test_contradicted_finding_is_never_a_cited_fact(passages):
    r = _two_contract_report(passages)
    (f,) = r.key_findings
    assert f.grounded and f.citation_ids == ["C1"] and f.support == "contradicted" and not f.cited_fact
    c = r.citation("C1")
    assert c.extended and c.quote.endswith("any rights or obligations under this Agreement.")
    assert r.verification == "unverified" and r.unsupported_findings == [f]
    gaps = "\n".join(r.knowledge_gaps)
    assert "Unsupported claim (contradicted" in gaps and f.statement in gaps
    assert "Not addressed: Distributor Agreement: passages were retrieved but no finding cites it" in gaps
    assert "Not addressed: Consulting Agreement: its findings are not supported" in gaps
    assert r.unaddressed_documents and len(r.unaddressed_documents) == 2


def test_unverified_marking_in_markdown_html_json(passages):
    r = _two_contract_report(passages)
    md = to_markdown(r)
    assert "> **⚠ Unverified:" in md and verification_banner(r).startswith("⚠ Unverified")
    line = next(x for x in md.splitlines() if "Either party can assign this agreement" in x)
    assert line.startswith("- **Unsupported (contradicted):**") and "[C1]" not in line
    html = to_html(r)
    assert 'class="unverified" data-verification="unverified"' in html and "unsupported (contradicted)" in html
    data = json.loads(to_json(r))
    assert data["verification"] == "unverified" and data["key_findings"][0]["support"] == "contradicted"
    assert Report.model_validate_json(to_json(r)) == r


def test_supported_findings_across_both_documents_verify(passages):
    draft = ReportDraft(title="Assignment", answer="Only with consent, except the Company / Licensor.", findings=[
        DraftFinding(statement="The Company may assign this Agreement without the Consultant's consent.", passage_ids=["P1"],
                     quote="Company may assign this Agreement without Consultant’s consent"),
        DraftFinding(statement="Neither party may assign without the other party's consent.", passage_ids=["P4"],
                     quote="shall be assigned by any of the parties hereto without the prior written consent"),
    ])
    r = build_report(draft, passages, question="q", documents=DOCS)
    assert [f.support for f in r.key_findings] == ["unchecked", "unchecked"]  # the model has not been asked yet
    assert r.verification == "verified" and not r.unaddressed_documents and not verification_banner(r)
    assert "deterministic rules only" in r.verification_note
    assert not any(g.startswith(("Unsupported", "Not addressed", "Unverified")) for g in r.knowledge_gaps)


def test_partial_and_unverified_quote_gaps(passages):
    draft = ReportDraft(title="t", answer="a", findings=[
        DraftFinding(statement="Either party may terminate on thirty days' notice.", passage_ids=["P2"],
                     quote="Either Party may terminate this Agreement, with or without cause"),
        DraftFinding(statement="The non-compete lasts five years.", passage_ids=["P3"], quote="the non-compete lasts five years"),
    ])
    r = build_report(draft, {k: passages[k] for k in ("P2", "P3")}, question="q")
    assert [f.support for f in r.key_findings] == ["unchecked", "unverified"]
    assert r.verification == "partial" and "1 of 2 key findings" in r.verification_note
    assert any(g.startswith("Unverified claim (no verified quote): The non-compete") for g in r.knowledge_gaps)
    assert any(g.startswith("Quote removed") for g in r.knowledge_gaps)
    assert "**Unverified:** The non-compete lasts five years." in to_markdown(r)


def test_prose_cut_at_its_budget_ends_on_a_full_sentence():
    from clauselens.llm.capped import whole_sentences

    # the issue: "The conclusion was cut off mid-sentence" (the grammar ends a string at maxLength)
    cut = ("Either Party may terminate on thirty (30) days' written notice. The Company may terminate immediately on a "
           "material breach. The Consultant should therefore plan for a notice per")
    long = (cut + " " + cut * 3)[:450]
    d = ReportDraft(title="t", conclusion=long)
    assert d.conclusion.endswith(".") and long.startswith(d.conclusion) and len(d.conclusion) > 300
    assert whole_sentences(cut).endswith("material breach.")
    assert ReportDraft(title="t", conclusion="Short and complete.").conclusion == "Short and complete."
    f = DraftFinding(statement=("The Consultant may not assign. " + "It needs the Company's written consent " * 9)[:280], quote="q")
    assert f.statement == "The Consultant may not assign." or f.statement.endswith(" …")
    assert len(f.statement) <= 280


def test_claim_about_another_clause_topic_than_the_cited_heading_is_unrelated(passages):
    from clauselens.reports.support import check_topic

    # the chat failure: five years is the non-solicit (4.3), not the non-compete (4.2)
    issue = check_topic("The non-compete lasts five years.", passages["P3"].text, ["4.3 Non-Solicitation"])
    assert issue is not None and issue.kind == "topic" and "Non-Solicitation" in issue.detail
    assert check_topic("The Consultant will not solicit employees for five years.", passages["P3"].text,
                       ["4.3 Non-Solicitation"]) is None
    assert check_topic("The non-compete lasts five years.", passages["P3"].text, []) is None  # no heading: the model decides
    assert check_topic("It lasts five years.", passages["P3"].text, ["4.3 Non-Solicitation"]) is None  # no topic named
    p3 = passages["P3"].model_copy(update={"heading_path": ["4 Consultant Obligations", "4.3 Non-Solicitation"]})
    draft = ReportDraft(title="t", answer="a", findings=[DraftFinding(
        statement="The non-compete lasts five years.", passage_ids=["P3"], quote="for a period of five (5) years")])
    (f,) = build_report(draft, {"P3": p3}, question="q").key_findings
    assert f.grounded and f.support == "unrelated" and not f.cited_fact and "topic mismatch" in f.support_note


def test_claim_about_the_other_document_citing_this_one_is_unrelated(passages):
    """Seen live (benchmarks/trust_cases.py, two contracts): "The distributor agreement provides that the
    distributor may assign ..." citing clause 12.2 of the consulting agreement; the model judged it supported."""
    draft = ReportDraft(title="t", answer="a", findings=[
        DraftFinding(statement="The distributor agreement provides that the distributor may assign the agreement to a subsidiary.",
                     passage_ids=["P1"], quote="This Agreement will be binding upon Consultant's assigns"),
        DraftFinding(statement="Under the consulting agreement the Company may assign without consent.", passage_ids=["P1"],
                     quote="Company may assign this Agreement without Consultant’s consent")])
    r = build_report(draft, passages, question="q", documents=DOCS)
    assert [f.support for f in r.key_findings] == ["unrelated", "unchecked"]
    assert "document mismatch: the claim is about the Distributor Agreement" in r.key_findings[0].support_note
    # one document: no document check (the quote still lacks the claim's words: check_coverage)
    assert "document" not in build_report(draft, passages, question="q").key_findings[0].support_note


def test_a_printed_clause_number_is_a_clause_boundary_where_the_line_break_was_lost():
    """Held-out run: "1.27 "Minimum Order Requirements" ..." ran on from 1.26 without a full stop, and the quote
    of 1.27 was widened back over the whole of 1.26."""
    from clauselens.reports.verify import clause_bounds

    t = ('1.26 "Marketing Authorization" shall mean an application and all supplements thereto 1.27 "Minimum Order '
         'Requirements" shall mean multiples of a full Batch. 1.28 "Other" means x.')
    i = t.index("1.27")
    a, b, full = clause_bounds(t, i, i + 40)
    assert t[a:b] == '1.27 "Minimum Order Requirements" shall mean multiples of a full Batch.' and full
    i = t.index("application")
    assert t[slice(*clause_bounds(t, i, i + 11)[:2])].endswith("supplements thereto")
    # a cross-reference is no boundary
    u = "The Supplier shall comply with Section 2.1 The Buyer may terminate."
    i = u.index("comply")
    assert u[slice(*clause_bounds(u, i, i + 6)[:2])] == u


def test_a_full_stop_the_text_goes_on_from_in_lower_case_ends_no_sentence():
    """New-agreements run (bhb-ex-1): "... facsimile and couriers, etc. not to exceed $25,000." was cut
    after "etc.", so the cited sentence lost the cap the (correct) claim stated. A full stop followed by a
    lower-case word is an abbreviation: the quote is widened over it, a model quote is not split at it,
    and the sentence chosen for a claim runs on to the real full stop."""
    from clauselens.reports.verify import select_quote, split_quote
    from clauselens.retrieval.types import Passage

    t = ("(f) The Company shall reimburse the Agent for its expenses, including travel, couriers, etc. not to "
         "exceed $25,000. In addition, the Company will reimburse the fees of its counsel not to exceed $100,000.")
    first = t[:t.index("$25,000.") + len("$25,000.")]
    i = t.index("travel")
    assert t[slice(*clause_bounds(t, i, i + 6)[:2])] == first
    i = t.index("not to")
    assert t[slice(*clause_bounds(t, i, i + 6)[:2])] == first
    assert split_quote(first + " In addition, the Company will") == [first, "In addition, the Company will"]
    p = Passage(chunk_id="c", doc_id="d", node_id="n", text=t, spans=[Span(start=0, end=len(t))], clause_ref="2(f)",
                doc_title="Agency Agreement", page_start=1)
    m = select_quote("The Company reimburses the Agent's expenses, including travel, up to $25,000.", {"P1": p}, ["P1"])
    assert m is not None and m.text == first
    # an upper-case word after the full stop still starts a sentence
    u = "The Agent may terminate. The Company shall pay."
    assert u[slice(*clause_bounds(u, 0, 5)[:2])] == "The Agent may terminate."


# ------------------------------------------------------------------ "Neither ..." after a multi-level clause number

@pytest.mark.parametrize("number", ["", "(a) ", "7. ", "15.1 ", "15.1. ", "4.3.2 ", "9.3.3 (b) "])
def test_a_clause_opened_by_neither_after_its_number_is_negated(number):
    """CORALGOLD's consulting agreement, clause 15.1 (verbatim after the number; a new user's tryout, 2026-12-06): read as
    a permission to assign, and a grid cell answered "Yes", when the number had two levels."""
    from clauselens.reports.support_claims import assertions

    sentence = (number + "Neither this Agreement nor any of the rights of any of the parties under this Agreement shall be "
                "assigned without the written consent of all the parties.")
    got = [(a.action, a.negated) for a in assertions(sentence)]
    assert got == [("assign", True)], (number, got)
    for opening in ("No party", "Nothing in this Agreement"):
        text = f"{number}{opening} shall assign this Agreement."
        assert all(a.negated for a in assertions(text) if a.action == "assign"), text
