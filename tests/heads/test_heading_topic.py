"""Heading-topic head (issue #39): heading labels normalised to topic keys, headings cut from clause
text for the probe, and the absence decision (a heading of the topic, or a clause scored above the
threshold, keeps the topic present). A tiny head written here; the committed one is checked too."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clauselens.heads.base import HeadChecksumError, HeadMissingError, sha256_file
from clauselens.heads.heading_topic import (
    HeadingTopicHead,
    clean_heading,
    heading_key,
    strip_headings,
)
from clauselens.retrieval.analyzer import LegalAnalyzer

TOK = LegalAnalyzer().tokenize


@pytest.mark.parametrize("label, clean", [
    ("12.1 Force Majeure", "Force Majeure"),
    ("ARTICLE IX   CONFIDENTIALITY    21", "CONFIDENTIALITY"),
    ("Section 4.2(b) Insurance.", "Insurance"),
    ("7 Source: CREDITCARDS.COM, INC., S-1, 8/10/2007", ""),
    ("(a) Notices", "Notices"),
])
def test_clean_heading_drops_marker_stamp_and_page(label: str, clean: str) -> None:
    assert clean_heading(label) == clean


def test_heading_key_spellings_meet_and_non_headings_drop() -> None:
    assert heading_key("12. FORCE MAJEURE", TOK) == heading_key("Force Majeure", TOK) == "forc majeur"
    assert heading_key("8.1 Notice", TOK) == heading_key("Notices", TOK)
    for label in ("3(ii)", "Preamble", "Signature", "14",
                  "The Supplier shall deliver the Products to the address given in the order form"):
        assert heading_key(label, TOK) is None, label


def test_strip_headings_cuts_the_heading_not_the_body() -> None:
    text = "12.1 Force Majeure. Neither party is liable for force majeure events. Termination follows."
    out = strip_headings(text, ["12.1 Force Majeure"])
    assert out.startswith("12.1  .") and "force majeure events" in out
    assert "terminate" in strip_headings("5. Term. The term ends; either may terminate.", ["5 Term"])


def _head(tmp: Path, *, corrupt: bool = False, softmax: bool = False) -> HeadingTopicHead:
    """A two-topic head: a bank of three clauses per label (Insurance near e0, Publicity near e1, Other
    near e2; k = 3) -- or, ``softmax``, a question reader whose logits are 20 x the first three coordinates --
    and a probe scoring windows by the words 'insurance' / 'press'."""
    from safetensors.numpy import save_file

    d = tmp / "heading_topic"
    d.mkdir(parents=True, exist_ok=True)
    vocab = {"insurance": 0, "press": 1, "payment": 2}
    bank = np.zeros((9, 4), dtype=np.float16)
    for i in range(9):
        bank[i, i // 3] = 1.0
        bank[i, 3] = 0.1 * (i % 3)
    p = np.zeros((2, 3), dtype=np.float16)
    p[0, 0] = p[1, 1] = 30
    reader = ({"q_coef": (20 * np.eye(3, 4)).astype(np.float16), "q_intercept": np.zeros(3, np.float16)} if softmax else
              {"bank": bank, "bank_labels": np.repeat(np.arange(3, dtype=np.int16), 3)})
    save_file({**reader, "p_coef": p,
               "p_intercept": np.full(2, -5, np.float16), "idf": np.ones(3, np.float16)}, str(d / "model.safetensors"))
    (d / "vocab.json").write_text(json.dumps(vocab))
    meta = {"sha256": "0" * 64 if corrupt else sha256_file(d / "model.safetensors"),
            "vocab_sha256": sha256_file(d / "vocab.json"), "labels": ["Insurance", "Publicity", "Other"],
            "topics": ["Insurance", "Publicity"], "keys": {"Insurance": ["insur"], "Publicity": ["public"]},
            "absent_below": {"Insurance": 0.5, "Publicity": 0.5}, "absent_mass": 0.6, "knn_k": 3,
            "vectorizer": {"ngram_range": [1, 1], "sublinear_tf": True}}
    (d / "head.json").write_text(json.dumps(meta))
    return HeadingTopicHead(tmp)


def test_absence_needs_no_heading_and_a_low_clause_score(tmp_path: Path) -> None:
    head = _head(tmp_path)
    cover = np.array([1.0, 0, 0, 0], dtype=np.float32)
    lacking = head.contract_scores("The customer pays each invoice within thirty days. " * 5)
    having = head.contract_scores("Supplier shall maintain insurance with reputable insurers. " * 5)
    assert lacking["Insurance"] < 0.5 < having["Insurance"]
    assert head.read(cover, [(set(), lacking)]).absent
    assert head.read(cover, [(set(), lacking)]).categories[0][0] == "Insurance"
    assert not head.read(cover, [(set(), having)]).absent  # worded as one, no heading
    assert not head.read(cover, [({"insur"}, lacking)]).absent  # headed as one
    assert not head.read(cover, [(set(), lacking), (set(), having)]).absent  # one of two agreements has it
    assert head.probabilities(cover)[0].tolist() == [1.0, 0.0, 0.0]  # the share of its 3 nearest clauses
    other = np.array([0, 0, 1.0, 0], dtype=np.float32)
    assert not head.read(other, [(set(), lacking)]).absent  # a question about no heading topic


def test_softmax_reader_reads_the_question_vector(tmp_path: Path) -> None:
    head = _head(tmp_path, softmax=True)
    lacking = head.contract_scores("The customer pays each invoice within thirty days. " * 5)
    cover = np.array([1.0, 0, 0, 0], dtype=np.float32)
    probs = head.probabilities(cover)[0]
    assert probs.argmax() == 0 and probs[0] > 0.99 and abs(probs.sum() - 1) < 1e-9
    assert head.read(cover, [(set(), lacking)]).absent
    assert not head.read(np.array([0, 0, 1.0, 0], dtype=np.float32), [(set(), lacking)]).absent  # Other
    both = head.probabilities(np.array([0.5, 0.5, 0, 0], dtype=np.float32))[0]
    assert abs(both[0] - both[1]) < 1e-6 and both[2] < 0.01  # a question between two topics splits its mass


def test_reader_fit_drops_parroted_examples_and_reports_validation_probabilities() -> None:
    from clauselens.library.heading_reader import fit_reader, parroted, prompt_examples

    assert prompt_examples('Shown: "Do we owe interest?", "What if Acme\nsits on it?" Reply') == [
        "Do we owe interest?", "What if Acme\nsits on it?"]
    ex = np.array([[1.0, 0, 0]], dtype=np.float32)
    x = np.array([[0.99, 0.14, 0], [0.6, 0.8, 0], [0, 0, 1.0]], dtype=np.float32)
    assert parroted(x, ex).tolist() == [True, False, False]
    rng = np.random.default_rng(0)
    centres = np.eye(3, 8)
    x = np.concatenate([c + 0.05 * rng.standard_normal((30, 8)) for c in centres]).astype(np.float32)
    y = ["A"] * 30 + ["B"] * 30 + ["Other"] * 30
    val = np.arange(90) % 5 == 0
    fit = fit_reader(x, y, val, ["A", "B", "Other"])
    assert fit["coef"].shape == (3, 8) and fit["val_probs"].shape == (int(val.sum()), 3)
    assert (fit["val_probs"].argmax(axis=1) == np.array([0, 1, 2]).repeat(30)[val]).all()
    assert max(r["val_accuracy"] for r in fit["C_curve"]) == 1.0


def test_missing_or_corrupt_head_raises(tmp_path: Path) -> None:
    with pytest.raises(HeadMissingError):
        HeadingTopicHead(tmp_path / "nothing")
    with pytest.raises(HeadChecksumError):
        _head(tmp_path, corrupt=True)


def test_committed_head_loads_offline_and_matches_its_checksums() -> None:
    from clauselens.heads.base import head_dir
    from clauselens.heads.heading_topic import load

    d = head_dir("heading_topic")
    head = load()
    meta = json.loads((d / "head.json").read_text())
    assert meta["sha256"] == sha256_file(d / "model.safetensors")
    assert head.labels[-1] == "Other" and set(head.absent_below) <= set(head.topics)
    assert head.bank.shape[1] == 384 and len(head.bank_labels) == len(head.bank)
    assert head.p_coef.shape[0] == len(head.topics) and int(head.bank_labels.max()) == len(head.labels) - 1
    assert (d / "model.safetensors").stat().st_size <= 50 * 2**20  # the weights limit
