"""A pinned agreement's summary carries the catalogue's year (fresh-clone tryout: the report header said "no
date found" where ``library list`` showed a year): ``PinnedLibrary.documents()`` passes it to the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.library import Library
from clauselens.library.opening import PinnedLibrary
from clauselens.pipeline import source_documents
from clauselens.reports.model import Report

HOSTING = Path("/work/shared/data/legalbench-rag/corpus/cuad/CENTRACKINTERNATIONALINC_10_29_1999-EX-10.3-WEB SITE HOSTING AGREEMENT.txt")


@pytest.mark.skipif(not HOSTING.is_file(), reason="CUAD texts not in ../shared/data/legalbench-rag (data absent)")
def test_the_catalogue_year_reaches_the_report_documents(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", embedder_name="none")
    lib.add([HOSTING])
    rec = lib.agreements()[0]
    assert rec.year is not None  # what `library list` shows
    docs = PinnedLibrary(lib, (rec.doc_id,)).documents()
    assert docs[0]["year"] == rec.year
    assert source_documents(docs, Report(title="t", question="q"))[0].year == rec.year
