"""The library room in a real browser (issue #46): Debian's Chromium (headless) via Selenium
against ``serve --library`` on a lexical library of two CUAD contracts and the bundled PDF. One flow
per test: find an agreement by party, open it (clause tree), run a clause search and open a hit
on its PDF page with the passage boxed, pre-fill a question about it; add files with live
progress (a bad one listed), ask about the new one, then remove one after confirming. Screenshots go to docs/screenshots/
with CLAUSELENS_SAVE_SCREENSHOTS=1 (10_library_table.png, 11_library_search_hit.png,
12_library_add.png), otherwise to pytest's tmp_path."""

import os
import shutil
from pathlib import Path

import pytest

from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from clauselens.library import Library
from tests.fakes import ContractFakeChatModel

from .conftest import KITOV, MW, OTHERS, ROBUST
from .test_browser import CHROMEDRIVER, CHROMIUM, PDF, SHOTS, browser, serving, shot  # noqa: F401 - browser is a fixture

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()), reason="needs chromium and chromium-driver"),
              pytest.mark.skipif(not all(p.exists() for p in [MW, KITOV, *OTHERS, PDF]), reason="needs the CUAD corpus")]


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "contracts"
    folder.mkdir()
    shutil.copy(MW, folder / "mediwound_supply.txt")
    shutil.copy(KITOV, folder / "kitov_manufacturing.txt")
    shutil.copy(PDF, folder / PDF.name)
    lib = Library.open(tmp_path / "firm", embedder_name="none", create=True)
    assert len(lib.add([folder]).added) == 3
    service = build_service(Settings(cache_dir=tmp_path / "cache", retrieval=RetrievalSettings(embedder="none")),
                            models=ContractFakeChatModel(calls=[]), library=str(tmp_path / "firm"))
    with serving(create_app(service)) as url:
        yield url, service


def _shots(tmp_path: Path) -> Path:
    d = SHOTS if os.environ.get("CLAUSELENS_SAVE_SCREENSHOTS") == "1" else tmp_path
    d.mkdir(parents=True, exist_ok=True)
    return d


def _row_button(browser, name: str, selector: str):  # noqa: F811 - the imported fixture's value
    """The button ``selector`` of the listing row naming ``name``, waiting out a re-render of the rows
    (an element found before the listing was drawn again is stale)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def find(d):
        for r in d.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]"):
            if name in r.text:
                return r.find_element(By.CSS_SELECTOR, selector)
        return False

    return WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,)).until(find)


def _library(browser, url):  # noqa: F811 - the imported fixture's value
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 30)
    browser.get(url + "/")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
    browser.find_element(By.ID, "mode-library").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]")) == 3)
    return wait


def test_find_open_search_hit_and_ask(site, browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    url, _ = site
    wait = _library(browser, url)
    # find an agreement by party name; open it: its clause tree and text
    browser.find_element(By.ID, "lib-filter").send_keys("dexcel")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]")) == 1)
    row = browser.find_element(By.CSS_SELECTOR, "#lib-rows tr[data-doc]")
    assert "kitov_manufacturing.txt" in row.text and "DEXCEL" in row.text
    row.find_element(By.CSS_SELECTOR, "a.lib-open").click()
    wait.until(EC.visibility_of_element_located((By.ID, "doc-outline")))
    assert "PRODUCT MANUFACTURING AGREEMENT" in browser.find_element(By.ID, "doc-title").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#doc-outline-list li")) > 5
    shot(browser, _shots(tmp_path) / "10_library_table.png")

    # clause search across the library; a hit on the PDF opens its page with the passage boxed
    from selenium.webdriver.common.keys import Keys

    browser.find_element(By.ID, "lib-filter").send_keys(Keys.CONTROL, "a")
    browser.find_element(By.ID, "lib-filter").send_keys(Keys.DELETE)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]")) == 3)
    browser.find_element(By.ID, "lib-q").send_keys("consultant compensation invoices")
    browser.find_element(By.ID, "lib-search").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#lib-hits li.lib-hit"))
    hits = browser.find_elements(By.CSS_SELECTOR, "#lib-hits li.lib-hit")
    marks = [m.text.lower() for m in hits[0].find_elements(By.CSS_SELECTOR, ".lib-hit-text mark")]
    assert marks and set(marks) <= {"consultant", "compensation", "invoices", "invoice", "consultants", "consultant's"}, marks
    pdf_hit = next(h for h in hits if "p. " in h.find_element(By.CSS_SELECTOR, ".where").text)
    pdf_hit.find_element(By.CSS_SELECTOR, "a.lib-hit-head").click()
    box = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#pageview .hl-box")))
    assert box.size["width"] > 10
    assert "boxed" in browser.find_element(By.ID, "doc-note").text
    shot(browser, _shots(tmp_path) / "11_library_search_hit.png")

    # "ask about this agreement" pre-fills a question naming it, in the Ask view
    pdf_hit.find_element(By.CSS_SELECTOR, "button.lib-hit-ask").click()
    q = browser.find_element(By.ID, "question")
    assert q.is_displayed() and q.get_attribute("value").startswith("In the ") and q.get_attribute("value").endswith(": ")


def test_add_with_progress_then_remove_after_confirming(site, browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    url, service = site
    wait = _library(browser, url)
    up = tmp_path / "up"
    up.mkdir()
    shutil.copy(OTHERS[0], up / "nanophase_distributor.txt")
    shutil.copy(ROBUST / "whitespace_only.txt", up / "empty.txt")
    browser.find_element(By.ID, "lib-files").send_keys(f"{up / 'nanophase_distributor.txt'}\n{up / 'empty.txt'}")
    browser.find_element(By.ID, "lib-add").click()
    wait.until(lambda d: "the library has 4 agreements" in d.find_element(By.ID, "lib-add-text").text)
    assert "1 added" in browser.find_element(By.ID, "lib-add-text").text
    assert "empty.txt: no text found" in browser.find_element(By.ID, "lib-add-failed").text
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]")) == 4)
    assert browser.find_element(By.ID, "lib-count").text.lower().endswith("4 agreements")
    shot(browser, _shots(tmp_path) / "12_library_add.png")

    # ask a question about the new agreement: "Ask" pre-fills one naming it; the answer cites it
    row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]") if "nanophase_distributor.txt" in r.text)
    row.find_element(By.CSS_SELECTOR, "button.lib-ask").click()
    q = browser.find_element(By.ID, "question")
    assert "NANOPHASE" in q.get_attribute("value").upper()
    q.send_keys("How can this agreement be terminated?")
    browser.find_element(By.ID, "ask").click()
    cite = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#report a.citation")))
    assert "Library: the question names" in browser.find_element(By.ID, "progress").text
    assert cite.get_attribute("data-doc") == row.get_attribute("data-doc")
    browser.find_element(By.ID, "mode-library").click()

    # the listing is rendered again when the library view opens: find the row afresh each time
    _row_button(browser, "nanophase_distributor.txt", "button.lib-remove").click()
    assert "nanophase_distributor.txt" in browser.find_element(By.ID, "lib-confirm-text").text
    browser.find_element(By.ID, "lib-confirm-no").click()  # cancelled: nothing removed
    assert len(service.library) == 4
    _row_button(browser, "nanophase_distributor.txt", "button.lib-remove").click()
    browser.find_element(By.ID, "lib-confirm-yes").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lib-rows tr[data-doc]")) == 3)
    assert len(service.library) == 3 and "nanophase" not in browser.find_element(By.ID, "lib-rows").text
