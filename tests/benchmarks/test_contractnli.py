"""ContractNLI harness: metric maths, failure counting, sampling, resume (fake models, real data)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.contractnli_metrics import clopper_pearson, confusion, f1_scores, score  # noqa: E402
from benchmarks.contractnli_modes import BenchContext, make_gold_classifier, make_whole_contract_classifier  # noqa: E402
from benchmarks.contractnli_store import Pair, ResultStore, all_pairs, run_pairs, stratified_sample  # noqa: E402
from clauselens.config import Settings  # noqa: E402
from clauselens.llm import invoke_structured  # noqa: E402
from clauselens.retrieval.exemplars import load_contractnli  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent.parent / "shared" / "data" / "contractnli"
E, C, N = "Entailment", "Contradiction", "NotMentioned"


@pytest.fixture(scope="module")
def test_split():
    return load_contractnli(DATA / "test.json")


def test_metrics_match_a_hand_computed_confusion_matrix():
    gold = [E, E, C, N, N, C]
    pred = [E, C, C, N, E, None]  # last one failed
    cm = confusion(gold, pred)
    assert cm[E] == {E: 1, C: 1, N: 0, "Failed": 0}
    assert cm[C] == {E: 0, C: 1, N: 0, "Failed": 1}
    assert cm[N] == {E: 1, C: 0, N: 1, "Failed": 0}
    per, weighted = f1_scores(cm)
    # E: P = 1/2, R = 1/2; C: P = 1/2, R = 1/2; N: P = 1/1, R = 1/2 -> F1 = 2/3
    assert per[E] == pytest.approx(0.5) and per[C] == pytest.approx(0.5) and per[N] == pytest.approx(2 / 3)
    assert weighted == pytest.approx((2 * 0.5 + 2 * 0.5 + 2 * 2 / 3) / 6)
    recs = [{"gold": g, "pred": p, "status": "ok" if p else "no_label"} for g, p in zip(gold, pred)]
    s = score(recs, n_boot=200)
    assert s["n"] == 6 and s["correct"] == 3 and s["accuracy"] == pytest.approx(0.5)
    assert s["failures"]["no_label"] == 1 and s["failures"]["total"] == 1
    lo, hi = s["accuracy_ci95"]
    assert lo == pytest.approx(0.1181, abs=1e-4) and hi == pytest.approx(0.8819, abs=1e-4)  # exact CP for 3/6
    assert s["f1_weighted_ci95"][0] <= s["f1_weighted"] <= s["f1_weighted_ci95"][1]


def test_clopper_pearson_edges():
    assert clopper_pearson(0, 10)[0] == 0.0 and clopper_pearson(10, 10)[1] == 1.0
    lo, hi = clopper_pearson(0, 10)
    assert hi == pytest.approx(1 - 0.025 ** (1 / 10))  # closed form when k = 0


def test_a_status_other_than_ok_is_wrong_even_if_a_label_was_kept():
    s = score([{"gold": E, "pred": E, "status": "timeout"}, {"gold": E, "pred": E, "status": "ok"}], n_boot=0)
    assert s["correct"] == 1 and s["failures"]["timeout"] == 1 and s["confusion"]["E"]["Failed"] == 1


def test_stratified_sample_is_deterministic_and_proportional(test_split):
    pairs = all_pairs(test_split)
    assert len(pairs) == 2091
    a = stratified_sample(pairs, 300, 0)
    assert a == stratified_sample(pairs, 300, 0)
    assert a != stratified_sample(pairs, 300, 1)
    counts = {lab: sum(p.gold == lab for p in a) for lab in (E, C, N)}
    assert sum(counts.values()) == 300
    full = {lab: sum(p.gold == lab for p in pairs) for lab in (E, C, N)}
    for lab in (E, C, N):
        assert abs(counts[lab] - 300 * full[lab] / 2091) < 1
    b = stratified_sample(pairs, 90, 0, balanced=True)
    assert {lab: sum(p.gold == lab for p in b) for lab in (E, C, N)} == {E: 30, C: 30, N: 30}
    assert set(stratified_sample(pairs, 90, 0)) <= set(a) or len(set(stratified_sample(pairs, 90, 0)) - set(a)) < 3


def _ctx():
    return BenchContext(Settings(), "test", data_dir=DATA, encoder=lambda texts: None, encoder_name="none")


def test_unparsable_model_output_counts_as_wrong_and_as_failure(tmp_path):
    ctx = _ctx()
    chat = FakeListChatModel(responses=["I think it is probably fine."] * 20)
    ask = lambda msgs, schema: invoke_structured(chat, msgs, schema, max_retries=1)  # noqa: E731
    pairs = stratified_sample(all_pairs(ctx.split), 3, 0)
    recs = run_pairs(pairs, make_gold_classifier(ctx, ask), ResultStore(tmp_path / "r.jsonl"))
    assert [r["status"] for r in recs.values()] == ["no_label"] * 3
    s = score(recs.values(), n_boot=0)
    assert s["accuracy"] == 0.0 and s["failures"]["no_label"] == 3 and s["failures"]["total"] == 3


def test_parsed_output_is_scored_and_errors_are_recorded(tmp_path):
    ctx = _ctx()
    chat = FakeListChatModel(responses=[json.dumps({"quote": "", "label": "NotMentioned"})] * 20)
    ask = lambda msgs, schema: invoke_structured(chat, msgs, schema, max_retries=0)  # noqa: E731
    pairs = stratified_sample(all_pairs(ctx.split), 6, 0)
    recs = run_pairs(pairs, make_gold_classifier(ctx, ask), ResultStore(tmp_path / "r.jsonl"))
    assert all(r["status"] == "ok" and r["pred"] == N for r in recs.values())
    assert score(recs.values(), n_boot=0)["correct"] == sum(p.gold == N for p in pairs)

    def boom(p: Pair):
        raise RuntimeError("index missing")
    recs = run_pairs(pairs[:2], boom, ResultStore(tmp_path / "e.jsonl"))
    assert all(r["status"] == "error" and "index missing" in r["error"] for r in recs.values())


def test_resume_skips_done_pairs_and_late_answers_are_timeouts(tmp_path, test_split):
    pairs = stratified_sample(all_pairs(test_split), 12, 3)
    calls: list[str] = []

    def clf(p: Pair):
        calls.append(p.key)
        return p.gold, {}

    store = ResultStore(tmp_path / "r.jsonl")
    first = run_pairs(pairs, clf, store, budget_s=-1.0)  # budget spent: nothing starts
    assert first == {} and calls == []
    run_pairs(pairs[:5], clf, store)
    assert len(calls) == 5
    recs = run_pairs(pairs, clf, store)
    assert len(calls) == 12 and len(set(calls)) == 12  # the first 5 were not redone
    assert len(recs) == 12 and score(recs.values(), n_boot=0)["accuracy"] == 1.0
    run_pairs(pairs, clf, store)
    assert len(calls) == 12
    with store.path.open("a") as f:
        f.write('{"key": "trunc')  # a crash mid-line is ignored on load
    assert len(store.load()) == 12
    late = run_pairs(pairs[:2], clf, ResultStore(tmp_path / "t.jsonl"), timeout_s=-1.0)
    assert all(r["status"] == "timeout" and r["pred"] is None for r in late.values())


def test_levers_re_decide_stored_records_and_keep_failures():
    from benchmarks.contractnli_modes import derive_levers

    vote = {E: 0.1, C: 0.7, N: 0.2}
    recs = [
        {"gold": C, "pred": N, "status": "ok", "detail": {"llm_label": N, "vote": vote, "max_relevance": 0.9}},
        {"gold": N, "pred": E, "status": "ok", "detail": {"llm_label": E, "vote": vote, "max_relevance": 0.5}},
        {"gold": E, "pred": None, "status": "no_label", "detail": None},
    ]
    rows = {(r["vote_weight"], r["abstain"]): r["metrics"] for r in derive_levers(recs)}
    assert rows[(0.0, None)]["correct"] == 0  # LLM alone: N for C, E for N
    assert rows[(0.8, None)]["correct"] == 1  # the vote overturns the first: C 0.8*0.7 > N 0.2+0.8*0.2
    assert rows[(0.6, None)]["correct"] == 0  # ... but not at 0.6: N 0.4+0.6*0.2 > C 0.6*0.7
    assert rows[(0.8, 0.7)]["correct"] == 2  # abstention turns the weakly supported E into N
    assert all(m["failures"]["total"] == 1 for m in rows.values())


def test_report_labels_map_to_the_dataset_labels():
    """The interrogator mode reads the report's label (``entailment`` ...) and must hand the
    scorer the dataset's (``Entailment`` ...); unmapped values count as no label."""
    from typing import get_args

    from benchmarks.contractnli_metrics import LABELS
    from clauselens.reports.model import NLILabel, from_contractnli, to_contractnli

    assert sorted(to_contractnli(lab) or "" for lab in get_args(NLILabel)) == sorted(LABELS)
    assert all(from_contractnli(to_contractnli(lab)) == lab for lab in get_args(NLILabel))
    assert to_contractnli("NotMentioned") is None and to_contractnli(None) is None and from_contractnli("maybe") is None


