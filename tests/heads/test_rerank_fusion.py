"""The reranker's weight in the library's fusion (``retrieval.library_rerank_weight``, issue #39),
the leave-one-set-out choice of ``benchmarks/clause_qa_rerank_fusion.py`` and the topic-question
training groups of ``train_reranker``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import clause_qa_rerank_fusion as fusion
from clauselens.heads.train_reranker import topic_question_groups
from clauselens.library.library import rerank_order


def test_rerank_weight_moves_from_the_fused_order_to_the_heads() -> None:
    probs = [0.1, 0.2, 0.3, 0.9]  # the head prefers the fused list's last passage
    assert rerank_order(probs, 0.0) == [0, 1, 2, 3]  # weight 0: the fused order kept
    assert rerank_order(probs, 1.0) == [0, 3, 1, 2]  # equal weights: 1st+4th ties 4th+1st, the fused order breaks it
    assert rerank_order(probs, 5.0) == [3, 2, 1, 0]  # a heavy weight: the head's order
    assert rerank_order(probs) == rerank_order(probs, 1.0)  # the default is the old equal-weight fusion
    assert rerank_order(probs, 0.5) == [0, 1, 2, 3]  # half weight: a move of three ranks is not enough


def test_offline_order_reranks_only_the_depth() -> None:
    logits = [0.0, 0.0, 0.0, 0.0, 9.0, 8.0]
    assert fusion.fused_order(logits, 5.0, 4) == [0, 1, 2, 3, 4, 5]  # the head's favourites lie below the depth
    assert fusion.fused_order(logits, 5.0, 6)[:2] == [4, 5]


def test_wilson_interval() -> None:
    lo, hi = fusion.wilson(24, 30)
    assert 0.62 < lo < 0.63 and 0.90 < hi < 0.91  # 80 %, Wilson [62.7, 90.5]
    assert fusion.wilson(0, 10)[0] == 0.0 and fusion.wilson(10, 10)[1] == 1.0


def _row(qid: str, gold_at: int, logits: list[float]) -> dict:
    fused = [{"file_path": "a.txt", "span": [i * 10, i * 10 + 5], "logit": x} for i, x in enumerate(logits)]
    return {"id": qid, "abstained": False, "passages": fused[:5], "fused": fused}


def test_leave_one_set_out_never_scores_a_choice_on_the_set_it_was_chosen_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three sets where the head's favourite (rank 7) is the gold passage and one where it is not:
    each held-out set gets the configuration the other three prefer."""
    sets = {s: tmp_path / f"{s}.jsonl" for s in ("dev", "lay", "blind2", "blind3")}
    monkeypatch.setattr(fusion, "SETS", sets)
    monkeypatch.setattr(fusion, "SCORES", tmp_path / "scores")
    (tmp_path / "scores").mkdir()
    logits = [0.0] * 10
    logits[7] = 5.0
    for s, path in sets.items():
        gold_at = 7 if s != "blind3" else 4  # blind3: gold 5th, pushed out when rank 8 moves up
        q = {"id": f"{s}1", "type": "paraphrase", "gold": [{"file_path": "a.txt", "span": [gold_at * 10, gold_at * 10 + 5]}]}
        path.write_text(json.dumps(q) + "\n")
        (tmp_path / "scores" / f"h_{s}.jsonl").write_text(json.dumps(_row(f"{s}1", gold_at, logits)) + "\n")
    out = fusion.choose(["h"])
    assert out["off"] == {"dev": 0, "lay": 0, "blind2": 0, "blind3": 1}
    loso = out["leave_one_set_out"]
    assert loso["dev"]["chosen_on_others"]["head"] == "h" and loso["dev"]["held_out_hits"] == 1
    assert loso["blind3"]["held_out_hits"] == 0  # the others' choice costs blind3 its hit
    final = out["chosen_on_all_four"]
    assert final["pooled"] == 3 and final["ship_rule_met"]
    assert final["depth"] == 10  # the smallest depth that reaches rank 8


def test_held_out_set_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(fusion.SETS, "dev", tmp_path / "clause_qa_lay_blind4" / "questions.jsonl")
    with pytest.raises(SystemExit, match="held-out"):
        fusion.set_questions("dev")


def test_topic_question_groups_reask_cuad_groups_in_everyday_words(tmp_path: Path) -> None:
    f = tmp_path / "topic_questions.jsonl"
    f.write_text(json.dumps({"id": "Insurance|0", "label": "Insurance",
                             "questions": ["Do they need cover if something goes wrong?", "Who pays for the policy?"]})
                 + "\n" + json.dumps({"id": "Other|0", "label": "Other", "questions": ["When do we pay?"]}) + "\n")
    groups = [{"contract": "a", "category": "Insurance", "query": "Insurance?", "absent": False, "split": "train",
               "pairs": [{"text": "T1", "label": 1.0, "kind": "positive"}, {"text": "T2", "label": 0.0, "kind": "hard"}]},
              {"contract": "b", "category": "Audit Rights", "query": "Audit?", "absent": True, "split": "train",
               "pairs": [{"text": "T3", "label": 0.0, "kind": "absent"}]}]
    out, info = topic_question_groups(groups, 2, seed=1, files=[f])
    assert len(out) == 2 and {g["query"] for g in out} == {"Do they need cover if something goes wrong?",
                                                           "Who pays for the policy?"}
    assert all([(p["text"], p["label"], p["kind"]) for p in g["pairs"]] ==
               [("T1", 1.0, "topic_positive"), ("T2", 0.0, "topic_hard")] for g in out)
    assert groups[0]["pairs"][0]["kind"] == "positive"  # the source groups are not changed
    assert info["groups"] == 2 and info["questions_per_category"] == {"Insurance": 2, "Other": 1}
    assert topic_question_groups(groups, 1, seed=1, files=[f])[0] == topic_question_groups(groups, 1, seed=1, files=[f])[0]


def test_int8_head_scores_like_fp32(tmp_path: Path) -> None:
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    from clauselens.heads import base
    from clauselens.heads.cross_encoder import HeadReranker

    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=base.load_tokenizer().vocab_size, hidden_size=32, num_hidden_layers=1,
                     num_attention_heads=2, intermediate_size=64, num_labels=1)
    base.save_fp16(BertForSequenceClassification(cfg), "reranker", {"max_length": 64}, tmp_path)
    texts = ["Neither party shall solicit employees.", "This Agreement is governed by Delaware law.", "Insurance."]
    fp32 = HeadReranker(tmp_path).logits("Can they hire our staff?", texts)
    head = HeadReranker(tmp_path, int8=True).load()
    assert not any(type(m) is torch.nn.Linear for m in head._model.modules())  # every Linear layer quantised
    assert head.logits("Can they hire our staff?", texts) == pytest.approx(fp32, abs=0.02)
    # a passage's int8 score does not depend on the passages scored with it
    assert head.logits("Can they hire our staff?", texts[:1]) == head.logits("Can they hire our staff?", texts)[:1]
