"""Each parsing case of ``../shared/robustness/README.md`` as a test, plus bad-input errors."""

from __future__ import annotations

import difflib
import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parsing_paths import CUAD, ROBUST  # noqa: E402

from clauselens.errors import EncryptedDocumentError, IngestError, NoTextError  # noqa: E402
from clauselens.parsing import build_chunks, load_document, load_documents, load_text_document  # noqa: E402
from clauselens.parsing.docx_loader import split_table_row  # noqa: E402


def _norm(s: str) -> str:
    return " ".join(s.split())


def _node(doc, ref):
    hits = [n for n in doc.nodes if n.ref == ref]
    assert hits, f"no node {ref}; refs: {[n.ref for n in doc.nodes]}"
    return hits[0]


def _chunks_exact(doc):
    chunks = build_chunks(doc)
    for c in chunks:
        assert c.text == "\n".join(doc.text[s.start:s.end] for s in c.spans)
    return chunks


def test_missing_spaces_pdf_words_separated():
    doc = load_document(ROBUST / "missing_spaces.pdf")
    n = _node(doc, "7.1")
    body = doc.text[n.span.start:n.span.end]
    assert body.startswith("7.1 The Receiving Party shall not disclose Confidential Information")
    assert not any("implausibly long" in w for w in doc.warnings)
    words = set(re.findall(r"\w+", " ".join(c.text for c in _chunks_exact(doc))))
    assert {"Receiving", "Party", "disclose"} <= words


def test_glued_text_triggers_long_token_warning():
    doc = load_text_document("7.1 TheReceivingPartyshallnotdiscloseConfidentialInformation to anyone.\n", doc_id="g")
    assert any("implausibly long token" in w for w in doc.warnings)


def test_ligatures_pdf_normalised():
    doc = load_document(ROBUST / "ligatures.pdf")
    assert not re.search("[\ufb00-\ufb06]", doc.text)
    n = _node(doc, "5.1")
    assert "Confidential Information" in doc.text[n.span.start:n.span.end]


def test_rotated_pages_match_unrotated_original():
    rotated = load_document(ROBUST / "rotated_pages.pdf")
    original = load_document(next((CUAD / "full_contract_pdf").rglob("ADIANUTRITION*")))
    ratio = difflib.SequenceMatcher(None, _norm(rotated.text), _norm(original.text), autojunk=False).ratio()
    assert ratio >= 0.95
    refs = [n.ref for n in rotated.nodes if n.ref and re.fullmatch(r"\d+\.\d+", n.ref)]
    assert refs[0] == "1.1" and refs[-1] == "6.7"
    assert refs == [n.ref for n in original.nodes if n.ref and re.fullmatch(r"\d+\.\d+", n.ref)]


def test_running_header_footer_removed_and_kept_as_furniture():
    doc = load_document(ROBUST / "running_header_footer.pdf")
    expected = (ROBUST / "running_header_footer.expected_body.txt").read_text(encoding="utf-8")
    assert difflib.SequenceMatcher(None, _norm(doc.text), _norm(expected), autojunk=False).ratio() >= 0.99
    assert len(doc.pages) == 3 and all(p.furniture for p in doc.pages)
    assert any("Page 2 of 3" in f for f in doc.pages[1].furniture)
    for ref in ("5.1", "9.2"):
        n = _node(doc, ref)
        clause = _norm(doc.text[n.span.start:n.span.end])
        assert clause in _norm(expected), f"clause {ref} is not contiguous"
    for c in _chunks_exact(doc):
        assert not any(k in c.text for k in ("EXECUTION VERSION", "DOC REF", "Page 2 of 3"))
    assert "DISTRIBUTION AGREEMENT" in doc.text  # one-off heading kept


def test_mixed_pdf_text_page_then_scanned_page_ocr_at_300_dpi(tmp_path):
    import pypdf

    w = pypdf.PdfWriter()
    w.add_page(pypdf.PdfReader(ROBUST / "ligatures.pdf").pages[0])
    w.add_page(pypdf.PdfReader(ROBUST / "scanned_nda_page1.pdf").pages[0])
    mixed = tmp_path / "mixed.pdf"
    with open(mixed, "wb") as fh:
        w.write(fh)
    doc = load_document(mixed, ocr=True, ocr_dpi=300)
    assert [p.method for p in doc.pages] == ["text", "ocr"]
    assert doc.pages[0].ocr_confidence is None and doc.pages[1].ocr_confidence > 80
    assert "09999901" in doc.text and "14 March 2025" in doc.text
    assert {"2.1", "2.3"} <= {n.ref for n in doc.nodes}
    assert _node(doc, "2.3").parent_id == _node(doc, "2").id
    assert _node(doc, "2.3").page_start == 2 and _node(doc, "5.1").page_start == 1


