"""Issue #45 (brief 5): a user's yes/no grid question decided by the topic and presence heads (no model),
typed everyday questions read again as the topic head's CUAD category, the claim-free yes/no checks,
and the CLI's failure reasons and help width. Every phrasing here is fresh (written for this test, not
a dev or former-blind grid question), over CUAD agreements that neither grid question set uses
(``../shared/data/cuad/full_contract_txt``); the truths were read from the texts by hand."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from clauselens.grid import heads as gh
from clauselens.grid.evidence import yes_no_issue
from clauselens.grid.heads import RowHeads, TopicReading, category_question, head_yes_no, question_topic, row_heads, same_polarity
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import category_rule_cell, checks_category, cross_checked, head_yes_no_cell, rule_cell
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage
from tests.grid.cuad_texts import TXT, needs_texts

DOCS = {
    "COPPER": "WESTERN COPPER - NON-COMPETITION AGREEMENT",
    "MIDDLE": "MIDDLEBROOKPHARMACEUTICALS,INC_03_18_2010-EX-10.1-PROMOTION AGREEMENT",
    "SECURIAN": "SECURIANFUNDSTRUST_05_01_2012-EX-99.28.H.9-NET INVESTMENT INCOME MAINTENANCE AGREEMENT",
    "VIOLIN": "VIOLINMEMORYINC_12_12_2012-EX-10.14-SPONSORSHIP AGREEMENT",
    "WPP": "WPPPLC_04_30_2020-EX-4.28-SERVICE AGREEMENT",
    "MTI": "MTITECHNOLOGYCORP_11_16_2004-EX-10.102-Reseller Agreement Premier Addendum",
}
needs_cuad = needs_texts(TXT / f"{v}.txt" for v in DOCS.values())

#: Fresh everyday phrasings per topic (the CUAD category they are about).
AUDIT = ["Are we allowed to poke around in their accounting records?", "Can one side check the other's financial ledgers?",
         "Do they get to examine our bookkeeping?", "Are they allowed to go over our records to verify the numbers?",
         "Can we see their books to make sure the payments are right?", "Is anyone entitled to send auditors in?"]
COMPETE = ["Is either of us blocked from setting up a rival business?", "Can anyone open a competing shop nearby?",
           "Is one side shut out from competing in the territory?", "Is there a promise not to compete?",
           "Are there limits on doing business against each other?", "Are we stopped from working for their rivals?"]
#: Hand-read truths (None: not asserted): does the agreement let a party audit the other's records /
#: restrict a party from competing?
TRUTH = {
    "Audit Rights": {"COPPER": "No", "MIDDLE": "Yes", "SECURIAN": "No", "VIOLIN": "No", "MTI": "No", "WPP": None},
    "Non-Compete": {"COPPER": "Yes", "SECURIAN": "No", "WPP": "Yes", "MIDDLE": None, "VIOLIN": None, "MTI": None},
}


def _passages(name: str) -> list[Passage]:
    out, pos = [], 0
    text = (TXT / f"{DOCS[name]}.txt").read_text(encoding="utf-8", errors="replace")
    for i, para in enumerate(text.split("\n")):
        if para.strip():
            out.append(Passage(chunk_id=f"{name}-{i}", doc_id=name, node_id=str(i), text=para, spans=[Span(start=pos, end=pos + len(para))],
                               page_start=1, page_end=1, source_path=f"/tmp/{name}.txt"))
        pos += len(para) + 1
    return out


def _base(name: str) -> dict:
    return {"row_key": name, "question_id": "q", "fingerprint": "", "agreement": name, "model": "presence-head"}


def test_topic_head_reads_fresh_phrasings_as_their_category_or_not_at_all() -> None:
    read = {q: question_topic(q) for q in AUDIT + COMPETE}
    wrong = [(q, r.category) for q, r in read.items() if r is not None and r.category != ("Audit Rights" if q in AUDIT else "Non-Compete")]
    assert not wrong
    assert sum(r is not None for r in read.values()) >= 8  # most are read; the rest stay with the other paths
    assert question_topic("What colour is the sky over the ocean today?") is None or True  # no crash on a non-contract question


@needs_cuad
@pytest.mark.parametrize("name", sorted(DOCS))
def test_heads_answer_fresh_yes_no_phrasings_with_the_contracts_answer_or_leave_them(name: str) -> None:
    ps = _passages(name)
    rh = row_heads([p.text for p in ps])
    assert rh is not None
    decided = 0
    for cat, qs in (("Audit Rights", AUDIT), ("Non-Compete", COMPETE)):
        for q in qs:
            cell = head_yes_no_cell(_base(name), GridQuestion(id="q", question=q, type="yes_no"), ps, rh)
            if cell is None or not cell.answer:
                continue
            decided += 1
            want = TRUTH[cat][name]
            assert want is None or cell.answer == want, (name, q, cell.answer, cell.reason)
            assert cell.status == ("answered" if cell.answer == "Yes" else "not found")
            assert "(no model)" in cell.reason
            if cell.answer == "Yes":  # the quote is a sentence of the agreement, not a heading
                assert len(cell.quote.split()) >= gh.MIN_QUOTE_WORDS and cell.quote in " ".join(" ".join(p.text for p in ps).split())
    if name in ("COPPER", "MIDDLE", "SECURIAN"):
        assert decided >= 4, name


def _fake_rh(score: float, threshold: float = 0.8) -> RowHeads:
    return RowHeads(["Audit Rights"], {"Audit Rights": score}, {"Audit Rights": threshold}, np.array([[0.1], [0.9], [0.2]]))


TEXTS = ["MASTER AGREEMENT between Alder Ltd and Birch Inc.",
         "7. Records. Birch shall keep complete books and records, and Alder may inspect and audit them once a year on notice.",
         "9. Law. This Agreement is governed by the laws of Ontario."]


def test_presence_bands_yes_no_and_unclear(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gh, "question_topic", lambda q: TopicReading("Audit Rights", 0.95))
    monkeypatch.setattr(gh, "_absent_below", lambda c: 0.3)
    monkeypatch.setattr(gh, "best_sentence", lambda texts, rh, c: (1, 0, len(texts[1])))
    q = "Can the supplier's ledgers be looked at by the other side?"
    assert head_yes_no(q, TEXTS, _fake_rh(0.9)).answer == "Yes"  # type: ignore[union-attr]
    assert head_yes_no(q, TEXTS, _fake_rh(0.1)).answer == "No"  # type: ignore[union-attr]
    unsure = head_yes_no(q, TEXTS, _fake_rh(0.5))
    assert unsure is not None and unsure.answer == "" and "unsure" in unsure.reason
    monkeypatch.setattr(gh, "_absent_below", lambda c: None)  # a kind with neither absence line: never "No" from the head
    monkeypatch.setattr(gh, "absent_line", lambda c: None)
    assert head_yes_no(q, TEXTS, _fake_rh(0.01)).answer == ""  # type: ignore[union-attr]
    assert head_yes_no(q, TEXTS, None) is None


def test_unclear_band_is_unverified_unless_a_sentence_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gh, "question_topic", lambda q: TopicReading("Audit Rights", 0.95))
    monkeypatch.setattr(gh, "_absent_below", lambda c: 0.3)
    ps = [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=100 * i, end=100 * i + len(t))], page_start=1,
                  page_end=1) for i, t in enumerate(TEXTS)]
    cell = head_yes_no_cell(_base("d"), GridQuestion(id="q", question="Are the clouds purple on Tuesdays?", type="yes_no"), ps, _fake_rh(0.5))
    assert cell is not None and cell.status == "unverified" and cell.answer == "" and "unsure" in cell.reason
    # a sentence that states the right decides what the head leaves open
    cell = head_yes_no_cell(_base("d"), GridQuestion(id="q", question="Can Alder audit the books and records?", type="yes_no"), ps,
                            _fake_rh(0.5))
    assert cell is not None and cell.status == "answered" and cell.answer == "Yes" and "audit" in cell.quote


@pytest.mark.parametrize("question", [
    "Can they hand the deal to another firm without checking with us?", "Could either side pass this contract on with no sign-off?",
    "Is it fine to transfer the agreement without the other's OK?", "Can we move the contract to a buyer without asking?",
    "Can a party sell its position in the deal without permission?", "Is the agreement transferable without anyone's blessing?",
    "Can the agreement go to a new owner without the other side agreeing?", "Could the contract be handed off without notice or consent?",
    "May one side give the contract away without telling the other?", "Can they offload the agreement without consent?",
])
def test_a_question_about_a_lack_is_not_decided_by_a_restriction_category(question: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anti-Assignment's CUAD question asks whether consent is required; "without consent?" asks the opposite."""
    assert not same_polarity(question, "Is consent or notice required for a party to assign this contract to a third party?")
    monkeypatch.setattr(gh, "question_topic", lambda q: TopicReading("Anti-Assignment", 0.9))
    rh = RowHeads(["Anti-Assignment"], {"Anti-Assignment": 0.99}, {"Anti-Assignment": 0.5}, np.array([[0.9]]))
    assert head_yes_no(question, ["Neither party may assign this Agreement without consent."], rh) is None


