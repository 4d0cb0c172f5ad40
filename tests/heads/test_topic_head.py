"""Question-topic head (issue #39): the committed weights load offline with their checksum, and the
absent mass counts only categories every agreement clearly lacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from clauselens.heads.base import WEIGHTS, HeadChecksumError, HeadMissingError
from clauselens.heads.topic import NAME, OTHER, TopicHead


@pytest.fixture(scope="module")
def head() -> TopicHead:
    return TopicHead()  # committed under clauselens/heads/weights/topic/: never skipped


def test_committed_head_has_its_labels_thresholds_and_provenance(head: TopicHead) -> None:
    assert OTHER in head.labels and "Insurance" in head.labels and len(head.labels) >= 30
    assert head.coef.shape == (len(head.labels), 384)
    assert 0.2 <= head.absent_mass <= 0.95
    assert set(head.absent_below) <= set(head.labels) and "Insurance" in head.absent_below
    assert "train_topic" in head.meta["training_command"] and head.meta["manifest"]["questions"] > 500


def test_probabilities_are_a_distribution(head: TopicHead) -> None:
    v = np.random.default_rng(0).normal(size=(3, 384)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    p = head.probabilities(v)
    assert p.shape == (3, len(head.labels)) and np.allclose(p.sum(1), 1.0, atol=1e-5)


def test_absent_mass_needs_every_agreement_to_lack_the_category(head: TopicHead) -> None:
    j = head.labels.index("Insurance")
    v = head.coef[j] / np.linalg.norm(head.coef[j])  # the direction the head reads as Insurance
    thr = head.absent_below["Insurance"]
    lacks, has = {"Insurance": thr / 2}, {"Insurance": min(1.0, thr * 2 + 0.1)}
    one = head.read(v, [lacks])
    assert one.categories and one.categories[0][0] == "Insurance" and one.mass > 0.5 and one.absent
    assert not head.read(v, [lacks, has]).categories  # one of two agreements has it
    assert head.read(v, [{}]).mass == 0.0  # no presence scores: nothing is known to be absent


def test_a_category_that_qualifies_another_clause_never_declines(head: TopicHead) -> None:
    """An agreement without a cap on liability may still say who pays (an indemnity): the head's reading of a question
    as "Cap On Liability" adds nothing to the absent mass, where "Insurance" does."""
    from clauselens.heads.topic import QUALIFIERS

    assert "Cap On Liability" in head.absent_below and "Cap On Liability" in QUALIFIERS and "Insurance" not in QUALIFIERS
    assert QUALIFIERS <= set(head.labels)
    j = head.labels.index("Cap On Liability")
    v = head.coef[j] / np.linalg.norm(head.coef[j])
    lacks = {c: t / 2 for c, t in head.absent_below.items()}
    reading = head.read(v, [lacks])
    assert head.probabilities(v)[0][j] > 0.5  # read as a cap on liability ...
    assert all(c not in QUALIFIERS for c, _ in reading.categories) and not reading.absent  # ... which declines nothing


def test_missing_or_changed_weights_are_refused(tmp_path: Path) -> None:
    with pytest.raises(HeadMissingError, match="topic head not installed"):
        TopicHead(tmp_path)
    shutil.copytree(WEIGHTS / NAME, tmp_path / NAME)
    (tmp_path / NAME / "model.safetensors").write_bytes(b"x" * 64)
    with pytest.raises(HeadChecksumError):
        TopicHead(tmp_path)
