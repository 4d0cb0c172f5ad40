"""Definitions written without quotation marks at a line start ("1.10 INTELLECTUAL PROPERTY shall
mean", "1.1.3 Effective Date: means", "DISABILITY shall mean"): the Archivist records them as
defined terms, the library's definition field finds them, and a definition question is answered by
quoting them (``parsing.terms.unquoted_definitions``; record format 5)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from clauselens.agents.definitions import definition_draft, definitions_supported
from clauselens.library import Library
from clauselens.library.passages import find_definition
from clauselens.parsing.terms import unquoted_definitions
from clauselens.reports import build_report

AGREEMENT = """\
    LICENCE AGREEMENT

    This Licence Agreement is made between Quillon Labs Inc. ("Licensor") and Brevard Tools LLC ("Licensee").

    1. Definitions
    1.1 INTELLECTUAL PROPERTY shall mean all patents, copyrights and trade secrets owned by the Licensor.
    1.2 Effective Date: means the date on which this agreement is signed by both parties.
    1.3 The term Territory means Canada.

    2. Licence
    2.1 The Licensor grants the Licensee a licence of its intellectual property, and all intellectual
    property improvements remain the Licensor's intellectual property.

    3. Ownership
    3.1 The Licensee shall not challenge the Licensor's intellectual property or its property rights.
    """


def test_line_start_definitions_without_quotes_are_read() -> None:
    text = ("1.10 INTELLECTUAL PROPERTY shall mean all patents.\n  1.1.3 Effective Date: means the signing date.\n"
            "DISABILITY shall mean illness.\nThe term Product means the goods.\nBy means of the Internet.\n"
            "(a) Territory means Canada.\nthe Licensee means business.\n")
    assert [d.term for d in unquoted_definitions(text)] == ["INTELLECTUAL PROPERTY", "Effective Date", "DISABILITY",
                                                             "Territory"]
    start, end, means = find_definition(text, "Intellectual Property")  # type: ignore[misc]
    assert means and text[start:end] == "INTELLECTUAL PROPERTY shall mean"
    assert find_definition(text, "Product") is None  # "The term Product means" opens a sentence, not a term


def test_the_library_goes_to_the_unquoted_definition_and_quotes_it(library_of: Callable[[str, str], Library]) -> None:
    lib = library_of("licence.txt", AGREEMENT)
    q = "How is Intellectual Property defined in the agreement?"
    res = lib.search(q, k=5)
    assert res.trace["defined_term"].lower() == "intellectual property"
    first = res.passages[0]
    assert first.method == "exact" and first.clause_ref == "1.1"
    passages = {f"P{i}": p for i, p in enumerate(res.passages, start=1)}
    draft = definition_draft(q, passages)
    assert draft is not None
    report = definitions_supported(build_report(draft, passages, question=q), passages)[0]
    assert report.citations and report.citations[0].quote.startswith("1.1 INTELLECTUAL PROPERTY shall mean all patents")
    assert all(f.cited_fact for f in report.key_findings)
    assert lib.search("What does Effective Date mean in the agreement?", k=3).passages[0].clause_ref == "1.2"


CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
ASHWORTH = "ASHWORTHINC_01_29_1999-EX-10.(D)-PROMOTION AGREEMENT AND NANTZ COMMUNICATIONS, INC..txt"


@pytest.mark.skipif(not (CUAD / ASHWORTH).exists(), reason="../shared CUAD corpus not present")
def test_a_cuad_agreement_in_capitals_without_quotes(tmp_path: Path) -> None:
    """The Ashworth promotion agreement defines "DISABILITY shall mean ...", "CONTRACT YEAR shall mean ..."."""
    shutil.copy(CUAD / ASHWORTH, tmp_path / ASHWORTH)
    lib = Library.open(tmp_path / "lib", embedder_name="none")
    assert len(lib.add([tmp_path / ASHWORTH]).added) == 1
    for term, words in (("Disability", "DISABILITY shall mean mental or physical illness"),
                        ("Contract Year", "CONTRACT YEAR shall mean a period of twelve (12) successive months")):
        res = lib.search(f"What does {term} mean in the agreement?", k=5)
        assert res.passages[0].method == "exact" and words in res.passages[0].text, term


def test_the_archivists_span_is_the_term_as_printed() -> None:
    """Fixed-width filings double spaces inside a term: the span ends where the printed term ends."""
    text = "1.10 INTELLECTUAL  PROPERTY shall mean all patents.\n"
    (d,) = unquoted_definitions(text)
    assert d.term == "INTELLECTUAL PROPERTY" and text[d.start:d.term_end] == "INTELLECTUAL  PROPERTY"
