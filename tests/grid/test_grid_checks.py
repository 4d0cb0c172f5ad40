"""Issue #45: a grid cell is *answered* only when its typed value is what its verified quote states,
the value is no echo of the prompt, the quote is about the question (topic terms derived for a
question written without them), and a yes/no answer is shown by the quote. On real CUAD contracts
(``../shared/data/cuad/full_contract_txt``); the model's reply is given as data (no LLM here)."""

from __future__ import annotations

import re
from pathlib import Path

from clauselens.grid.answer import TYPE_HINTS, CellAnswer, check_answer, finish, topic_terms
from clauselens.grid.evidence import echo_issue, question_claim, yes_no_issue
from clauselens.grid.questions import GridQuestion
from clauselens.grid.topic import derive_terms
from clauselens.grid.values import amounts_in, check_value, dates_in, durations_in, jurisdictions_in, same_period, words_to_number
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage, SearchResult
from tests.grid.cuad_texts import TXT, needs_texts

COOL = TXT / "COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71-Strategic Alliance Agreement.txt"
ADIA = TXT / "ADIANUTRITION,INC_04_01_2005-EX-10.D2-RESELLER AGREEMENT.txt"
DRIVEN = TXT / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
BLUEROCK = TXT / "BLUEROCKRESIDENTIALGROWTHREIT,INC_06_01_2016-EX-1.1-AGENCY AGREEMENT.txt"
ADMA = TXT / "ADMA BioManufacturing, LLC -  Amendment #3 to Manufacturing Agreement .txt"
pytestmark = needs_texts((COOL, ADIA, DRIVEN, BLUEROCK, ADMA))


def _text(path: Path) -> str:
    return " ".join(path.read_text(encoding="utf-8", errors="replace").split())


def _window(path: Path, anchor: str, before: int = 300, after: int = 600) -> str:
    """A passage of the contract around ``anchor`` (as retrieval would return it)."""
    text = _text(path)
    i = text.index(anchor)
    return text[max(0, i - before):i + len(anchor) + after]


def _cell(q: GridQuestion, passage: str, quote: str, answer: str, found: bool = True):
    p = Passage(chunk_id="c1", doc_id="d1", node_id="n1", text=passage, spans=[Span(start=0, end=len(passage))],
                clause_ref="", page_start=1, page_end=1, source_path="/tmp/x.txt")
    base = {"row_key": "sha", "question_id": q.id, "fingerprint": "f", "agreement": "A", "source_path": "/tmp/x.txt"}
    return finish(base, q, SearchResult(query=q.question, passages=[p]), CellAnswer(found=found, passage=1, quote=quote, answer=answer))


HOW_LONG = GridQuestion(id="how_long", question="How long does the agreement last?", type="duration")
RENEWAL = GridQuestion(id="renewal", question="If the agreement renews by itself, for how long each time?", type="duration")
LAW = GridQuestion(id="law", question="Which state's or country's law applies to the agreement?", type="jurisdiction")
ASSIGN = GridQuestion(id="assign", question="Can a party transfer the agreement to someone else without the other's consent?",
                      type="yes_no")
COOL_TERM = "This Agreement shall be automatically renewed for successive one year periods"


# ------------------------------------------------------------------ rule 1: the typed value is read from the quote
def test_value_readers_on_contract_wording() -> None:
    term = _window(COOL, "shall expire on the later of", 0, 400)
    assert durations_in(term)[:1] and same_period(durations_in(term)[0], durations_in("5 years")[0])  # "five (5) years"
    assert any(same_period(p, durations_in("1 year")[0]) for p in durations_in(term))  # "successive one year periods"
    assert same_period(durations_in("twelve (12) months")[0], durations_in("one-year")[0])
    assert not same_period(durations_in("30 days")[0], durations_in("1 month")[0])  # no inexact conversions
    assert words_to_number("one hundred twenty") == 120 and words_to_number("thirty-six") == 36
    fee = _window(DRIVEN, "flat fee consulting rate", 0, 60)
    assert [a.value for a in amounts_in(fee)] == [18000.0]
    late = _window(ADIA, "one and one-half percent", 0, 30)
    assert [(a.value, a.kind) for a in amounts_in(late)] == [(1.5, "percent")]
    assert [d.isoformat() for d in dates_in(_window(DRIVEN, "made and entered into as of", 0, 20))] == ["2019-05-01"]
    assert jurisdictions_in(_window(ADIA, "6.7 GOVERNING LAW", 0, 120)) == {"California"}
    assert jurisdictions_in("the laws of the State of New York") == {"New York"} and jurisdictions_in("georgia pacific") == set()


