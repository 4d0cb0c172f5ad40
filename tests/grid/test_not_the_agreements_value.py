"""Typed preset cells that read another thing's value (issue #45): the day a termination takes effect is not the
agreement's Effective Date, and a clause on accounting standards ("governed by ... United States generally accepted
accounting principles") names no governing law.

Sentences quoted verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0;
agreement named beside each): wrong cells of the CUAD preset's report[120:180] (inspected in the session of
2026-12-05; ``python -m benchmarks.grid_user_questions --cuad-preset --split report --skip 120 --limit 60``), and
generated variants of each wording. Pure rule tests: no model, no library.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import read_typed
from clauselens.grid.whose import ending_effect

TERMINATION_EFFECT = [  # (agreement, sentence)
    ("GpaqAcquisitionHoldingsInc_20200123_S-4A_EX-10.8", "(c) Right to Terminate for Failure to Recover Investment. Constellation "
     "may terminate this Agreement, effective as of December 31, 2023, in the event that (i) on or prior to December 1, 2022, "
     "Constellation shall have provided written notice of its election to terminate this Agreement."),
    ("IMMUNOMEDICSINC_08_07_2019-EX-10.1", "8.1.10 Third Party Agreement. This Agreement may be terminated by Janssen with effect on "
     "December 31, 2019 or January 31, 2020, in either case with fifteen (15) days' advance written notice."),
]
ENDINGS = ["terminate this Agreement", "cancel this Agreement", "withdraw from this Agreement", "this Agreement shall expire",
           "may be terminated by the Licensor"]
LINKS = [", effective as of", " effective", " with effect on", " with effect from", ", effective on"]
DATES = ["December 31, 2023", "1 July 2021", "March 3, 2019"]


@pytest.mark.parametrize("agreement,sentence", TERMINATION_EFFECT, ids=[a for a, _ in TERMINATION_EFFECT])
def test_the_day_a_termination_takes_effect_is_no_effective_date(agreement, sentence):
    r = read_typed("date", "Effective Date", [sentence], everyday=False)
    assert not r.value and r.candidate is None, (agreement, r)


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("link", LINKS)
def test_generated_termination_effects_are_skipped_and_the_agreements_own_start_is_kept(ending, link):
    for date in DATES:
        sentence = f"Either party may {ending}{link} {date}, by written notice to the other party."
        assert read_typed("date", "Effective Date", [sentence], everyday=False).value == "", sentence
    own = "This Agreement shall be effective as of March 3, 2019 and shall continue for two years."
    assert read_typed("date", "Effective Date", [own], everyday=False).value == "2019-03-03"
    assert not ending_effect(own, own.index("effective"))


def test_a_termination_in_an_earlier_sentence_does_not_block_the_start():
    text = "Either party may terminate this Agreement on notice. This Agreement is effective as of June 1, 2020."
    assert read_typed("date", "Effective Date", [text], everyday=False).value == "2020-06-01"


GAAP = ("6.5 GAAP. All financial terms and standards defined or used in this Agreement for sales or activities occurring in the "
        "United States shall be governed by and determined in accordance with United States generally accepted accounting "
        "principles, consistently applied.")  # INNOVIVA,INC_08_07_2014-EX-10.1-COLLABORATION AGREEMENT


@pytest.mark.parametrize("standard", ["generally accepted accounting principles", "GAAP", "International Financial Reporting "
                                      "Standards (IFRS)", "accounting standards"])
def test_a_clause_on_accounting_standards_names_no_governing_law(standard):
    assert read_typed("jurisdiction", "Governing Law", [GAAP], everyday=False).value == ""
    text = f"All accounting terms shall be governed by and construed in accordance with United States {standard}."
    assert read_typed("jurisdiction", "Governing Law", [text], everyday=False).value == "", text


def test_a_governing_law_clause_beside_accounting_words_still_counts():
    law = ("This Agreement shall be governed by the laws of the State of Delaware; financial terms follow United States "
           "generally accepted accounting principles.")
    assert read_typed("jurisdiction", "Governing Law", [law], everyday=False).value == "Delaware"
    dollars = "This Agreement is governed by the laws of England. All sums are payable in United States dollars."
    assert read_typed("jurisdiction", "Governing Law", [dollars], everyday=False).value == "England"
