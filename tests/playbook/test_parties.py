"""Whose obligation a sentence states, and the playbook's party checks (issue #44).

Generated inputs: obligations with either party as subject (its name or its defined term), mutual
wording, passive voice, the consenting party; then real CUAD sentences (quoted verbatim, agreement
named) and the bundled contract's assignment clause.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from clauselens.playbook.model import parse_playbook, parse_requirement
from clauselens.playbook.parties import ALL, Sides, bound, resolve_us
from clauselens.playbook.review import Reviewer
from clauselens.playbook.rules import evaluate

PAIRS = [  # (name, defined term) of two parties
    (("Acme Widgets Corporation", "Supplier"), ("Borealis Retail LLC", "Customer")),
    (("TruckThat LLC", "Consultant"), ("Driven Deliveries, Inc.", "Company")),
    (("Nordlicht GmbH", "Licensor"), ("Pacific Apparel Inc.", "Licensee")),
]


def sides(pair: tuple[tuple[str, str], tuple[str, str]], us: str | None = None) -> Sides:
    return Sides({name: [term] for name, term in pair}, us)


def one_sided(subject: str, other: str) -> list[str]:
    """Sentences that bind ``subject`` only, in several wordings (``other``: the other party)."""
    return [
        f"{subject} shall not assign this Agreement without the prior written consent of {other}.",
        f"{subject} may not sell, assign or delegate any rights or obligations under this Agreement.",
        f"{subject} agrees not to compete with {other} during the Term.",
        f"During the Term, {subject} will not engage in any business that competes with the Products.",
        f"This Agreement may not be assigned by {subject} without the consent of {other}.",
        f"This Agreement may not be assigned without the prior written consent of {other}.",
        f"This Agreement may not be assigned without {other}'s prior written consent.",
    ]


MUTUAL = [
    "Neither party may assign this Agreement without the prior written consent of the other party.",
    "Each party agrees not to compete with the other party during the Term.",
    "Neither Party shall solicit the employees of the other Party.",
    "The parties shall not assign this Agreement.",
    "This Agreement may not be assigned by either party without the consent of the other.",
    "This Agreement may not be assigned.",
]


@pytest.mark.parametrize("pair,which,use_term", list(itertools.product(PAIRS, (0, 1), (True, False))))
def test_one_sided_obligations_bind_their_subject(pair, which, use_term):
    s = sides(pair)
    me, other = pair[which], pair[1 - which]
    subject = me[1] if use_term else me[0]
    for sentence in one_sided(subject, other[1]):
        assert bound(sentence, s) == {me[0]}, sentence


@pytest.mark.parametrize("pair", PAIRS)
def test_mutual_wording_binds_each_party(pair):
    for sentence in MUTUAL:
        assert bound(sentence, sides(pair)) == {ALL}, sentence


def test_a_sentence_naming_no_party_is_not_guessed():
    assert bound("The Products shall be delivered in good condition.", sides(PAIRS[0])) is None


@pytest.mark.parametrize("given,expected", [("Customer", "Borealis Retail LLC"), ("the Supplier", "Acme Widgets Corporation"),
                                            ("Borealis", "Borealis Retail LLC"), ("Acme Widgets", "Acme Widgets Corporation"),
                                            ("Zeta Holdings", None)])
def test_resolve_our_party_by_name_or_defined_term(given, expected):
    assert resolve_us(sides(PAIRS[0]).parties, given) == expected


def test_resolve_our_party_from_the_playbooks_side_roles():
    parties = sides(PAIRS[0]).parties
    assert resolve_us(parties, "", ["Customer", "Buyer"]) == "Borealis Retail LLC"
    assert resolve_us(parties, "", ["Licensee"]) is None  # neither party has that role: unknown, not guessed


# ------------------------------------------------------------------ real CUAD sentences (verbatim)
CUAD = [  # (agreement, parties, sentence, the party it binds)
    ("DeltathreeInc_19991102_S-1A_EX-10.19 (Co-Branding)", {"PrimeCall, Inc.": ["PrimeCall"], "deltathree.com, Inc.": ["DeltaThree"]},
     "Except as provided in the preceding sentence, this Agreement may not be assigned by PrimeCall without the prior written "
     "consent of DeltaThree.", "PrimeCall, Inc."),
    ("WaterNowInc_20191120_10-Q_EX-10.12 (Distributor)", {"Water Now, Inc.": ["Company"], "HydroDynamics LLC": ["Distributor"]},
     "Neither Party may assign any right, or delegate any duty under this Agreement, in whole or in part, without the prior "
     "written consent of the other Party, which shall not be unreasonably withheld or delayed.", ALL),
    ("NlsPharmaceuticsLtd_20200228_F-1_EX-10.14", {"NLS Pharmaceutics Ltd.": ["Licensee"], "Novartis AG": ["Licensor"]},
     "Licensee shall not be entitled to assign the License or any of its rights under this Agreement or to grant any sub-licenses.",
     "NLS Pharmaceutics Ltd."),
    ("BIOAMBERINC_04_10_2013-EX-10.34 (Development)", {"BioAmber Inc.": ["Bioamber"], "Cargill, Incorporated": ["Cargill"]},
     "Bioamber will not itself or with or through third parties engage in the development of biocatalysts  other than E. coli for "
     "the production of succinic acid or salts thereof, except for the development activities under the terms and conditions  "
     "of this Development Agreement.", "BioAmber Inc."),
    ("AIRSPANNETWORKSINC_04_11_2000-EX-10.5 (Distributor)", {"Airspan Networks Inc.": ["Airspan"], "Distributor Co.": ["Distributor"]},
     "Distributor will give Airspan thirty (30) days' prior, written notice of each new potential representation role being "
     "considered by Distributor, and Distributor will not undertake such representation without Airspan's prior, written consent, "
     "such consent not to be unreasonably withheld.", "Distributor Co."),
]


@pytest.mark.parametrize("agreement,parties,sentence,expected", CUAD, ids=[c[0] for c in CUAD])
def test_real_cuad_sentences_bind_the_right_party(agreement, parties, sentence, expected):
    assert bound(sentence, Sides(parties)) == {expected}


# ------------------------------------------------------------------ the consent rule by party
BUNDLED_12_2 = ("12.2. Assignability. This Agreement will be binding upon Consultant’s assigns, administrators, and other legal "
                "representatives, and will be for the benefit of the Company, its successors, and its assigns. Except as may "
                "otherwise be provided in this Agreement, Consultant may not sell, assign or delegate any rights or obligations "
                "under this Agreement. Notwithstanding anything to the contrary herein, Company may assign this Agreement without "
                "Consultant’s consent.")
CONSENT = parse_requirement("consent_required")


def test_bundled_assignment_clause_lets_company_assign_without_consent():
    # tryout finding: read as "consent required" (the possessive "without Consultant's consent" was missed)
    s = sides(PAIRS[1], us="Driven Deliveries, Inc.")
    assert evaluate(CONSENT, BUNDLED_12_2, ["assign", "transfer"]).outcome == "deviation"
    r = evaluate(CONSENT, BUNDLED_12_2, ["assign", "transfer"], party="both", sides=s)
    assert r.outcome == "deviation" and "Company" in r.why
    assert BUNDLED_12_2[r.span[0]:r.span[1]].startswith("without Consultant")


@pytest.mark.parametrize("pair", PAIRS)
def test_one_sided_consent_is_a_deviation_from_a_mutual_position(pair):
    (a_name, a_term), (b_name, b_term) = pair
    text = f"{a_term} shall not assign this Agreement without the prior written consent of {b_term}."
    both = evaluate(CONSENT, text, ["assign"], party="both", sides=sides(pair, us=b_name))
    assert both.outcome == "deviation" and a_term in both.why and b_term in both.why
    # the restricted party is the counterparty: what a customer wants of its supplier
    assert evaluate(CONSENT, text, ["assign"], party="counterparty", sides=sides(pair, us=b_name)).outcome == "compliant"
    assert evaluate(CONSENT, text, ["assign"], party="us", sides=sides(pair, us=b_name)).outcome == "deviation"
    # our side unknown and the clause binds one party: say so, never guess
    assert evaluate(CONSENT, text, ["assign"], party="counterparty", sides=sides(pair)).outcome == "unclear"
    mutual = "Neither party may assign this Agreement without the prior written consent of the other party."
    for party in ("both", "us", "counterparty"):
        assert evaluate(CONSENT, mutual, ["assign"], party=party, sides=sides(pair)).outcome == "compliant"


# ------------------------------------------------------------------ the review's party check (topic search, no head)
PB = """
name: parties
our_side: [Customer]
positions:
  - id: we_may_compete
    topic: Are we restricted from competing?
    terms: [compet]
    party: {party}
    require: absent
  - id: confidentiality
    topic: Does each party keep the other's information confidential?
    terms: [confidential]
    party: both
    require: present
