"""A party named with its address left out ("(2) NIGEL CROCKETT of (the ''Employee")", a new user's tryout): the name read
from the preamble kept the dangling "of", and the grid answered "NIGEL CROCKETT of" for who provides the services."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.parsing.parties import guess_parties

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/data not present")
def test_cuad_service_agreement_with_the_address_left_out() -> None:
    text = (CORPUS / "BICYCLETHERAPEUTICSPLC_03_10_2020-EX-10.11-SERVICE AGREEMENT.txt").read_text(errors="ignore")
    assert guess_parties(text[:5000]) == ["BICYCLETX LIMITED", "NIGEL CROCKETT"]


@pytest.mark.parametrize("tail", ["of", "of ", "whose", "residing at", "of of"])
@pytest.mark.parametrize("name", ["JANE DOE", "ACME WIDGETS LIMITED"])
def test_a_dangling_word_is_no_part_of_the_name(name: str, tail: str) -> None:
    head = ("THIS AGREEMENT is made on 1 March 2020\n\nBETWEEN:\n\n(1) BETA HOLDINGS LIMITED a company incorporated in England "
            f"(the \"Company\"); and\n\n(2) {name} {tail} (the \"Executive\").\n\nIT IS AGREED as follows:")
    assert guess_parties(head) == ["BETA HOLDINGS LIMITED", name]
