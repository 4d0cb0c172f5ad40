"""A clause a question names by number, when its passages do not fit in the top k: its
sub-clauses belong to it, the rest of the question picks which of its passages are shown,
and a second named clause is not pushed out by the first (``Library._order_exact``).
Run on the local backend and, when pymilvus is installed, on Milvus Lite."""

from __future__ import annotations

import importlib.util
import textwrap
from typing import Callable

import pytest

from clauselens.library import Library

AGREEMENT = textwrap.dedent("""\
    EQUIPMENT LEASE AGREEMENT

    This Equipment Lease Agreement is made between Harrowgate Cranes Ltd ("Lessor") and Pellmoor Docks plc ("Lessee").

    1. Lease
    The Lessor leases the cranes listed in the equipment list to the Lessee.

    2. Rent
    The Lessee pays rent monthly in advance.

    7. Termination
    This Section sets out how the lease ends.

    7.1 Either party may end the lease on ninety days written notice.

    7.2 The Lessor may end the lease at once if rent is unpaid for thirty days.

    7.3 On expiry the Lessee returns the cranes to the Lessor's yard.

    7.4 The Lessee bears the cost of dismantling and transport.

    7.5 Obligations accrued before the end survive it.

    7.6 If the Lessee ends the lease early it pays liquidated damages equal to six months of rent.

    7.7 Neither party is liable for indirect loss arising from the end of the lease.

    8. Insurance
    The Lessee insures the cranes for their replacement value.

    8.1 The policy names the Lessor as loss payee.
    """)

BACKENDS = ["local"] + (["milvus"] if importlib.util.find_spec("pymilvus") and importlib.util.find_spec("milvus_lite")
                        else [])


@pytest.fixture(scope="module", params=BACKENDS)
def lib(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Library:
    d = tmp_path_factory.mktemp(f"lease-{request.param}")
    (d / "lease.txt").write_text(AGREEMENT, encoding="utf-8")
    lib = Library.open(d / "lib", embedder_name="none", backend=request.param)
    assert len(lib.add([d / "lease.txt"]).added) == 1
    return lib


def test_sub_clauses_are_rows_of_the_clause(lib: Library) -> None:
    doc = lib.agreements()[0].doc_id
    refs = [c.clause_ref for c in lib.catalogue.passages(lib.catalogue.rows_under_ref([doc], "7"))]
    assert refs == [f"7.{i}" for i in range(1, 8)]
    assert [c.clause_ref for c in lib.catalogue.passages(lib.catalogue.rows_under_ref([doc], "8"))] == ["8.1"]
    assert lib.catalogue.rows_under_ref([doc], "7.6") == []


def test_the_rest_of_the_question_picks_among_a_long_clause(lib: Library) -> None:
    res = lib.search("Under Section 7 of the Harrowgate crane lease, what liquidated damages are due on early termination?", 3)
    assert not res.abstained, res.reason
    assert [p.method for p in res.passages] == ["exact"] * 3
    assert res.passages[0].clause_ref == "7"  # the clause's own opening passage stays first
    assert "7.6" in [p.clause_ref for p in res.passages[1:]], [p.clause_ref for p in res.passages]


def test_two_named_clauses_take_turns(lib: Library) -> None:
    res = lib.search("How do Section 7 and Section 8 of the Harrowgate crane lease deal with the cranes?", 4)
    refs = [p.clause_ref for p in res.passages]
    assert refs[0] == "7" and refs[1] == "8", refs
    assert all(r.startswith(("7", "8")) for r in refs), refs


def test_a_clause_that_fits_keeps_its_document_order(lib: Library) -> None:
    res = lib.search("What does Section 8 of the Harrowgate crane lease say?", 5)
    assert [p.clause_ref for p in res.passages[:2]] == ["8", "8.1"]


def test_a_clause_printed_only_through_its_sub_clauses_is_found(library_of: Callable[[str, str], Library]) -> None:
    """A tree with 4.1 and 4.2 but no node "4" (its heading line was not read as a clause):
    "Section 4" is those sub-clauses, not "no matching clause found"."""
    lib = library_of("nda.txt", """\
        MUTUAL NONDISCLOSURE AGREEMENT

        This Agreement is made between Orrin Vale Ltd ("Orrin") and Tessly Marsh Inc ("Tessly").

        1. Purpose
        The parties will discuss a possible joint bid.

        4.1 Each party keeps the other's information secret for three years.

        4.2 Neither party may copy the other's drawings.

        5. Law
        This Agreement is governed by the laws of England.
        """)
    res = lib.search("What does Section 4 of the Orrin Vale and Tessly Marsh agreement say about secrecy?", 3)
    assert not res.abstained, res.reason
    assert [p.clause_ref for p in res.passages[:2]] == ["4.1", "4.2"] and res.passages[0].method == "exact"
    assert lib.search("What does Section 6 of the Orrin Vale and Tessly Marsh agreement say?", 3).abstained


def test_a_lettered_item_named_with_dots_is_its_tree_node(library_of: Callable[[str, str], Library]) -> None:
    """ "Section 7.D.b" is the tree's 7(D)(b) ("D." and "b." items under clause 7)."""
    lib = library_of("endorse.txt", """\
        ENDORSEMENT AGREEMENT

        This Endorsement Agreement is made between Quarry Pies Inc ("Company") and Halden Sports LLC ("Agent").

        1. Term
        The term is three years.

        7. Termination

        A. Termination by the Company. The Company may terminate if the celebrity is convicted of a felony.

        D. Effect of Termination - Cash Consideration.

        a. Termination by the Company. The Agent keeps a pro-rata share of the annual fee.

        b. Termination by the Agent. Eighteen months of unpaid fees fall due at once.

        8. Notices
        Notices are given in writing.
        """)
    res = lib.search("Under Section 7.D.b of the Quarry Pies endorsement agreement, what falls due?", 3)
    assert res.passages[0].clause_ref == "7(D)(b)" and "Eighteen months" in res.passages[0].text, res.trace
    missing = lib.search("What does Section 7.F of the Quarry Pies endorsement agreement say?", 3)
    assert missing.abstained and "not in" in missing.reason, missing.passages  # the tree reads 7's letters: no F


def test_a_lead_in_before_sub_clauses_is_a_passage() -> None:
    """ "3.2 ... shall terminate ... after:" is operative text (the Hertz trademark licence's form);
    "ARTICLE 3. TERM AND TERMINATION" and "3.3 Survival." are headings only."""
    from clauselens.library.passages import heading_only, library_passages
    from clauselens.parsing import load_text_document

    text = ("ARTICLE 3. TERM AND TERMINATION\n\n3.1 Either Party may terminate this Agreement on thirty days' notice.\n\n"
            "3.2 This Agreement shall terminate no later than thirty (30) days after:\n\n"
            "3.2.1 Licensee is acquired by a third party; or\n\n3.2.2 Licensor ceases to manage Licensee.\n\n"
            "3.3 Survival.\n\n3.3.1 Clause 5 survives termination.\n")
    doc = load_text_document(text, doc_id="lead")
    by_ref = {c.clause_ref: c.text for c in library_passages(doc)}
    assert by_ref["3.2"].startswith("3.2 This Agreement shall terminate") and "3.2.1" in by_ref
    assert "3.3" not in by_ref and "Article 3" not in by_ref
    assert heading_only("9. INTELLECTUAL PROPERTY") and heading_only("3.11. Compliance with Laws.")
    assert not heading_only("6.2.2. Bankruptcy. A party may terminate this Agreement if:", "Bankruptcy")
