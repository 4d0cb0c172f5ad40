"""A reading that copies the quoted clause with one party put for another is a contradiction (issues #40, #38).

Clause 5.9 verbatim from the CUAD v1 TXT ``INTERSECTENT,INC_05_11_2020-EX-10.1-SUPPLY AGREEMENT`` (CC BY 4.0); the reading is
the default 1.5B's, from a new user's tryout of ``clauselens ask`` on 2026-12-07 ("Who pays if the product gets recalled?").
"""

from __future__ import annotations

from clauselens.agents.reading_check import contradiction
from clauselens.reports.near_copy import swapped_party

RECALL = ("5.9. Recall. INTERSECT shall be responsible for conducting any recall of Finished Product, and HOVIONE shall co-operate "
          "with and give all reasonable assistance to INTERSECT in conducting any such recall to the extent it relates to the API.")
MODEL = ("HOVIONE is responsible for conducting any recall of Finished Product, and HOVIONE shall co-operate with and give all "
         "reasonable assistance to INTERSECT in conducting any such recall to the extent it relates to the API.")


def test_the_other_party_in_a_copied_sentence_is_a_contradiction() -> None:
    issue = swapped_party(MODEL, [RECALL])
    assert issue is not None and issue.kind == "party" and "HOVIONE" in issue.detail and "INTERSECT" in issue.detail
    assert contradiction(MODEL, RECALL) is not None  # the quick-depth reading check sets such a reading aside


def test_the_same_party_or_no_copy_passes() -> None:
    assert swapped_party("INTERSECT is responsible for conducting any recall of Finished Product.", [RECALL]) is None
    assert swapped_party("Recalls are run by the buyer, with the supplier's help.", [RECALL]) is None  # no copy: not this rule's
    assert swapped_party("HOVIONE helps.", [RECALL]) is None  # too short to be a copy


def test_the_agreements_parties_decide_what_a_name_is() -> None:
    # "Finished Product" and "API" are capitalised but no party: a reading that changes them is not a party swap
    assert swapped_party(MODEL.replace("HOVIONE is", "INTERSECT is").replace("Finished Product", "Bulk Product"), [RECALL],
                         parties={"Intersect ENT, Inc.": ["INTERSECT"], "Hovione Inter AG": ["HOVIONE"]}) is None
    assert swapped_party(MODEL, [RECALL], parties={"Intersect ENT, Inc.": ["INTERSECT"], "Hovione Inter AG": ["HOVIONE"]}) is not None
