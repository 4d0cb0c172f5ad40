"""clauselens.heads.answerability (issue #39): list features, the JSON model (calibration and
P(answerable)), its fitting curve, the head's ``judge`` and the library hook that puts the calibrated
P(relevant) in ``Passage.scores["head"]`` and abstains on P(answerable). Small fixtures only: the
fitted model's numbers are measured by benchmarks/clause_qa_head.py."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from clauselens.heads import base
from clauselens.heads.answerability import FEATURES, MODEL_FILE, NAME, Answerability, features
from clauselens.heads.train_answerability import curve


def _spec(**over: object) -> dict:
    spec = {"features": list(FEATURES), "platt": [1.0, -1.0], "mean": [0.0] * len(FEATURES),
            "scale": [1.0] * len(FEATURES), "coef": [2.0] + [0.0] * (len(FEATURES) - 1), "intercept": -2.0,
            "threshold": 0.4}
    spec.update(over)
    return spec


def test_features_of_a_list() -> None:
    x = features([0.5, 3.0, -1.0], [0.2, None, 0.6], [4.0, 2.0, None])
    f = dict(zip(FEATURES, x))
    assert f["best_logit"] == 3.0 and f["second_logit"] == 0.5
    assert f["mean_top3_logit"] == pytest.approx(2.5 / 3)
    assert f["best_minus_mean_logit"] == pytest.approx(3.0 - 2.5 / 3)
    assert f["best_dense"] == 0.6 and f["top1_dense"] == 0.2  # the passage the head prefers lacks a dense score: 0
    assert f["log1p_best_bm25"] == pytest.approx(math.log1p(4.0)) and f["bm25_of_head_best_over_best"] == 0.5
    assert features([1.0], [None], [None])[1] == 1.0  # one passage: the second best is the best
    with pytest.raises(ValueError, match="at least one"):
        features([], [], [])


def test_model_calibrates_and_rises_with_the_best_logit() -> None:
    m = Answerability(_spec())
    assert m.p_relevant([1.0, 3.0]) == pytest.approx([0.5, 1 / (1 + math.exp(-2.0))])
    low = m.p_answerable([0.0, -1.0], [0.3, 0.2], [1.0, 1.0])
    high = m.p_answerable([2.0, -1.0], [0.3, 0.2], [1.0, 1.0])
    assert low == pytest.approx(1 / (1 + math.exp(2.0))) and high == pytest.approx(0.5 + 0.5 * math.tanh(1.0))
    assert low < m.threshold < high


def test_model_of_other_features_or_missing_is_refused(tmp_path: Path) -> None:
    with pytest.raises(base.HeadMissingError, match="other features"):
        Answerability(_spec(features=["best_logit"]))
    with pytest.raises(base.HeadMissingError, match="not installed"):
        Answerability.load(tmp_path)
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / MODEL_FILE).write_text(json.dumps(_spec(threshold=0.25)))
    assert Answerability.load(tmp_path).threshold == 0.25


def test_curve_counts_both_errors() -> None:
    y = np.array([1, 1, 1, 0, 0])
    p = np.array([0.9, 0.5, 0.2, 0.6, 0.1])
    c = {r["t"]: r for r in curve(y, p, [0.3, 0.55])}
    assert c[0.3] == {"t": 0.3, "answerable_abstained": round(1 / 3, 4), "unanswerable_answered": 0.5}
    assert c[0.55] == {"t": 0.55, "answerable_abstained": round(2 / 3, 4), "unanswerable_answered": 0.5}


@pytest.fixture(scope="module")
def tiny_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import BertConfig, BertForSequenceClassification

    cfg = BertConfig(vocab_size=base.load_tokenizer().vocab_size, hidden_size=32, num_hidden_layers=1,
                     num_attention_heads=2, intermediate_size=64, num_labels=1)
    root = tmp_path_factory.mktemp("heads")
    base.save_fp16(BertForSequenceClassification(cfg), "reranker", {"abstain_threshold": 0.1, "max_length": 64}, root)
    return root


def test_head_judges_with_the_model_fitted_on_it(tiny_root: Path, tmp_path: Path) -> None:
    from clauselens.heads.cross_encoder import HeadReranker

    texts = ["Neither party shall solicit the other's employees.", "This Agreement is governed by Delaware law."]
    bare = HeadReranker(tiny_root).load()
    assert bare.answerability is None and bare.abstain_threshold == 0.1
    probs, best = bare.judge("Can they hire our staff?", texts, [0.3, 0.1], [2.0, None])
    assert best == max(probs) and probs == pytest.approx(bare.score("Can they hire our staff?", texts))
    root = tmp_path / "w"
    shutil.copytree(tiny_root, root)
    sha = base.head_meta("reranker", root)["sha256"]
    (root / NAME).mkdir()
    (root / NAME / MODEL_FILE).write_text(json.dumps(_spec(head_sha256=[sha])))
    head = HeadReranker(root).load()
    assert head.answerability is not None and head.abstain_threshold == 0.4
    logits = head.logits("Can they hire our staff?", texts)
    probs, p_ans = head.judge("Can they hire our staff?", texts, [0.3, 0.1], [2.0, None])
    assert probs == pytest.approx(head.answerability.p_relevant(logits))
    assert p_ans == pytest.approx(head.answerability.p_answerable(logits, [0.3, 0.1], [2.0, None]))
    # a model fitted on another head is not used (its logits would mean something else)
    (root / NAME / MODEL_FILE).write_text(json.dumps(_spec(head_sha256=["0" * 64])))
    assert HeadReranker(root).load().answerability is None


class _Judge:
    """A stand-in trained head: P(relevant) 0.8 for passages holding ``word``, 0.1 otherwise; P(answerable)
    = ``p_answerable``."""

    def __init__(self, word: str, p_answerable: float) -> None:
        self.word, self.p, self.seen_dense = word, p_answerable, []

    def score(self, query: str, texts: list[str]) -> list[float]:  # pragma: no cover - judge is preferred
        raise AssertionError("the library must call judge when a head has it")

    def judge(self, query: str, texts: list[str], dense: list, bm25: list) -> tuple[list[float], float]:
        assert len(dense) == len(bm25) == len(texts)
        return [0.8 if self.word in t.lower() else 0.1 for t in texts], self.p


CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
MEDIWOUND = CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"


@pytest.mark.skipif(not MEDIWOUND.exists(), reason="needs the CUAD corpus in ../shared/data/legalbench-rag")
def test_library_puts_calibrated_relevance_on_passages_and_abstains_on_answerability(tmp_path: Path) -> None:
    from clauselens.library import Library

    shutil.copy(MEDIWOUND, tmp_path / "a1.txt")
    lib = Library.open(tmp_path / "lib", embedder_name="none")
    assert len(lib.add([tmp_path / "a1.txt"]).added) == 1
    q = "What does the MediWound supply agreement say about the product being pulled from the market?"
    lib.reranker = _Judge("recall", 0.9)
    out = lib.search(q, 10)
    assert not out.abstained and out.trace["rerank"]["best"] == 0.9
    scored = [p for p in out.passages if "head" in p.scores]
    assert len(scored) == min(10, len(out.passages)) and all("llm" not in p.scores for p in scored)
    assert {p.scores["head"] for p in scored} <= {0.8, 0.1} and any(p.scores["head"] == 0.8 for p in scored)
    lib.reranker, lib.rerank_abstain = _Judge("recall", 0.2), 0.4
    none = lib.search(q, 10)
    assert none.abstained and none.reason.startswith("no matching clause found") and "0.20 < 0.40" in none.reason
