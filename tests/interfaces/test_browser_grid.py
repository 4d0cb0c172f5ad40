"""Issue #21 (web part) in a real browser (Debian's headless Chromium, as ``test_browser.py``):
the Review grid view on a session of two agreements (a text contract and a PDF) and a third
whose file has gone since it was added. Start a grid of two typed questions; the cells fill in
(the deterministic fake model is held after the first cell, so the page is reloaded mid-run and
re-attaches: the grid view comes back with the cell so far, the rest follows); the contract that
cannot be read is a row of error cells, the others are answered; the progress line counts the
cells; the downloads link the exports; clicking the PDF's cell opens its page image with the
quoted words boxed. After a restart the page shows a grid the restart stopped as interrupted, with its stored
cells, and Resume fills the rest. Screenshot ``9_grid_web.png`` (docs/screenshots/ with
CLAUSELENS_SAVE_SCREENSHOTS=1)."""

from __future__ import annotations

import os
import shutil
import threading
from typing import Any

import pytest

from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from tests.fakes import ContractFakeChatModel, schema_title

from .conftest import ROBUST, make_settings
from .test_browser import CHROMEDRIVER, CHROMIUM, PDF, SHOTS, browser, serving, shot  # noqa: F401 - the browser fixture

pytestmark = pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                                reason="needs Debian's chromium and chromium-driver")
GATE = threading.Event()
QUESTIONS = "Which law governs this agreement?\nCan either party terminate this agreement on written notice?"


class HeldAfterFirstCell(ContractFakeChatModel):
    """The fake model; every grid cell after the first waits until :data:`GATE` is set."""

    cells: int = 0

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        if schema_title(messages) == "CellAnswer":
            self.cells += 1
            if self.cells > 1:
                assert GATE.wait(60), "the test never opened the gate"
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture
def grid_server(tmp_path):
    GATE.clear()
    picks = tmp_path / "picks"
    picks.mkdir()
    for src in (ROBUST / "four_clause_contract.txt", PDF):
        shutil.copy(src, picks / src.name)
    (picks / "vanishing_lease.txt").write_text("LEASE\n\n1. The Tenant shall pay rent monthly.\n\n"
                                               "2. This Lease is governed by the laws of Wales.\n", encoding="utf-8")
    service = build_service(make_settings(tmp_path / "cache"), models=HeldAfterFirstCell(calls=[]))
    with serving(create_app(service, pick_dirs=(picks,))) as url:
        yield url, picks
        GATE.set()  # let a held grid finish before the server stops