def test_same_polarity_keeps_a_lack_question_on_a_lack_category() -> None:
    tfc = "Can a party terminate this contract without cause, solely by giving notice?"
    for q in ("Can either side pull out with no reason given?", "Could we leave the deal without any excuse?",
              "Can they cancel whenever without cause?"):
        assert same_polarity(q, tfc), q
    assert not same_polarity("Can either side pull out early?", tfc)


#: Fresh unconditional questions with quotes that tie the right to the other party's conduct (never "Yes").
UNCONDITIONAL_CASES = [
    ("Can either side just leave whenever it wants?", "Either party may terminate this Agreement if the other party breaches it."),
    ("Could they drop the deal at any time, no cause needed?", "Licensor may terminate immediately upon a material breach by Licensee."),
    ("Can someone quit for no reason at all?", "The Company may end this Agreement should the other party become insolvent."),
    ("May a party get out whenever, no excuse required?", "In the event the other party fails to pay, either party may terminate."),
    ("Can we walk with no justification?", "Either party may terminate for cause upon thirty days notice."),
    ("Can one side bail at will?", "A party may terminate where the other party is in default."),
    ("Is it possible to cancel without any reason?", "Supplier may cancel any order if the other party fails to perform."),
    ("Can the buyer back out whenever it likes?", "Buyer may terminate upon breach of the warranties."),
    ("Could either of us end it at any time with no reason?", "Either party may terminate without notice should the other party fail to cure."),
    ("Can they leave the arrangement whenever, no cause?", "Seller may terminate if any party commits a material breach."),
]


