"""The scoring rules of ``benchmarks/answers_e2e.py`` (issue #19's end-to-end answers benchmark):
the fixed sample, key facts, and which claims each rule shows as facts."""

from __future__ import annotations

import pytest

from benchmarks.answers_e2e import ANSWERABLE, key_facts, sample, score, states
from benchmarks.clause_qa import DEV, load_questions

pytestmark = pytest.mark.skipif(not (DEV / "questions.jsonl").exists(), reason="clause-QA dev set not present")


def test_the_sample_is_fixed_and_stratified():
    qs = load_questions()
    a, b = sample(qs), sample(qs)
    assert [q["id"] for q in a] == [q["id"] for q in b] and len(a) == 40
    for kind in ANSWERABLE:
        assert sum(q["type"] == kind for q in a) == 10
    assert sum(q["id"].endswith("-un-1") for q in a) == 5 and sum(q["id"].endswith("-un-2") for q in a) == 5


def test_key_facts_are_the_reference_numbers_not_clause_references():
    assert key_facts("within three (3) days, under Section 11.03, for $4.41/kg or 2.5%") == ["3", "4.41", "2.5"]
    assert key_facts("a minimum of $1,250,000 per year, rising 3%") == ["1250000", "3"]
    assert states("6", "six months' notice") and states("1250000", "$1,250,000.00")
    assert not states("3", "Section 3.3 applies") and not states("30", "300 days")


def _row(answer: str, findings: list[dict], silent: bool = False, check: str | None = None) -> dict:
    row = {"id": "x-ex-1", "type": "exact", "question": "q", "answer": answer, "conclusion": "", "documents_silent": silent,
           "verification": "verified", "findings": findings, "wall_seconds": 1.0, "llm_calls": 5,
           "resolution": "resolved", "resolved_files": ["cuad/x.txt"]}
    if check:
        row["answer_check"] = {"support": check}
    return row


def _finding(statement: str, fact: bool, span=(0, 10)) -> dict:
    return {"statement": statement, "support": "supported" if fact else "contradicted", "grounded": True,
            "cited_fact": fact, "citations": [{"file_path": "cuad/x.txt", "spans": [list(span)], "quote": "q",
                                               "clause_ref": "1", "id": "C1"}]}


def test_the_three_rules_count_unsupported_claims_shown_as_facts():
    q = {"x-ex-1": {"id": "x-ex-1", "type": "exact", "reference_answer": "Within 3 days.",
                    "gold": [{"file_path": "cuad/x.txt", "span": [5, 50]}]}}
    rows = [_row("Accepted when NTC acknowledges it.", [_finding("When is an order accepted?", True),
                                                        _finding("It is deemed accepted after 3 days.", False)],
                 check="contradicted")]
    labels = {"x-ex-1#0": False, "x-ex-1#1": True, "x-ex-1#answer": False}
    s = score(rows, q, labels)
    # before #19: every verified quote is a fact and the answer reads as settled
    assert s["before_19"]["claims"]["shown_as_fact"] == 3 and s["before_19"]["claims"]["unsupported_shown_as_fact"] == 2
    # the run: the model's verdict took finding 1 off; the question-finding and the answer stayed
    assert s["run"]["claims"]["shown_as_fact"] == 2 and s["run"]["claims"]["unsupported_shown_as_fact"] == 2
    # replayed: the question is no claim and the answer check rejected the answer
    assert s["replayed"]["claims"]["shown_as_fact"] == 0 and s["replayed"]["exact"]["abstained"]["x"] == 1
    per = s["questions"][0]
    assert per["run"]["grounded_on_gold"] and not per["run"]["correct"]  # "3" is not stated by a fact
    assert per["before_19"]["correct"]


