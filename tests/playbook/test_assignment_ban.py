"""Assignment positions on real CUAD anti-assignment sentences (issue #44): an outright ban is decided by rule.

``consent_required`` ("assign only with the other party's consent"): an outright prohibition with no
consent route is stricter than consent, so whom it binds decides -- a ban on the counterparty meets the
position (compliant), a ban on us goes beyond it (deviation: we could not assign even with consent), a ban
on a party that may be ours is unclear naming ``--our-party``. Consent routes in other words ("permission",
"agreed upon in writing") are consent; "without the other party's consent" is a free assignment; a
change-of-control sentence alone says nothing about consent. Sentences quoted verbatim from CUAD v1 TXT
agreements (``../shared/data/legalbench-rag/corpus/cuad/``; CC BY 4.0), parties from their preambles.
Rule tests only: nothing here is trained or tuned.
"""

from __future__ import annotations

import pytest

from clauselens.playbook.model import parse_requirement
from clauselens.playbook.parties import Sides
from clauselens.playbook.rules import evaluate

REQ = parse_requirement("consent_required")
CUES = ["assign", "transfer"]

# (agreement, parties {name: [defined term]}, sentence, kind, the party the sentence restricts: a defined term, or "*" for each)
CASES = [
    ("ADUROBIOTECH,INC_06_02_2020-EX-10.7", {"Aduro Biotech, Inc.": ["Aduro"], "IREYA B.V": ["Consultant"]},
     "This Agreement shall not be assignable by Consultant.", "ban", "Consultant"),
    ("CYBERIANOUTPOSTINC_07_09_1998-EX-10.13", {"CNET, Inc.": ["CNET"], "Cyberian Outpost, Inc.": ["Company"]},
     "This Agreement may not be assigned by either party, except (a) to the transferee of substantially all of the business "
     "operations of such party (whether by asset sale, stock sale, merger or otherwise) or (b) to any entity that controls, is "
     "controlled by or is under common control with such party.", "ban", "*"),
    ("BLACKBOXSTOCKSINC_08_05_2014-EX-10.1", {"Snotarator LLC": ["Company"], "SMSA Ballinger Acquisition Corp.": ["Distributor"]},
     "Distributor shall not assign the rights granted in this Section 1.", "ban", "Distributor"),
    ("ADAMSGOLFINC_03_21_2005-EX-10.17", {"TOM WATSON": ["CONSULTANT"], "ADAMS GOLF, LTD.": ["ADAMS GOLF"]},
     "Neither ADAMS GOLF nor CONSULTANT shall have the right to grant sublicenses hereunder or to assign, alienate or otherwise "
     "transfer any of its rights or obligations hereunder.", "ban", "*"),
    ("KENTUCKYUTILITIESCO_03_25_2003-EX-10.65", {"TENNESSEE GAS PIPELINE COMPANY": ["Transporter"],
                                                 "LOUISVILLE GAS AND ELECTRIC COMPANY": ["Shipper"]},
     "Otherwise, Shipper shall not assign this Agreement or any of its rights hereunder, except in accord with Article III, "
     "Section 11 of the General Terms and Conditions of Transporter's FERC Gas Tariff.", "ban", "Shipper"),
    ("MphaseTechnologiesInc_20030911_10-K_EX-10.15", {"Lucent Technologies Inc.": ["Lucent"], "mPhase Technologies Inc.": ["mPhase"]},
     "This Agreement shall not be assigned by mPhase without the prior written consent of Lucent.", "consent", "mPhase"),
    ("NETGEAR,INC_04_21_2003-EX-10.16", {"Ingram Micro": ["Distributor"], "NETGEAR, Inc.": ["NETGEAR"]},
     "This Agreement may not be assigned by either party without prior written permission from the other party, which permission "
     "shall not be unreasonably withheld or delayed.", "consent", "*"),
    ("ADAPTIMMUNETHERAPEUTICSPLC_04_06_2017-EX-10.11", {"The University of Texas M. D. Anderson Cancer Center": ["MD Anderson"],
                                                        "Adaptimmune LLC": ["Adaptimmune"]},
     "This Agreement and/or any Study Order may not be assigned by either Party except as agreed upon in writing by the other Party.",
     "consent", "*"),
    ("MANUFACTURERSSERVICESLTD_06_05_2000-EX-10.14", {"International Business Machines Corporation": ["IBM"],
                                                      "Manufacturers' Services Western U.S. Operations, Inc.": ["MSL"]},
     "MSL may not assign this Agreement without IBM's prior written consent.", "consent", "MSL"),
    ("MorganStanleyDirectLendingFund_20191119_10-12GA_EX-10.5", {"Morgan Stanley Investment Management Inc.": ["Licensor"],
                                                                 "Morgan Stanley Direct Lending Fund": ["Licensee"]},
     'For the avoidance of doubt, a merger, change of control, reorganization or sale of all or substantially all of the stock of '
     'Licensee shall be deemed an "assignment" requiring the above consent, regardless of whether Licensee is the surviving entity '
     'or whether such transaction constitutes an assignment under applicable law.', "consent", "Licensee"),
    ("GopageCorp_20140221_10-K_EX-10.1", {"PSiTech Corporation": ["Licensor"], "Empirical Ventures, Inc.": ["Licensee"]},
     "Licensor may freely assign or otherwise transfer all or any of its rights, or delegate or otherwise transfer all or any of its "
     "obligations or performance, under this Agreement without Licensee's consent.", "free", "Licensor"),
    ("RISEEDUCATIONCAYMANLTD_04_17_2020-EX-4.23", {"Rise (Tianjin) Education Information Consulting Co., Ltd.": ["Service Provider"],
                                                   "[•]": ["Service Recipient"]},
     "Service Provider may assign or transfer its rights and obligations hereunder to any third party in connection with, among "
     "other things, equity restructuring or business restructuring, without the consent of Service Recipient.", "free",
     "Service Provider"),
    ("LegacyEducationAllianceInc_20141110_8-K_EX-10.9", {"Tigrent Learning UK Limited": ["Company"], "Celebrity Speakers": ["CSA"]},
     "Notwithstanding the foregoing, either party may assign this Agreement without the other party's prior written consent in "
     "the event of a merger, acquisition, reorganization, change in control, or sale of substantially all of the assets or "
     "business of such assigning party.", "free", "*"),
    ("CytodynInc_20200109_10-Q_EX-10.5", {"Vyera Pharmaceuticals, LLC": ["Vyera"], "CytoDyn Inc.": ["CytoDyn"]},
     "A Change of Control shall be deemed an assignment for purposes of this Agreement.", "change_of_control", ""),
]
IDS = [c[0] for c in CASES]


