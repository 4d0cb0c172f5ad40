"""A quick-depth reading covers every sentence of the clause that answers the question, and a reading that says
the opposite of its clause is set aside (issue #38, the make-demo tryout and the README's "Who may assign"
example). The bundled contract (the demo's PDF) and a real CUAD contract, lexical hybrid retrieval, a scripted
chat model (its calls and prompts are counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.agents.reading_check import answering_sentences, contradiction, omitted, reading_words
from clauselens.parsing import load_document
from clauselens.pipeline import ask
from clauselens.reports import to_markdown
from clauselens.reports.build import READING_PREFIX, UNVERIFIED_PREFIX
from clauselens.reports.model import RULE_QUOTED_PREFIX
from tests.agents.test_delivery import DRIVEN, _settings, _tools
from tests.fakes import ScriptedChat

BUNDLED = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"
DEMO_Q = "How can either party terminate this agreement, and how much notice is required?"
ASSIGN_Q = "Who may assign this agreement?"
SECOND = "The Company may terminate this Agreement immediately and without prior notice"


@pytest.fixture(scope="module", params=["bundled_pdf", "cuad_txt"])
def doc(request):
    path = BUNDLED if request.param == "bundled_pdf" else DRIVEN
    if not path.exists():
        pytest.skip(f"absent data: {path} is not on this machine")
    return load_document(path)


def _clause(doc, ref: str) -> str:
    start = " ".join(doc.text.split()).index(f"{ref}. ")
    return " ".join(doc.text.split())[start:start + 600]


def test_the_demo_clause_has_two_answering_sentences_and_the_prompt_asks_for_both(doc):
    sents = answering_sentences(DEMO_Q, _clause(doc, "7.2"))
    assert len(sents) >= 2 and sents[0].startswith("Either Party may terminate") and sents[1].startswith(SECOND)
    assert "thirty (30) days" in sents[0]  # the "(30)" item-like unit is glued back to its sentence
    assert reading_words(1) == 40 and reading_words(2) == 60 and reading_words(9) == 80
    model = ScriptedChat(script={"LeadReading": [{"answer": "Either party may terminate on thirty days' written notice "
                                                            "under clause 7.2; the Company may terminate immediately if "
                                                            "the Consultant refuses, is unable to perform or is in breach.",
                                                  "answered": True}]})
    res = ask([], DEMO_Q, _settings(), models=model, tools=_tools(doc), max_turns=3)
    assert [c[0] for c in model.calls] == ["LeadReading"]
    assert "Clause 7.2 has 2 sentences that answer the question" in model.calls[0][2]
    assert "at most 60 words" in model.calls[0][2]
    assert "Left out by this reading" not in res.report.answer  # it covers both: no label


def test_a_reading_that_drops_the_second_sentence_is_labelled_with_it_word_for_word(doc):
    first_only = ("Either party may terminate this agreement, with or without cause, upon giving the other party thirty "
                  "(30) days prior written notice.")
    model = ScriptedChat(script={"LeadReading": [{"answer": first_only, "answered": True}]})
    res = ask([], DEMO_Q, _settings(), models=model, tools=_tools(doc), max_turns=3)
    r = res.report
    assert len(model.calls) == 1  # labelled, not asked again: no second call
    assert r.answer.startswith(READING_PREFIX) and "Left out by this reading, clause 7.2 also says:" in r.answer
    label = r.answer.split("also says:", 1)[1]
    assert SECOND in label and "thirty (30)" not in label  # only the dropped sentence, quoted verbatim
    assert " ".join(label.strip(" \u201c\u201d").split()) in " ".join(doc.text.split())
    assert r.verification == "verified" and "Left out by this reading" in to_markdown(r)


def test_a_reading_missing_a_number_of_its_sentence_is_labelled():
    s = ["Either Party may terminate this Agreement upon giving the other party thirty (30) days prior written notice."]
    assert omitted("Either party may terminate on written notice.", s, DEMO_Q) == s
    assert omitted("Either party may terminate on 30 days' written notice.", s, DEMO_Q) == []
    assert omitted("Either party may terminate on thirty days' notice (clause 7.2).", s, DEMO_Q) == []


def test_a_reading_that_says_the_opposite_of_its_clause_is_set_aside(doc):
    """README's example: the 1.5B read 12.2 ("Consultant may not sell, assign or delegate ...") as "Consultant may
    assign this agreement" -- with and without the user's context, and again when asked a second time."""
    text = _clause(doc, "12.2")
    assert contradiction("Consultant may assign this agreement", text) is not None
    assert contradiction("The Company may assign this agreement without the Consultant's consent; the Consultant "
                         "may not assign it.", text) is None
    model = ScriptedChat(script={"LeadReading": [{"answer": "Consultant may assign this agreement", "answered": True}]})
    res = ask([], ASSIGN_Q, _settings(), models=model, tools=_tools(doc), max_turns=3)
    r = res.report
    assert len(model.calls) == 1
    assert r.answer.startswith(RULE_QUOTED_PREFIX + "Clause 12.2: \u201c")  # not "Reading (the model's words ...)"
    assert "Consultant may assign this agreement" not in r.answer
    assert any("said the opposite of clause 12.2" in g and "set aside" in g for g in r.knowledge_gaps)
    assert "Consultant may not sell, assign or delegate" in r.answer and "Company may assign this Agreement" in r.answer
    assert not r.answer.startswith(UNVERIFIED_PREFIX) and r.answer_support not in ("contradicted", "unrelated")
    assert "the answer quotes the clause by rule" in r.verification_note and "and the answer say" not in r.verification_note
    notes = [e.get("text") or "" for e in res.transcript["events"] if e["type"] == "note"]
    assert any("contradicts the clause it reads" in n for n in notes)


