"""Concept-absence abstention (``clauselens.retrieval.concept_absence``, the library's check): a question whose thesaurus
concepts the resolved agreement uses none of the wording of is answered "no matching clause found";
one concept it does use keeps the search going. Generated questions from the thesaurus's own phrases,
then real CUAD agreements with and without a force majeure clause in a lexical-only library."""

from __future__ import annotations

import random

import pytest

from clauselens.retrieval.concept_absence import absent_concepts, question_concepts
from clauselens.retrieval.lay_terms import concepts
from tests.library.cuad_library import cuad_library, have

TEMPLATES = ("Under the deal, {p}?", "What happens about this: {p}", "Quick one for the supplier contract - {p}?",
             "I need to know whether {p}, according to the agreement.")


def test_a_contract_term_of_two_words_names_its_concept_and_one_common_word_does_not() -> None:
    assert "car allowance" in question_concepts("Does the consultant get a company car?")
    assert "force majeure" in question_concepts("If a lockdown stops the supplier, is it let off the hook?")
    assert question_concepts("How are the board seats split between the partners?") == []  # "split" alone


def test_generated_questions_abstain_only_when_no_concept_they_read_as_is_used() -> None:
    rng = random.Random(1539)
    picked = rng.sample(list(concepts()), 25)
    checked = 0
    for c in picked:
        for phrase in rng.sample(list(c.phrases), min(3, len(c.phrases))):
            q = rng.choice(TEMPLATES).format(p=phrase)
            asked = question_concepts(q)
            assert c.name in asked, (q, asked)  # the reader finds the concept of its own phrase
            # an agreement using one of the concept's contract terms: never abstain
            assert absent_concepts(q, [f"12. Miscellaneous. {c.contract_terms[0].capitalize()} applies."]) is None
            # an agreement that says nothing of any concept: abstain, naming the concept
            got = absent_concepts(q, ["Signed."])
            assert got is not None and c.name in got.concepts
            checked += 1
    assert checked >= 60


def test_one_used_concept_of_several_keeps_the_search_going() -> None:
    q = "Can they pull the plug without a reason if a lockdown hits?"  # termination for convenience + force majeure
    assert {"termination for convenience", "force majeure"} <= set(question_concepts(q))
    assert absent_concepts(q, ["Either party may terminate this Agreement on 30 days' notice."]) is None
    got = absent_concepts(q, ["The Consultant shall deliver the reports monthly."])
    assert got is not None and "force majeure" in got.concepts


def test_the_reason_names_the_agreement_and_the_wording_looked_for() -> None:
    got = absent_concepts("Does he get a company car?", ["The Consultant is paid monthly."])
    assert got is not None
    text = got.reason("CONSULTING AGREEMENT (2020)", 1)
    assert "'car allowance'" in text and "CONSULTING AGREEMENT (2020) uses none" in text and "automobile" in text


FILES = {
    "c1.txt": "ADUROBIOTECH,INC_06_02_2020-EX-10.7-CONSULTING AGREEMENT.txt",  # no force majeure clause
    "c2.txt": "ABILITYINC_06_15_2020-EX-4.25-SERVICES AGREEMENT.txt",  # has one
}


@pytest.mark.skipif(not have(FILES), reason="CUAD texts not on this machine")
def test_real_agreements_with_and_without_a_force_majeure_clause(tmp_path_factory: pytest.TempPathFactory) -> None:
    lib = cuad_library(tmp_path_factory, FILES)
    by_path = {r.path.rsplit("/", 1)[-1]: r.doc_id for r in lib.agreements()}
    q = "If a flood or a lockdown stops them from doing the work for a while, are they let off the hook?"
    without = lib.search(q, doc_ids=[by_path["c1.txt"]])
    assert without.abstained and "'force majeure'" in without.reason and without.trace["absent_concepts"]
    with_clause = lib.search(q, doc_ids=[by_path["c2.txt"]])
    assert not with_clause.abstained and with_clause.passages
    lib.concept_absence = False  # the setting turns it off
    assert not lib.search(q, doc_ids=[by_path["c1.txt"]]).abstained


@pytest.mark.skipif(not have(FILES), reason="CUAD texts not on this machine")
def test_a_file_asked_directly_gets_the_same_check() -> None:
    from clauselens.parsing.loader import load_document
    from clauselens.retrieval.hybrid import HybridRetriever
    from tests.library.cuad_library import CUAD_CORPUS

    q = "If a flood or a lockdown stops them from doing the work for a while, are they let off the hook?"
    for name, absent in (("c1.txt", True), ("c2.txt", False)):
        r = HybridRetriever(None, concept_absence=True)  # lexical only: no model weights
        r.index([load_document(CUAD_CORPUS / FILES[name])])
        res = r.search(q)
        assert res.abstained is absent, (name, res.reason)
        if absent:
            assert "'force majeure'" in res.reason and res.trace["absent_concepts"]
    off = HybridRetriever(None)  # off unless the settings turn it on (build_retriever)
    off.index([load_document(CUAD_CORPUS / FILES["c1.txt"])])
    assert not off.search(q).abstained
