"""Document metadata (title, parties, effective date, type, amended base agreement and
clauses) on real CUAD contracts, against values hand-checked by reading each text
(``cuad_metadata_expected.json`` beside this file, also read by
``benchmarks/parsing_cuad.py`` for its hand-check accuracy)."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parsing_paths import SHARED, cuad_pdf, cuad_txt  # noqa: E402

from clauselens.parsing import load_document, load_text_document  # noqa: E402
from clauselens.parsing.metadata import guess_amends, parse_date  # noqa: E402

EXPECTED = json.loads((Path(__file__).parent / "cuad_metadata_expected.json").read_text())
FEDERATED_DIR = SHARED / "data" / "legalbench-rag" / "corpus" / "cuad"

# Contracts whose parties, date, type and title the extractor gets right (checked by hand).
# Known misses, kept out of this list and reported by the benchmark: MOVADO (date not in the
# opening 5,000 characters), MTI (form header), PRIMEENERGY (garbled OCR). ATN's preamble follows
# a table of contents, past 5,000 characters: read there since parsing.parties.opening.
RIGHT = ["SECURIANFUNDSTRUST", "NEONSYSTEMSINC", "COOLTECHNOLOGIES", "DRIVENDELIVERIES", "THERAVANCEBIOPHARMA",
         "MIDDLEBROOKPHARMACEUTICALS", "EuromediaHoldingsCorp", "INTRICONCORP", "HC2HOLDINGS", "BellringBrandsInc",
         "WPPPLC", "VIOLINMEMORYINC", "WESTERN COPPER", "ADMA BioManufacturing", "WORLDWIDESTRATEGIESINC",
         "BLUEROCKRESIDENTIALGROWTHREIT", "AtnInternationalInc"]


def _norm(p: str) -> str:
    return " ".join(p.split()).lower().rstrip(" .,")


def _check(doc, exp: dict) -> None:
    assert {_norm(p) for p in doc.parties} == {_norm(p) for p in exp["parties"]}, doc.parties
    assert parse_date(doc.effective_date) == dt.date.fromisoformat(exp["effective_date"]), doc.effective_date
    assert doc.doc_type == exp["doc_type"]
    assert exp["title"].lower() in (doc.title or "").lower(), doc.title


@pytest.mark.parametrize("prefix", RIGHT)
def test_cuad_txt_metadata_matches_hand_check(prefix: str) -> None:
    _check(load_document(cuad_txt(prefix)), EXPECTED["cuad"][prefix])


@pytest.mark.parametrize("prefix", ["HC2HOLDINGS", "DRIVENDELIVERIES"])
def test_cuad_pdf_metadata_matches_hand_check(prefix: str) -> None:
    """The PDF texts differ from the TXTs: HC2's title line reads ``Exhibit 10.1 COOPERATION
    AGREEMENT`` (must not become a ``schedule``), DRIVEN's has no title line at all."""
    _check(load_document(cuad_pdf(prefix), ocr=False), EXPECTED["cuad"][prefix])


@pytest.mark.parametrize("prefix", list(EXPECTED["cuad"]))
def test_parties_and_dates_are_verbatim(prefix: str) -> None:
    """Every extracted party name and date is a substring of the text (whitespace normalised)."""
    doc = load_document(cuad_txt(prefix))
    flat = " ".join(doc.text.split())
    assert doc.title and doc.parties
    for value in [*doc.parties, *([doc.effective_date] if doc.effective_date else [])]:
        assert value in flat, value


def test_recital_date_is_not_the_effective_date() -> None:
    """MOVADO opens with recitals; ``dated as of December 5, 1995`` there is the old Split
    Dollar Agreement's date, so no effective date rather than a wrong one."""
    doc = load_document(cuad_txt("MOVADOGROUPINC"))
    assert doc.effective_date is None
    assert {_norm(p) for p in doc.parties} == {"movado group, inc", "trustees of the grinberg family trust"}


def test_blank_date_gives_none() -> None:
    """ADIA's preamble leaves the date blank (``this ___ day of _________, 2004``)."""
    assert load_document(cuad_txt("ADIANUTRITION")).effective_date is None


def _amendment_check(doc, exp: dict) -> None:
    assert doc.doc_type == "amendment"
    base, *refs = doc.amends
    name, _, date = base.partition(" dated ")
    assert name.lower() == exp["amends_base"].lower()
    assert parse_date(date) == dt.date.fromisoformat(exp["amends_base_date"])
    assert refs == exp["amends_refs"]


def test_adma_amendment_base_and_clauses() -> None:
    """``Amendment #3 to the Manufacturing Agreement``: base ``Manufacturing Agreement,
    effective September 30, 2011``; amends Section 2.1 and Section 6.5 of it. ``Section 1 of
    Amendment #2`` (deleted) belongs to the earlier amendment and is left out."""
    doc = load_document(cuad_txt("ADMA BioManufacturing"))
    exp = EXPECTED["cuad"]["ADMA BioManufacturing"]
    _check(doc, exp)
    _amendment_check(doc, exp)
    assert "Section 1" not in doc.amends