"""


def passages(*texts: str) -> list[SimpleNamespace]:
    out, at = [], 0
    for t in texts:
        out.append(SimpleNamespace(text=t, spans=[SimpleNamespace(start=at, end=at + len(t))], clause_ref="", heading_path=[],
                                   page_start=1))
        at += len(t) + 2
    return out


@pytest.mark.parametrize("pair", PAIRS[:1])
def test_review_checks_the_obligated_party(pair):
    s = sides(pair)
    (sup, sup_term), (cus, cus_term) = pair
    rev = Reviewer(parse_playbook(PB.format(party="us")), head=SimpleNamespace(categories=[]), calibration={})
    cases = [  # (non-compete sentence, outcome for "we must not be restricted")
        (f"{sup_term} agrees not to compete with {cus_term} during the Term.", "compliant"),
        (f"{cus_term} shall not compete with {sup_term} during the Term.", "deviation"),
        ("Each party agrees not to compete with the other party during the Term.", "deviation"),
    ]
    for sentence, expected in cases:
        rv = rev.review(passages("1. Confidentiality. Each party shall keep the other party's information confidential.",
                                 f"2. Non-competition. {sentence}"), agreement="a", parties=s.parties)
        got = {r.position_id: r for r in rv.results}
        assert got["we_may_compete"].outcome == expected, (sentence, got["we_may_compete"].why)
        assert got["we_may_compete"].quotes, "a party-checked outcome quotes the clause"
        assert got["confidentiality"].outcome == "compliant"
    one_way = rev.review(passages(f"1. Confidentiality. {sup_term} shall keep {cus_term}'s information confidential."),
                         agreement="a", parties=s.parties)
    conf = next(r for r in one_way.results if r.position_id == "confidentiality")
    assert conf.outcome == "deviation" and conf.bound_party == sup_term


def test_review_without_our_party_does_not_call_a_one_sided_clause_compliant():
    pair = PAIRS[2]  # Licensor / Licensee: the playbook's our_side (Customer) matches neither
    s = sides(pair)
    rev = Reviewer(parse_playbook(PB.format(party="us")), head=SimpleNamespace(categories=[]), calibration={})
    rv = rev.review(passages("Licensor agrees not to compete with Licensee during the Term."), agreement="a", parties=s.parties)
    r = next(x for x in rv.results if x.position_id == "we_may_compete")
    assert r.outcome == "deviation" and "--our-party" in r.why
    named = Reviewer(parse_playbook(PB.format(party="us")), head=SimpleNamespace(categories=[]), calibration={}, our_party="Licensee")
    r = next(x for x in named.review(passages("Licensor agrees not to compete with Licensee during the Term."), agreement="a",
                                     parties=s.parties).results if x.position_id == "we_may_compete")
    assert r.outcome == "compliant" and r.bound_party == "Licensor"


@pytest.mark.parametrize("pair", PAIRS)
def test_an_exclusive_grant_binds_the_grantor(pair):
    (a_name, a_term), (b_name, b_term) = pair
    s = sides(pair)
    for sentence in (f"{a_term} hereby grants to {b_term} the exclusive right to market and sell the Products in the Territory, and "
                     f"{b_term} hereby accepts such right and agrees to use its reasonable efforts to promote the Products.",
                     f"{a_term} hereby appoints {b_term} as its sole and exclusive distributor of the Products."):
        assert bound(sentence, s) == {a_name}, sentence


def test_our_party_that_names_no_party_is_a_clear_error():
    from clauselens.errors import ConfigError
    from clauselens.playbook.run import _check_our_party
    from clauselens.playbook.sources import AgreementInput

    inputs = [AgreementInput("a", "", "d1", [], parties={name: [term] for name, term in PAIRS[0]}),
              AgreementInput("b", "", "d2", [], parties={name: [term] for name, term in PAIRS[1]})]
    _check_our_party(inputs, ["Customer", "Company"])  # each names a party of one agreement
    with pytest.raises(ConfigError, match="names no party.*Borealis Retail LLC \\(Customer\\)"):
        _check_our_party(inputs, ["Zeta Holdings"])


def test_reports_say_whom_the_clause_binds(tmp_path):
    import openpyxl

    from clauselens.playbook.report import write_reports

    pb = parse_playbook(PB.format(party="us"))
    s = sides(PAIRS[0])
    rev = Reviewer(pb, head=SimpleNamespace(categories=[]), calibration={}, our_party="Customer")
    rv = rev.review(passages("2. Non-competition. Supplier agrees not to compete with Customer during the Term."), agreement="a",
                    parties=s.parties)
    out = write_reports(tmp_path, pb, [rv], {})
    assert "**The clause binds:** Supplier" in out["md"].read_text()
    ws = openpyxl.load_workbook(out["xlsx"])["review"]
    header = [c.value for c in ws[1]]
    assert "binds" in header and ws.cell(row=2, column=header.index("binds") + 1).value == "Supplier"