@pytest.mark.parametrize(("question", "quote"), UNCONDITIONAL_CASES)
def test_unconditional_question_is_not_shown_yes_by_a_for_cause_quote(question: str, quote: str) -> None:
    assert yes_no_issue(question, "Yes", quote)
    # the same quote with its own unconditional wording may show it
    assert "conduct" not in yes_no_issue(question, "Yes", quote.rstrip(".") + ", or for convenience at any time.")


@pytest.mark.parametrize(("question", "quote", "bad"), [
    ("Does anyone get sole rights here?", "Distributor is appointed as a non-exclusive distributor of the Products.", False),
    ("Is either side handed exclusive rights?", "Licensee receives a non-exclusive licence to the Software.", True),
    ("Is somebody given an exclusive territory?", "The territory granted is nonexclusive.", True),
    ("Are exclusive distribution rights granted?", "Reseller shall have non-exclusive distribution rights in Canada.", True),
    ("Does the agent get exclusivity?", "The Agent's appointment is non-exclusive and the Company may appoint others.", True),
    ("Is the licence an exclusive one?", "Licensor grants an exclusive licence in the Field.", False),
    ("Is anyone barred from running a competing company?", "Executive gives a non-compete undertaking and shall not run a competing "
                                                            "business.", False),
    ("Is the deal transferable to affiliates?", "This Agreement is non-transferable except to Affiliates.", True),
    ("Is there an exclusive supply arrangement?", "Purchaser shall buy all of its requirements exclusively from Supplier.", False),
    ("Do they get exclusive marketing rights?", "MBRK has non-exclusive rights to market the product.", True),
])
def test_a_non_word_is_the_opposite_of_the_question_word(question: str, quote: str, bad: bool) -> None:
    issue = yes_no_issue(question, "Yes", quote)
    assert bool(issue) if bad else "the quote says non-" not in issue, issue


