"""A PDF page's image and the boxes of a span of its text (:mod:`clauselens.parsing.page_image`):
the matching key, the choice among repeated occurrences, line merging, and real PDFs whose parsed
text differs from their characters (running headers removed, ligatures, pages turned by their
content)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from clauselens.errors import IngestError
from clauselens.parsing import load_document
from clauselens.parsing.page_image import _key, _locate, _merge_lines, render_page_png, span_boxes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parsing_paths import ROBUST  # noqa: E402

BUNDLED = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"


def test_key_keeps_letters_and_digits_with_their_source_index():
    key, where = _key("Con-\nﬁdential “7.2”")
    assert key == "confidential72"
    assert where[:3] == [0, 1, 2] and where[3] == where[4] == 5 and where[5] == 6  # ﬁ -> "fi", one source char


def test_locate_picks_the_occurrence_nearest_the_quote_and_anchors_near_misses():
    page = "termination" + "x" * 100 + "termination" + "y" * 100
    assert _locate(page, "termination", 0.0) == (0, 11)
    assert _locate(page, "termination", 0.6) == (111, 122)
    near = "aaaa" + "theconsultantshallnotassign" + "bbbb"
    assert _locate(near, "theconsultantshallnotasslgn", 0.0) == (4, 31)  # an OCR-like slip: anchored
    assert _locate(near, "somethingelseentirely", 0.0) is None
    assert _locate(near, "", 0.0) is None


def test_merge_lines_one_box_per_line_across_and_down():
    across = [(10, 10, 18, 20), (18, 10, 26, 20), (30, 11, 38, 20), (10, 24, 18, 34)]
    assert _merge_lines(across) == [(10, 10, 38, 20), (10, 24, 18, 34)]
    down = [(10, 10, 20, 18), (10, 18, 20, 26), (10, 26, 20, 34), (30, 10, 40, 18)]
    assert _merge_lines(down) == [(10, 10, 20, 34), (30, 10, 40, 18)]


def _boxes_for(path: Path, quote: str) -> tuple[int, list]:
    doc = load_document(path)
    for p in doc.pages:
        text = doc.text[p.start:p.end]
        if quote in text:
            s = text.index(quote)
            return p.number, span_boxes(path, p.number, text, [(s, s + len(quote))])
    raise AssertionError(f"{quote!r} not in {path.name}")


def _text_under(path: Path, number: int, boxes: list) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[number - 1]
        w, h = page.get_size()
        tp = page.get_textpage()
        return " ".join(tp.get_text_bounded(left=b.x0 * w, bottom=h - b.y1 * h, right=b.x1 * w, top=h - b.y0 * h)
                        for b in boxes)
    finally:
        pdf.close()


def test_bundled_pdf_quote_boxes_cover_the_quote_across_lines():
    quote = "Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) days"
    number, boxes = _boxes_for(BUNDLED, quote)
    assert len(boxes) >= 1 and all(0 <= b.x0 < b.x1 <= 1 and 0 <= b.y0 < b.y1 <= 1 for b in boxes)
    under = " ".join(_text_under(BUNDLED, number, boxes).split())
    for words in ("Either Party may terminate", "thirty (30)"):
        assert words in under


@pytest.mark.parametrize(("name", "quote"), [
    ("ligatures.pdf", "shall not use it to benefit any affiliate"),
    ("running_header_footer.pdf", "On termination the Distributor shall stop using"),
])
def test_real_pdfs_whose_text_was_cleaned_up(name, quote):
    path = ROBUST / name
    if not path.exists():
        pytest.skip(f"needs {path}")
    number, boxes = _boxes_for(path, quote)
    assert boxes
    under = " ".join(_text_under(path, number, boxes).split())
    assert quote.split()[-1] in under and quote.split()[0] in under


def test_render_page_png_width_and_errors(tmp_path):
    from PIL import Image

    png = render_page_png(BUNDLED, 1, width_px=600)
    img = Image.open(io.BytesIO(png))
    assert img.width == 600 and img.mode == "L"
    with pytest.raises(IngestError, match="no page 9: the PDF has 7 page"):
        render_page_png(BUNDLED, 9)
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(IngestError, match="cannot be opened"):
        render_page_png(bad, 1)
