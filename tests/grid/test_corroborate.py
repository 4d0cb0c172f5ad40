"""A period or sum found only by the question's own words needs retrieval to rank its clause among the first (issue #45).

The agreement is CUAD v1 ``ELFBEAUTY,INC_07_02_2020-EX-10.1-COOPERATION AGREEMENT`` (``../shared/data/legalbench-rag/corpus/
cuad/``, CC BY 4.0; the tests skip when it is absent), read whole: its only sum is an expense reimbursement "shall not exceed
$250,000", which a keyed development set's first read gave as the answer to a question about a cap on what a side can be
made to pay (dev27; the agreement has no limitation of liability). A lexical-only library, no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.grid import corroborate
from clauselens.grid.cells import Cell
from clauselens.grid.questions import GridQuestion
from clauselens.library import Library
from clauselens.library.library import chunks_of

AGREEMENT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad" / (
    "ELFBEAUTY,INC_07_02_2020-EX-10.1-COOPERATION AGREEMENT.txt")
SUM = "$250,000"


pytestmark = pytest.mark.skipif(not AGREEMENT.exists(), reason="CUAD text not in ../shared/data/legalbench-rag (data absent)")


@pytest.fixture
def library(tmp_path: Path) -> tuple[Library, str]:
    d = tmp_path / "agreements"
    d.mkdir()
    (d / AGREEMENT.name).write_bytes(AGREEMENT.read_bytes())
    lib = Library.open(tmp_path / "lib", embedder_name="none")
    assert len(lib.add([d / AGREEMENT.name]).added) == 1
    return lib, lib.search("reimburse expenses", k=1, absent_topics=False).passages[0].doc_id


def _cell(lib: Library, doc_id: str, qtype: str = "amount", reason: str = "read by rule from the clause on pay (no model)") -> Cell:
    chunk = next(c for c in chunks_of(lib, doc_id) if SUM in c.text)
    at = chunk.spans[0]
    return Cell(row_key="r", question_id="q", fingerprint="f", status="answered", answer=SUM, quote="such reimbursement shall not exceed "
                "$250,000", reason=reason, doc_id=doc_id, quote_spans=[[at.start, at.end]])


@pytest.mark.parametrize("question", [
    "Is there a cap on what either side can be made to pay if something goes wrong?",
    "Is liability limited to some amount?",
    "What's the most one side could ever owe the other if things go badly?",
])
def test_a_sum_retrieval_does_not_rank_for_the_question_is_left_for_a_reviewer(library, question):
    lib, doc_id = library
    q = GridQuestion(id="cap", question=question, type="amount")
    assert len(lib.search(question, k=corroborate.TOP, doc_ids=[doc_id], absent_topics=False).passages) == corroborate.TOP
    out = corroborate.check(lib, doc_id, q, _cell(lib, doc_id))
    assert out.status == "unverified" and out.answer == "" and out.candidate == SUM and out.quote == "", out
    assert "retrieval does not rank that clause" in out.reason


@pytest.mark.parametrize("question", [
    "How much will the company reimburse for the other side's expenses?",
    "Is there a limit on the reimbursement of expenses?",
])
def test_a_sum_whose_clause_retrieval_ranks_first_is_kept(library, question):
    lib, doc_id = library
    q = GridQuestion(id="reimb", question=question, type="amount")
    cell = _cell(lib, doc_id)
    assert corroborate.check(lib, doc_id, q, cell) == cell


@pytest.mark.parametrize("qtype,category,reason,checked", [
    ("amount", "", "read by rule from the clause on pay (no model)", True),
    ("duration", "", "read by rule from the clause on notice (no model)", True),
    ("date", "", "read by rule from the clause on sign (no model)", False),  # dates so read were right 16 times in 18
    ("amount", "Cap On Liability", "read by rule from the clause on liab (no model)", False),  # the preset's reader of its kind
    ("duration", "", "the clauses on paying an invoice state one period; read by rule (no model)", False),  # a reader of its kind
])
def test_only_values_the_question_words_alone_found_are_checked(library, qtype, category, reason, checked):
    lib, doc_id = library
    q = GridQuestion(id="x", question="Is there a cap on what either side can be made to pay?", type=qtype, category=category)
    assert corroborate.needs_corroboration(q, _cell(lib, doc_id, qtype, reason)) is checked


def test_a_cell_that_is_not_answered_is_left_as_it_is(library):
    lib, doc_id = library
    cell = _cell(lib, doc_id).model_copy(update={"status": "unverified", "answer": ""})
    q = GridQuestion(id="cap", question="Is liability limited to some amount?", type="amount")
    assert corroborate.check(lib, doc_id, q, cell) is cell
