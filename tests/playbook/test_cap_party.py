"""Whose liability a cap limits (issue #44: a one-sided cap counted compliant for our side).

Real CUAD sentences (quoted verbatim from ``legalbench-rag/corpus/cuad``; the party names are the
agreements' own defined terms) for :func:`~clauselens.playbook.parties.liable`, then the cap rule
and a review with ``party: us`` over generated caps on either party's liability.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from clauselens.playbook.model import parse_playbook, parse_requirement
from clauselens.playbook.parties import ALL, Sides, liable
from clauselens.playbook.review import Reviewer
from clauselens.playbook.rules import evaluate
from tests.playbook.test_parties import passages

CUAD = [  # (sentence, the two parties' defined terms, whose liability it limits: index into the pair, or ALL)
    ("Galaxy's liability in any matter related to Product shall be limited to the purchase price paid by Telnet for the "
     "Product with respect to which such liability relates", ("Galaxy", "Telnet"), 0),
    ("Further, Chase's aggregate liability arising under or with respect to this Agreement or the Affiliate Program shall "
     "in no event exceed the total Commissions paid or payable by Chase to Affiliate under this Agreement", ("Chase", "Affiliate"), 0),
    ("(b) ETI's liability to Nortel arising from or relating to the intellectual property indemnity set forth in the "
     "Enterprise License shall not exceed 50% (fifty percent) of the monies paid by Nortel thereunder", ("ETI", "Nortel"), 0),
    ("(b) Limitation of Direct Damages Subject to Section 17(c), in no event shall either Party's liability under this "
     "Agreement exceed the aggregate of all amounts paid under this Agreement", ("Supplier", "Customer"), ALL),
    ("NFLA's liability to Company shall not exceed the remuneration, excluding reimbursement of expenses, actually paid to "
     "NFLA by Company", ("NFLA", "Company"), 0),
    ("In no event will Seller's entire liability to Buyer, including any liability in the event the exclusive remedy set "
     "forth in this Agreement fails of its essential purpose, exceed the purchase price actually paid by Buyer for the "
     "products hereunder", ("Seller", "Buyer"), 0),
    ("Licensor's total liability to Licensee under any provision of this Agreement shall be limited to the amount actually "
     "paid by Licensee to Licensor for the Licensed Product giving rise to the liability", ("Licensor", "Licensee"), 0),
    ("Notwithstanding any other provision of this Agreement, Metavante's maximum liability with respect to any Professional "
     "Services performed shall be limited to the value of the Professional Services engagement", ("Client", "Metavante"), 1),
    ("eGain's entire liability under this Agreement for any damages from any cause whatsoever, regardless of form or action, "
     "shall in no event exceed an amount equal to the price paid for the Services", ("Customer", "eGain"), 1),
    ("each Party's aggregate liability and/or indemnification obligations towards the other Party under this Agreement shall "
     "not exceed an amount equal to the average annual aggregate amount paid or to be paid by XENCOR to BII hereunder",
     ("XENCOR", "BII"), ALL),
    ("IBM's entire liability and MSL's exclusive remedy for actual damages from cause whatsoever relating to the subject "
     "matter of this Agreement will be limited to the amount of $25,000", ("IBM", "MSL"), 0),
    ("Notwithstanding the foregoing, each of Nortel's and Entrust's liability to the other Party for breach of Article II "
     "shall not exceed U.S. $1", ("Nortel", "Entrust"), ALL),
]


def _sides(terms: tuple[str, str], us: int | None = None) -> Sides:
    parties = {f"{t} Holdings Inc.": [t] for t in terms}
    return Sides(parties, None if us is None else f"{terms[us]} Holdings Inc.")


@pytest.mark.parametrize("sentence,terms,whose", CUAD)
def test_liable_reads_whose_liability_a_real_cap_limits(sentence, terms, whose):
    got = liable(sentence, _sides(terms))
    want = {f"{terms[0]} Holdings Inc.", f"{terms[1]} Holdings Inc."} if terms == ("Nortel", "Entrust") else (
        {ALL} if whose == ALL else {f"{terms[whose]} Holdings Inc."})
    assert got == want


def test_liable_needs_a_limit_and_a_party():
    s = _sides(("Supplier", "Customer"))
    assert liable("Supplier's liability for taxes arising from its sales remains with Supplier.", s) is None  # no limit
    assert liable("Liability shall not exceed the fees paid in the twelve (12) months preceding the claim.", s) is None
    assert liable("In no event shall Customer be liable for any amount in excess of the fees paid.", s) == {"Customer Holdings Inc."}
    assert liable("Supplier shall not be liable for more than the fees paid.", s) == {"Supplier Holdings Inc."}


CAP = parse_requirement({"cap_months_of_fees_at_least": 12})
TWELVE = "{who} total liability under this Agreement shall not exceed the fees paid in the twelve (12) months preceding the claim."


@pytest.mark.parametrize("terms", [("Supplier", "Customer"), ("Licensor", "Licensee"), ("Consultant", "Company")])
def test_a_cap_on_the_other_party_only_is_a_deviation_for_ours(terms):
    theirs, ours = terms
    s = _sides(terms, us=1)
    one_sided = TWELVE.format(who=f"{theirs}'s")
    assert evaluate(CAP, one_sided, [], party="any", sides=s).outcome == "compliant"  # parties not checked: as before
    r = evaluate(CAP, one_sided, [], party="us", sides=s)
    assert r.outcome == "deviation" and f"limits {theirs}'s liability only" in r.why
    assert evaluate(CAP, one_sided, [], party="counterparty", sides=s).outcome == "compliant"
    assert evaluate(CAP, one_sided, [], party="both", sides=s).outcome == "deviation"
    assert evaluate(CAP, TWELVE.format(who=f"{ours}'s"), [], party="us", sides=s).outcome == "compliant"
    assert evaluate(CAP, TWELVE.format(who="Each party's"), [], party="both", sides=s).outcome == "compliant"
    short = TWELVE.format(who=f"{ours}'s").replace("twelve (12)", "six (6)")
    assert evaluate(CAP, short, [], party="us", sides=s).outcome == "deviation"  # too short stays a deviation
    unknown = evaluate(CAP, one_sided, [], party="us", sides=_sides(terms))
    assert unknown.outcome == "unclear" and "--our-party" in unknown.why  # never a guessed compliant


PB = """
name: caps
our_side: [Customer]
positions:
  - id: cap
    topic: Is our liability capped?
    terms: [liability]
    party: us
    require: {rule}
