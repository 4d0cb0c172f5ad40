"""The lay-phrase thesaurus (clauselens.retrieval.lay_terms): what a question's plain words add
to the ranking query, and the bundled data's shape."""

from __future__ import annotations

from clauselens.retrieval.lay_terms import concepts, content_stems, expand, phrase_matcher


def test_a_lay_phrase_brings_its_concepts_contract_terms() -> None:
    e = expand("May the distributor just walk away from this arrangement, and how much warning must it give?")
    assert "termination for convenience" in e.concepts
    assert {"terminate", "for convenience"} <= set(e.terms)
    assert "terminate" in e.text()


def test_phrases_match_with_regular_endings_as_whole_words() -> None:
    assert "termination for convenience" in expand("What if the distributor walked away?").concepts
    assert phrase_matcher("walk away").search("she WALKS  away")
    assert not phrase_matcher("poach").search("a reproach to the board")
    assert not phrase_matcher("walk away").search("walkaway")


def test_phrases_of_two_content_words_match_by_stems_in_order_with_small_gaps() -> None:
    m = phrase_matcher("pulled from the market")
    assert content_stems("pulled from the market") == ["pull", "market"]
    assert m.search("If the drug has to be pulled off the market, who pays?")  # other small words
    assert m.search("the cost of pulling the tablets off the market")  # MAX_GAP content words between
    assert not m.search("the cost of pulling the new blue tablets off the market")  # four: too far
    assert not m.search("the market pulled back")  # order counts
    assert phrase_matcher("falling out").search("if they fall out over the campaign")
    assert "product recall" in expand("Who pays when the pills are pulled off the market?").concepts


def test_one_word_phrases_match_by_stem_and_question_shaped_ones_only_as_written() -> None:
    assert phrase_matcher("merges").search("if Garrett is bought or merged into another company")
    assert phrase_matcher("outsource").search("may it outsource the work?")
    assert not phrase_matcher("poach").search("a reproach to the board")
    assert phrase_matcher("for good").search("is the licence for good?")  # one content word of two: as written
    assert not phrase_matcher("for good").search("good faith for both")
    assert not phrase_matcher("how long does it last").search("does the long warranty last?")
    assert phrase_matcher("how long does it last").search("How long does it last?")


def test_a_question_in_contract_words_adds_nothing() -> None:
    e = expand("What does Section 4.2 of the supply agreement say about the Products?")
    assert e.concepts == () and e.terms == () and e.text() == ""


def test_terms_are_listed_once_even_when_several_concepts_match() -> None:
    e = expand("Can either side walk away, and can it poach the other side's staff?")
    assert len(e.concepts) >= 2
    assert len(e.terms) == len(set(e.terms))


def test_the_bundled_thesaurus_is_well_formed() -> None:
    cs = concepts()
    assert len(cs) >= 40
    seen: set[str] = set()
    for c in cs:
        assert c.contract_terms and c.phrases, c.name
        for p in c.phrases:
            assert p == p.lower() and p not in c.contract_terms, (c.name, p)
            assert p not in seen, p  # a phrase stands for one concept
            seen.add(p)


def test_the_parts_of_a_hyphenated_phrase_stay_together() -> None:
    m = phrase_matcher("year-end")
    assert m.search("what is paid at year-end?") and m.search("what is paid at year end?")
    assert not m.search("accounts after each year, quarter and month end")
    assert phrase_matcher("bad-mouth each other").search("may they bad-mouth one another or each other")


def test_quoted_text_holds_no_lay_phrase() -> None:
    """A name or defined term in double quotes is the agreement's words: Parent "ELI LILLY AND
    COMPANY" is no "parent company" (LegalBench-RAG's MAUD queries), and a phrase does not span it."""
    q = 'Consider the Acquisition Agreement between Parent "ELI LILLY AND COMPANY" and Target "PREVAIL INC."; What is the Type of Consideration'
    assert expand(q).concepts == ()
    assert "affiliate license" in expand("Does the licence cover the parent company?").concepts
    assert "termination for convenience" in expand('May \u201cAcme Ltd\u201d walk away from the deal?').concepts
