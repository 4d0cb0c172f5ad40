"""Synthetic questions per clause topic (issue #39): items, the resumable runner, CUAD names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clauselens.heads.presence import PresenceHead
from clauselens.heads.topic_questions import CUAD_README, OTHER, OTHER_TOPICS, cuad_descriptions, items, messages, read, run

pytestmark = pytest.mark.skipif(not CUAD_README.is_file(), reason="CUAD README not in ../shared/data (data absent)")


def test_cuad_descriptions_use_the_presence_heads_category_names() -> None:
    assert set(cuad_descriptions()) == set(PresenceHead().categories)


def test_every_topic_comes_once_per_round_and_prompts_carry_no_category_name() -> None:
    desc = cuad_descriptions()
    todo = items(desc, per_topic=3)
    n_topics = len(desc) + len(OTHER_TOPICS)
    assert len(todo) == 3 * n_topics
    assert {t["topic"] for t in todo[:n_topics]} == {t["topic"] for t in todo}  # a prefix covers every topic
    ins = next(t for t in todo if t["label"] == "Insurance")
    msg = messages(ins)
    assert "Insurance:" not in msg[1]["content"] and ins["kind"] in msg[0]["content"]
    assert {t["label"] for t in todo if t["topic"].startswith(OTHER)} == {OTHER}


def test_runner_writes_each_item_once_and_resumes(tmp_path: Path) -> None:
    todo = items(cuad_descriptions(), per_topic=1)[:4]
    calls: list[int] = []

    def fake(msgs: list[dict[str, str]], seed: int) -> str:
        calls.append(seed)
        return json.dumps({"questions": ["Do they have to pay us back", "not json?"] if len(calls) != 2 else []})

    out = tmp_path / "q.jsonl"
    s1 = run(todo, fake, out, limit=2)
    assert s1["items"] == 2 and s1["bad_replies"] == 1
    s2 = run(todo, fake, out)
    assert s2["items"] == 2 and len(calls) == 4
    rows = read(out)
    assert [r["id"] for r in rows] == [t["id"] for t in todo]
    assert rows[0]["questions"] == ["Do they have to pay us back?"] and "text" not in rows[0]  # "not json?": too short
