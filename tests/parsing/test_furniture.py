"""Page furniture in a text layer (EDGAR banners, page-number lines) is kept out of quotes: the
longest clean stretch of a window (tryout finding: a quote ended in "18 Source: FUSE MEDICAL ...")."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauselens.parsing.furniture import EDGAR_BANNER, clean_stretch, furniture_spans

FUSE = Path("/work/shared/data/legalbench-rag/corpus/cuad/FuseMedicalInc_20190321_10-K_EX-10.43_11575454_EX-10.43_Distributor Agreement.txt")


def test_page_number_and_banner_are_found_and_merged() -> None:
    text = "Patella $70, Tibia Tray $440\n\n18\n\nSource: FUSE MEDICAL, INC., 10-K, 3/21/2019\n\nSchedule 5 Terms"
    spans = furniture_spans(text)
    assert len(spans) == 1 and text[spans[0][0]:spans[0][1]].startswith("18")
    assert text[spans[0][0]:spans[0][1]].endswith("3/21/2019")
    a, b = clean_stretch(text, 0, len(text))
    assert text[a:b] == "Patella $70, Tibia Tray $440"  # the longer clean side
    assert clean_stretch("no furniture here", 0, 17) == (0, 17)
    assert clean_stretch("The fee is 18 dollars.", 0, 22) == (0, 22)  # a number inside a sentence is not a page number


@pytest.mark.skipif(not FUSE.is_file(), reason="CUAD text not in ../shared/data (data absent)")
def test_every_banner_in_a_real_cuad_text_is_furniture() -> None:
    text = FUSE.read_text(encoding="utf-8")
    banners = list(EDGAR_BANNER.finditer(text))
    assert len(banners) >= 5
    spans = furniture_spans(text)
    assert all(any(a <= m.start() and m.end() <= b for a, b in spans) for m in banners)
    i = banners[3].start()
    a, b = clean_stretch(text, i - 300, i + 300)
    assert "Source:" not in text[a:b] and b - a > 100
