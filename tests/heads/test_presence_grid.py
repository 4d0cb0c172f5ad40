"""Grid yes/no from the presence head (issue #40): the verdict quotes a verbatim library passage."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from clauselens.grid.presence import contract_presence, presence_answer
from clauselens.heads.base import head_dir
from clauselens.heads.presence import NAME, WEIGHT_FILE

from .test_presence_head import ACCURAY


@dataclass
class FakeChunk:
    text: str


@pytest.mark.skipif(not (head_dir(NAME) / WEIGHT_FILE).is_file(), reason="presence head not built")
def test_governing_law_yes_quotes_the_clause_passage() -> None:
    gov_at = ACCURAY.index("12.1.")
    chunks = [FakeChunk(ACCURAY[:gov_at]), FakeChunk(ACCURAY[gov_at:])]
    res = contract_presence(chunks)
    assert res is not None
    gov = presence_answer(res, "Governing Law")
    assert gov is not None and gov.answer == "Yes" and gov.passage_index == 1
    assert gov.quote == chunks[1].text and "threshold" in gov.reason
    nc = presence_answer(res, "Non-Compete")
    assert nc is not None and nc.answer == "No" and nc.quote == ""
    assert presence_answer(res, "Not a CUAD category") is None
    assert presence_answer(None, "Governing Law") is None
