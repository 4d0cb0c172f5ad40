""""What is the jurisdiction of the contract?" (issue #45; the paraphrase generator's dev cells): a question that asks for "the
jurisdiction" with no word of law or of courts may mean either -- the governing law in everyday use, the courts' power in a
lawyer's. It was read from the question's own words, which meet the forum clause ("submit to the jurisdiction of the courts
of ..."), and answered with the courts' place where the governing law names another (23 of the 208 CUAD agreements whose
governing-law and forum clauses both name a place). Now both clauses are read: one place, or only one clause, answers; two
places leave the cell to a reviewer with both.

Sentences verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; named beside each).
Pure rule tests.
"""

from __future__ import annotations

import itertools

import pytest

from clauselens.grid.forum import asks_forum, asks_law, asks_law_or_forum
from clauselens.grid.questions import GridQuestion
from clauselens.grid.rule import rule_cell
from clauselens.parsing.types import Span
from clauselens.retrieval.types import Passage

# GOLDRESOURCECORP_12_11_2008-EX-10.1-STRATEGIC ALLIANCE AGREEMENT
GOLD_LAW = ("This Agreement shall be construed and enforced in accordance with, and the rights of the parties shall be governed by, "
            "the laws of the State of New York and the laws of the United States applicable therein.")
GOLD_FORUM = ("Any and all disputes arising under this Agreement, whether as to interpretation, performance or otherwise, shall be "
              "subject to the non-exclusive jurisdiction of the courts of Colorado and each of the parties hereto hereby irrevocably "
              "attorns to the jurisdiction of the courts of such province.")
# HC2HOLDINGS,INC_05_14_2020-EX-10.1 (the same state in both)
HC2_LAW = ("THIS AGREEMENT WILL BE GOVERNED IN ALL RESPECTS, INCLUDING VALIDITY, INTERPRETATION AND EFFECT, BY THE LAWS OF THE STATE "
           "OF DELAWARE WITHOUT GIVING EFFECT TO THE CHOICE OF LAW PRINCIPLES OF SUCH STATE.")
HC2_FORUM = ("(b) The Parties (a) irrevocably and unconditionally submit to the personal jurisdiction of the Delaware Court of "
             "Chancery (or, only if the Delaware Court of Chancery declines to accept jurisdiction over a particular matter, the "
             "federal or other state courts located in Wilmington, Delaware).")
FILLER = "The Company shall deliver the Products to the Distributor within thirty (30) days of each purchase order."

#: Generated: openings x the word x what it is of.
OPENINGS = ("What is the", "Which is the", "Tell me the", "what's the", "Under which")
OBJECTS = ("of the contract?", "of this agreement?", "that applies to the deal?", "for this contract?")
ASKED = [f"{o} jurisdiction {w}" for o, w in itertools.product(OPENINGS, OBJECTS)]


def _passages(*texts: str) -> list[Passage]:
    return [Passage(chunk_id=f"c{i}", doc_id="d", node_id=str(i), text=t, spans=[Span(start=1000 * i, end=1000 * i + len(t))])
            for i, t in enumerate(texts)]


def _cell(question: str, *texts: str):  # type: ignore[no-untyped-def]
    base = {"row_key": "r", "question_id": "q", "fingerprint": ""}
    return rule_cell(base, GridQuestion(id="q", type="jurisdiction", question=question), _passages(*texts))


@pytest.mark.parametrize("question", ASKED)
def test_the_bare_word_asks_law_or_forum(question: str) -> None:
    assert asks_law_or_forum(question)
    assert not asks_law(question) and not asks_forum(question)


@pytest.mark.parametrize("question", ["Which courts have jurisdiction?", "Which state's law governs the agreement?",
                                      "Where must a lawsuit be filed?", "When does the agreement end?"])
def test_a_word_of_law_or_courts_says_which(question: str) -> None:
    assert not asks_law_or_forum(question)


@pytest.mark.parametrize("question", ASKED)
def test_law_and_courts_in_different_places_go_to_a_reviewer(question: str) -> None:
    cell = _cell(question, FILLER, GOLD_FORUM, GOLD_LAW)
    assert cell.status == "unverified" and cell.answer == ""
    assert "New York" in cell.reason and "Colorado" in cell.reason


@pytest.mark.parametrize("question", ASKED)
def test_one_place_in_both_or_one_clause_answers(question: str) -> None:
    assert (_cell(question, FILLER, HC2_FORUM, HC2_LAW).answer, _cell(question, FILLER, HC2_LAW).answer) == ("Delaware", "Delaware")
    only_courts = _cell(question, FILLER, GOLD_FORUM)
    assert (only_courts.status, only_courts.answer) == ("answered", "Colorado")


def test_a_question_that_says_which_is_still_answered() -> None:
    assert _cell("Which state's law governs the agreement?", FILLER, GOLD_FORUM, GOLD_LAW).answer == "New York"
    assert _cell("Which courts have jurisdiction over disputes?", FILLER, GOLD_FORUM, GOLD_LAW).answer == "Colorado"