"""


@pytest.mark.parametrize("rule,theirs,ours", [("{cap_months_of_fees_at_least: 12}", "deviation", "compliant"),
                                               ("present", "deviation", "compliant")])
def test_review_reads_whose_liability_the_quoted_cap_limits(rule, theirs, ours):
    s = _sides(("Supplier", "Customer"))
    rev = Reviewer(parse_playbook(PB.format(rule=rule)), head=SimpleNamespace(categories=[]), calibration={})
    for who, want in (("Supplier's", theirs), ("Customer's", ours)):
        rv = rev.review(passages("1. Delivery. Supplier shall deliver the Products to Customer's site.",
                                  f"2. Limitation of Liability. {TWELVE.format(who=who)}"), agreement="a", parties=s.parties)
        r = next(x for x in rv.results if x.position_id == "cap")
        assert r.outcome == want, (who, r.why)


def test_an_all_caps_cap_on_one_party_is_read_and_the_example_playbook_calls_it_a_deviation():
    """The bundled contract's clause 10 is in capitals ("IN NO EVENT SHALL COMPANY'S AGGREGATE LIABILITY ... EXCEED"):
    only the Company's liability is capped, so the supply playbook's "each party's liability capped" is a deviation
    (a fresh-clone tryout saw it "compliant"; then "unclear: the clause does not say which party it binds")."""
    from pathlib import Path

    from clauselens.parsing.loader import load_document
    from clauselens.playbook.model import load_playbook

    repo = Path(__file__).resolve().parents[2]
    pdf = repo / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"
    text = " ".join(load_document(pdf).text.split())
    start = text.index("IN NO EVENT SHALL COMPANY\u2019S AGGREGATE LIABILITY")
    sentence = text[start:text.index(".", start) + 1]
    sides = Sides(parties={"Driven Deliveries, Inc.": ["Company"], "TruckThat LLC": ["Consultant"]}, us="Driven Deliveries, Inc.")
    assert liable(sentence, sides) == {"Driven Deliveries, Inc."}
    pos = next(p for p in load_playbook(repo / "examples" / "playbooks" / "supply_services.yaml").positions if p.id == "liability_cap")
    assert pos.party == "both"


def test_the_supply_playbook_on_the_bundled_contract_finds_the_one_sided_cap(tmp_path):
    """The README's review command (no model): liability_cap is a deviation quoting clause 10, binding the Company."""
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from clauselens.cli import app

    repo = Path(__file__).resolve().parents[2]
    res = CliRunner().invoke(app, ["review", str(repo / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"),
                                   "--playbook", str(repo / "examples" / "playbooks" / "supply_services.yaml"),
                                   "--our-party", "Driven Deliveries", "--out", str(tmp_path), "--no-reading"])
    assert res.exit_code == 0, res.output
    got = {r["position_id"]: r for r in json.loads((tmp_path / "review.json").read_text())["agreements"][0]["results"]}
    cap = got["liability_cap"]
    assert cap["outcome"] == "deviation" and "binds Company, not each party" in cap["why"]
    assert any("COMPANY\u2019S AGGREGATE LIABILITY" in q["text"] for q in cap["quotes"])
