"""``train_reranker.library_groups`` (issue #39): training groups from the library's own ranking --
gold passages positive, the passages ranked next to them negative, absent-category searches all
negative, validation agreements and searches whose answer was not retrieved left out."""

from __future__ import annotations

import json
from pathlib import Path

from clauselens.heads.train_reranker import library_groups


def _search(contract: str, split: str, present: bool, gold: list[bool]) -> dict:
    return {"contract": contract, "split": split, "category": "Insurance", "register": "lay",
            "query": "Do they have to carry insurance?", "present": present,
            "passages": [{"text": f"{contract} passage {i}", "gold": g} for i, g in enumerate(gold)]}


def test_library_groups_label_the_librarys_ranking(tmp_path: Path) -> None:
    rows = [_search("a", "train", True, [False, True, False]),
            _search("b", "train", True, [False, False, False]),  # answer not retrieved: no group
            _search("c", "val", True, [True, False]),  # validation agreement: never trained on
            *[_search(f"d{i}", "train", False, [False] * 6) for i in range(3)]]
    f = tmp_path / "searches.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    groups = library_groups(f, seed=1, limit=10, absent_share=0.2)
    ann = [g for g in groups if not g["absent"]]
    absent = [g for g in groups if g["absent"]]
    assert [g["contract"] for g in ann] == ["a"] and len(absent) == 2  # round(10 * 0.2) absent groups
    assert [(p["label"], p["kind"]) for p in ann[0]["pairs"]] == [(0.0, "library_hard"), (1.0, "positive"),
                                                                  (0.0, "library_hard")]
    assert all(len(g["pairs"]) == 4 and {p["kind"] for p in g["pairs"]} == {"library_absent"} for g in absent)
    assert library_groups(f, seed=1, limit=10) == library_groups(f, seed=1, limit=10)  # seeded
    # within the top 1 the answer of "a" is not retrieved either
    assert not [g for g in library_groups(f, seed=1, limit=10, absent_share=0.2, top=1) if not g["absent"]]


def test_swap_negatives_pair_a_positive_with_questions_it_does_not_answer(tmp_path: Path) -> None:
    from clauselens.heads.train_reranker import swap_negatives

    phr = tmp_path / "phrasings.json"
    phr.write_text(json.dumps({"_about": "x", "Insurance": {"lay": ["ins?"], "legal": ["Insurance?"]},
                               "Governing Law": {"lay": ["law?"], "legal": ["Governing law?"]},
                               "Audit Rights": {"lay": ["audit?"], "legal": ["Audit rights?"]}}))
    groups = [{"contract": "a", "category": "Insurance", "query": "ins?", "absent": False,
               "pairs": [{"text": "T1", "label": 1.0, "kind": "positive"}, {"text": "T2", "label": 0.0, "kind": "hard"}]},
              {"contract": "a", "category": "Audit Rights", "query": "audit?", "absent": False,
               "pairs": [{"text": "T1", "label": 1.0, "kind": "positive"}]}]
    out = swap_negatives(groups, 5, seed=3, phrasings=phr)
    # T1 answers Insurance and Audit Rights in its contract: only Governing Law is swapped in; T2 is no positive
    assert [(g["category"], [(p["text"], p["label"], p["kind"]) for p in g["pairs"]]) for g in out] == \
        [("Governing Law", [("T1", 0.0, "swap")])]
    assert out[0]["query"] in ("law?", "Governing law?")