def test_scanned_page_without_ocr_is_a_clear_error():
    with pytest.raises(NoTextError, match="OCR is disabled"):
        load_document(ROBUST / "scanned_nda_page1.pdf", ocr=False)


def test_whitespace_only_text():
    with pytest.raises(NoTextError, match="whitespace_only.txt: no text found"):
        load_document(ROBUST / "whitespace_only.txt")


def test_encrypted_user_password():
    with pytest.raises(EncryptedDocumentError, match="encrypted, password required"):
        load_document(ROBUST / "encrypted_user_pw.pdf")
    with pytest.raises(EncryptedDocumentError, match="wrong"):
        load_document(ROBUST / "encrypted_user_pw.pdf", password="not-it")
    doc = load_document(ROBUST / "encrypted_user_pw.pdf", password="secret")
    assert len([n for n in doc.nodes if n.ref]) > 20


def test_encrypted_owner_only_parses():
    doc = load_document(ROBUST / "encrypted_owner_only.pdf")
    assert _node(doc, "1.1").heading == "LICENSE"


def test_docx_tables_in_order_and_recoverable():
    doc = load_document(ROBUST / "contract_with_tables.docx")
    expected = json.loads((ROBUST / "expected" / "contract_with_tables.fee_table.json").read_text())
    lines = doc.text.split("\n")
    rows = [split_table_row(ln) for ln in lines if " | " in ln]
    assert expected["header"] in rows
    for row in expected["rows"]:
        assert row in rows
    # the table follows the paragraph that introduces it (document order)
    assert doc.text.index("set out in the table below") < doc.text.index("1,000 - 4,999") < doc.text.index("All fees exclude")
    tier_b = [c for c in _chunks_exact(doc) if "B | 1,000 - 4,999 | 15.50" in c.text]
    assert tier_b and tier_b[0].clause_ref == "Exhibit A"


@pytest.mark.parametrize("name", ["latin1.txt", "utf16.txt"])
def test_text_encodings_detected(name):
    doc = load_document(ROBUST / name)
    expected = (ROBUST / "expected" / name.replace(".txt", ".utf8.txt")).read_text(encoding="utf-8")
    assert doc.text == expected


def test_utf8_bom_kept_as_index_0(tmp_path):
    p = tmp_path / "bom.txt"
    p.write_bytes("\ufeff1. Term\n\n1.1 This Agreement starts today.\n".encode("utf-8"))
    doc = load_document(p)
    assert doc.text == p.read_text(encoding="utf-8") and doc.text[0] == "\ufeff"
    n = _node(doc, "1.1")
    assert doc.text[n.span.start:n.span.end] == "1.1 This Agreement starts today."


def test_bad_inputs_named_errors(tmp_path):
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"GIF89a not a pdf at all")  # content decides (issue #22): named by what it is
    with pytest.raises(IngestError, match="fake.pdf: not a PDF: this is a GIF image"):
        load_document(fake)
    trunc = tmp_path / "trunc.pdf"
    trunc.write_bytes((ROBUST / "ligatures.pdf").read_bytes()[:400])
    with pytest.raises(IngestError, match="trunc.pdf"):
        load_document(trunc)
    binary = tmp_path / "blob.txt"
    binary.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(IngestError, match="blob.txt.*binary"):
        load_document(binary)
    with pytest.raises(IngestError, match="file not found"):
        load_document(tmp_path / "missing.txt")
    empty = tmp_path / "empty.md"
    empty.write_text("")
    with pytest.raises(NoTextError, match=r"empty.md: the file is empty \(0 bytes\): no text found"):
        load_document(empty)


def test_zero_text_pdf_page(tmp_path):
    import pypdf

    w = pypdf.PdfWriter()
    w.add_blank_page(width=200, height=200)
    p = tmp_path / "blank.pdf"
    with open(p, "wb") as fh:
        w.write(fh)
    with pytest.raises(NoTextError, match="blank.pdf"):
        load_document(p, ocr=False)


def test_batch_ingest_continues_past_bad_files(tmp_path):
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"PK\x03\x04nope")
    paths = [ROBUST / "two_clause_contract.txt", fake, ROBUST / "whitespace_only.txt", ROBUST / "four_clause_contract.txt"]
    docs, errors = load_documents(paths)
    assert [Path(d.source_path).name for d in docs] == ["two_clause_contract.txt", "four_clause_contract.txt"]
    assert [e.path for e in errors] == ["fake.pdf", "whitespace_only.txt"]
