"""The same agreement twice (issue #42, :mod:`clauselens.library.duplicates`): a real CUAD
agreement added as its PDF and its TXT is one agreement -- the second is reported and listed as a
copy, search returns each clause once -- while a copy with one changed number (a revised draft,
a re-scan with changes) is a different agreement."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("datasketch")

from clauselens.library import Library  # noqa: E402
from clauselens.library.duplicates import same_text, words_of  # noqa: E402
from clauselens.parsing.store import parse_file  # noqa: E402

CUAD = Path(__file__).resolve().parents[3] / "shared" / "data" / "cuad"
ADIA = "ADIANUTRITION,INC_04_01_2005-EX-10.D2-RESELLER AGREEMENT"
ATN = "AtnInternationalInc_20191108_10-Q_EX-10.1_11878541_EX-10.1_Maintenance Agreement"
PDF = CUAD / "full_contract_pdf" / "Part_III" / "Reseller" / f"{ADIA}.PDF"
TXT = CUAD / "full_contract_txt" / f"{ADIA}.txt"
needs_cuad = pytest.mark.skipif(not (PDF.exists() and TXT.exists()), reason="CUAD PDF/TXT not available")


@needs_cuad
def test_pdf_and_txt_of_one_agreement_are_one(tmp_path: Path) -> None:
    d = tmp_path / "folder"
    d.mkdir()
    shutil.copy(PDF, d / "reseller.pdf")
    shutil.copy(TXT, d / "reseller.txt")
    changed = TXT.read_text(encoding="utf-8")
    assert "thirty (30) days" in changed
    (d / "reseller_revised.txt").write_text(changed.replace("thirty (30) days", "sixty (60) days", 1), encoding="utf-8")
    lib = Library.open(tmp_path / "lib", embedder_name="none")
    rep = lib.add([d])
    assert len(rep.added) == 3 and not rep.failed
    copies = lib.copies()
    by_name = {Path(r.path).name: r.doc_id for r in lib.agreements()}
    # the PDF is added first (sorted names): the TXT is its copy; the revised text is its own agreement
    assert [Path(p).name for p, _ in rep.copies] == ["reseller.txt"]
    assert copies == {by_name["reseller.txt"]: by_name["reseller.pdf"]}
    res = lib.search("What is the term of the reseller agreement and how can it be terminated?", 10, resolve=False)
    assert not {p.doc_id for p in res.passages} & set(copies)
    texts = [(p.doc_id, " ".join(p.text.split())) for p in res.passages]
    assert len(texts) == len(set(texts))
    lib.remove(["reseller.pdf"])  # the copy becomes the original
    assert lib.copies() == {}
    assert lib.search("termination of the reseller agreement", 5, resolve=False).passages


@needs_cuad
def test_same_text_allows_page_furniture_only() -> None:
    a = words_of([parse_file(CUAD / "full_contract_pdf" / "Part_I" / "Maintenance" / f"{ATN}.pdf").text])
    b = words_of([parse_file(CUAD / "full_contract_txt" / f"{ATN}.txt").text])
    assert same_text(a, b).same  # running headers, page numbers, "31st" / "31"
    i = b.index("days") - 1
    edited = b[:i] + ["99"] + b[i + 1:]
    verdict = same_text(a, edited)
    assert not verdict.same and "99" in verdict.difference
    struck = b[:i] + b[i + 40:]
    assert not same_text(a, struck).same
