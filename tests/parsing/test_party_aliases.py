"""Party aliases (the short names a party's defining parenthesis gives it) on real CUAD agreements
with different preamble styles, and the rules that keep a definition from being given to the wrong
party or to no party at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.parsing import load_document
from clauselens.parsing.parties import guess_parties, guess_party_aliases
from clauselens.parsing.types import DocumentSummary

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
GARRETT = CORPUS / "GarrettMotionInc_20181001_8-K_EX-2.4_11364532_EX-2.4_Intellectual Property Agreement.txt"
UPJOHN = CORPUS / "UpjohnInc_20200121_10-12G_EX-2.6_11948692_EX-2.6_Manufacturing Agreement_ Supply Agreement.txt"
CANO = CORPUS / "CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt"
ALCO = CORPUS / "ALCOSTORESINC_12_14_2005-EX-10.26-AGENCY AGREEMENT.txt"
BELLICUM = CORPUS / "BELLICUMPHARMACEUTICALS,INC_05_07_2019-EX-10.1-Supply Agreement.txt"
GOCALL = CORPUS / "GOCALLINC_03_30_2000-EX-10.7-Promotion Agreement.txt"
ROCHE = CORPUS / "FOUNDATIONMEDICINE,INC_02_02_2015-EX-10.2-Collaboration Agreement.txt"
FILES = [GARRETT, UPJOHN, CANO, ALCO, BELLICUM, GOCALL, ROCHE]
cuad = pytest.mark.skipif(not all(f.exists() for f in FILES), reason="../shared CUAD corpus not present")


def _aliases(path: Path) -> dict[str, list[str]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    return guess_party_aliases(text, guess_parties(text[:5000]))


@cuad
def test_an_alias_defined_after_the_title_page_and_contents_is_found() -> None:
    # parties from the title page; "("SpinCo")" is in the preamble after three pages of contents
    assert _aliases(GARRETT) == {"HONEYWELL INTERNATIONAL INC.": ["Honeywell"], "GARRETT MOTION INC.": ["SpinCo"]}


@cuad
def test_the_loader_sets_the_aliases_and_the_summary_carries_them() -> None:
    doc = load_document(GARRETT)
    assert doc.party_aliases["GARRETT MOTION INC."] == ["SpinCo"]
    summary = DocumentSummary.of(doc)
    assert summary.party_aliases == doc.party_aliases
    assert DocumentSummary.model_validate(summary.model_dump(mode="json")).party_aliases == doc.party_aliases
    # a summary written before aliases were read still loads
    old = summary.model_dump(mode="json")
    del old["party_aliases"]
    assert DocumentSummary.model_validate(old).party_aliases == {}


@cuad
def test_role_words_after_hereinafter_and_names_defined_in_the_recitals() -> None:
    # "Pfizer Inc., a Delaware corporation (hereinafter "Manufacturer")"; the recitals: "Pfizer Inc.
    # ("Pluto") and Upjohn Inc. ("Spinco") have entered into a Separation and Distribution Agreement"
    assert _aliases(UPJOHN) == {"PFIZER INC.": ["Manufacturer", "Pluto"], "UPJOHN INC.": ["Customer", "Spinco"]}


@cuad
def test_a_definition_without_parentheses_gives_every_name_it_lists() -> None:
    # ", whose principal place of business is located at ..., referred to in this Agreement as "Company" or "Boyd","
    assert _aliases(CANO) == {"R. C. Boyd Enterprises, LLC": ["Company", "Boyd"], "Cano Petroleum, Inc.": ["Sponsor", "Cano"]}


@cuad
def test_long_parentheses_about_the_party_itself_keep_their_name() -> None:
    # "(together with its successors and assigns, if any, "Lessor")": the party with its successors,
    # not several parties together
    assert _aliases(ALCO)["General Electric Capital Corporation"] == ["Lessor"]
    # "(on behalf of itself and its Affiliates, individually and collectively referred to as "Bellicum")"
    assert _aliases(BELLICUM) == {"Miltenyi Biotec GmbH": ["Miltenyi"], "Bellicum Pharmaceuticals, Inc.": ["Bellicum"]}


@cuad
def test_a_description_in_the_next_paragraph_and_a_name_shared_by_two_parties() -> None:
    # "F. Hoffmann-La Roche Ltd\n\nwith an office ... ("Roche Basel") and Hoffmann-La Roche Inc.\n\nwith an
    # office ... ("Roche US"; Roche Basel and Roche US together referred to as "Roche")": "Roche" is both
    assert _aliases(ROCHE) == {"F. Hoffmann-La Roche Ltd": ["Roche Basel"], "Hoffmann-La Roche Inc.": ["Roche US"],
                               "Foundation Medicine, Inc.": ["FMI"]}


@cuad
def test_a_clause_after_the_operative_words_defines_no_party() -> None:
    # clause 1: "... services from PageMaster Corporation ("Purchase Customers")": not PageMaster's name
    aliases = _aliases(GOCALL)
    assert aliases["PageMaster Corporation"] == []
    assert aliases["Go Call, Inc."] == ["Go Call"]  # "(herein "Go Call")"


def test_the_definition_goes_to_the_party_it_follows() -> None:
    text = ('This Agreement is made between Acme Widgets, Inc., a Delaware corporation, and Beta Tools LLC, '
            'a Texas limited liability company ("Beta"), and Gamma Corp. (the "Company" or "we").\n\n'
            'WHEREAS, Delta Holdings Ltd. (hereinafter Delta) is a shareholder of the Company;\n\n'
            'NOW, THEREFORE, the parties agree as follows: 1. Acme Widgets, Inc. (the "Supplier Group") shall supply.')
    parties = ["Acme Widgets, Inc.", "Beta Tools LLC", "Gamma Corp.", "Delta Holdings Ltd."]
    assert guess_party_aliases(text, parties) == {
        "Acme Widgets, Inc.": [],  # Beta's parenthesis comes after Beta's name; clause 1 is past the preamble
        "Beta Tools LLC": ["Beta"],
        "Gamma Corp.": ["Company", "we"],
        "Delta Holdings Ltd.": ["Delta"],
    }


def test_what_the_text_between_a_name_and_a_definition_may_hold() -> None:
    text = ('This Agreement is made between Pizza Fusion Holding, Inc., a Florida corporation, and the individual '
            'identified on the cover page ("Franchisee"), PlanetCAD Inc. (formerly known as Spatial Technology Inc.), a '
            'Delaware corporation ("PlanetCAD"), Acme Capital Management, L.P., a Delaware partnership ("Acme US"), and '
            'Acme Capital Management (UK) LLP (the "Sub-Advisor"). WHEREAS, Acme Capital Management, L.P. owns shares of '
            'PlanetCAD Inc. ("PlanetCAD Common Stock").')
    parties = ["Pizza Fusion Holding, Inc.", "PlanetCAD Inc.", "Acme Capital Management, L.P.", "Acme Capital Management"]
    assert guess_party_aliases(text, parties) == {
        "Pizza Fusion Holding, Inc.": [],  # ", and the individual ...": another party's definition
        "PlanetCAD Inc.": ["PlanetCAD"],  # its former name is no other company; its stock is no alias
        "Acme Capital Management, L.P.": ["Acme US"],
        "Acme Capital Management": ["Sub-Advisor"],  # not the alias of the longer name that contains it
    }


def test_collective_and_generic_names_are_not_one_party_s_alias() -> None:
    text = ('This Agreement (the "Agreement") is entered into by Rio Royal Ltd. ("Rio Royal", and together with '
            'MG Capital LLC, the "MG Capital Parties") and Omega Inc. (each a "Party" and together the "Parties"). '
            'WHEREAS the parties wish to cooperate. "Licensee" means Omega Inc.')
    assert guess_party_aliases(text, ["Rio Royal Ltd.", "Omega Inc."]) == {"Rio Royal Ltd.": ["Rio Royal"],
                                                                           "Omega Inc.": ["Licensee"]}