@needs_cuad
@pytest.mark.parametrize("question", [
    "Each time it extends itself, for how long?", "When the deal auto-extends, how long is the new stretch?",
    "Every time it keeps going on its own, for what period?", "How long does each automatic extension run?",
    # no renewal word and no topic-head category (P < 0.5): the question's own words find the initial term, 3 years, which no
    # term or renewal reader confirms, so it is left unverified (before: answered 3 years)
    "If nobody stops it, how long does it carry on each time?",
    "For how long does it keep extending by itself?",
    "What's the length of each self-extension?", "When it carries on automatically, for how long each round?",
    "How long is each further period if it just continues?", "Once it extends on its own, how long does that last?",
])
def test_typed_everyday_question_read_as_its_category_gives_the_contracts_value_or_nothing(question: str) -> None:
    """MTI's addendum renews for successive one-year terms (read by hand)."""
    ps = _passages("MTI")
    rh = row_heads([p.text for p in ps])
    q = GridQuestion(id="q", question=question, type="duration")
    first = rule_cell(_base("MTI"), q, ps)
    cell = cross_checked(first, category_rule_cell(_base("MTI"), q, ps, rh) if checks_category(first) else None)
    if cell.status == "answered" and cell is first:
        assert first.answer == "1 year", (question, first.answer)
    elif cell.status == "answered":
        assert cell.answer == "1 year" and cell.reason.startswith("the question reads as one about"), (question, cell.answer)
        assert cell.quote and "1" in cell.quote or "one" in cell.quote.lower()


def test_jurisdiction_and_preset_questions_are_not_read_as_a_category() -> None:
    """CUAD's one jurisdiction category is Governing Law; a courts question is not about it."""
    assert category_question(GridQuestion(id="q", question="Where would a lawsuit be heard?", type="jurisdiction")) is None
    assert category_question(GridQuestion(id="q", question="Whose laws rule this deal?", type="jurisdiction")) is None
    assert category_question(GridQuestion(id="q", question="When does it renew?", type="duration", category="Renewal Term")) is None
    assert category_question(GridQuestion(id="q", question="When does it renew?", type="duration", terms=["renew"])) is None
    for q in ("How much heads-up to get out of the deal early?", "How many days' warning to walk away?",
              "What day did the bosses put their names on it?"):
        got = category_question(GridQuestion(id="q", question=q, type="date" if "day did" in q else "duration"))
        assert got is None or got[1].category not in gh.NOT_READ_AS, (q, got)


def test_cli_failure_reasons_are_said_once_with_their_count() -> None:
    from clauselens.interfaces.grid_commands import failure_reasons

    cells = [SimpleNamespace(status="error", reason="cannot reach model server at http://x/v1"),
             SimpleNamespace(status="error", reason="cannot reach model server at http://x/v1"),
             SimpleNamespace(status="answered", reason=""), SimpleNamespace(status="error", reason="contract unreadable")]
    assert failure_reasons(cells) == [("cannot reach model server at http://x/v1", 2), ("contract unreadable", 1)]


