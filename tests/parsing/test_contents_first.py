"""A table of contents before the preamble (a new user's tryout, issue #45): franchise and maintenance agreements that open
with pages of contents had no parties in the library's listing and a contents line for a title ("FRANCHISE AGREEMENT
TABLE OF CONTENTS", "SUBJECT-MATTER OF THE AGREEMENT" -- clause 1's heading in the contents list). The preamble readers
now read the preamble after the contents when it starts past the middle of the opening they read, and a title line loses a
trailing "TABLE OF CONTENTS" or keeps its capitals before a contract reference.

Real CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0), and generated openings.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from clauselens.parsing import load_document
from clauselens.parsing.metadata import guess_title
from clauselens.parsing.parties import guess_parties, opening

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/data not present")


def _doc(name: str):  # type: ignore[no-untyped-def]
    return load_document(CORPUS / name)


@needs_corpus
def test_a_master_franchise_after_eight_pages_of_contents() -> None:
    doc = _doc("SoupmanInc_20150814_8-K_EX-10.1_9230148_EX-10.1_Franchise Agreement1.txt")
    assert doc.parties == ["Kiosk Concepts, Inc.", "Grilled Cheese Truck, Inc."]
    assert doc.title == "MASTER FRANCHISE AGREEMENT"


@needs_corpus
def test_a_franchise_agreement_whose_title_line_holds_the_contents_heading() -> None:
    doc = _doc("MRSFIELDSORIGINALCOOKIESINC_01_29_1998-EX-10-FRANCHISE AGREEMENT.txt")
    assert doc.title == "FRANCHISE AGREEMENT"
    assert doc.parties == ["Pretzel Time, Inc."]  # the franchisee's name is left blank in the form


@needs_corpus
def test_a_title_in_capitals_before_its_contract_number() -> None:
    text = (CORPUS / "AzulSa_20170303_F-1A_EX-10.3_9943903_EX-10.3_Maintenance Agreement1.txt").read_text(errors="ignore")
    assert guess_title(text) == "GLOBAL MAINTENANCE AGREEMENT"


PARTIES = [("Acme Widgets, Inc.", "Beta Supply LLC"), ("Northwind Traders Corporation", "Contoso Ltd.")]
HEADINGS = ["TABLE OF CONTENTS", "Table of Contents", "CONTENTS"]
ENTRY = "{n}. {title} {page}"
TITLES = ["DEFINITIONS", "GRANT OF FRANCHISE", "FEES", "TERM AND RENEWAL", "TERMINATION", "NON-COMPETITION", "NOTICES"]


def _contents(heading: str, pages: int) -> str:
    rows = [ENTRY.format(n=i + 1, title=t, page=i * 3 + 1) for i, t in enumerate(TITLES)] * pages
    return heading + "\n\n" + "   ".join(rows) + "\n\n"


@pytest.mark.parametrize("heading, pages, names", list(itertools.product(HEADINGS, [20, 40], PARTIES)))
def test_generated_openings_with_contents_first(heading: str, pages: int, names: tuple[str, str]) -> None:
    preamble = (f"FRANCHISE AGREEMENT\n\nTHIS AGREEMENT is made as of the 1st day of March, 2015 by and between {names[0]}, a Delaware "
                f"corporation (\"Franchisor\"), and {names[1]}, a New York corporation (\"Franchisee\").\n\nWHEREAS, ...")
    text = "FRANCHISE AGREEMENT\n\n" + _contents(heading, pages) + preamble
    start = text.index("THIS AGREEMENT")
    assert start > 2500 and (start < 5000 or guess_parties(text[:5000]) == [])
    assert guess_parties(opening(text)) == list(names)
    assert opening(text).index("THIS AGREEMENT") < 2000


@pytest.mark.parametrize("names", PARTIES)
def test_an_opening_without_contents_or_with_the_preamble_near_is_read_as_before(names: tuple[str, str]) -> None:
    preamble = f"THIS AGREEMENT is made by and between {names[0]} (\"A\") and {names[1]} (\"B\").\n\n"
    for text in (preamble + "x " * 4000, "TABLE OF CONTENTS\n1. TERM 2\n\n" + preamble + "x " * 4000):
        assert opening(text) == text[:5000]
