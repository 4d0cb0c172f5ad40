"""An EDGAR filing's page line ("Source: SOUPMAN, INC., 8-K, 8/14/2015", printed at every page break of the CUAD texts) is
the filing's furniture, not a clause heading: the clause tree took it as the heading of the clause after the page break
(822 clause labels in 110 of the 462 CUAD texts, e.g. "10.2 Source: SOUPMAN, INC., 8-K, 8/14/2015", shown to a new user as
the clause a quote came from) or as a capitals heading node of its own. Now neither (0 labels)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.parsing import load_document
from clauselens.parsing.numbering import is_caps_heading
from clauselens.parsing.tree import build_tree

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
FILERS = ["SOUPMAN, INC., 8-K, 8/14/2015", "ALLIED ESPORTS ENTERTAINMENT, INC., 8-K, 8/15/2019", "Azul SA, F-1/A, 3/3/2017"]


@pytest.mark.parametrize("filer", FILERS)
def test_a_filing_line_heads_nothing(filer: str) -> None:
    text = ("1. DEFINITIONS\n\n1.1 Terms have the meanings given below and in the Schedules.\n\n"
            f"Source: {filer}\n\n\n\n1.2 Interpretation. Headings are for convenience only.\n\n"
            f"ARTICLE II\n\nSource: {filer}\n\n2.1 The Company shall supply the Products.\n")  # generated
    nodes, _ = build_tree(text)
    labels = [n.label for n in nodes]
    assert not any("Source" in (label or "") for label in labels), labels
    assert "1.2 Interpretation" in labels and "2.1" in labels and "Article II" in labels
    assert not is_caps_heading(f"Source: {filer}")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/data not present")
def test_cuad_franchise_agreement_labels() -> None:
    doc = load_document(CORPUS / "SoupmanInc_20150814_8-K_EX-10.1_9230148_EX-10.1_Franchise Agreement1.txt", ocr=False)
    labels = [n.label for n in doc.nodes]
    assert not any("Source:" in label for label in labels)
    assert "10.2" in labels or any(label.startswith("10.2 Termination") for label in labels)