def test_turn_lever_reads_the_label_and_cost_after_k_turns():
    from benchmarks.contractnli_modes import derive_turn_levers, turns_record

    calls = [{"step": s, "s": 1.0, "in": 100, "out": 10} for s in
             ("decompose", "plan", "draft", "decide", "plan", "draft", "decide", "plan", "draft", "decide")]
    three = {"gold": C, "pred": C, "status": "ok", "seconds": 10.0,
             "detail": {"turns": 3, "calls": calls, "turn_labels": [
                 {"turn": 1, "llm_label": E, "decided": E}, {"turn": 2, "llm_label": C, "decided": C},
                 {"turn": 3, "llm_label": C, "decided": C}]}}
    one = {"gold": E, "pred": E, "status": "ok", "seconds": 4.0, "detail": {"turns": 1}}
    old = {"gold": N, "pred": N, "status": "ok", "seconds": 9.0, "detail": {"turns": 3}}  # no per-turn labels
    failed = {"gold": N, "pred": None, "status": "no_label", "detail": None}
    r1 = turns_record(three, 1)
    assert r1["pred"] == E and r1["detail"]["llm_calls"] == 4 and r1["seconds"] == 4.0
    assert r1["detail"]["input_tokens"] == 400 and three["pred"] == C  # the stored record is untouched
    assert turns_record(three, 2)["pred"] == C and turns_record(three, 2)["detail"]["llm_calls"] == 7
    assert turns_record(one, 1) == one and turns_record(old, 1) is None and turns_record(old, 3) == old
    rows = {r["max_turns"]: r for r in derive_turn_levers([three, one, old, failed])}
    assert rows[1]["underivable"] == 1 and rows[1]["metrics"]["n"] == 3 and rows[1]["metrics"]["correct"] == 1
    assert rows[3]["underivable"] == 0 and rows[3]["metrics"]["correct"] == 3
    assert rows[1]["metrics"]["failures"]["total"] == 1


