"""PDFium pages of one PDF read in worker processes (issue #42, :func:`clauselens.parsing.pdf._pdfium_pages`):
the same pages, methods, furniture and warnings as read in this process, in page order; a file
PDFium cannot open still falls back as before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import clauselens.parsing.pdf as pdf

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"


def _read(path: Path) -> tuple:
    pages, warnings = pdf.extract_pdf(path)
    return [(p.number, p.text, p.method, p.furniture) for p in pages], warnings


def test_worker_processes_read_the_same_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    if not EXAMPLE.exists():
        pytest.skip(f"the example PDF is absent: {EXAMPLE}")
    monkeypatch.setattr(pdf, "PDF_WORKERS", 1)
    serial = _read(EXAMPLE)
    monkeypatch.setattr(pdf, "PDF_WORKERS", 2)
    monkeypatch.setattr(pdf, "PARALLEL_MIN_PAGES", 2)  # the 7-page example is split in two
    calls = []
    real = pdf._pdfium_pages_parallel
    monkeypatch.setattr(pdf, "_pdfium_pages_parallel", lambda *a: calls.append((a[2], a[4])) or real(*a))
    try:
        parallel = _read(EXAMPLE)
    finally:
        if pdf._POOL is not None:
            pdf._POOL.shutdown()
            pdf._POOL = None
    assert calls == [(7, 2)] and len(serial[0]) == 7
    assert parallel == serial and [p[0] for p in parallel[0]] == list(range(1, 8))


def test_unopenable_file_still_falls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4\n" + b"garbage" * 100)
    monkeypatch.setattr(pdf, "PDF_WORKERS", 2)
    monkeypatch.setattr(pdf, "PARALLEL_MIN_PAGES", 1)
    assert pdf._pdfium_pages(bad, None, None) is None
    with pytest.raises(pdf.IngestError):
        pdf.extract_pdf(bad)


def test_worker_count_comes_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "PDF_WORKERS", None)
    monkeypatch.delenv("CLAUSELENS_PDF_WORKERS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert pdf.pdf_workers() == 2  # two by default
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert pdf.pdf_workers() == 1  # never more than the CPU count
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setenv("CLAUSELENS_PDF_WORKERS", "1")
    assert pdf.pdf_workers() == 1
    monkeypatch.setattr(pdf, "PDF_WORKERS", 3)  # set in the module (tests, benchmarks): wins
    assert pdf.pdf_workers() == 3
