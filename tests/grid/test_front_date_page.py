"""The agreement's date is not a page header's number (issue #45, CUAD preset Agreement Date): in
"Page 2 May 2004" the 2 is the page, so the preamble rule reads no date from it."""

from __future__ import annotations

import pytest

from clauselens.grid.extract import read_front_date

PARTIES = "THIS AGREEMENT is made between Datec Group Ltd and Elandia Inc. for the supply of services."


@pytest.mark.parametrize("header", ["Page 2 May 2004", "Commercial in Confidence Page 2 May 2004", "PAGE 12 March 2019",
                                    "page 3 July 2011"])
def test_a_page_number_before_a_month_is_no_day(header):
    assert read_front_date([f"{header} {PARTIES}"]).value == ""


def test_a_real_preamble_date_is_still_read():
    assert read_front_date(["Page 1 THIS AGREEMENT is made on 2 May 2004 between Datec Group Ltd and Elandia Inc."]).value == "2004-05-02"
    assert read_front_date(["This Agreement is entered into on January 13, 2005 between TOM WATSON and ADAMS GOLF, LTD."]).value == "2005-01-13"
