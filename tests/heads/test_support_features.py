"""benchmarks/support_features.py: the rule quantities as features, thresholds and the by-file cross-validation."""

from __future__ import annotations

import random

from benchmarks.support_features import FEATURES, claim_features, cross_validate, thresholds

QUOTE = "HSNS shall maintain complete and accurate records of its activities for at least two (2) years following termination."


def _f(claim: str, quote: str = QUOTE, question: str = "") -> dict[str, float]:
    return dict(zip(FEATURES, claim_features(claim, quote, question)))


def test_features_see_a_missing_party_number_negation_and_a_duty_read_as_a_right() -> None:
    same = _f("HSNS shall maintain complete and accurate records for at least two years following termination.")
    assert same["names_missing"] == 0 and same["numbers_missing"] == 0 and same["negation_diff"] == 0
    assert same["coverage"] == 1.0 and same["permit_vs_duty"] == 0
    other = _f("The agreement gives Piphany the right to maintain complete and accurate records for five years.")
    assert other["names_missing"] == 1 and other["numbers_missing"] == 1 and other["permit_vs_duty"] == 1
    assert _f("HSNS shall not maintain records of its activities.")["negation_diff"] == 1
    # a number the question gives is not missing
    assert _f("The 2000 agreement requires records.", question="In the 2000 agreement, what records?")["numbers_missing"] == 0
    assert _f("HSNS shall maintain complete records …")["truncated"] == 1


def test_thresholds_bound_the_training_error_rates() -> None:
    p_true = [i / 100 for i in range(100)]            # supported items' P(supports): 0.00 .. 0.99
    p_false = [i / 200 for i in range(100)]           # unsupported: 0.00 .. 0.495
    th = thresholds(p_true, p_false)
    assert sum(p < th["reject15"] for p in p_true) <= 15 < sum(p < th["reject15"] + 0.011 for p in p_true)
    assert sum(p >= th["pass3"] for p in p_false) <= 3


def _item(run: str, i: int, supports: bool, rng: random.Random) -> dict:
    claim = f"Claim {run} {i}"
    x = [rng.gauss(1.0 if supports else -1.0, 0.3) for _ in FEATURES]
    return {"run": run, "key": f"q#{i}", "claim": claim, "quote": "q", "question": "", "supports": supports,
            "decided": True, "x": x}


def test_cross_validation_holds_each_file_out_and_separates_a_learnable_signal() -> None:
    rng = random.Random(0)
    its = [_item(run, i, i % 4 != 0, rng) for run in ("run1", "run2", "run3") for i in range(40)]
    its.append({**its[0], "run": "run2", "key": "dup#0"})   # the same claim re-labelled in another file
    res = cross_validate(its, "decided")
    assert set(res["by_file"]) == {"run1", "run2", "run3"}
    # run1's training side (run2: 41 items, run3: 40) leaves out run2's copy of run1's claim
    assert res["by_file"]["run1"]["train_items"] == 80
    assert res["auc_out_of_fold"] > 0.95
    assert res["reject15"]["all_files"]["unsupported_passed"]["x"] <= 2
