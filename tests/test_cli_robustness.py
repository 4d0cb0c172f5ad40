"""Issue #22, the user-facing side: batches go on past a bad file and say which files were left
out; huge inputs are refused fast with the limit and how to raise it; messages name the real
problem; the document store is unchanged by failures. ``ask`` runs the real graph with a scripted
model (tests/fakes.py) and the lexical retriever, so no model weights are needed."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clauselens.cli import app
from clauselens.retrieval.hybrid import HybridRetriever
from tests.fakes import ScriptedChat, termination_script

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
ROBUST = SHARED / "robustness"
CONTRACT = SHARED / "data/cuad/full_contract_txt/DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt"
QUOTE = "Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) days prior written notice"
runner = CliRunner()


def _run(args: list[str], env: dict[str, str] | None = None):
    res = runner.invoke(app, args, env=env)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def _png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 40), "white").save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def scripted_ask(monkeypatch):
    """``clauselens ask`` with the real pipeline and graph, a scripted model and lexical retrieval."""
    import clauselens.pipeline as pipeline

    real = pipeline.ask
    script = termination_script(QUOTE)

    def fake_ask(paths, question, settings, **kw):
        kw.update(models=ScriptedChat(script=script), tools={"hybrid": HybridRetriever(None)})
        return real(paths, question, settings, **kw)

    monkeypatch.setattr(pipeline, "ask", fake_ask)


def test_ask_continues_past_unreadable_files_and_the_report_names_them(tmp_path, scripted_ask, monkeypatch):
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    png = tmp_path / "scan.pdf"
    png.write_bytes(_png())
    out = tmp_path / "out"
    res = _run(["ask", str(empty), str(CONTRACT), str(png), "How can the agreement be terminated?", "--no-ocr",
                "--out", str(out)])
    assert res.exit_code == 2  # the batch had failures ...
    assert "Termination" in res.output and "30 days" in res.output  # ... but the good file was answered
    assert "2 of 3 file(s) were left out of the answer" in res.output
    assert "empty.pdf: the file is empty (0 bytes)" in res.output
    assert "scan.pdf: not a PDF: this is a PNG image" in res.output
    md = (out / "report.md").read_text()
    assert "Files left out (2" in md and "empty.pdf: the file is empty (0 bytes)" in md and "scan.pdf: not a PDF" in md
    assert "Files left out" in (out / "report.html").read_text()
    import json

    assert len(json.loads((out / "report.json").read_text())["left_out"]) == 2


def test_ask_with_only_unreadable_files_is_one_clear_error(tmp_path, scripted_ask, monkeypatch):
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    a, b = tmp_path / "a.pdf", tmp_path / "b.docx"
    a.write_bytes(b"")
    b.write_bytes((ROBUST / "contract_with_tables.docx").read_bytes()[:5000])
    res = _run(["ask", str(a), str(b), "What is the governing law?", "--out", str(tmp_path / "out")])
    assert res.exit_code == 2
    assert "none of the 2 files could be read" in res.output and "a.pdf: the file is empty" in res.output
    assert "b.docx: truncated or damaged Word document" in res.output
    assert not (tmp_path / "out").exists()


def test_ingest_refuses_a_40_mb_text_file_fast_and_says_how_to_raise_the_limit(tmp_path):
    big = tmp_path / "dump.txt"
    with open(big, "wb") as fh:
        fh.truncate(40_000_000)  # sparse: instant, no disk
    store = tmp_path / "cache"
    t0 = time.perf_counter()
    res = _run(["ingest", str(big), str(ROBUST / "two_clause_contract.txt")], env={"CLAUSELENS_CACHE_DIR": str(store)})
    assert time.perf_counter() - t0 < 10  # refused before reading; the good file is still parsed
    assert res.exit_code == 2
    assert "dump.txt: 40.0 MB of text is over the 10 MB limit" in res.output
    assert "CLAUSELENS_MAX_TEXT_MB=41" in res.output and "1 of 2 file(s) could not be read" in res.output
    assert len(list((store / "store" / "documents").glob("*.json"))) == 1  # only the good file was stored


def test_ingest_messages_by_signature_and_store_unchanged(tmp_path):
    import zipfile

    xlsx = tmp_path / "fees.xlsx"
    with zipfile.ZipFile(xlsx, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    trunc = tmp_path / "nda.docx"
    trunc.write_bytes((ROBUST / "contract_with_tables.docx").read_bytes()[:20000])
    zero = tmp_path / "zero.pdf"
    zero.write_bytes(b"")
    store = tmp_path / "cache"
    res = _run(["ingest", "--no-ocr", str(xlsx), str(trunc), str(zero)], env={"CLAUSELENS_CACHE_DIR": str(store)})
    assert res.exit_code == 2 and "3 of 3 file(s) could not be read" in res.output
    assert "fees.xlsx: this is an Excel workbook (.xlsx)" in res.output
    assert "nda.docx: truncated or damaged Word document" in res.output and "Package not found" not in res.output
    assert "zero.pdf: the file is empty (0 bytes)" in res.output and "%PDF" not in res.output
    assert "AttributeError" not in res.output and "Exception" not in res.output
    assert not list(store.rglob("*.json"))


def test_web_upload_over_the_limit_does_not_report_the_limit_as_the_size():
    from clauselens.interfaces.store import StoreError, check_upload

    with pytest.raises(StoreError) as e:
        check_upload("big.pdf", b"%PDF-" + b"0" * (2 * 1048576), max_bytes=1048576)
    msg = str(e.value)
    assert msg == "big.pdf: the file is larger than the 1 MiB upload limit (start the server with --max-upload-mb to raise it)"
    assert check_upload("scan.pdf", _png()) == "scan.pdf"  # read by content, as the CLI does (#41 item 6)


def _random_binary() -> bytes:
    import random

    rng = random.Random(41)
    return bytes(rng.randrange(256) for _ in range(4096))


@pytest.mark.parametrize("name,data", [
    ("random.pdf", _random_binary()), ("random.txt", _random_binary()), ("random.docx", _random_binary()),
    ("random", _random_binary()), ("setup.exe", b"MZ\x90\x00\x03\x00\x00\x00" + bytes(56)), ("empty.pdf", b""),
])
def test_one_input_policy_refuses_alike_in_cli_mcp_and_web(tmp_path, name, data):
    """Issue #41 item 6: the web upload check and the loader (CLI and MCP ingest) give the same
    message for the same bytes, whatever the name."""
    from clauselens.errors import IngestError
    from clauselens.interfaces.store import StoreError, check_upload
    from clauselens.parsing import load_document

    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(IngestError) as loaded:
        load_document(path)
    with pytest.raises(StoreError) as uploaded:
        check_upload(name, data)
    assert str(uploaded.value) == str(loaded.value)
    assert "a text file" not in str(loaded.value)
    res = _run(["ingest", "--no-ocr", str(path)], env={"CLAUSELENS_CACHE_DIR": str(tmp_path / "cache")})
    assert res.exit_code == 2 and str(loaded.value) in res.output.replace("\n", " ")


def test_one_input_policy_accepts_misnamed_files_everywhere(tmp_path):
    """A PDF named .txt and a PNG named .pdf are read by content by the loader (CLI, MCP) and pass
    the web upload check; the loader warns that the name misleads."""
    from clauselens.interfaces.store import check_upload
    from clauselens.parsing import load_document

    pdf = (ROBUST / "running_header_footer.pdf").read_bytes()
    assert check_upload("contract.txt", pdf) == "contract.txt"
    path = tmp_path / "contract.txt"
    path.write_bytes(pdf)
    doc = load_document(path)
    assert doc.pages and "is a PDF file but is named .txt" in doc.warnings[0]
    assert check_upload("scan.pdf", _png()) == "scan.pdf"