def test_a_reading_that_finds_no_answer_makes_the_report_partly_verified_everywhere(doc):
    """The default (``Settings.reading_declines`` off): the clauses stay the facts, the report is partly verified."""
    q = "Does the consultant have to carry professional liability insurance?"
    model = ScriptedChat(script={"LeadReading": [{"answer": "The quoted clauses do not address insurance.",
                                                  "answered": False}]})
    r = ask([], q, _settings(), models=model, tools=_tools(doc), max_turns=3).report
    assert r.rule_findings and r.verification == "partial"
    assert "none of the quoted clauses answers" in r.verification_note
    md = to_markdown(r)
    assert "Every key finding" not in md and "Partly unverified" in md


def test_a_reading_that_finds_no_answer_declines_everywhere(doc):
    """Issue #38, ``Settings.reading_declines`` on: the reading's verdict that no quoted clause deals with the question
    declines the report; every renderer shows the clauses as the nearest, not as facts."""
    from clauselens.reports import to_docx, to_html
    from clauselens.reports.render_parts import NEAREST_HEADING, RULE_HEADING
    from tests.reports.test_forwardable import docx_text

    q = "Does the consultant have to carry professional liability insurance?"
    model = ScriptedChat(script={"LeadReading": [{"answer": "The quoted clauses do not address insurance.",
                                                  "answered": False}]})
    r = ask([], q, _settings(reading_declines=True), models=model, tools=_tools(doc), max_turns=3).report
    assert r.rule_findings and r.verification == "silent" and r.documents_silent
    for text in (to_markdown(r), to_html(r), docx_text(to_docx(r))):
        assert "Every key finding" not in text and NEAREST_HEADING in text and RULE_HEADING not in text
        assert "does not appear to address" in text


def test_a_clause_is_cited_on_the_pages_its_quote_occupies():
    """Tryout: clause 12.7 was cited "pp. 6-7" -- its passage is prefixed with the heading "12. Miscellaneous." on
    p. 6; the clause itself (the quoted text, from "12.7. Notices.") is on p. 7 only."""
    if not BUNDLED.exists():
        pytest.skip(f"absent data: {BUNDLED} is not on this machine")
    doc = load_document(BUNDLED)
    model = ScriptedChat(script={"LeadReading": [{"answer": "Notice is given in writing under clause 12.7.",
                                                  "answered": True}]})
    r = ask([], "How must a notice under this agreement be given?", _settings(), models=model, tools=_tools(doc),
            max_turns=3).report
    cites = [c for c in r.citations if c.clause_ref == "12.7"]
    assert cites and cites[0].quote.startswith("12.7. Notices")
    at = doc.text.index("12.7. Notices")
    page = next(p.number for p in doc.pages if p.start <= at < p.end)
    assert (cites[0].page_start, cites[0].page_end) == (page, page) == (7, 7)


