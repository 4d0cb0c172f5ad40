"""Issue #45: typed grid cells read by rule from the agreement's sentences (no model), and yes/no
from the evidence, on real CUAD contracts (``../shared/data/cuad/full_contract_txt``). The rule is
run on many phrasings of each ask (:mod:`tests.grid.question_gen`): it may decline to answer, but
an answered value is the contract's, and it is in its quote."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.grid.answer import instructions
from clauselens.grid.cells import Cell, CellStore
from clauselens.grid.evidence import echo_issue
from clauselens.grid.extract import read_front_date, read_parties, read_typed, sentence_units, topic_groups
from clauselens.grid.questions import GridQuestion, preset
from clauselens.grid.rule import RULE_MODEL, rule_cell, uses_rule, yes_no_cell
from clauselens.grid.runner import GridRow, run_grid
from clauselens.grid.values import check_value
from clauselens.grid.yes_no import claim_object, read_yes_no
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage, SearchResult
from tests.grid.cuad_texts import TXT, needs_texts

from .question_gen import ASKS, phrasings

DOCS = {
    "ADIA": "ADIANUTRITION,INC_04_01_2005-EX-10.D2-RESELLER AGREEMENT",
    "COOL": "COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71-Strategic Alliance Agreement",
    "DRIVEN": "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT",
    "MOVADO": "MOVADOGROUPINC_04_30_2003-EX-10.28-ENDORSEMENT AGREEMENT",
}
pytestmark = needs_texts(TXT / f"{v}.txt" for v in DOCS.values())

#: What each contract states (read from the texts by hand; None: the contract states no such value).
TRUTH: dict[str, dict[str, str | None]] = {
    "law": {"ADIA": "California", "COOL": "Missouri", "DRIVEN": "California", "MOVADO": "New York"},
    "quit_notice": {"ADIA": "30 days", "COOL": "60 days", "DRIVEN": "30 days", "MOVADO": None},
    "fee": {"ADIA": None, "COOL": None, "DRIVEN": "$18,000 per month"},
    "cure": {"ADIA": "30 days", "COOL": None, "DRIVEN": None},
}


def _paragraphs(name: str) -> list[str]:
    text = (TXT / f"{DOCS[name]}.txt").read_text(encoding="utf-8", errors="replace")
    return [p for p in text.split("\n") if p.strip()]


def _passages(name: str) -> list[Passage]:
    out, pos = [], 0
    text = (TXT / f"{DOCS[name]}.txt").read_text(encoding="utf-8", errors="replace")
    for i, para in enumerate(text.split("\n")):
        if para.strip():
            out.append(Passage(chunk_id=f"{name}-{i}", doc_id=name, node_id=str(i), text=para, spans=[Span(start=pos, end=pos + len(para))],
                               page_start=1, page_end=1, source_path=f"/tmp/{name}.txt"))
        pos += len(para) + 1
    return out


@pytest.mark.parametrize("ask", sorted(TRUTH))
def test_every_phrasing_answers_the_contracts_value_or_nothing(ask: str) -> None:
    """Dozens of phrasings per ask: an answer is always the contract's value; most phrasings answer."""
    qs = list(phrasings(ask))
    assert len(qs) >= 12
    for name, want in TRUTH[ask].items():
        paras = _paragraphs(name)
        got = [read_typed(t, q, paras) for q, t in qs]
        wrong = [(q, r.value) for (q, _), r in zip(qs, got) if r.value and r.value != want]
        assert not wrong, (name, wrong[:3])
        if want is not None:
            assert sum(1 for r in got if r.value == want) >= len(qs) // 6, (ask, name)
        for r in got:  # the value is in the sentence it was read from
            if r.candidate is not None:
                sentence = paras[r.candidate.passage][r.candidate.start:r.candidate.end]
                assert not check_value(ASKS[ask][0], r.value, sentence).reason