def test_grid_help_is_not_cut_at_80_columns() -> None:
    from typer.testing import CliRunner

    from clauselens.cli import app

    res = CliRunner().invoke(app, ["grid", "--help"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert res.exit_code == 0 and "--presence" in res.output
    assert "…" not in res.output, [line for line in res.output.splitlines() if "…" in line]


@pytest.mark.parametrize(("text", "iso"), [
    ("made as of July 11 , 2006 (the \"Effective Date\")", "2006-07-11"), ("dated March 3 , 2011 between", "2011-03-03"),
    ("effective the 1st day of October , 2008", "2008-10-01"), ("signed on 4 April , 2003 by", "2003-04-04"),
    ("as of Dec. 31 , 1999", "1999-12-31"), ("on May 8, 2014", "2014-05-08"),
])
def test_a_space_before_the_dates_comma_still_reads_the_date(text: str, iso: str) -> None:
    """Some filings write "July 11 , 2006": the preamble rule read the date, the quote check did not (former blind set)."""
    from clauselens.grid.values import check_value, dates_in

    assert [d.isoformat() for d in dates_in(text)] == [iso]
    assert check_value("date", iso, text).reason == ""


@needs_cuad
def test_cli_against_an_unreachable_server_computes_rule_cells_and_says_the_reason_once(tmp_path: Path,
                                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Tryout (brief 5): rule-decided cells need no model server; each failure's reason is printed once."""
    import csv
    import shutil
    import socket

    from typer.testing import CliRunner

    from clauselens.cli import app

    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")
    (tmp_path / "docs").mkdir()
    for name in ("MTI", "COPPER"):
        shutil.copy(TXT / f"{DOCS[name]}.txt", tmp_path / "docs" / f"{name.lower()}.txt")
    (tmp_path / "q.yaml").write_text('- {id: rules, type: jurisdiction, question: "Whose laws does this deal follow?"}\n'
                                     '- {id: handover, type: yes_no, question: "Can we pass this deal to another company without asking?"}\n')
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = CliRunner().invoke(app, ["grid", str(tmp_path / "docs"), "-q", str(tmp_path / "q.yaml"), "-o", str(tmp_path / "out.csv"),
                                   "--base-url", f"http://127.0.0.1:{port}/v1", "--library", "h3-test", "--yes-no-model"])
    assert "Traceback" not in res.output
    flat = " ".join(res.output.split())
    assert "1 cell(s) failed" in flat and flat.count("cannot reach model server") == 1 and "- 1 cell(s): cannot reach" in flat, flat
    with open(tmp_path / "out.csv", newline="", encoding="utf-8") as f:
        rows = {r["file"]: r for r in csv.DictReader(f)}
    assert rows["mti.txt"]["rules status"] == "answered" and rows["mti.txt"]["rules"]  # by rule, no server
    # MTI 12.5: "Neither party will assign this Agreement ... without the prior written consent of the other party" -- by rule;
    # COPPER's cell needs the model
    assert (rows["mti.txt"]["handover status"], rows["mti.txt"]["handover"]) == ("answered", "No")
    assert rows["copper.txt"]["handover status"] == "error"
    # without --yes-no-model (the default) the cell the rules leave open is unverified, no server needed
    res = CliRunner().invoke(app, ["grid", str(tmp_path / "docs"), "-q", str(tmp_path / "q.yaml"), "-o", str(tmp_path / "open.csv"),
                                   "--base-url", f"http://127.0.0.1:{port}/v1", "--library", "h3-test"])
    assert res.exit_code == 0 and "cannot reach model server" not in res.output, res.output
    with open(tmp_path / "open.csv", newline="", encoding="utf-8") as f:
        rows = {r["file"]: r for r in csv.DictReader(f)}
    assert rows["copper.txt"]["handover status"] == "unverified" and rows["mti.txt"]["handover"] == "No"
