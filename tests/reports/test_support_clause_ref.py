"""Issue #19: a claim that puts what it says in a clause its quote is not from
(:func:`clauselens.reports.support.check_clause_ref`), on the real CUAD definitions the held-out run
cited ("defines 'Territory' in clause 1.5" over clause 1.6; "'Minimum Order Requirements' in clause
1.26" over a quote that prints 1.26 and 1.27), through the report builder as well (no model); and from
the third new-agreements run, a reference that names its kind ("Annex A", never "clause Annex A") and a
finding that is only a heading (:func:`clauselens.reports.support.check_heading`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.parsing.types import Span
from clauselens.reports import ReportDraft, build_report
from clauselens.reports.model import DraftFinding
from clauselens.reports.support import check_clause_ref, check_statement
from clauselens.retrieval.types import Passage

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
NANOPHASE = CORPUS / "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT.txt"
KITOV = CORPUS / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
pytestmark = pytest.mark.skipif(not (NANOPHASE.exists() and KITOV.exists()), reason="../shared CUAD corpus not present")


def _between(path: Path, start: str, end: str) -> str:
    text = path.read_text(encoding="utf-8")
    a = text.index(start)
    return text[a:text.index(end, a) + len(end)]


def test_a_definition_put_in_the_clause_before_it_is_a_clause_mismatch():
    quote = _between(NANOPHASE, '1.6 "Territory"', "distribution channels.")
    issue = check_clause_ref('DISTRIBUTOR AGREEMENT defines "Territory" in clause 1.5.', quote, ["1.5"])
    assert issue is not None and issue.kind == "clause" and "1.5" in issue.detail and "1.6" in issue.detail
    assert check_statement('DISTRIBUTOR AGREEMENT defines "Territory" in clause 1.5.', quote, cited_refs=["1.5"]) == issue
    assert check_clause_ref('DISTRIBUTOR AGREEMENT defines "Territory" in clause 1.6.', quote, ["1.5"]) is None
    # the article around it, a cross-reference the quote makes, and an unnumbered citation all pass
    assert check_clause_ref('Article 1 defines "Territory".', quote, ["1.5"]) is None
    assert check_clause_ref("The Distributor may resell under Section 4.2.",
                            "The Distributor may resell the Products as provided in Section 4.2.", ["7.1"]) is None
    assert check_clause_ref('Section 1.5 defines "Territory".', "Territory is all areas in which it sells", [None]) is None


def test_a_quote_printing_two_clauses_must_hold_the_claim_under_the_number_it_names():
    quote = _between(KITOV, '1.26 "Marketing Authorization"', "multiples of a full Batch.")
    wrong = 'PRODUCT MANUFACTURING AGREEMENT defines "Minimum Order Requirements" in clause 1.26.'
    issue = check_clause_ref(wrong, quote, ["1.26"])
    assert issue is not None and issue.kind == "clause" and "1.27" in issue.detail
    assert check_clause_ref(wrong.replace("1.26", "1.27"), quote, ["1.26"]) is None
    assert check_clause_ref('PRODUCT MANUFACTURING AGREEMENT defines "Marketing Authorization" in clause 1.26.',
                            quote, ["1.26"]) is None


def test_leading_zeros_and_amounts_are_not_clause_mismatches():
    assert check_clause_ref("The Divested Entity keeps the licences granted under Section 8.02.",
                            "shall retain the licenses granted to it under Section 8.2 hereof", ["8.6"]) is None
    # a quote that does not open with a clause number: "2.5 Million" inside it is an amount, not a label
    assert check_clause_ref("Section 3 caps the fees.", "the fees shall not exceed 2.5 Million Dollars", ["3.1"]) is None
    assert check_clause_ref("Section 4 caps the fees.", "the fees shall not exceed 2.5 Million Dollars", ["3.1"]) is not None
    # a range is read by its start; an inserted clause keeps its letter; "7.D.b" is read as 7
    assert check_clause_ref("Sections 3.1 to 3.5 set out the fees.", "3.1 Fees. The Buyer shall pay", ["3.1"]) is None
    assert check_clause_ref("Section 2A.1 lets the Buyer order.", "2A.1 Priority Orders. The Buyer may", ["2A.1"]) is None
    assert check_clause_ref("Section 2B.1 lets the Buyer order.", "2A.1 Priority Orders. The Buyer may", ["2A.1"]) is not None
    assert check_clause_ref("Section 7.D.b requires payment.", "b. Termination by ABG. If this", ["7"]) is None


def test_the_report_shows_a_finding_put_in_another_clause_as_unsupported():
    text = _between(NANOPHASE, '1.5 "Custom Services"', "distribution channels.")
    passage = Passage(chunk_id="nan-1.5", doc_id="nan", node_id="n-1.5", text=text, spans=[Span(start=0, end=len(text))],
                      clause_ref="1.5", doc_title="DISTRIBUTOR AGREEMENT", page_start=1, score=0.1)
    quote = '1.6 "Territory" is all areas in which ALFA AESAR markets, sells or distributes chemicals'
    draft = ReportDraft(title="t", answer="Territory is all areas in which Alfa Aesar sells.", findings=[
        DraftFinding(statement='DISTRIBUTOR AGREEMENT defines "Territory" in clause 1.5.', passage_ids=["P1"], quote=quote)])
    r = build_report(draft, {"P1": passage}, question="How is 'Territory' defined in the distributor agreement?")
    f = r.key_findings[0]
    assert f.grounded and f.support == "unrelated" and f.support_note.startswith("clause mismatch")
    assert not f.cited_fact
    right = draft.model_copy(update={"findings": [draft.findings[0].model_copy(
        update={"statement": 'DISTRIBUTOR AGREEMENT defines "Territory" in clause 1.6.'})]})
    assert build_report(right, {"P1": passage}, question="How is 'Territory' defined?").key_findings[0].support == "unchecked"


def test_a_reference_that_names_its_kind_is_not_called_a_clause():
    """The third new-agreements run: "SERVICING AGREEMENT defines "Servicing Fee" in clause Annex A"."""
    from clauselens.parsing.numbering import clause_label

    assert clause_label("7.2") == "clause 7.2" and clause_label("14.3(b)") == "clause 14.3(b)"
    assert clause_label("Annex A") == "Annex A" and clause_label("Schedule 2") == "Schedule 2"
    c = Passage(chunk_id="a", doc_id="d", node_id="n", text="x", spans=[Span(start=0, end=1)], clause_ref="Annex A",
                doc_title="SERVICING AGREEMENT", page_start=3, score=0.1)
    from clauselens.agents.common import passage_header

    assert "| Annex A |" in passage_header("P1", c) and "clause Annex" not in passage_header("P1", c)


def test_a_finding_that_is_only_a_heading_claims_nothing():
    """The third new-agreements run showed "Servicer Termination Right - Owner)" as a cited fact (the model
    said "supports"); a heading or label is no claim. Sentences set in capitals and answers are not judged."""
    from clauselens.reports.support import check_heading

    issue = check_heading("Servicer Termination Right - Owner)")
    assert issue is not None and issue.kind == "heading"
    assert check_heading("Limitation of Liability") is not None
    assert check_heading("The Owner may remove the Servicer for an uncured default.") is None
    assert check_heading("THE SUPPLIER SHALL NOT BE LIABLE FOR LOST PROFITS.") is None
    assert check_heading("Yes") is None
    text = "(i) the Servicer shall default in the performance of any of its duties under this Agreement"
    passage = Passage(chunk_id="c", doc_id="cur", node_id="n-7c", text=text, spans=[Span(start=0, end=len(text))],
                      clause_ref="7(c)(i)", doc_title="SERVICING AGREEMENT", page_start=1, score=0.1)
    draft = ReportDraft(title="t", answer="The Owner may remove the Servicer if it defaults.", findings=[
        DraftFinding(statement="Servicer Termination Right - Owner)", passage_ids=["P1"], quote=text)])
    f = build_report(draft, {"P1": passage}, question="On what grounds can the Owner remove the Servicer?").key_findings[0]
    assert f.grounded and f.support == "unrelated" and f.support_note.startswith("heading mismatch") and not f.cited_fact


def test_printed_clause_numbers_are_the_quoting_rules_clause_openings():
    """One reading of "a printed clause number opens a clause" for quoting (verify) and the clause check."""
    from clauselens.reports.verify import printed_clause_numbers

    quote = _between(KITOV, '1.26 "Marketing Authorization"', "multiples of a full Batch.")
    assert [n for _, _, n in printed_clause_numbers(quote)] == ["1.26", "1.27"]
    assert printed_clause_numbers("as set out in Section 1.27 \"Minimum Order Requirements\" and $1.5 Million") == []


def test_a_citation_names_the_clause_number_its_quote_prints():
    from clauselens.reports.support import quote_clause_ref

    # issue #19's held-out run: the clause tree's number was off by one
    assert quote_clause_ref("16.4   If the JVC fails to sell [one million dollars", "16.3") == "16.4"
    assert quote_clause_ref('1.6 "Territory" is all areas in which ALFA AESAR markets', "1.5") == "1.6"
    # the same clause, one inside it, an unnumbered quote, a named schedule: the passage's number stays
    assert quote_clause_ref("5.2.1 The Company shall deliver", "5.2") == "5.2"
    assert quote_clause_ref("12.2 Either Party may terminate", "12.2") == "12.2"
    assert quote_clause_ref("The Company shall deliver", "4.6(i)") == "4.6(i)"
    assert quote_clause_ref("3.1 The Distributor shall", "Schedule B") == "Schedule B"


def test_a_claim_repeating_the_quotes_own_cross_reference_is_not_mislocated():
    """The README demo's reading of clause 7.2 ("... written notice of such termination pursuant to Section 12.7 of
    this Agreement", the clause's own words) was marked "the claim puts this in clause 12.7" because the notices
    clause 12.7 was quoted beside it; a claim that puts termination itself in 12.7 still is."""
    from clauselens.reports.support import check_clause_ref

    q = ("7.2. Termination. Either Party may terminate this Agreement, with or without cause, upon giving the other party "
         "thirty (30) days prior written notice of such termination pursuant to Section 12.7 of this Agreement. "
         "12.7. Notices. Any notice or other communication required or permitted by this Agreement to be given to a "
         "Party shall be in writing.")
    assert check_clause_ref("Either party may terminate this agreement, with or without cause, upon giving thirty (30) "
                            "days prior written notice of such termination pursuant to Section 12.7 of this Agreement.", q) is None
    issue = check_clause_ref("Under clause 12.7 either party may terminate on thirty days' notice, with or without cause.", q)
    assert issue is not None and issue.kind == "clause"