def test_rule_cell_quotes_the_sentence_and_never_echoes_the_prompt() -> None:
    q = GridQuestion(id="law", question="Which state's or country's law applies to the agreement?", type="jurisdiction")
    assert uses_rule(q)
    cell = rule_cell({"row_key": "r", "question_id": q.id, "fingerprint": "f", "model": RULE_MODEL}, q, _passages("COOL"))
    assert cell.status == "answered" and cell.answer == "Missouri" and "laws of the State of Missouri" in cell.quote
    full = (TXT / f"{DOCS['COOL']}.txt").read_text(encoding="utf-8", errors="replace")
    (a, b), = cell.quote_spans
    assert " ".join(full[a:b].split()) == cell.quote  # document offsets point at the quote
    assert not echo_issue(cell.answer, cell.quote, instructions(q))
    # ending it without a reason: the at-will sentence's 60 days, not the 30 days' notice to stop the renewal (2026-12-06)
    notice = GridQuestion(id="quit_notice", question="How much warning must a party give to end the agreement early without a reason?",
                          type="duration")
    will = rule_cell({"row_key": "r", "question_id": "quit_notice", "fingerprint": "f"}, notice, _passages("COOL"))
    assert will.status == "answered" and will.answer == "60 days" and "at any time" in will.quote, will
    # several different values on topic: unverified, nothing shown
    ending = GridQuestion(id="end_notice", question="How much notice is needed to end the agreement?", type="duration")
    amb = rule_cell({"row_key": "r", "question_id": "end_notice", "fingerprint": "f"}, ending, _passages("COOL"))
    assert amb.status == "unverified" and amb.answer == "" and "60 days" in amb.reason and "30 days" in amb.reason, amb
    # how long it lasts: the term's 5 years, not the non-solicit's "six (6) months following expiration or termination" -- a value
    # for a reviewer only: "shall expire on the later of (i) five (5) years from the date hereof, or (ii) ..." is found by the
    # question's word "last", and no term reader confirms it (issue #45, 2026-12-07)
    how_long = GridQuestion(id="how_long", question="How long does the agreement last?", type="duration")
    lasts = rule_cell({"row_key": "r", "question_id": "how_long", "fingerprint": "f"}, how_long, _passages("COOL"))
    assert (lasts.status, lasts.answer, lasts.candidate) == ("unverified", "", "5 years") and "five (5) years" in lasts.model_quote
    # nothing on topic states a value: not found
    cap = GridQuestion(id="cap", question="What is the most a party can be made to pay in damages?", type="amount")
    assert rule_cell({"row_key": "r", "question_id": "cap", "fingerprint": "f"}, cap, _passages("DRIVEN")).status == "not found"


def test_parties_and_the_agreements_date_from_the_preamble() -> None:
    r = read_parties(_paragraphs("DRIVEN")[:2])
    assert r.value == "Driven Deliveries, Inc.; TruckThat LLC"
    movado = read_parties(_paragraphs("MOVADO")[:4])
    assert "Movado Group" in movado.value and "Grinberg Family Trust" in movado.value
    d = read_front_date(_paragraphs("DRIVEN")[:2])
    assert d.value == "2019-05-01"
    assert read_front_date(_paragraphs("ADIA")[:3]).value == ""  # "___ day of _____, 2004": left blank, no date


def test_yes_no_from_the_evidence() -> None:
    assign = "Can a party transfer the agreement to someone else without the other's consent?"
    cool = read_yes_no(assign, _paragraphs("COOL"))
    assert cool.answer == "No" and "Neither party shall assign" in _paragraphs("COOL")[cool.passage]
    driven = read_yes_no(assign, _paragraphs("DRIVEN"))  # the Consultant may not, the Company may: "a party" can
    assert driven.answer == "Yes" and "Company may assign this Agreement without" in _paragraphs("DRIVEN")[driven.passage]
    audit = "Can a party inspect or audit the other's books and records?"
    assert read_yes_no(audit, _paragraphs("ADIA")).answer == "Yes"
    nothing = read_yes_no(audit, _paragraphs("COOL"))
    assert nothing.answer == "No" and nothing.passage == -1 and "no sentence" in nothing.reason
    # a question with no action in the lexicon is left to the model
    assert read_yes_no("Is either party given exclusive rights?", _paragraphs("ADIA")).answer == ""
    assert claim_object("a party may inspect or audit the other's books and records") == "book"
    cell = yes_no_cell({"row_key": "r", "question_id": "a", "fingerprint": "f"},
                       GridQuestion(id="a", question=audit, type="yes_no"), _passages("COOL"))
    assert cell is not None and cell.status == "not found" and cell.answer == "No"


def test_topic_groups_merge_alternatives_and_lay_phrases() -> None:
    groups = [g.name for g in topic_groups("Can a party inspect or audit the other's books?")]
    assert "audit|inspect" in groups and "audit" not in groups  # "inspect or audit": one group of alternatives
    quit_groups = [g.name for g in topic_groups("How much warning must a party give to end the agreement early without a reason?")]
    assert "concept:termination for convenience" in quit_groups and "earli" not in quit_groups
    pct = {g.name: g.required for g in topic_groups("What percentage commission applies?")}
    assert pct.get("percentag") is False  # the value's type word is covered by the value itself
    text = "This Agreement shall be earlier terminated (x) by mutual agreement of the parties, or (y) at any time upon sixty days notice."
    assert len(sentence_units(text)) == 1  # an inline list item stays in its sentence


