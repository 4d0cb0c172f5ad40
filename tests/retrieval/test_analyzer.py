"""The legal-aware analyser keeps clause references whole."""

from clauselens.retrieval.analyzer import LegalAnalyzer, clause_refs_in, normalize_ref


def test_clause_refs_are_single_normalised_tokens():
    a = LegalAnalyzer(stem=False)
    toks = a.tokenize("See clause 14.3(b), Section 5.17 and 3.2. Also §3.2 and § 12.3.")
    assert "14.3(b)" in toks and "5.17" in toks
    assert toks.count("3.2") == 2 and "12.3" in toks
    assert "12" not in toks and "3" not in toks and "3.2." not in toks
    assert "and" not in toks  # stopwords dropped
    assert "clause" in toks and "section" in toks


def test_refs_in_questions():
    assert clause_refs_in("What does clause 3.2 say?") == ["3.2"]
    assert clause_refs_in("Summarise clause 3.2.") == ["3.2"]
    assert clause_refs_in("§3.2") == ["3.2"]
    assert clause_refs_in("Section 3.2 and clause 14.3(b) of the 2019 supply agreement") == ["3.2", "14.3(b)"]
    assert clause_refs_in("clause 7 applies") == ["7"]
    assert clause_refs_in("pay within 30 days at 4.5% interest") == []
    assert normalize_ref("§ 14.3 (B).") == "14.3(b)"


def test_a_statutes_section_is_no_clause_of_the_agreement():
    for q in ("Does it deal with Section 402 of the Sarbanes-Oxley Act?", "Section 409A of the Code",
              "a claim under section 365(n) of the Bankruptcy Code", "Section 1542 of the California Civil Code",
              "§ 101 of Title 11", "section 2.1, of the Act"):
        assert clause_refs_in(q) == [], q
    assert clause_refs_in("Section 10(b) of the Securities Exchange Act of 1934 and clause 3.2") == ["3.2"]
    assert clause_refs_in("Section 5 of this Agreement") == ["5"]
    assert clause_refs_in("Section 4 of the Master Services Agreement") == ["4"]


def test_defined_terms_exact_field():
    a = LegalAnalyzer(defined_terms=["Confidential Information"], stem=False)
    toks = a.tokenize("The Receiving Party shall protect confidential information.")
    assert "dt:confidential information" in toks
    assert a.exact_items("Is Confidential Information defined in clause 2.1?") == {"2.1", "dt:confidential information"}


def test_stemming_matches_inflections():
    a = LegalAnalyzer()
    assert set(a.tokenize("indemnify")) & set(a.tokenize("indemnifies"))