def test_value_not_in_the_quote_is_unverified() -> None:
    passage = _window(COOL, COOL_TERM)
    ok = _cell(RENEWAL, passage, COOL_TERM, "one (1) year")
    assert ok.status == "answered" and ok.answer == "one (1) year", ok.reason
    entire = "A. Entire Agreement: This Agreement together with all documents incorporated by reference herein"
    copied = check_value("duration", "This Agreement together with all documents incorporated", entire)
    assert copied.reason == "the answer states no period the quote states"  # a copied sentence is no period
    assert not check_value("duration", "perpetual", "the license is perpetual and irrevocable").reason
    wrong = _cell(RENEWAL, passage, COOL_TERM, "3 years")
    assert wrong.status == "unverified" and "3 years" in wrong.reason and "1 year" in wrong.reason and wrong.quote == ""
    fee_q = GridQuestion(id="fee", question="How much money must be paid under the agreement?", type="amount")
    fee = _window(DRIVEN, "The Company shall pay Consultant a flat fee")
    assert _cell(fee_q, fee, "The Company shall pay Consultant a flat fee consulting rate of $18,000 per month", "$18,000").status == "answered"
    bad = _cell(fee_q, fee, "The Company shall pay Consultant a flat fee consulting rate of $18,000 per month", "$180,000")
    assert bad.status == "unverified" and "$180,000" in bad.reason
    date_q = GridQuestion(id="signed", question="When was this agreement signed?", type="date")
    pre = _window(DRIVEN, "This Consulting Agreement", 0, 300)
    good = _cell(date_q, pre, 'This Consulting Agreement ("Agreement") is made and entered into as of May 1, 2019', "May 1, 2019")
    assert good.status == "answered" and good.answer == "2019-05-01"
    off = _cell(date_q, pre, 'This Consulting Agreement ("Agreement") is made and entered into as of May 1, 2019', "June 1, 2019")
    assert off.status == "unverified" and "2019-06-01" in off.reason


def test_party_and_jurisdiction_values() -> None:
    parties_q = GridQuestion(id="parties", question="Who are the parties to this agreement?", type="party")
    pre = _window(DRIVEN, "This Consulting Agreement", 0, 400)
    quote = 'made and entered into as of May 1, 2019 ("Effective Date") by and between Driven Deliveries, Inc. ("Company"), a Nevada ' \
            'corporation, and TruckThat LLC ("Consultant")'
    ok = _cell(parties_q, pre, quote, "Driven Deliveries, Inc.; TruckThat LLC")
    assert ok.status == "answered" and ok.answer == "Driven Deliveries, Inc; TruckThat LLC"
    assert _cell(parties_q, pre, quote, "Driven Deliveries, Inc.; PivX Corporation").status == "unverified"
    law = _window(ADIA, "6.7 GOVERNING LAW", 0, 400)
    quote = "This Agreement shall be governed by and construed under the laws of the State of California"
    assert _cell(LAW, law, quote, "California").answer == "California"
    assert _cell(LAW, law, quote, "Delaware").status == "unverified"
    # issue #45: "the laws of the United States" over a quote about supply terms being deleted
    adma = _window(ADMA, "The supply terms set forth in Section 1 of Amendment #2")
    cell = _cell(LAW, adma, 'The supply terms set forth in Section 1 of Amendment #2 (the "Prior Supply Terms") are hereby deleted in '
                            "their entirety.", "the laws of the United States")
    assert cell.status == "unverified" and cell.quote == ""


# ------------------------------------------------------------------------------------ rule 2: no echo of the prompt
def test_the_prompts_own_hint_is_never_an_answer() -> None:
    """Issue #45's first run: a duration cell answered with the type hint itself, over the right Term clause."""
    hint = 'the period, e.g. "30 days", "2 years", "successive 1-year periods"'
    cell = _cell(HOW_LONG, _window(COOL, COOL_TERM), COOL_TERM, hint)
    assert cell.status == "unverified" and "prompt" in cell.reason and cell.quote == "" and cell.answer == ""  # never shown
    lost = _cell(HOW_LONG, _window(COOL, COOL_TERM), "a sentence the contract does not have", hint)
    assert lost.status == "unverified" and lost.answer == ""  # not shown even when the quote fails first
    for qtype, text in TYPE_HINTS.items():  # every hint, as an answer, is withheld
        q = GridQuestion(id="q", question="How long does the agreement last?", type=qtype)  # type: ignore[arg-type]
        assert check_answer(q, text, COOL_TERM, text)[1], qtype
    assert echo_issue("the state or country", "laws of the State of Missouri", TYPE_HINTS.values())
    assert echo_issue("May 8, 2014", "dated as of May 26, 2017", TYPE_HINTS.values())  # the date hint's example
    assert not echo_issue("one year", COOL_TERM, TYPE_HINTS.values())
    # an example the quote states (by value) is the contract's answer, not an echo
    notice = "PivX may terminate this Agreement for convenience by giving at least thirty (30) days written notice of termination"
    assert not echo_issue("30 days", notice, TYPE_HINTS.values()) and echo_issue("30 days", COOL_TERM, TYPE_HINTS.values())


