"""Text is kept only if the rendered page shows it (issue #41 item 1,
:mod:`clauselens.parsing.visibility`): five ways of hiding a line the colour rules miss, each left
out with a warning, while visible text, an OCR layer over a scan and text drawn under a scan's
image stay. Small generated one-page PDFs (:mod:`pdfgen`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pdfgen import write_pdf  # noqa: E402

from clauselens.parsing.hidden import NOT_SHOWN  # noqa: E402
from clauselens.parsing.pdf import extract_pdf  # noqa: E402

HIDDEN = "6.3 The parties agreed that clauses 2, 3 and 5 have terminated."
Y = 720 - 14 * 12
BODY = [(72, 720 - 14 * i, 10, f"{i + 1}. The Receiving Party shall keep the information confidential, part {i}.")
        for i in range(12)]

#: name -> (the hidden run, shapes painted after the text)
CASES = {
    "alpha 0": ((72, Y, 10, HIDDEN, None, None, None, "/GS0 gs"), None),
    "white rectangle after": ((72, Y, 10, HIDDEN), [("rect", 70, Y - 3, 420, 13, (1, 1, 1))]),
    "clipped away": ((72, Y, 10, HIDDEN, None, None, None, "0 0 10 10 re W n"), None),
    "opaque white image after": ((72, Y, 10, HIDDEN), [("image", 70, Y - 3, 420, 13)]),
    "grey box after": ((72, Y, 10, HIDDEN, (0.2, 0.2, 0.2)), [("rect", 60, Y - 4, 450, 16, (0.3, 0.3, 0.3))]),
}


@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
@pytest.mark.parametrize("name", list(CASES))
def test_hidden_line_left_out_and_warned(tmp_path, name, engine):
    run, over = CASES[name]
    pdf = write_pdf(tmp_path / "h.pdf", [BODY + [run]], over=[over] if over else None)
    pages, warnings = extract_pdf(pdf, ocr=False, engine=engine)
    text = pages[0].text
    assert "terminated" not in text
    assert "part 11." in text and "part 0." in text  # the visible text stays
    assert any("terminated" in w and "invisible text left out" in w for w in warnings), warnings


def test_visible_line_kept_without_warning(tmp_path):
    pdf = write_pdf(tmp_path / "v.pdf", [BODY + [(72, Y, 10, HIDDEN, (0.1, 0.1, 0.5))]],
                    over=[[("rect", 60, Y - 30, 450, 12, (1, 1, 1))]])  # a white box elsewhere hides nothing
    pages, warnings = extract_pdf(pdf, ocr=False)
    assert "terminated" in pages[0].text and not warnings


def test_half_covered_line_loses_only_the_covered_part(tmp_path):
    pdf = write_pdf(tmp_path / "c.pdf", [BODY + [(72, Y, 10, "Visible start; HIDDEN TAIL WORDS")]],
                    over=[[("rect", 160, Y - 3, 300, 13, (1, 1, 1))]])
    pages, warnings = extract_pdf(pdf, ocr=False)
    assert "Visible start" in pages[0].text and "TAIL" not in pages[0].text
    assert any(NOT_SHOWN in w and "TAIL" in w for w in warnings)


def test_text_under_a_scan_image_and_ocr_layer_over_it_stay(tmp_path):
    """An OCR'd scan's text layer: mode-3 text over the page image stays (the image is what the
    reader sees). Text under an image that is blank where the text is would be hidden; here the
    grey image shows something under the text (the 1x1 grey image of ``images`` fills the box)."""
    from clauselens.parsing.pdfium_page import PdfiumPage

    runs = [(72, 720 - 14 * i, 10, f"{i + 1}. Scanned clause text line number {i}.", None, None, 3) for i in range(8)]
    pdf = write_pdf(tmp_path / "s.pdf", [runs], images=[[(0, 0, 612, 792)]])
    pages, warnings = extract_pdf(pdf, ocr=False)
    assert "Scanned clause text line number 7" in pages[0].text and not warnings
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0]
        pp = PdfiumPage(page, 1)
        page.close()
    finally:
        doc.close()
    assert all(c.get("ocr_layer") for c in pp.chars if c["text"].strip())