def test_grid_starts_fills_reattaches_and_opens_a_cell(grid_server, browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    url, picks = grid_server
    wait = WebDriverWait(browser, 60)
    shots = SHOTS if os.environ.get("CLAUSELENS_SAVE_SCREENSHOTS") == "1" else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    browser.get(url + "/")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
    for name in ("four_clause_contract.txt", PDF.name, "vanishing_lease.txt"):
        Select(browser.find_element(By.ID, "pick")).select_by_visible_text(name)
        browser.find_element(By.ID, "pick-btn").click()
        wait.until(EC.text_to_be_present_in_element((By.ID, "documents"), name))
    (picks / "vanishing_lease.txt").unlink()  # its file is gone by the time the grid runs

    # the Review grid view: the conversation steps aside, the session's documents are listed
    browser.find_element(By.ID, "mode-grid").click()
    assert not browser.find_element(By.ID, "conversation").is_displayed()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid-agreements input:checked")) == 3)
    assert browser.current_url.endswith("#grid")
    browser.find_element(By.ID, "grid-questions").send_keys(QUESTIONS)
    browser.find_element(By.ID, "grid-start").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell")) == 6)
    # the model's first cell, and the yes/no cells read by rule (issue #45), are answered; the model's others are held
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.s-answered")) >= 1)
    assert browser.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.pending")  # the rest is held
    assert " of 6 cells" in browser.find_element(By.ID, "grid-progress-text").text

    browser.refresh()  # mid-run: the page re-attaches to the grid still running on the server
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.s-answered")) >= 1)
    assert browser.find_element(By.ID, "grid-card").is_displayed()
    assert browser.find_element(By.ID, "grid-start").get_attribute("disabled")
    GATE.set()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-grid-idle") == "1")
    assert not browser.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.pending")
    progress = browser.find_element(By.ID, "grid-progress-text").text
    assert progress.startswith("6 of 6 cells · done in") and "cells/min" in progress, progress
    assert browser.find_element(By.ID, "grid-start").get_attribute("disabled") is None

    rows = browser.find_elements(By.CSS_SELECTOR, "#grid-table tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "th").text.splitlines()[-1] for r in rows] == [
        "four_clause_contract.txt", PDF.name, "vanishing_lease.txt"]
    law_txt, _, law_pdf, term_pdf, bad1, bad2 = browser.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell")
    assert "Scotland" in law_txt.text and "answered" in law_txt.text
    assert "California" in law_pdf.text and "p. 6" in law_pdf.text
    assert "Yes" in term_pdf.text
    assert all("s-error" in b.get_attribute("class") for b in (bad1, bad2))  # the gone file: error cells, the grid went on
    assert "could not read this contract" in bad1.get_attribute("title")
    assert "answered 4" in browser.find_element(By.ID, "grid-counts").text
    hrefs = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#grid-downloads a")]
    assert [h.rsplit(".", 1)[-1] for h in hrefs] == ["xlsx", "csv", "html", "json"]

    # the PDF's cell opens its page with the quoted words boxed
    law_pdf.click()
    wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#pageview .hl-box")))
    wait.until(lambda d: d.execute_script("const i = document.querySelector('#pageview img');"
                                          "return i && i.complete && i.naturalWidth > 0;"))
    note = browser.find_element(By.ID, "doc-note").text
    assert "the quoted words are boxed" in note and "Which law governs" in note and "page 6" in note
    assert "selected" in law_pdf.get_attribute("class")
    browser.find_element(By.ID, "tab-text").click()
    assert "governed by the laws of the State of California" in browser.find_element(By.CSS_SELECTOR, "#doctext mark.hl").text
    browser.find_element(By.ID, "tab-page").click()
    browser.find_element(By.ID, "zoom").click()  # larger, scrolled to the boxed quote
    box, view = browser.find_element(By.CSS_SELECTOR, "#pageview .hl-box").rect, browser.find_element(By.ID, "pageview").rect
    assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"]
    shot(browser, shots / "9_grid_web.png")

    # a text contract's cell: the text view with the quote marked
    law_txt.click()
    mark = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#doctext mark.hl")))
    assert mark.text == "This Agreement is governed by the laws of Scotland."  # widened to its sentence


def test_after_a_restart_the_page_shows_the_interrupted_grid_and_resumes_it(browser, tmp_path):  # noqa: F811
    """A grid stopped mid-run by a "restart" (``test_web_grid_persist``'s model that dies at its second cell):
    the next server's page opens the grid view with the two stored cells and "interrupted"; Resume fills the rest."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from .test_web_grid_persist import _app, _grid, _session_with_contracts

    with _app(tmp_path, stop_at=2)[0] as first:
        sid = _session_with_contracts(first)
        _grid(first, sid)
    second, model = _app(tmp_path)
    wait = WebDriverWait(browser, 30)
    with serving(second.app) as url:
        browser.get(f"{url}/s/{sid}")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.s-answered")) == 2)
        assert browser.find_element(By.ID, "grid-card").is_displayed()
        assert "interrupted" in browser.find_element(By.ID, "grid-progress-text").text
        # the yes/no cells were decided without the model (issue #45): "Yes" with its clause, and "not found"
        assert len(browser.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.pending")) == 1
        browser.find_element(By.ID, "grid-resume").click()
        wait.until(lambda d: d.find_element(By.ID, "grid-progress-text").text.startswith("4 of 4 cells · done in"))
        assert "3 reused" in browser.find_element(By.ID, "grid-progress-text").text
        assert len(browser.find_elements(By.CSS_SELECTOR, "#grid-table button.gcell.s-answered")) == 3
        assert not browser.find_element(By.ID, "grid-resume").is_displayed()
    assert model.cells == 1  # only the missing cell asked the model
