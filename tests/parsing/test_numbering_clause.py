"""Issue #41 item 5 (the part built): "Clause N" clauses with "N(a)" and "(i)" sub-clauses; a
"7(a)" line outside clause 7 and a table-of-contents line of "CLAUSE N" entries are no clauses.
The 462 CUAD texts keep their trees but for one real "CLAUSE 2 DEFINITIONS" heading
(benchmarks/robustness_numbering.py -> benchmarks/results/robustness_numbering.json)."""

from __future__ import annotations

from clauselens.parsing import load_text_document
from clauselens.parsing.numbering import match_marker

TEXT = """SERVICES AGREEMENT

CONTENTS
CLAUSE 6 ASSIGNMENT  3     CLAUSE 7 NOTICES  4     CLAUSE 8 LAW  5

ARTICLE V
GENERAL

Clause 6 Assignment
Neither party may assign this Agreement. See the table below.
3(a) Three-day response times apply.

Clause 7 Notices
7(a) Notices shall be in writing and delivered:
(i) by hand;
(ii) by courier; or
(iii) by email.
7(b) Notices take effect on receipt.

Clause 8 Law
This Agreement is governed by English law.
"""


def test_clause_family_refs():
    refs = [n.ref for n in load_text_document(TEXT, doc_id="x").nodes if n.ref]
    assert refs == ["Article V", "6", "7", "7(a)", "7(a)(i)", "7(a)(ii)", "7(a)(iii)", "7(b)", "8"]


def test_markers():
    m = match_marker("Clause 7 Notices")
    assert m is not None and m.scheme == "num" and m.value == (7,) and m.rest == "Notices"
    m = match_marker("7(a) Notices shall be in writing")
    assert m is not None and m.scheme == "paren" and m.label == "a" and m.word == "7"
    assert match_marker("CLAUSE 22 SANCTIONS  33     CLAUSE 23 LITIGATION 34") is None
    assert match_marker("7(a)of the Act") is None