def test_headings_cut_units_and_no_answer_readings_get_no_label():
    """s8 dev run: labels quoted "Section 7.01. Limitation on Liability." and a definitions list cut mid-item, and
    labelled a reading that said the clauses do not address the question."""
    from clauselens.agents.reading_check import NO_ANSWER, sentences

    text = ("Section 7.01. Limitation on Liability. Neither party shall have any liability to the other for any "
            "indirect, special or punitive damages. 1.1 The following words shall have the following meanings: "
            "a) \"Agreement\" means this Agreement; c) \"Force Majeure\" means")
    assert sentences(text) == ["Neither party shall have any liability to the other for any indirect, special or "
                               "punitive damages."]
    assert NO_ANSWER.search("The quoted clauses do not address the question.")
    assert not NO_ANSWER.search("Either party may terminate on thirty days' notice.")


def test_a_reading_that_puts_the_cost_on_the_other_party_contradicts_its_clause():
    """A fresh-clone tryout of the bundled contract: "Who pays if something goes wrong?" was read "The Company pays"
    over clause 9, where the Consultant indemnifies the Company, and passed. Paying, reimbursing and indemnifying are
    one question of who bears the cost, and a plain "X pays" is X's duty; the right party still passes."""
    from clauselens.agents.reading_check import contradiction
    from clauselens.reports.support_claims import check_claim

    clause = ("Consultant agrees to indemnify and hold harmless the Company and its affiliates and subsidiaries from and "
              "against all taxes, losses, damages, liabilities, costs and expenses arising from any negligent act of "
              "Consultant.")
    for reading in ("The Company pays.", "Yes, the Company pays if something goes wrong.",
                    "The Company must reimburse the losses."):
        issue = contradiction(reading, clause)
        assert issue is not None and issue.kind == "party", reading
    assert contradiction("The Consultant pays for the losses.", clause) is None
    assert contradiction("Consultant indemnifies the Company.", clause) is None
    assert check_claim("The Company must pay the losses.", clause) is None  # the grid's check compares each verb alone


MOVADO = Path("/work/shared/data/legalbench-rag/corpus/cuad/MOVADOGROUPINC_04_30_2003-EX-10.28-ENDORSEMENT AGREEMENT.txt")


def test_a_reading_that_denies_a_name_a_quoted_clause_holds_is_set_aside():
    """A new user's "Sarbanes-Oxley": the recital citing the Act was quoted first, and the 1.5B's reading said the
    agreement "does not address Sarbanes-Oxley" (the report flagged it as partly unverified). A reading that says the
    clauses do not speak to a question naming a thing one of them holds verbatim is set aside; that clause's sentences
    naming it are quoted by rule, and the report is not marked as if none answered."""
    from clauselens.agents.reading_check import named_in_quotes

    recital = "WHEREAS, Section 402 of the Sarbanes-Oxley Act of the 2002 (the \"Act\") prohibits certain public companies."
    assert named_in_quotes("The agreement does not address Sarbanes-Oxley.", "Sarbanes-Oxley", ["9. Entire Agreement.", recital])[:2] == \
        (1, "Sarbanes-Oxley")
    assert named_in_quotes("Section 402 of the Act prohibits loans to officers.", "Sarbanes-Oxley", [recital]) is None  # not a denial
    assert named_in_quotes("The agreement does not address HIPAA.", "Does it mention HIPAA?", [recital]) is None  # not held
    q = "What does the Movado agreement say about Sarbanes-Oxley?"  # the agreement's own name is no part of what is asked
    assert named_in_quotes("It does not address Sarbanes-Oxley.", q, [recital], {"d1": "ENDORSEMENT AGREEMENT — Movado Group, Inc."})
    party = "The Company shall pay Movado Group the fee. " + recital
    assert named_in_quotes("The clauses do not address ending it early.", "Can Movado Group end the deal early?", [party]) is None  # asks more
    if not MOVADO.exists():
        pytest.skip(f"absent data: {MOVADO} is not on this machine")
    model = ScriptedChat(script={"LeadReading": [{"answer": "The agreement does not address Sarbanes-Oxley.", "answered": False}]})
    r = ask([], "What does the agreement say about Sarbanes-Oxley?", _settings(), models=model, tools=_tools(load_document(MOVADO)),
            max_turns=3).report
    assert r.answer.startswith(RULE_QUOTED_PREFIX) and "Section 402 of the Sarbanes-Oxley Act" in r.answer
    assert "does not address" not in r.answer and r.verification != "partial"
    assert any("names 'Sarbanes-Oxley'" in g and "set aside" in g for g in r.knowledge_gaps)