@pytest.mark.parametrize("name", list(EXPECTED["federated"]))
def test_federated_services_agreement_and_amendments(name: str) -> None:
    """The Services Agreement (2004), its Amendment (2009) and Second Amendment (2016):
    both amendments amend Exhibit A of the Services Agreement dated January 1, 2004 (the
    first one's own ``dated and effective as of March 30, 2009`` is not the base's date)."""
    doc = load_document(FEDERATED_DIR / name)
    exp = EXPECTED["federated"][name]
    _check(doc, exp)
    if exp["doc_type"] == "amendment":
        _amendment_check(doc, exp)
    else:
        assert doc.amends == []


def test_built_preamble_forms() -> None:
    """``BETWEEN: ... AND: ...`` blocks, ``dated as of`` and an ``Amendment No. 2`` with
    ``Section 5.1 of the Agreement is hereby amended``."""
    text = ("AMENDMENT NO. 2 TO SUPPLY AGREEMENT\n\nThis Amendment No. 2 to the Supply Agreement dated as of "
            "March 1, 2019 is dated as of 4 June 2021.\n\nBETWEEN:\n\nACME WIDGETS LIMITED, a company incorporated "
            "in England (\"Acme\")\n\nAND:\n\nBeta Parts GmbH, a German company (\"Beta\")\n\nWHEREAS the parties "
            "wish to amend the Agreement;\n\n1. Section 5.1 of the Agreement is hereby amended to read: \"5.1 Price. "
            "EUR 10.\"\n\n2. Schedule 2 of the Agreement shall be, and hereby is, deleted.\n")
    doc = load_text_document(text, doc_id="built")
    assert doc.doc_type == "amendment"
    assert doc.parties == ["ACME WIDGETS LIMITED", "Beta Parts GmbH"]
    assert doc.effective_date == "4 June 2021"  # not the base agreement's date
    assert doc.amends == ["Supply Agreement dated March 1, 2019", "Section 5.1", "Schedule 2"]
    assert guess_amends(doc.model_copy(update={"doc_type": "agreement"})) == []


@pytest.mark.parametrize("prefix,parties", [
    # "(on behalf of itself and its Affiliates, individually and collectively referred to as "Bellicum")"
    ("BELLICUMPHARMACEUTICALS", ["Miltenyi Biotec GmbH", "Bellicum Pharmaceuticals, Inc."]),
    # "(together with its successors and assigns, if any, "Lessor")"
    ("ALCOSTORESINC", ["General Electric Capital Corporation", "Duckwall-Alco Stores, Inc."]),
    # lower-case brands: "ebix.com, Inc.", "drkoop.com, inc.", "iVillage, Inc."
    ("EbixInc", ["About.com, Inc.", "ebix.com, Inc."]),
    ("DRKOOPCOMINC", ["drkoop.com, inc.", "Vitamin Shoppe Industries, Inc."]),
    ("IVILLAGEINC", ["Ford Motor Media", "iVillage, Inc."]),
    # a person named just before the parenthesis: "between professional golfer, TOM WATSON, (...)"
    ("ADAMSGOLFINC", ["TOM WATSON", "ADAMS GOLF, LTD."]),
    # a letter agreement: "Kiromic, Inc, a Delaware corporation (the "Company") ... to retain Gianluca Rotino ("Consultant")"
    ("KIROMICBIOPHARMA,INC_05_11_2020", ["Kiromic, Inc", "Gianluca Rotino"]),
    # the second party after "and", with no parenthesis of the first one's: "iBio Inc., ... and Beijing CC-Pharming Ltd."
    ("IbioInc", ["iBio Inc.", "Beijing CC-Pharming Ltd. of Beijing"]),
])
def test_party_forms_on_real_preambles(prefix: str, parties: list[str]) -> None:
    """Preamble forms the extractor used to miss (`benchmarks/metadata_fill.py` on the 462 CUAD contracts: two or
    more parties found went from 369 to 389; the hand-checked contracts above are unchanged)."""
    path = next(FEDERATED_DIR.glob(f"{prefix}*"), None)
    if path is None:
        pytest.skip(f"needs {prefix}* in {FEDERATED_DIR}")
    assert load_document(path).parties == parties


@pytest.mark.parametrize("text,iso", [
    ("26t h day of May, 2017", "2017-05-26"), ("May 3,2006", "2006-05-03"), ("July 11 , 2006", "2006-07-11"),
    ("first day of July, 2017", "2017-07-01"), ("Sept 29, 2004", "2004-09-29"), ("1 October 2019", "2019-10-01"),
    ("2012-05-01", "2012-05-01"), ("31 day of February, 2019", None), ("", None), ("soon", None),
])
def test_parse_date(text: str, iso: str | None) -> None:
    assert parse_date(text) == (dt.date.fromisoformat(iso) if iso else None)


def test_a_split_ordinal_is_joined_for_display_only() -> None:
    """A text layer's "20t h day of January, 2020" stays verbatim in the metadata and reads "20th day of January, 2020" in a
    report header and ``library list`` (a new user's tryout of the INTERSECT supply agreement, 2026-12-07)."""
    from clauselens.parsing.metadata import guess_effective_date, parse_date, shown_date

    raw = guess_effective_date("This SUPPLY AGREEMENT is made on this 20t h day of January, 2020 by and between")
    assert raw == "20t h day of January, 2020" and parse_date(raw) is not None and parse_date(raw).isoformat() == "2020-01-20"
    assert shown_date(raw) == "20th day of January, 2020" and shown_date("May 3, 2006") == "May 3, 2006"
