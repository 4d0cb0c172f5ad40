"""A term clause that sets no end (issue #45): "This Agreement ... shall continue until terminated" answers "when does it
end?" and "how long does it run?" with the clause's own phrase, quoted; CUAD's Expiration Date answer for such
agreements is "perpetual" (``python -m benchmarks.term_period_census``: open_perpetual 9 of 10 judged on report[0:280]).

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside
each, whitespace collapsed), and distractors that continue something else or renew after a fixed term. Pure rule tests.
"""

from __future__ import annotations

import pytest

from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import rule_cell
from clauselens.grid.term import OPEN_ENDED, open_ended, term_end
from clauselens.grid.values import check_value
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

OPEN = [  # (agreement, sentence, the answer)
    ("ASPIRITYHOLDINGSLLC_05_07_2012-EX-10.6", "This Agreement shall become effective as of the date first set forth above, and shall "
     "continue in full force and effect until terminated as provided below.", "until terminated"),
    ("CardlyticsInc_20180112_S-1_EX-10.16", "4.1 This Agreement shall apply and remain in effect from the Effective Date and perpetually "
     "thereafter unless terminated pursuant to the Section entitled \"Termination.\"", "perpetually"),
    ("DYNAMEXINC_06_06_1996-EX-10.4", "2.1 This Agreement shall be effective from the date first above written and shall continue "
     "indefinitely until terminated by either Party in accordance with the provisions of this Agreement.", "indefinitely"),
    ("PHLVARIABLEINSURANCECOCT_08_17_2009", "2.01 This Agreement shall commence on the Effective Date and shall continue until it is "
     "terminated in accordance with the provisions of Section 15 of this Agreement (\"Term\").", "until terminated"),
    ("CUAD Expiration Date annotation (perpetual)", "This Agreement shall become effective on the Effective Date and shall continue in "
     "effect until either Party informs the other Party with thirty (30) day prior written notice of termination of this Agreement.",
     "until terminated on notice"),
]
NOT_OPEN = [
    "After the Initial Term, this Agreement shall continue on a month to month basis until terminated by either party upon thirty (30) "
    "days prior written notice to the other setting forth the effective date of such termination.",
    "Thereafter, this Agreement shall automatically continue in effect until either party gives the other at least six (6) months "
    "prior written notice of termination.",
    "The license granted in this Section 2.1 shall continue in perpetuity.",
    "The obligations of confidentiality under this Agreement shall survive indefinitely.",
    "This Agreement shall continue in full force and effect for five (5) years and thereafter until terminated by either party.",
    "Licensee may use the Marks until terminated by Licensor.",
]


@pytest.mark.parametrize("agreement, sentence, answer", OPEN)
def test_a_term_clause_with_no_end_is_read_in_its_own_words(agreement: str, sentence: str, answer: str) -> None:
    r = open_ended(["Either party may terminate this Agreement for breach on thirty (30) days notice.", sentence])
    assert r.value == answer and r.candidate is not None and r.candidate.passage == 1, agreement
    assert not check_value("duration", r.value, sentence).reason and OPEN_ENDED.search(r.value)


@pytest.mark.parametrize("sentence", NOT_OPEN)
def test_other_open_durations_are_not_the_term(sentence: str) -> None:
    assert open_ended([sentence]).candidate is None


def test_a_term_period_wins_over_an_open_end() -> None:
    r = term_end([NOT_OPEN[4]], [])
    assert r.value != "until terminated"


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))],
                    page_start=1, page_end=1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("qtype, question", [("date", "On what date does this deal finish?"), ("date", "When does the contract expire?"),
                                             ("duration", "How long does the agreement last?")])
def test_the_cell_quotes_the_term_clause(qtype: str, question: str) -> None:
    passages = _passages("TRANSPORTATION SERVICES AGREEMENT between Dynamex Inc. and the Carrier.",
                         "Carrier shall deliver each shipment within two (2) days.", OPEN[2][1])
    base = {"row_key": "a", "question_id": "end", "fingerprint": "", "model": "rule"}
    cell = rule_cell(base, GridQuestion(id="end", type=qtype, question=question), passages)
    # no date and no length to give: the reason says why (the keyers of dev sets 11, 13, 14 and 15 hold such cells unanswerable)
    assert cell.status == "not found" and "indefinitely" in cell.reason and "no end date" in cell.reason, cell
    # the CUAD preset (a category) keeps the clause's own phrase, quoted
    preset = rule_cell(base, GridQuestion(id="end", type=qtype, question=question, category="Expiration Date" if qtype == "date"
                                          else "Renewal Term"), passages)
    assert qtype != "date" or (preset.status == "answered" and preset.answer == "indefinitely"), preset
    other = rule_cell(base, GridQuestion(id="conf", type="date", question="When does the confidentiality duty end?"), passages)
    assert other.status != "answered", other