def test_the_replay_applies_the_deterministic_checks_and_labels_follow_their_claim():
    q = {"x-ex-1": {"id": "x-ex-1", "type": "exact", "reference_answer": "Two years' written notice.",
                    "gold": [{"file_path": "cuad/x.txt", "span": [0, 50]}]}}
    quote = "Either Party may terminate this Agreement, without cause, by giving two (2) years written notice."
    f = _finding("Either party may terminate without cause within two years.", True)
    f["citations"][0]["quote"] = quote
    row = _row("Either party may terminate on two years' written notice.", [f])
    row["parties"] = {"cuad/x.txt": ["PUROLATOR COURIER LTD.", "Dynamex Inc."]}
    labels = {"x-ex-1#0": {"supports": False, "claim": f["statement"]}, "x-ex-1#answer": True}
    s = score([row], q, labels)
    assert s["run"]["claims"]["shown_as_fact"] == 2 and s["run"]["claims"]["unsupported_shown_as_fact"] == 1
    # the notice period read as a time limit: the finding is no fact, and with no fact left the answer is not shown
    assert s["replayed"]["claims"]["shown_as_fact"] == 0
    # a label written for another text of the same key does not count
    s = score([row], q, {"x-ex-1#0": {"supports": False, "claim": "something else"}})
    assert s["run"]["claims"]["unlabelled"] == 2 and s["run"]["claims"]["unsupported_shown_as_fact"] == 0


def test_the_replay_shows_no_fact_of_a_question_resolved_as_uncertain():
    """Run 2's dxk-para-1: five candidate agreements searched, a supported quote of the wrong one shown as fact."""
    q = {"x-ex-1": {"id": "x-ex-1", "type": "exact", "reference_answer": "The laboratory decides.",
                    "gold": [{"file_path": "cuad/x.txt", "span": [0, 50]}]}}
    f = _finding("The Reseller shall give feedback on one percent of the consumed tests.", True)
    f["citations"][0]["quote"] = "4.11 The Reseller shall provide feedback for at least one percent (1%) of the consumed tests."
    row = _row("The Reseller shall give feedback on one percent of the consumed tests.", [f])
    row.update(resolution="uncertain", resolved_files=["cuad/y.txt", "cuad/x.txt"])
    s = score([row], q, {"x-ex-1#0": False, "x-ex-1#answer": False})
    assert s["run"]["claims"]["unsupported_shown_as_fact"] == 2
    assert s["replayed"]["claims"]["shown_as_fact"] == 0 and s["replayed"]["exact"]["abstained"]["x"] == 1
    # one candidate only ("uncertain" in a small library): the rule needs several
    row["resolved_files"] = ["cuad/x.txt"]
    assert score([row], q, {})["replayed"]["claims"]["shown_as_fact"] == 2


def test_an_unconfirmed_finding_of_the_candidate_the_question_names_counts_as_a_fact():
    """blind3 lec-para-2: "uncertain" over several candidates, the quote from the one whose party the question names."""
    from benchmarks.answers_e2e import candidate_facts

    f = _finding("Payment terms are 30 days net.", False)
    f.update(support="unconfirmed", citations=[{**f["citations"][0], "file_path": "cuad/lec.txt"}])
    row = _row("30 days net.", [f])
    row.update(resolution="uncertain", resolved_files=["cuad/lec.txt", "cuad/other.txt"], question="Who pays a Leclanché invoice?",
               parties={"cuad/lec.txt": ["LECLANCHÉ S.A."], "cuad/other.txt": ["Oak Ridge Inc."]}, party_aliases={})
    assert candidate_facts(row) == [True]
    row["question"] = "Who pays an invoice?"
    assert candidate_facts(row) == [False]


def test_the_label_sheet_lists_unlabelled_claims_without_verdicts():
    from benchmarks.answers_e2e import label_sheet

    f = _finding("It is deemed accepted after 3 days.", False)
    rows = [_row("Unverified (the model's reading, not backed by a supporting quote): Accepted after 3 days.", [f])]
    sheet = label_sheet(rows, {"x-ex-1#0": True})
    assert [x["key"] for x in sheet] == ["x-ex-1#answer"]
    assert sheet[0]["claim"] == "Accepted after 3 days." and sheet[0]["quotes"] == ["q"] and "support" not in sheet[0]
    assert sheet[0]["sources"] == ["cuad/x.txt"]
    # a label naming the answer's text (without the "Unverified" mark) counts for it
    q = {"x-ex-1": {"id": "x-ex-1", "type": "exact", "reference_answer": "3 days.", "gold": []}}
    labels = {"x-ex-1#0": True, "x-ex-1#answer": {"supports": False, "claim": "Accepted after 3 days."}}
    assert label_sheet(rows, labels) == [] and score(rows, q, labels)["hand_labels"]["labelled"] == 2


