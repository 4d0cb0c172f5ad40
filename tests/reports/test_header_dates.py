"""The report header's date of each document (fresh-clone tryout: the header said "no date found" where
``library list`` showed a year for the same agreement): the date the Archivist read, said as an amendment's own
date for an amendment; only a year (the catalogue's, when the opening text gives no full date: ``___ day of
______, 2004``) said as such; else "no date found". The Markdown, HTML and Word renderings share the line."""

from __future__ import annotations

import pytest

from clauselens.pipeline import source_documents
from clauselens.reports import Report, to_docx, to_html, to_markdown
from clauselens.reports.model import RunInfo, SourceDocument
from clauselens.reports.render_parts import document_text
from tests.reports.test_forwardable import docx_text, html_text


@pytest.mark.parametrize("doc, says", [
    (SourceDocument(title="Consulting Agreement", effective_date="May 1, 2019"), "Consulting Agreement, dated May 1, 2019"),
    (SourceDocument(title="Amendment No. 2", effective_date="March 1, 2019", doc_type="amendment"),
     "Amendment No. 2, amendment dated March 1, 2019"),
    (SourceDocument(title="Reseller Agreement", year=2004),
     "Reseller Agreement, of 2004 (the year in its opening text, which gives no full date)"),
    (SourceDocument(title="Supply Agreement"), "Supply Agreement, no date found in its opening text"),
])
def test_which_date_the_header_gives(doc, says):
    assert document_text(doc) == says


def test_the_library_year_reaches_every_rendering():
    """A pinned library agreement's summary with the catalogue's year and no date (what ``library list`` shows as
    "2004") gives the same year in the Markdown, HTML and Word headers."""
    summary = {"doc_id": "d1", "title": "RESELLER AGREEMENT", "source_path": "/x/ADIANUTRITION-RESELLER.txt",
               "effective_date": None, "year": 2004, "doc_type": "agreement", "parties": ["Detto", "Adia"]}
    rep = Report(title="t", question="q?", answer="a")
    (doc,) = source_documents([summary], rep)
    assert doc.year == 2004 and doc.effective_date is None
    rep.run = RunInfo(generated_utc="2026-12-04T16:00:00+00:00", models={"interrogator": "m"},
                      clauselens_version="0.1.0", documents=[doc])
    for text in (to_markdown(rep), html_text(to_html(rep)), docx_text(to_docx(rep))):
        flat = " ".join(text.split())
        assert "of 2004 (the year in its opening text" in flat and "no date found" not in flat