def test_question_last_puts_the_contract_in_the_prefix_two_hypotheses_share():
    """whole-contract ``--question-last``: two hypotheses on one contract share a prompt prefix
    holding the whole contract (what lets llama.cpp reuse its KV cache); the default order puts
    each hypothesis first, so the shared prefix stops before the contract."""
    ctx = _ctx()
    pairs = all_pairs(ctx.split)
    doc = min({p.doc_id for p in pairs}, key=lambda d: len(ctx.docs[d].text))
    two = [p for p in pairs if p.doc_id == doc][:2]
    contract = ctx.docs[doc].text.strip()
    chat = FakeListChatModel(responses=[json.dumps({"quote": "", "label": "NotMentioned"})] * 8)
    for question_last in (True, False):
        users = []

        def ask(msgs, schema, users=users):
            users.append(msgs[-1].content)
            return invoke_structured(chat, msgs, schema, max_retries=0)
        clf = make_whole_contract_classifier(ctx, chat, ask, question_last=question_last)
        assert [clf(p)[0] for p in two] == [N, N]
        shared = os.path.commonprefix(users)
        hyps = [ctx.split.hypotheses[p.hypothesis_id] for p in two]
        if question_last:
            assert contract in shared
            assert all(u.index(h) > u.index(contract) for u, h in zip(users, hyps))
        else:
            assert contract not in shared
            assert all(u.index(h) < u.index(contract) for u, h in zip(users, hyps))


def test_versions_come_from_the_package_provenance():
    """Issue #18: the benchmark records versions and commit through ``clauselens.provenance``; none
    of its modules keeps a copy (no git or platform calls of its own)."""
    import ast

    imported: set[str] = set()
    for name in ("contractnli", "contractnli_store", "contractnli_modes", "contractnli_metrics"):
        tree = ast.parse((REPO / "benchmarks" / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    assert not imported & {"subprocess", "platform", "importlib.metadata"}
    assert "clauselens.provenance.run_provenance" in imported
