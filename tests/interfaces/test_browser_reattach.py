"""Issue #19 item 3 in a real browser (Debian's headless Chromium, as ``test_browser.py``): ask,
reload the page while the turn is still running on the server, and the page re-attaches: the
progress so far is replayed, the rest follows, and the report appears (with the header, the
not-legal-advice notice and the Word download of item 4). The deterministic fake model is held
at its draft call by a gate so the reload happens mid-run."""

from __future__ import annotations

import pytest

from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from clauselens.reports.model import NOTICE

from .conftest import make_settings
from .test_browser import CHROMEDRIVER, CHROMIUM, browser, serving  # noqa: F401 - the browser fixture
from .test_web_reattach import DRIVEN, GATE, GatedChat

pytestmark = pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                                reason="needs Debian's chromium and chromium-driver")


@pytest.fixture
def gated_server(tmp_path):
    GATE.clear()
    service = build_service(make_settings(tmp_path), models=GatedChat(calls=[]))
    with serving(create_app(service)) as url:
        yield url
        GATE.set()  # let a held turn finish before the server stops


def test_reload_mid_run_reattaches_and_shows_the_report(gated_server, browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 60)
    contract = tmp_path / "consulting.txt"  # the upload keeps a plain file name
    contract.write_bytes(DRIVEN.read_bytes())
    browser.get(gated_server + "/")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
    browser.find_element(By.ID, "file").send_keys(str(contract))
    browser.find_element(By.ID, "upload").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "documents"), contract.name))
    browser.find_element(By.ID, "question").send_keys("How can either party terminate this agreement?")
    browser.find_element(By.ID, "ask").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "progress"), "Round 1"))
    before = browser.find_element(By.ID, "progress").text

    browser.refresh()  # the turn is held at its draft call: still running on the server
    wait.until(EC.text_to_be_present_in_element((By.ID, "progress"), "Re-attached"))
    wait.until(EC.text_to_be_present_in_element((By.ID, "progress"), "Round 1"))
    replayed = browser.find_element(By.ID, "progress").text
    assert before.splitlines()[0] in replayed and browser.find_element(By.ID, "ask").get_attribute("disabled")
    assert not browser.find_elements(By.CSS_SELECTOR, "#report a.citation")

    GATE.set()
    wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#report a.citation")))
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
    assert "Report ready" in browser.find_element(By.ID, "progress").text
    report = browser.find_element(By.ID, "report")
    assert NOTICE in report.text and "Generated" in report.text and contract.name in report.text
    assert "chars [" not in report.text
    assert report.find_element(By.LINK_TEXT, "Word").get_attribute("href").endswith("/reports/0.docx")
    assert browser.find_element(By.ID, "ask").get_attribute("disabled") is None
    browser.save_screenshot(str(tmp_path / "reattached_report.png"))