def name_of(parties: dict[str, list[str]], term: str) -> str:
    return next(n for n, al in parties.items() if term in al)


@pytest.mark.parametrize("agreement,parties,sentence,kind,who", CASES, ids=IDS)
def test_without_parties_a_ban_or_consent_meets_the_position_and_free_assignment_does_not(agreement, parties, sentence, kind, who):
    r = evaluate(REQ, sentence, CUES)
    want = {"ban": "compliant", "consent": "compliant", "free": "deviation", "change_of_control": "unclear"}[kind]
    assert r.outcome == want, (r, sentence)
    if kind == "ban":
        assert r.value == "prohibited outright" and "outright" in r.why


@pytest.mark.parametrize("agreement,parties,sentence,kind,who", [c for c in CASES if c[3] == "ban"], ids=[c[0] for c in CASES if c[3] == "ban"])
def test_a_ban_on_the_counterparty_is_compliant_and_on_us_a_deviation(agreement, parties, sentence, kind, who):
    names = list(parties)
    banned = names if who == "*" else [name_of(parties, who)]
    for name in banned:  # the banned party is "us": we could not assign even with consent
        r = evaluate(REQ, sentence, CUES, party="us", sides=Sides(parties, name))
        assert (r.outcome, r.value) == ("deviation", "prohibited outright"), (name, r)
        other = next(n for n in names if n != name)  # the banned party is the counterparty: more than the position asks
        r = evaluate(REQ, sentence, CUES, party="counterparty", sides=Sides(parties, other))
        if other in banned or len(banned) == 1:
            assert (r.outcome, r.value) == ("compliant", "prohibited outright"), (other, r)
    if who == "*":  # a mutual ban under a mutual position binds us too
        r = evaluate(REQ, sentence, CUES, party="both", sides=Sides(parties, names[0]))
        assert r.outcome == "deviation" and "outright" in r.why
        r = evaluate(REQ, sentence, CUES, party="both", sides=Sides(parties))  # our party not named: every party is banned
        assert r.outcome == "deviation"
    else:  # a one-sided ban under a mutual position: the other party is not restricted at all
        r = evaluate(REQ, sentence, CUES, party="both", sides=Sides(parties, names[0]))
        assert r.outcome == "deviation" and r.value.startswith("restricts")


@pytest.mark.parametrize("agreement,parties,sentence,kind,who", [c for c in CASES if c[3] != "ban"], ids=[c[0] for c in CASES if c[3] != "ban"])
def test_consent_free_and_change_of_control_sentences_by_party(agreement, parties, sentence, kind, who):
    names = list(parties)
    bound = names if who == "*" else [name_of(parties, who)] if who else []
    for us in names:
        r = evaluate(REQ, sentence, CUES, party="counterparty", sides=Sides(parties, us))
        them = next(n for n in names if n != us)
        if kind == "change_of_control":
            assert r.outcome == "unclear"
        elif kind == "consent":
            assert r.outcome == ("compliant" if them in bound else "deviation"), (us, r)
        else:  # free: the counterparty may assign without our consent (or only we are restricted)
            assert r.outcome == "deviation", (us, r)
        assert r.value != "prohibited outright"


def test_a_ban_on_one_party_while_our_party_is_unknown_is_unclear_and_says_how_to_name_it():
    parties = {"Aduro Biotech, Inc.": ["Aduro"], "IREYA B.V": ["Consultant"]}
    ban = "This Agreement shall not be assignable by Consultant."
    consent = "Aduro may not assign this Agreement without the prior written consent of Consultant."
    r = evaluate(REQ, ban + " " + consent, CUES, party="both", sides=Sides(parties))
    assert r.outcome == "unclear" and "--our-party" in r.why and "Consultant" in r.why


def test_the_bundled_contract_assignment_ban_binds_the_consultant_only():
    # examples/contracts/driven_deliveries_consulting_agreement.pdf, "Assignability" (the tryout's "unclear" case)
    parties = {"TruckThat LLC": ["Consultant"], "Driven Deliveries, Inc.": ["Company"]}
    s = ("Except as may otherwise be provided in this Agreement, Consultant may not sell, assign or delegate any rights or "
         "obligations under this Agreement.")
    assert evaluate(REQ, s, CUES, party="counterparty", sides=Sides(parties, "Driven Deliveries, Inc.")).outcome == "compliant"
    assert evaluate(REQ, s, CUES, party="us", sides=Sides(parties, "TruckThat LLC")).outcome == "deviation"
    assert evaluate(REQ, s, CUES, party="both", sides=Sides(parties, "Driven Deliveries, Inc.")).value == "restricts Consultant only"
