"""The document store behind the Archivist (issue #3 persistence): a real CUAD PDF parsed
twice comes from the store the second time, changed bytes / options re-parse, failures write
nothing, passwords and decrypted text are never stored, old schema or parser entries are
ignored."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parsing_paths import ROBUST, cuad_pdf  # noqa: E402

from clauselens.agents.archivist import ingest, load_one  # noqa: E402
from clauselens.config import Settings  # noqa: E402
from clauselens.errors import EncryptedDocumentError, IngestError  # noqa: E402
from clauselens.parsing import DocumentStore, load_document  # noqa: E402
from clauselens.parsing import store as store_mod  # noqa: E402

pytestmark = pytest.mark.skipif(not ROBUST.is_dir(), reason="needs ../shared beside the repository")

NEON = "NEONSYSTEMSINC_03_01_1999"  # 12-page CUAD distributor agreement with a text layer (86 kB)


def _no_parse(*a, **k):
    raise AssertionError("re-parsed although an identical parse is stored")


def _entries(root: Path) -> list[Path]:
    return sorted(root.rglob("*")) if root.exists() else []


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    p = tmp_path / "neon.pdf"
    shutil.copyfile(cuad_pdf(NEON), p)
    return p


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(cache_dir=tmp_path / "cache", ocr=False)


def test_second_parse_of_real_pdf_comes_from_store_and_is_equal(pdf, settings, monkeypatch):
    store = DocumentStore(settings.store_dir / "documents")
    first = load_one(pdf, settings, store=store)
    assert (store.hits, store.misses, store.writes) == (0, 1, 1)
    assert len(first.pages) == 12 and any(n.ref for n in first.nodes)
    (entry,) = _entries(settings.store_dir / "documents")
    env = json.loads(entry.read_text(encoding="utf-8"))
    assert env["file_sha256"] == first.sha256
    assert env["options"] == {"ocr": False, "ocr_dpi": None, "pdf_engine": "pdfium"}  # "auto", resolved
    assert env["schema_version"] == first.schema_version and env["document"]["id"] == first.id

    monkeypatch.setattr(store_mod, "load_document", _no_parse)
    second = load_one(pdf, settings, store=store)
    assert store.hits == 1 and store.misses == 1
    assert second == first and second is not first
    # a fresh store object on the same directory (a new process) also hits
    again, cached = DocumentStore(settings.store_dir / "documents").load_status(pdf, ocr=False, max_pages=2000)
    assert cached and again == first
    # ingest() (the graph's archivist node) goes through the same store
    docs = ingest([pdf], settings)
    assert docs == [first]
    monkeypatch.undo()
    assert load_document(pdf, ocr=False) == first  # the stored parse equals a fresh one


def test_moved_file_keeps_parse_but_gets_its_own_path_and_id(pdf, settings, monkeypatch, tmp_path):
    store = DocumentStore(settings.store_dir / "documents")
    first = load_one(pdf, settings, store=store)
    moved = tmp_path / "renamed contract.pdf"
    shutil.copyfile(pdf, moved)
    monkeypatch.setattr(store_mod, "load_document", _no_parse)
    doc = load_one(moved, settings, store=store)
    monkeypatch.undo()
    assert store.hits == 1 and doc.nodes == first.nodes and doc.text == first.text
    assert doc.source_path == str(moved) and doc == load_document(moved, ocr=False)


def test_changed_bytes_or_options_reparse(pdf, settings):
    store = DocumentStore(settings.store_dir / "documents")
    first = load_one(pdf, settings, store=store)
    with open(pdf, "ab") as fh:  # a trailing comment: same content, other bytes
        fh.write(b"\n% touched\n")
    changed = load_one(pdf, settings, store=store)
    assert store.hits == 0 and store.misses == 2 and changed.sha256 != first.sha256
    assert changed.text == first.text
    load_one(pdf, settings.model_copy(update={"ocr": True, "ocr_dpi": 200}), store=store)
    assert store.hits == 0 and store.misses == 3 and len(_entries(store.root)) == 3
    load_one(pdf, settings, store=store)
    assert store.hits == 1


@pytest.mark.parametrize("bad", ["truncated.pdf", "whitespace_only.txt", "big.pdf"])
def test_failing_file_leaves_nothing_in_store(bad, pdf, settings, tmp_path):
    if bad == "truncated.pdf":
        path = tmp_path / bad
        path.write_bytes(pdf.read_bytes()[:40000])
        expect = "corrupt"
    elif bad == "big.pdf":
        path = tmp_path / bad
        shutil.copyfile(pdf, path)
        settings = settings.model_copy(update={"max_pages": 11})
        expect = "12 pages is over the page limit of 11"
    else:
        path = ROBUST / bad
        expect = "no text found"
    with pytest.raises(IngestError) as ei:
        load_one(path, settings)
    assert expect in str(ei.value) and path.name in str(ei.value)
    assert _entries(settings.store_dir) == []


def test_page_limit_also_applies_to_a_stored_document(pdf, settings, monkeypatch):
    store = DocumentStore(settings.store_dir / "documents")
    load_one(pdf, settings, store=store)
    monkeypatch.setattr(store_mod, "load_document", _no_parse)
    with pytest.raises(IngestError, match="12 pages is over the page limit of 10; raise it with CLAUSELENS_MAX_PAGES=12"):
        load_one(pdf, settings.model_copy(update={"max_pages": 10}), store=store)


def test_use_store_false_writes_nothing(pdf, settings):
    s = settings.model_copy(update={"use_store": False})
    assert load_one(pdf, s).pages and ingest([pdf], s)
    assert _entries(settings.store_dir) == []


def test_passwords_and_decrypted_text_are_never_stored(settings):
    secret = "secret"
    s = settings.model_copy(update={"pdf_password": secret})
    store = DocumentStore(settings.store_dir / "documents")
    doc = load_one(ROBUST / "encrypted_user_pw.pdf", s, store=store)
    assert doc.text and store.writes == 0 and _entries(settings.store_dir) == []
    # a wrong password is still refused: nothing stored could answer instead of the PDF
    with pytest.raises(EncryptedDocumentError):
        load_one(ROBUST / "encrypted_user_pw.pdf", s.model_copy(update={"pdf_password": "not-it"}), store=store)
    # a plain text file under a password setting is stored, without the password
    load_one(ROBUST / "four_clause_contract.txt", s, store=store)
    (entry,) = _entries(settings.store_dir / "documents")
    assert secret not in entry.read_text(encoding="utf-8")


def test_schema_or_parser_change_ignores_old_entries(pdf, settings, monkeypatch):
    store = DocumentStore(settings.store_dir / "documents")
    first = load_one(pdf, settings, store=store)
    (old,) = _entries(store.root)
    # a schema version bump: the old entry is ignored (not misread, no crash), a new one written
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", first.schema_version + 1)
    monkeypatch.setattr(store_mod, "parser_fingerprint", lambda: "new-schema")
    bumped = DocumentStore(store.root)
    assert store.get(old.stem) is None
    doc, cached = bumped.load_status(pdf, ocr=False)
    assert not cached and doc.text == first.text and len(_entries(store.root)) == 2
    monkeypatch.undo()
    # back on the current version: the original entry is served again
    assert store.load_status(pdf, ocr=False)[1] is True


@pytest.mark.parametrize("garbage", [b"", b"{\"schema_version\": 1, \"docu", b"[1, 2]", b"\xff\xfe\x00binary",
                                     b"{\"schema_version\": 1, \"parser\": \"x\", \"document\": {}}"])
def test_unreadable_entry_is_reparsed_and_replaced(garbage, settings):
    txt = ROBUST / "four_clause_contract.txt"
    store = DocumentStore(settings.store_dir / "documents")
    first = load_one(txt, settings, store=store)
    (entry,) = _entries(store.root)
    entry.write_bytes(garbage)
    doc, cached = store.load_status(txt, ocr=False)
    assert not cached and doc == first
    assert json.loads(entry.read_text(encoding="utf-8"))["file_sha256"] == first.sha256
    assert store.load_status(txt, ocr=False)[1] is True


def test_put_removes_stale_temp_files_only(settings, monkeypatch):
    import os
    import time

    store = DocumentStore(settings.store_dir / "documents")
    store.root.mkdir(parents=True)
    stale, fresh = store.root / ".tmp-dead.json", store.root / ".tmp-live.json"
    stale.write_text("{")
    fresh.write_text("{")
    old = time.time() - store_mod.STALE_TMP_S - 10
    os.utime(stale, (old, old))
    load_one(ROBUST / "four_clause_contract.txt", settings, store=store)
    assert not stale.exists() and fresh.exists()
