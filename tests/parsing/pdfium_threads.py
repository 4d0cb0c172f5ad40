"""Worker for tests/parsing/test_pdfium_threads.py, run in a child process (a PDFium crash from
unsynchronised calls kills the process, which the test then reports instead of dying with it).

``python pdfium_threads.py PDF ROUNDS [--threads=N] [--no-lock]``: parses the PDF
(``load_document``, pdfium engine) and renders each page and one span's boxes on it
(:mod:`clauselens.parsing.page_image`) once in this thread, then ``ROUNDS`` times over in ``N``
threads at once (half parse, half render), and prints JSON: ``expected`` (the single-threaded
results' digests), ``got`` (per threaded job, the digest or the error raised) and
``max_inside`` (the most threads ever inside a PDFium function at the same moment: every
``pypdfium2.raw`` function is wrapped to count; 1 when every call is serialised).

``--no-lock`` swaps the package's PDFium lock for one that does nothing, to show that the check
fails without it (``max_inside`` > 1); the test does not use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable


class _Inside:
    """How many threads are inside PDFium now, and the most there have been."""

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.now = 0
        self.most = 0

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def counted(*args: Any) -> Any:
            with self.guard:
                self.now += 1
                self.most = max(self.most, self.now)
            try:
                return fn(*args)
            finally:
                with self.guard:
                    self.now -= 1

        return counted


def _count_pdfium_calls() -> _Inside:
    import pypdfium2.raw as pr

    from clauselens.parsing.pdfium_page import _text_object_address

    _text_object_address()  # cached from the real function pointer (it is called by address)
    inside = _Inside()
    for name, fn in list(vars(pr).items()):
        if name.startswith("FPDF") and isinstance(fn, ctypes._CFuncPtr):
            setattr(pr, name, inside.wrap(fn))
    return inside


def _no_lock() -> None:
    import clauselens.parsing.page_image as page_image
    import clauselens.parsing.pdfium_lock as pdfium_lock

    class NoLock(contextlib.nullcontext):
        def acquire(self, *args: Any) -> bool:
            return True

        def release(self) -> None:
            """Nothing to release: this stand-in never holds anything (the run without the lock)."""

    pdfium_lock.PDFIUM_LOCK = page_image.PDFIUM_LOCK = NoLock()  # type: ignore[assignment]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def main(argv: list[str]) -> dict:
    pdf, rounds = Path(argv[0]), int(argv[1])
    threads = int(next((a.split("=", 1)[1] for a in argv if a.startswith("--threads=")), "4"))
    if "--no-lock" in argv:
        _no_lock()
    inside = _count_pdfium_calls()

    from clauselens.parsing import load_document
    from clauselens.parsing.page_image import render_page_png, span_boxes

    def parse() -> str:
        doc = load_document(pdf, pdf_engine="pdfium")
        return _digest(json.dumps([doc.text, [(p.number, p.start, p.end, p.method) for p in doc.pages]]).encode())

    doc = load_document(pdf, pdf_engine="pdfium")
    spans = {}
    for p in doc.pages:
        text = doc.text[p.start:p.end]
        spans[p.number] = (text, [(len(text) // 4, len(text) // 4 + 200)])

    def render(number: int) -> str:
        png = render_page_png(pdf, number, width_px=500)
        text, ranges = spans[number]
        boxes = [b.as_list() for b in span_boxes(pdf, number, text, ranges)]
        return _digest(png + json.dumps(boxes).encode())

    renders: list[tuple[str, Callable[[], str]]] = [(f"page {n}", functools.partial(render, n)) for n in spans]
    expected = {"parse": parse(), **{name: fn() for name, fn in renders}}
    single_thread_most = inside.most

    half = max(1, threads // 2)
    parses = [("parse", parse)] * (half * rounds)
    renders = renders * rounds
    batches = [parses[i::half] for i in range(half)] + [renders[i::half] for i in range(half)]
    start = threading.Barrier(len(batches))

    def run(batch: list[tuple[str, Callable[[], str]]]) -> list[list[str]]:
        start.wait()
        out = []
        for name, fn in batch:
            try:
                out.append([name, fn()])
            except Exception as exc:  # reported, not raised: the parent compares
                out.append([name, f"error: {type(exc).__name__}: {exc}"])
        return out

    with ThreadPoolExecutor(max_workers=len(batches)) as pool:
        got = [r for rs in pool.map(run, batches) for r in rs]
    return {"expected": expected, "got": got, "max_inside": inside.most, "single_thread_max_inside": single_thread_most}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
