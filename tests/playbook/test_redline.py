"""The redlined DOCX (issue #44): read back with python-docx and its XML, the tracked changes and
comments are where the review put them -- from a TXT contract (a DOCX of its text) and from a DOCX."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn

from clauselens.playbook.model import parse_playbook
from clauselens.playbook.redline import AUTHOR, locate, write_redline
from clauselens.playbook.review import Reviewer
from clauselens.playbook.sources import load_file

from .test_review import CCA, PLAYBOOK, needs_cuad


def _revisions(path: Path) -> tuple[list, list, str]:
    d = docx.Document(str(path))
    body = d.element.body
    ins = list(body.iter(qn("w:ins")))
    dels = list(body.iter(qn("w:del")))
    comments = zipfile.ZipFile(path).read("word/comments.xml").decode("utf-8")
    return ins, dels, comments


def _deleted_text(dels: list) -> str:
    return "".join(t.text or "" for d in dels for t in d.iter(qn("w:delText")))


def _inserted_text(ins: list) -> str:
    return "".join(t.text or "" for i in ins for t in i.iter(qn("w:t")))


def _review(path: Path):  # type: ignore[no-untyped-def]
    pb = parse_playbook(PLAYBOOK, "test.yaml")
    a = load_file(path)
    return pb, a, Reviewer(pb).review(a.passages, agreement=a.label, source_path=a.source_path)


@needs_cuad
def test_redline_of_a_text_contract(tmp_path: Path) -> None:
    pb, a, rv = _review(CCA)
    law = next(r for r in rv.results if r.position_id == "law")
    assert law.outcome == "deviation"
    out = tmp_path / "cca.redline.docx"
    cuts = [x for p in a.passages for s in p.spans for x in (s.start, s.end)]
    changes = write_redline(out, rv, pb, source_path=str(CCA), text=a.document.text, cuts=cuts)
    assert {(c.position_id, c.kind) for c in changes} == {("law", "replace"), ("cap", "insert")}
    ins, dels, comments = _revisions(out)
    deleted = _deleted_text(dels)
    assert "Governing Law" in deleted and "New Jersey" in deleted  # the quoted clause, struck through
    assert "laws of the State of New York" in _inserted_text(ins)  # the preferred wording, inserted
    assert "twelve (12) months" in _inserted_text(ins)  # the missing cap, inserted at the end
    for el in ins + dels:
        assert el.get(qn("w:author")) == AUTHOR and el.get(qn("w:date")) and el.get(qn("w:id"))
    assert "Playbook position law (medium)" in comments and "New Jersey" in comments
    assert "Playbook position cap" in comments
    body = docx.Document(str(out)).element.body
    assert len(list(body.iter(qn("w:commentRangeStart")))) == 2 == len(list(body.iter(qn("w:commentReference"))))
    # nothing else was deleted: the rest of the agreement is still plain text
    assert "Assignment" not in deleted and "Insurance" not in deleted


@needs_cuad
def test_redline_edits_a_docx_input(tmp_path: Path) -> None:
    src = tmp_path / "cca.docx"
    d = docx.Document()
    for line in CCA.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.strip():
            d.add_paragraph(line.strip())
    d.save(str(src))
    pb, a, rv = _review(src)
    assert a.source_path == str(src)
    assert next(r for r in rv.results if r.position_id == "law").outcome == "deviation"
    out = tmp_path / "cca.redline.docx"
    write_redline(out, rv, pb, source_path=str(src), text=a.document.text)
    ins, dels, comments = _revisions(out)
    assert "New Jersey" in _deleted_text(dels) and "New York" in _inserted_text(ins)
    edited = docx.Document(str(out))
    original = docx.Document(str(src))
    # the source document was edited (its paragraphs kept; one inserted per change), not rebuilt from text
    assert len(edited.paragraphs) == len(original.paragraphs) + 2
    assert edited.paragraphs[0].text == original.paragraphs[0].text


def test_locate_finds_the_clause_by_its_words() -> None:
    paras = ["1. Term.", "This Agreement starts today.", "9.07 Governing Law. This Agreement shall be governed by",
             "the laws of the State of New Jersey.", "9.08 Notices."]
    assert locate(paras, "9.07 Governing Law.  This Agreement shall be governed by the laws of the State of New Jersey.") == (2, 3)
    assert locate(paras, "a clause this agreement does not have") is None


@pytest.mark.parametrize("outcome", ["compliant", "unclear"])
def test_no_change_without_a_deviation(tmp_path: Path, outcome: str) -> None:
    from clauselens.playbook.review import AgreementReview, PositionResult, Quote

    pb = parse_playbook(PLAYBOOK, "t")
    r = PositionResult("law", "t", "high", "rule", outcome, "why", "value rule", quotes=[Quote("x", 0, 1)], preferred="New York law.")
    changes = write_redline(tmp_path / "r.docx", AgreementReview("a", "", "", [r]), pb, text="x\n")
    assert changes == []
