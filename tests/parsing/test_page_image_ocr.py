"""Highlight boxes on a page read by OCR (:func:`clauselens.parsing.page_image.ocr_span_boxes`), on
a genuine paper scan: page 2 of CUAD's PrimeEnergy completion and liquidity maintenance agreement
with its OCR text layer removed (``../shared/data/scanned-contracts``, a 300-dpi grey JPEG and no
text). The boxes are checked against Tesseract's own word table of the page, read here apart from
the code under test; text ABBYY read from the same scan (CUAD's TXT, another OCR engine) is boxed
on the same lines. Plus the OCR-word cache and the turn-back of a sideways scan's boxes."""

from __future__ import annotations

import functools
import sys
import threading
import time
from pathlib import Path

import pytest

from clauselens.parsing import load_document
from clauselens.parsing import page_image as pi
from clauselens.parsing.page_image import Box, OcrWords, _OcrCache, _unturn, ocr_span_boxes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parsing_paths import CUAD_TXT, SCANNED  # noqa: E402

SCAN = next(iter(sorted(SCANNED.glob("PRIMEENERGY*.image-only.pdf"))), None) if SCANNED.is_dir() else None
needs_scan = pytest.mark.skipif(SCAN is None, reason="needs ../shared/data/scanned-contracts")


@pytest.fixture(scope="module")
def scan(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(a one-page PDF of the scan's page 2, the parser's OCR text of it)."""
    import pypdf

    assert SCAN is not None
    out = tmp_path_factory.mktemp("scan") / "primeenergy_p2.pdf"
    w = pypdf.PdfWriter()
    w.add_page(pypdf.PdfReader(SCAN).pages[1])
    w.write(out)
    doc = load_document(out)
    (page,) = doc.pages
    assert page.method == "ocr"
    return out, doc.text[page.start:page.end]


@functools.cache
def _tesseract_table(path: Path) -> tuple[dict, int, int]:
    """``pytesseract.image_to_data`` of this test's own 300-dpi render of the page, and its size."""
    import pypdfium2 as pdfium
    import pytesseract

    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[0]
        bitmap = page.render(scale=300 / 72)
        image = bitmap.to_pil()
        bitmap.close()
        page.close()
    finally:
        pdf.close()
    d = pytesseract.image_to_data(image, config="--psm 3 --dpi 300", output_type=pytesseract.Output.DICT)
    return d, image.width, image.height


def _tesseract_line_of(path: Path, word: str) -> tuple[float, float, float]:
    """(top, bottom, left of ``word``) as fractions of the page, of the line holding ``word``
    (:func:`_tesseract_table`)."""
    d, width, height = _tesseract_table(path)
    (i,) = [i for i, t in enumerate(d["text"]) if t.strip() == word]
    line = [j for j in range(len(d["text"])) if d["text"][j].strip()
            and (d["block_num"][j], d["par_num"][j], d["line_num"][j]) == (d["block_num"][i], d["par_num"][i], d["line_num"][i])]
    top = min(d["top"][j] for j in line) / height
    bottom = max(d["top"][j] + d["height"][j] for j in line) / height
    return top, bottom, d["left"][i] / width


def _sentence(text: str, head: str) -> tuple[int, int]:
    start = text.index(head)
    return start, text.index(". ", start) + 1


def _inside(boxes: list[Box]) -> bool:
    return all(0 <= b.x0 < b.x1 <= 1 and 0 <= b.y0 < b.y1 <= 1 and b.y1 - b.y0 < 0.03 for b in boxes)


@needs_scan
def test_quoted_sentence_boxed_on_the_lines_tesseract_finds_it(scan):
    path, text = scan
    start, end = _sentence(text, "Prime understands")  # "... pursue its available remedies under the Credit Agreement."
    boxes = ocr_span_boxes(path, 1, text, [(start, end)])
    assert len(boxes) >= 2 and _inside(boxes)
    assert [b.y0 for b in boxes] == sorted(b.y0 for b in boxes)  # one box per line, top down
    top, bottom, left = _tesseract_line_of(path, "understands")
    first = boxes[0]
    assert abs(first.y0 - top) < 0.004 and abs(first.y1 - bottom) < 0.004
    assert first.x0 < left < first.x1 and left - first.x0 < 0.08  # starts at "Prime", just before "understands"
    top, bottom, _ = _tesseract_line_of(path, "remedies")
    assert top - 0.004 < (boxes[-1].y0 + boxes[-1].y1) / 2 < bottom + 0.004  # ends on the line of "remedies"


@needs_scan
def test_another_ocr_of_the_same_scan_lands_on_the_same_lines(scan):
    """ABBYY's reading (CUAD's TXT: "ofobligations", "result in", "permit") differs from
    Tesseract's; the approximate anchor still puts its sentence on the lines Tesseract's text of
    it is on."""
    abbyy_path = next(iter(sorted(CUAD_TXT.glob("PRIMEENERGY*.txt"))), None) if CUAD_TXT.is_dir() else None
    if abbyy_path is None:
        pytest.skip("needs ../shared/data/cuad")
    path, text = scan
    abbyy = abbyy_path.read_text(encoding="utf-8")
    page2 = abbyy[abbyy.index("As consideration for Guaranty"):abbyy.index("Executive Vice President")]
    a_start, a_end = _sentence(page2, "Prime understands")
    assert page2[a_start:a_end] not in text  # not the same text
    theirs = ocr_span_boxes(path, 1, page2, [(a_start, a_end)])
    ours = ocr_span_boxes(path, 1, text, [_sentence(text, "Prime understands")])
    assert theirs and _inside(theirs)
    assert len(theirs) == len(ours)
    for a, b in zip(theirs, ours):
        assert abs(a.y0 - b.y0) < 0.004 and abs(a.y1 - b.y1) < 0.004


@needs_scan
def test_text_not_on_the_page_gets_no_boxes_and_the_page_is_read_once(scan, monkeypatch):
    path, text = scan
    monkeypatch.setattr(pi, "_OCR_CACHE", _OcrCache(4))
    reads = []
    real = pi._read_ocr_words
    monkeypatch.setattr(pi, "_read_ocr_words", lambda *a: reads.append(a) or real(*a))
    extra = "\n\nThe Supplier shall deliver forty pallets of frozen salmon to Rotterdam every Tuesday."
    assert ocr_span_boxes(path, 1, text + extra, [(len(text) + 2, len(text) + len(extra))]) == []
    assert len(reads) == 1
    t = time.perf_counter()
    again = ocr_span_boxes(path, 1, text, [_sentence(text, "Prime understands")])
    assert again and time.perf_counter() - t < 0.5 and len(reads) == 1  # the words came from the cache
    (key,) = pi.ocr_cache().pages
    assert key[0] == str(path.resolve()) and key[3:] == (1, 300)  # file, page, dpi


def test_cache_is_bounded_and_reads_a_page_once_for_requests_that_come_together():
    cache = _OcrCache(2)
    calls: list[int] = []

    def read(n: int) -> OcrWords:
        calls.append(n)
        time.sleep(0.2)
        return OcrWords(10, 10, ())

    threads = [threading.Thread(target=cache.get, args=(("f", 1, 1, 1, 300), lambda: read(1))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1]
    for n in (2, 3):
        cache.get(("f", 1, 1, n, 300), lambda n=n: read(n))
    assert calls == [1, 2, 3] and [k[3] for k in cache.pages] == [2, 3]  # page 1, least recently used, went


@pytest.mark.parametrize("turned", [0, 90, 180, 270])
def test_a_box_on_the_turned_scan_is_turned_back(turned):
    """A pixel found in the image as the OCR step turns it (PIL ``rotate(-turned, expand=True)``)
    maps back to where it is on the page as rendered."""
    from PIL import Image

    w, h, x, y = 40, 30, 7, 3
    im = Image.new("L", (w, h), 255)
    im.putpixel((x, y), 0)
    rot = im.rotate(-turned, expand=True)
    (u, v), = [(u, v) for u in range(rot.width) for v in range(rot.height) if rot.getpixel((u, v)) == 0]
    assert _unturn((u, v, u + 1, v + 1), turned, w, h) == (x, y, x + 1, y + 1)