def test_the_sample_is_asked_kind_by_kind():
    from benchmarks.answers_e2e import interleaved

    chosen = sample(load_questions())
    order = interleaved(chosen)
    assert sorted(q["id"] for q in order) == sorted(q["id"] for q in chosen)
    assert [q["type"] for q in order[:4]] == [*ANSWERABLE, "unanswerable"]


def test_the_held_out_sample_has_the_same_shape_and_no_question_of_the_fixed_one():
    from collections import Counter

    from benchmarks.answers_e2e import sample

    qs = ([{"id": f"a{i}-ex-1", "type": "exact"} for i in range(30)]
          + [{"id": f"a{i}-def-1", "type": "defined_term"} for i in range(20)]
          + [{"id": f"a{i}-para-1", "type": "paraphrase"} for i in range(30)]
          + [{"id": f"a{i}-un-{j}", "type": "unanswerable"} for i in range(10) for j in (1, 2)])
    fixed, held = sample(qs), sample(qs, holdout=True)
    assert not {q["id"] for q in fixed} & {q["id"] for q in held}
    shape = Counter(q["type"] for q in fixed)
    assert shape == Counter(q["type"] for q in held) == {"exact": 10, "defined_term": 10, "paraphrase": 10,
                                                          "unanswerable": 10}
    assert sum(q["id"].endswith("-un-2") for q in held) == 5 and sample(qs, holdout=True) == held
    rest = sample(qs, rest=True)  # every question in neither sample
    assert {q["id"] for q in rest} == {q["id"] for q in qs} - {q["id"] for q in fixed + held}
    assert Counter(q["type"] for q in rest) == {"exact": 10, "paraphrase": 10}


def test_the_quotes_rule_shows_the_quotes_as_facts_and_checks_them_against_the_source(tmp_path, monkeypatch):
    """``Settings.facts = "quotes"`` (issue #19): the facts are the quotes, checked against the corpus
    file at their spans and against the clause number they print; statements and answer are readings."""
    import benchmarks.answers_e2e as e2e

    text = "1.1 Term. This Agreement lasts three (3) years. 1.2 Notice. Either party may end it on 30 days' notice."
    (tmp_path / "cuad").mkdir()
    (tmp_path / "cuad" / "x.txt").write_text(text, encoding="utf-8")
    monkeypatch.setattr(e2e, "CORPUS", tmp_path)
    e2e._corpus_text.cache_clear()
    a, b = text.index("1.2"), len(text)
    q = {"x-ex-1": {"id": "x-ex-1", "type": "exact", "reference_answer": "30 days' notice.",
                    "gold": [{"file_path": "cuad/x.txt", "span": [a, b]}]}}
    f = _finding("Either party may end it on 60 days' notice.", True, span=(a, b))
    f["citations"][0].update(quote=text[a:b], clause_ref="1.2")
    row = _row("It ends on 60 days' notice.", [f])
    labels = {"x-ex-1#0": False, "x-ex-1#answer": False}
    s = score([row], q, labels)
    quoted = s["quotes"]["quoted_facts"]
    assert s["quotes"]["claims"]["shown_as_fact"] == 0 and quoted["quotes_shown_as_fact"] == 1 and quoted["quote_issues"] == []
    assert quoted["readings_shown"] == 2 and quoted["readings_unsupported"] == 2  # the model's words, shown as its reading
    assert s["questions"][0]["quotes"]["correct"]  # the quote states the "30"; the reading's "60" is not a fact
    assert s["run"]["claims"]["unsupported_shown_as_fact"] == 2  # the same report, statements shown as facts
    # a run made with facts = "quotes" is scored so under "run" too
    assert score([{**row, "facts": "quotes"}], q, labels)["run"]["claims"]["shown_as_fact"] == 0
    # a quote that is not the file's text at its spans, and one cited under another clause number than it prints
    assert e2e.quote_issue({**f["citations"][0], "quote": "Either party may end it on 60 days"}) == "not the source text at its spans"
    assert e2e.quote_issue({**f["citations"][0], "clause_ref": "1.1"}) == "cited as clause 1.1, prints 1.2"
    assert e2e.quote_issue({**f["citations"][0], "file_path": "cuad/missing.txt"}) == "source file not found"