# ------------------------------------------------------------------ rule 3: the quote must be about the question
def test_topic_terms_are_derived_for_a_users_question() -> None:
    assert "renew" in derive_terms(RENEWAL.question) and "terminat" in derive_terms("On what date does the agreement end?")
    assert "expir" in derive_terms(HOW_LONG.question)  # "last": an everyday word, though generic
    assert "confidenti" in derive_terms("For how long must confidential information be kept secret?")
    assert derive_terms("What does this agreement say?") == ()
    assert topic_terms(GridQuestion(id="x", question="Is there exclusivity?", terms="exclusiv")) == ["exclusiv"]
    # issue #45: a duration answered from a quote about filing a prospectus under Rule 424(b)
    rule = "the Company will file the Prospectus, in a form approved by the Agent, with the Commission pursuant to and in accordance " \
           "with Rule 424(b)"
    cell = _cell(RENEWAL, _window(BLUEROCK, rule), rule, "successive 1-year periods")
    assert cell.status == "unverified" and "topic" in cell.reason and cell.quote == ""


# ------------------------------------------------------------------------------------- rule 4: yes/no from evidence
def test_yes_needs_a_quote_that_grants_what_was_asked() -> None:
    assert question_claim(ASSIGN.question) == "a party may transfer or assign the agreement to someone else without the other's consent"
    cool = _window(COOL, "C. Assignment and Delegation")
    neither = "Neither party shall assign or delegate this Agreement or any rights, duties or obligations hereunder to any other " \
              "person and/or entity without prior express written approval of the other party."
    yes = _cell(ASSIGN, cool, neither, "Yes")  # issue #45: "Yes" for every agreement
    assert yes.status == "unverified" and "may not / shall not" in yes.reason
    no = _cell(ASSIGN, cool, neither, "No")
    assert no.status == "answered" and no.answer == "No"
    driven = _window(DRIVEN, "Notwithstanding anything to the contrary herein, Company may assign")
    company = "Notwithstanding anything to the contrary herein, Company may assign this Agreement without Consultant's consent."
    assert _cell(ASSIGN, driven, company, "Yes").status == "answered"
    assert _cell(ASSIGN, driven, company, "No").status == "unverified"
    compete = GridQuestion(id="nc", question="Is a party forbidden from competing with the other?", type="yes_no")
    assert yes_no_issue(compete.question, "Yes", "Consultant shall not compete with the Company during the term.") == ""
    quit_q = GridQuestion(id="q", question="Can a party end the agreement at any time without giving a reason?", type="yes_no")
    with_cause = "This Agreement may be terminated by either party in the event of a material breach of this Agreement by the other party"
    assert "condition" in yes_no_issue(quit_q.question, "Yes", with_cause)
    anytime = "Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) days prior " \
              "written notice"
    assert _cell(quit_q, _window(DRIVEN, "Either Party may terminate this Agreement, with or without cause"), anytime, "Yes").status == "answered"


def test_no_only_when_nothing_retrieved_is_on_the_topic() -> None:
    cool = _window(COOL, "C. Assignment and Delegation")
    cell = _cell(ASSIGN, cool, "", "", found=False)
    assert cell.status == "unverified" and "not shown as No" in cell.reason and cell.answer == ""
    notices = _window(COOL, "H. Counterparts", 0, 200)
    assert not re.search(r"assign|transfer", notices, re.IGNORECASE)
    cell = _cell(ASSIGN, notices, "", "", found=False)
    # a freedom nothing retrieved restricts ("Can a party transfer the agreement ...?") gets no "No" (s27 tryout)
    assert cell.status == "not found" and cell.answer == ""
    audit = GridQuestion(id="audit", question="Does either party have audit rights?", type="yes_no")
    cell = _cell(audit, notices, "", "", found=False)
    assert cell.status == "not found" and cell.answer == "No"


def test_a_stored_not_found_is_rechecked_from_its_reply(tmp_path: Path) -> None:
    """A "No / not found" the model gave under older checks is re-checked without the model: the
    retrieved clause speaks of assignment, so it is no longer shown as "No"."""
    from clauselens.grid import CellStore, GridRow, run_grid
    from clauselens.grid.answer import CHECK_VERSION, fingerprint
    from clauselens.grid.cells import Cell

    passage = _window(COOL, "C. Assignment and Delegation")

    class Lib:
        def search(self, *a, **kw):
            return SearchResult(query="q", passages=[Passage(chunk_id="c1", doc_id="d1", node_id="n1", text=passage,
                                                             spans=[Span(start=0, end=len(passage))])])

    store = CellStore(tmp_path / "c.sqlite")
    fp = fingerprint(ASSIGN, "m")
    store.put(Cell(row_key="r1", question_id=ASSIGN.id, fingerprint=fp, status="not found", answer="No", check="old",
                   reply=CellAnswer(found=False).model_dump()))
    calls: list = []
    stats = run_grid(Lib(), [GridRow(row_key="r1", agreement="A", doc_id="d1")], [ASSIGN], store, model=object(), model_id="m",
                     yes_no_model=True, answer=lambda *a, **kw: calls.append(a))
    (cell,) = store.cells()
    assert not calls and stats.rechecked == 1 and cell.status == "unverified" and cell.check == CHECK_VERSION


def test_jurisdiction_type_and_aliases() -> None:
    from clauselens.grid.questions import parse_questions

    qs = parse_questions("id,question,type\nlaw,Which law governs?,governing law\nforum,Where are disputes heard?,Jurisdiction\n", "csv")
    assert [q.type for q in qs] == ["jurisdiction", "jurisdiction"] and "jurisdiction" in TYPE_HINTS
