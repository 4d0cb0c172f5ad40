"""Synthetic lay questions (issue #39, clauselens.heads.synthetic): the prompt's shape, reply
parsing, the near-copy filter and the resumable runner, with a fake model (no LLM is loaded);
and the training groups ``train_reranker --synthetic`` makes from their searches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.heads import synthetic as syn
from clauselens.heads.train_reranker import synthetic_groups

PASSAGE = ("[14 Assignment]\nNeither party may assign or transfer this Agreement or any of its rights hereunder "
           "without the prior written consent of the other party, which consent shall not be unreasonably withheld.")


def test_messages_put_the_passage_last_after_a_fixed_prefix() -> None:
    a, b = syn.messages(PASSAGE), syn.messages("[2 Fees]\nCustomer shall pay all fees within thirty days.")
    assert a[0] == b[0]  # same system text: llama.cpp reuses the cached prefix
    assert a[1]["content"].endswith(PASSAGE) and "write 3 different" in a[0]["content"]
    long = syn.messages("x" * 5000)[1]["content"]
    assert len(long) <= syn.MAX_PASSAGE_CHARS + 20


def test_parse_reply_cleans_and_keeps_usable_questions() -> None:
    raw = '{"questions": ["Can they hand the deal\n to someone else ", "Can they hand the deal to someone else?", "Why?", 7]}'
    assert syn.parse_reply(raw) == ["Can they hand the deal to someone else?"]


@pytest.mark.parametrize("raw", ['not json', '{"answers": ["Can they sell it to another firm?"]}', '{"questions": ["Ok?"]}'])
def test_parse_reply_rejects_replies_without_a_usable_question(raw: str) -> None:
    with pytest.raises(syn.SyntheticReplyError):
        syn.parse_reply(raw)


def test_near_copy() -> None:
    assert syn.near_copy("May either party assign or transfer this Agreement?", PASSAGE)  # a 5-word run of the passage
    assert syn.near_copy("Consent unreasonably withheld assign transfer?", PASSAGE)  # all content words copied
    assert not syn.near_copy("Can they hand the contract over to another company without asking us?", PASSAGE)


def test_run_writes_resumes_and_counts(tmp_path: Path) -> None:
    items = [{"id": f"c:{i}", "contract": "c", "span": [i, i + 10], "category": None, "text": PASSAGE} for i in range(4)]
    calls: list[int] = []

    def fake(msgs: list[dict[str, str]], seed: int) -> str:
        calls.append(seed)
        if len(calls) == 2:
            return "garbage"
        return json.dumps({"questions": ["Can they hand the contract over to another company?",
                                         "May either party assign or transfer this Agreement?"]})

    out = tmp_path / "q.jsonl"
    s1 = syn.run(items, fake, out, limit=3)
    assert (s1["items"], s1["bad_replies"], s1["questions"], s1["kept"], s1["near_copies"]) == (3, 1, 4, 2, 2)
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in recs] == ["c:0", "c:1", "c:2"] and "text" not in recs[0]
    assert recs[1]["error"] and recs[1]["questions"] == []
    s2 = syn.run(items, fake, out)  # resumes: only the fourth item is asked
    assert s2["items"] == 1 and len(calls) == 4 and len(out.read_text().splitlines()) == 4
    assert len(set(calls)) == len(calls)  # a seed per item


def test_missing_items_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(syn.ClauselensError, match="sample-synthetic"):
        syn.read_items(tmp_path / "none.jsonl")


def _search(split: str, present: bool, golds: list[bool], contract: str = "c1") -> dict:
    return {"contract": contract, "category": "Anti-Assignment", "query": "Can they hand it over?", "split": split,
            "present": present, "passages": [{"text": f"p{i}", "gold": g} for i, g in enumerate(golds)]}


def test_synthetic_groups_label_source_and_abstention(tmp_path: Path) -> None:
    f = tmp_path / "s.jsonl"
    rows = [_search("train", True, [False, True, False]), _search("train", False, [False] * 6, "c2"),
            _search("train", True, [False, False]),  # source not retrieved: no group
            _search("val", True, [True, False])]
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    groups = synthetic_groups(f, seed=1, limit=10, absent_share=0.5)
    by_absent = {g["absent"]: g for g in groups}
    assert len(groups) == 2
    assert [(p["text"], p["label"], p["kind"]) for p in by_absent[False]["pairs"]] == [
        ("p0", 0.0, "synthetic_hard"), ("p1", 1.0, "synthetic_positive"), ("p2", 0.0, "synthetic_hard")]
    assert {p["kind"] for p in by_absent[True]["pairs"]} == {"synthetic_absent"} and len(by_absent[True]["pairs"]) == 4
    val = synthetic_groups(f, seed=1, limit=10, split="val")
    assert len(val) == 1 and val[0]["pairs"][0]["label"] == 1.0


def test_generic_questions_are_dropped_and_counted(tmp_path: Path) -> None:
    from clauselens.library.answerability_data import _synthetic_questions

    generic = "What happens if they break the deal?"
    recs = [{"id": f"c{i}:0", "contract": f"c{i}", "questions": [generic, f"Who pays the {w} costs?", "Copied?"],
             "kept": [generic, f"Who pays the {w} costs?"], "error": None} for i, w in enumerate(["shipping", "repair", "audit"])]
    f = tmp_path / "q.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    kept, counts = _synthetic_questions(f)
    assert [q for _, _, q in kept] == ["Who pays the shipping costs?", "Who pays the repair costs?", "Who pays the audit costs?"]
    assert (counts["questions"], counts["near_copies"], counts["generic"]) == (9, 3, 3)


def test_heldout_searches_keep_only_val_agreements(tmp_path: Path) -> None:
    from clauselens.library.answerability_data import heldout_searches

    s, c, out = tmp_path / "s.jsonl", tmp_path / "c.jsonl", tmp_path / "o.jsonl"
    s.write_text("".join(json.dumps(x) + "\n" for x in [_search("val", True, [True], "v1"), _search("train", True, [True], "t1"),
                                                          _search("val", False, [False], "v2")]))
    c.write_text("".join(json.dumps(x) + "\n" for x in [_search("train", True, [True], "v1"), _search("train", False, [False], "t1")]))
    counts = heldout_searches(s, c, out)
    got = [json.loads(x)["contract"] for x in out.read_text().splitlines()]
    assert got == ["v1", "v2", "v1"] and counts == {"agreements": 2, "synthetic": 2, "synthetic_present": 1,
                                                    "cuad_phrasings": 1, "cuad_present": 1}