def test_runner_reads_typed_columns_without_the_model(tmp_path: Path) -> None:
    passages = _passages("DRIVEN")

    class Catalogue:
        def rows_of(self, ids):
            return list(range(len(passages)))

        def passages(self, rows):
            from clauselens.parsing.types import Chunk

            return [Chunk(id=p.chunk_id, kind="node", doc_id=p.doc_id, node_id=p.node_id, text=p.text, spans=p.spans, page_start=1, page_end=1,
                          source_path=p.source_path) for p in passages]

    class Lib:
        catalogue = Catalogue()

        def search(self, question, k=5, **kw):  # retrieval's ranking (tests/grid/test_corroborate.py): document order here
            return SearchResult(query=question, passages=passages[:k])

    qs = [GridQuestion(id="law", question="Which state's law governs the agreement?", type="jurisdiction"),
          GridQuestion(id="fee", question="How much money must be paid under the agreement?", type="amount")]
    store = CellStore(tmp_path / "c.sqlite")
    calls: list = []
    stats = run_grid(Lib(), [GridRow(row_key="r1", agreement="D", doc_id="DRIVEN")], qs, store, model=object(), model_id="m",
                     answer=lambda *a, **kw: calls.append(a))
    cells: dict[str, Cell] = {c.question_id: c for c in store.cells()}
    assert not calls and stats.computed == 2
    assert cells["law"].answer == "California" and cells["law"].model == RULE_MODEL
    assert cells["fee"].answer == "$18,000 per month" and "flat fee" in cells["fee"].quote
    again = run_grid(Lib(), [GridRow(row_key="r1", agreement="D", doc_id="DRIVEN")], qs, store, model=object(), model_id="m",
                     answer=lambda *a, **kw: calls.append(a))
    assert again.reused == 2 and again.computed == 0


def test_cuad_preset_typed_columns_use_the_rule() -> None:
    typed = [q for q in preset("cuad") if uses_rule(q)]
    assert {q.category for q in typed} >= {"Parties", "Agreement Date", "Effective Date", "Renewal Term", "Governing Law"}


def test_rules_that_keep_a_value_to_its_own_words() -> None:
    """Each rule on real contract wording (the CUAD TXT files): the value a reader would point at."""
    from clauselens.grid.extract import notice_like, preamble_date_kind

    renew = [p for p in _paragraphs("COOL") if "automatically renewed" in p]
    # the renewal term is the period after "renewed", not the "thirty (30) days prior" notice
    assert read_typed("duration", "If the agreement renews by itself, for how long each time?", renew).value == "1 year"
    assert read_typed("duration", "How much notice stops the automatic renewal?", renew).value == "30 days"
    text = renew[0]
    at = text.index("thirty")
    assert notice_like(text, at, at + len("thirty (30) days"))
    # a US state is the jurisdiction even when the sentence also says USA
    law = ["This Agreement shall be governed by and construed in accordance with the laws of the State of Nevada, USA."]
    assert read_typed("jurisdiction", "Which law governs the agreement?", law).value == "Nevada"
    # "government" is no "governing" word; a company's place of organisation is no governing law
    org = ["Acme is a corporation organized under the laws of the State of Delaware and complies with government rules."]
    assert read_typed("jurisdiction", "Governing Law", org).value == ""
    # a definition and a recital state meanings and background, not the agreement's terms
    defs = ['1.21 "Fiscal Year" means each successive period of twelve (12) months commencing on April 1.',
            "WHEREAS, the prior agreement expired on May 28, 2016;"]
    assert read_typed("duration", "Renewal Term", defs).value == "" and read_typed("date", "Expiration Date", defs).value == ""
    # the date after "until" is the end's, not the start's
    start = ["Services shall be performed from the Effective Date until December 31, 2018 (the initial Services Term)."]
    assert read_typed("date", "When does the agreement take effect?", start).value == ""
    assert read_typed("date", "Expiration Date", start).value == "2018-12-31"
    assert preamble_date_kind("When was this agreement signed?") == "made"
    assert preamble_date_kind("From what date does the agreement take effect?") == "effective"
    assert preamble_date_kind("On what date does the agreement end?") == ""
    # an amendment's own date, not the base agreement's "dated ..." it amends
    amend = ['This Amendment No. 1 (the "Amendment"), entered into by and between Heritage Foods, LLC ("Heritage") and Premier '
             'Nutrition Corporation ("Premier") is effective as of June 11, 2018 ("Amendment Effective Date") and amends the '
             "Supply Agreement dated July 1, 2017."]
    assert read_front_date(amend, prefer="effective").value == "2018-06-11"
