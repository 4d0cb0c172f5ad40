"""Scoring helpers of benchmarks/inject_vs_navigate.py (Clopper–Pearson, key facts,
clause fetched) and the consistency of the hand-written question file with the documents."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from clauselens.retrieval.navigate.prompts import REFUSAL

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("ivn", REPO / "benchmarks" / "inject_vs_navigate.py")
ivn = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ivn)


def test_clopper_pearson_known_values():
    # Exact 95% interval; k=0 of 10 has upper bound 1 - 0.025**(1/10) = 0.3085
    assert ivn.clopper_pearson(0, 10) == [0.0, pytest.approx(0.3085, abs=1e-4)]
    assert ivn.clopper_pearson(10, 10)[1] == 1.0
    lo, hi = ivn.clopper_pearson(5, 10)
    assert lo == pytest.approx(0.1871, abs=1e-4) and hi == pytest.approx(0.8129, abs=1e-4)


def test_key_facts_and_refusal_scoring():
    q = {"key_facts": [["60 days", "sixty"], ["written"]], "evidence": ["not less than 60 days' written notice"]}
    assert ivn.key_facts_ok(q, "Either party may end it on sixty days' WRITTEN notice.")
    assert not ivn.key_facts_ok(q, "60 days")
    assert not ivn.key_facts_ok(q, REFUSAL)
    control = {"absent": True, "key_facts": [], "evidence": []}
    assert ivn.key_facts_ok(control, REFUSAL) and not ivn.key_facts_ok(control, "Pennsylvania law applies.")
    assert ivn.fetched_correct(q, [{"text": "by either party on not less than 60 days'\n written notice"}])
    assert ivn.fetched_correct(control, []) is None


def test_question_file_matches_the_documents():
    data = json.loads((REPO / "benchmarks" / "data" / "transaction_set" / "questions.json").read_text())
    qs = data["questions"]
    assert len(qs) >= 20 and sum(bool(q.get("absent")) for q in qs) >= 2
    assert sum(bool({"definition", "cross_reference"} & set(q["needs"])) for q in qs) >= 5
    for q in qs:
        text = " ".join(ivn.norm((ivn.SHARED_DATA / p).read_text(encoding="utf-8")) for p in data["sets"][q["set"]]["documents"])
        assert all(ivn.norm(e) in text for e in q["evidence"]), q["id"]
        assert q.get("absent") or (q["evidence"] and q["key_facts"])
