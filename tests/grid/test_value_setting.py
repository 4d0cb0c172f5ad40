"""A typed cell's topic is not the value's setting (issue #45): a thesaurus term made of generic and value words only ("for
a period of", "at least") names no topic, and "how long does the warranty last?" asks for the warranty's length, not the
agreement's term.

Sentences quoted verbatim from CUAD v1 TXT agreements (``../shared/data/legalbench-rag/corpus/cuad/``, CC BY 4.0; the
agreement named beside each): the wrong answers of ``python -m benchmarks.typed_census --probe warranty_length --split
tune`` before the rule, and warranty sentences whose period CUAD annotates. Pure rule tests: no model, no library.
"""

from __future__ import annotations

import pytest

from clauselens.grid.extract import read_typed
from clauselens.grid.groups import named_topics, topic_groups, value_free
from clauselens.grid.whose import asks_about_term

NOT_A_WARRANTY = [  # a period beside "for a period of", no warranty in the sentence
    ("AFSALABANCORPINC_08_01_1996-EX-1.1-AGENCY AGREEMENT",
     "(k) The Company and the Association will not sell or issue, contract to sell or otherwise dispose of, for a period of 180 days "
     "after the date hereof, without Capital Resources' prior written consent, any shares of Common Stock other than in connection "
     "with any plan or arrangement described in the Offering."),
    ("INTERNATIONALFASTFOODCORP_04_04_1997-EX-99-FRANCHISE AGREEMENT",
     "The Franchisee shall retain sales records for a period of at least twenty-four (24) months."),
    ("SPIENERGYCO,LTD_03_09_2011-EX-99.5-OPERATIONS AND MAINTENANCE AGREEMENT",
     "(b) The obligations of the Parties under this Section will survive for a period of two (2) years from and after the expiration "
     "or termination of the Agreement."),
    ("BONTONSTORESINC_04_20_2018-EX-99.3-AGENCY AGREEMENT",
     "Agent shall accept returns of goods sold by Merchant prior to the Closing for a period of ten days from and including the Sale "
     "Commencement Date."),
]
#: OPTIMIZEDTRANSPORTATIONMANAGEMENT,INC_07_26_2000 (CUAD annotates it as the warranty's duration).
WARRANTY = "8. WARRANTY: ITS Products are warranted free from defects of material or workmanship for 3 years after shipment from the manufacturer."
ASKED = ("How long does the warranty last?", "How long is the warranty period on what is sold?", "What is the length of the product warranty?")


@pytest.mark.parametrize("question", ASKED)
@pytest.mark.parametrize("agreement, sentence", NOT_A_WARRANTY)
def test_a_period_with_no_warranty_answers_no_warranty_question(question: str, agreement: str, sentence: str) -> None:
    r = read_typed("duration", question, [sentence])
    assert r.candidate is None and not r.choices, (agreement, r.value)


@pytest.mark.parametrize("question", ASKED[:2])
def test_the_warranty_sentence_is_read_among_the_distractors(question: str) -> None:
    r = read_typed("duration", question, [s for _, s in NOT_A_WARRANTY] + [WARRANTY])
    assert r.value == "3 years" and r.candidate is not None and r.candidate.passage == len(NOT_A_WARRANTY)


def test_value_settings_leave_a_group_and_keep_its_topic_words() -> None:
    groups = value_free(topic_groups("How long does the warranty last?"))
    warranty = next(g for g in groups if g.name == "warranti")
    assert "for a period of" not in warranty.terms and "warranty" in warranty.terms
    minimum = next(g for g in value_free(topic_groups("What is the minimum amount that must be bought?")) if g.name == "minimum")
    assert "at least" not in minimum.terms and "minimum purchase" in minimum.terms


def test_a_preset_s_written_terms_are_kept() -> None:
    from clauselens.grid.groups import question_groups

    written = value_free(question_groups("Warranty Duration", ("for a period of", "warrant")))
    assert written[0].name == "terms" and written[0].terms == ("for a period of", "warrant")


@pytest.mark.parametrize("question, term", [
    ("How long does the warranty last?", False),
    ("For how long does the confidentiality obligation continue?", False),
    ("How long does the agreement last?", True),
    ("How long does this contract last before it expires?", True),
    ("What is the minimum notice needed to stop the automatic renewal?", True),
])
def test_how_long_something_lasts_is_its_length_not_the_term(question: str, term: bool) -> None:
    groups = topic_groups(question)
    assert asks_about_term([g.name for g in groups], "", named_topics(groups)) is term
