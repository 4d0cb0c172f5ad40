"""The rendered-visibility check's shortcuts (issue #42, :mod:`clauselens.parsing.visibility`): a page
of text alone is rendered once (without its text it is the blank fill), the two render buffers are
kept from page to page, and only the part of the page the characters cover is compared -- each
giving the marks the full check gives. Small generated PDFs (:mod:`pdfgen`)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pr
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pdfgen import write_pdf  # noqa: E402

from clauselens.parsing import visibility  # noqa: E402
from clauselens.parsing.pdfium_page import PdfiumPage  # noqa: E402

BODY = [(72, 720 - 14 * i, 10, f"{i + 1}. The Supplier shall deliver the goods, part {i}.") for i in range(10)]
HIDDEN_ALPHA = (72, 560, 10, "Secret words nobody sees.", None, None, None, "/GS0 gs")
HIDDEN_WHITE = (72, 540, 10, "White on white text.", (1, 1, 1))


def _pages(path: Path) -> list[tuple[object, PdfiumPage]]:
    pdf = pdfium.PdfDocument(str(path))
    return [(pdf[i], PdfiumPage(pdf[i], i + 1, check_ink=False)) for i in range(len(pdf))]


def _bare_render(page) -> np.ndarray:
    objs, _ = visibility._text_objects(page)
    for o in objs:
        pr.FPDFTextObj_SetTextRenderMode(o, pr.FPDF_TEXTRENDERMODE_INVISIBLE)
    bmp = page.render(scale=visibility.RENDER_SCALE, draw_annots=False, no_smoothtext=True, prefer_bgrx=True)
    return bmp.to_numpy().copy()


def test_a_text_only_page_renders_blank_without_its_text(tmp_path):
    page, _ = _pages(write_pdf(tmp_path / "t.pdf", [BODY + [HIDDEN_ALPHA]]))[0]
    objs, painted = visibility._text_objects(page)
    assert objs and not painted
    assert (_bare_render(page) == 255).all()  # the premise of skipping that render


@pytest.mark.parametrize("kind", ["fill under the text", "rect over it", "in a form with a rect"])
def test_a_page_with_any_shape_is_rendered_twice(tmp_path, kind):
    rect = [(60, 530, 300, 40, (0.9, 0.9, 0.9))]
    pdf = write_pdf(tmp_path / "s.pdf", [BODY + [HIDDEN_WHITE]],
                    fills=[rect] if kind != "rect over it" else None, in_form=kind == "in a form with a rect",
                    over=[[("rect", 400, 100, 50, 20, (1, 1, 1))]] if kind == "rect over it" else None)
    page, _ = _pages(pdf)[0]
    assert visibility._text_objects(page)[1]


def _full_check(page, pg: PdfiumPage, monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, bool]]:
    """The marks with both renders always made (the shortcut off)."""
    chars = copy.deepcopy(pg.chars)
    real = visibility._text_objects
    monkeypatch.setattr(visibility, "_text_objects", lambda p: (real(p)[0], True))
    visibility.mark_unshown(page, chars, pg._ox, pg._top, pg._over_image)
    monkeypatch.setattr(visibility, "_text_objects", real)
    return [(bool(c.get("not_shown")), bool(c.get("ocr_layer"))) for c in chars]


def test_shortcuts_mark_what_the_full_check_marks(tmp_path, monkeypatch):
    pdf = write_pdf(tmp_path / "m.pdf", [BODY + [HIDDEN_ALPHA, HIDDEN_WHITE], BODY + [HIDDEN_WHITE]],
                    fills=[[], [(60, 530, 300, 40, (1, 1, 1))]])
    small = write_pdf(tmp_path / "small.pdf", [BODY[:3] + [(72, 650, 10, "Hidden small.", (1, 1, 1))]], size=(400, 740))
    for path in (pdf, small, pdf):  # buffers kept across documents and page sizes
        for page, pg in _pages(path):
            chars = copy.deepcopy(pg.chars)
            visibility.mark_unshown(page, chars, pg._ox, pg._top, pg._over_image)
            got = [(bool(c.get("not_shown")), bool(c.get("ocr_layer"))) for c in chars]
            assert got == _full_check(page, pg, monkeypatch)
            hidden = "".join(c["text"] for c in chars if c.get("not_shown"))
            assert "Secret" in hidden or "White" in hidden or "Hidden" in hidden
            assert "Supplier" not in hidden
