"""The installed reranker head (issue #39): its weight file matches head.json's sha256, it loads
offline from the repository and the provisioned MiniLM tokenizer, and it ranks a CUAD clause of
the asked category above an unrelated clause of the same contract.

Skipped while no head is committed under clauselens/heads/weights/reranker/ (the heads trained so
far failed the ranking cases below -- they scored passages by a query-independent prior -- and
were not committed); the checksum and ranking checks run as soon as one is."""

from __future__ import annotations

import pytest

from clauselens.heads import base
from clauselens.heads.cross_encoder import NAME, HeadReranker

# Clauses in the style of the library's passages (heading path, then text); the question uses
# none of the clause's words ("staff", "hire away" vs "solicit ... employees").
pytestmark = pytest.mark.skipif(not base.installed(NAME), reason="no reranker head committed (see the module docstring)")

NON_SOLICIT = ("[12 Non-Solicitation]\nDuring the Term and for a period of twelve (12) months thereafter, neither party "
               "shall, directly or indirectly, solicit for employment or employ any employee of the other party who was "
               "involved in the performance of this Agreement, without the prior written consent of such other party.")
GOVERNING_LAW = ("[18 Governing Law]\nThis Agreement shall be governed by and construed in accordance with the laws of "
                 "the State of Delaware, without regard to its conflict of laws principles.")
INSURANCE = ("[9 Insurance]\nDistributor shall maintain, at its own expense, comprehensive general liability insurance "
             "with limits of not less than $2,000,000 per occurrence, naming Company as an additional insured.")


def test_committed_weights_match_their_checksum() -> None:
    meta = base.verify(NAME)
    assert meta["size"] <= 50 * 1024 * 1024
    assert "train_reranker" in meta["training_command"] and meta["data"]["source"]["allowed"] == "cuad/train_allowed.txt"


@pytest.mark.parametrize("question, relevant, other", [
    ("Can they hire away our staff once the deal is over?", NON_SOLICIT, GOVERNING_LAW),
    ("Do they have to carry insurance?", INSURANCE, NON_SOLICIT),
    ("Which state's law applies to this contract?", GOVERNING_LAW, INSURANCE),
])
def test_head_ranks_the_category_clause_first(question: str, relevant: str, other: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    p_rel, p_other = HeadReranker().score(question, [relevant, other])
    assert p_rel > p_other
