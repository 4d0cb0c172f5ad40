"""PDFium is not thread-safe: the parser and the page images share one lock
(:mod:`clauselens.parsing.pdfium_lock`). A web upload parsed while another thread renders a page
image must neither crash nor change either result."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from clauselens.parsing import load_document
from clauselens.parsing import ocr as ocr_mod
from clauselens.parsing.page_image import render_page_png, span_boxes
from clauselens.parsing.pdfium_lock import PDFIUM_LOCK

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parsing_paths import ROBUST  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUNDLED = REPO / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"


def test_parses_and_page_renders_in_threads_equal_single_threaded_results():
    """Two threads parse the bundled PDF while two render its pages and box a span on each
    (twice over), in a child process (a PDFium crash would kill it, not the test run): every
    result equals the single-threaded one and no two threads were ever inside PDFium at once.
    Without the lock the second check fails (``pdfium_threads.py --no-lock``: 4 threads inside)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    res = subprocess.run([sys.executable, str(HERE / "pdfium_threads.py"), str(BUNDLED), "2", "--threads=4"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, f"the threaded run died (rc {res.returncode}):\n{res.stderr[-3000:]}"
    out = json.loads(res.stdout)
    expected, got = out["expected"], out["got"]
    assert len(got) == 2 * 2 + 2 * len(expected) - 2  # 4 parses, every page rendered twice
    wrong = [(name, digest, expected[name]) for name, digest in got if digest != expected[name]]
    assert not wrong, f"threaded results differ from single-threaded ones: {wrong}"
    assert out["max_inside"] == 1, f"{out['max_inside']} threads were inside PDFium at the same time"


def _unlocked_calls(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[int]]:
    """Wrap every ``pypdfium2.raw`` function to record the ones called without the lock held."""
    import pypdfium2.raw as pr

    from clauselens.parsing.pdfium_page import _text_object_address

    _text_object_address()  # cached from the real function pointer (it is called by address)
    unlocked: list[str] = []
    calls = [0]

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def checked(*args: Any) -> Any:
            calls[0] += 1
            if not PDFIUM_LOCK._is_owned():  # type: ignore[attr-defined]
                unlocked.append(name)
            return fn(*args)
        return checked

    for name, fn in list(vars(pr).items()):
        if name.startswith("FPDF") and isinstance(fn, ctypes._CFuncPtr):
            monkeypatch.setattr(pr, name, wrap(name, fn))
    return unlocked, calls


def test_every_pdfium_call_holds_the_lock(monkeypatch: pytest.MonkeyPatch):
    """The pdfium text engine, the OCR page render (Tesseract stubbed out), page images and span
    boxes: each PDFium function runs with :data:`PDFIUM_LOCK` held."""
    unlocked, calls = _unlocked_calls(monkeypatch)
    doc = load_document(BUNDLED, pdf_engine="pdfium")
    page = doc.pages[0]
    render_page_png(BUNDLED, 1, width_px=300)
    span_boxes(BUNDLED, 1, doc.text[page.start:page.end], [(0, 80)])
    monkeypatch.setattr(ocr_mod, "ocr_image", lambda image, dpi: ([], None, 0))
    ocr_mod.ocr_pdf_page(ROBUST / "scanned_nda_page1.pdf", 0, 72, None)
    assert calls[0] > 1000
    assert not unlocked, f"PDFium called without the lock: {sorted(set(unlocked))}"
    assert not PDFIUM_LOCK._is_owned()  # type: ignore[attr-defined]  # and let go afterwards
