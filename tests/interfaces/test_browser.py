"""End-to-end in a real browser: Debian's Chromium (headless) driven by Selenium through
/usr/bin/chromedriver against the web UI served by uvicorn on loopback.

upload a bad file (the Archivist's error is shown, the session stays usable) -> upload a
contract -> ask (deterministic fake model) -> watch the rounds -> report -> click a citation
-> the quoted clause is highlighted in the document view; then the model backend goes down
-> a clear message with a Retry button -> Retry works. Screenshots go to docs/screenshots/
when CLAUSELENS_SAVE_SCREENSHOTS=1 (so a routine test run does not rewrite the committed
images), otherwise to pytest's tmp_path.
"""

import contextlib
import os
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from clauselens.interfaces.web.app import create_app

from .conftest import ROBUST

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CONTRACT = ROBUST / "four_clause_contract.txt"

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="needs Debian's chromium and chromium-driver (apt install chromium chromium-driver)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(app) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free local port; yields its base URL."""
    import uvicorn

    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.time() + 20
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    assert srv.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        t.join(10)


@pytest.fixture
def server(service):
    with serving(create_app(service, pick_dirs=(ROBUST,))) as url:
        yield url


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1600,1000"):
        opts.add_argument(flag)
    drv = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=opts)
    drv.set_page_load_timeout(30)
    yield drv
    drv.quit()


def test_upload_ask_report_click_citation(server, browser, fake_model, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 30)
    shots = SHOTS if os.environ.get("CLAUSELENS_SAVE_SCREENSHOTS") == "1" else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    browser.get(server + "/")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
    sid = browser.find_element(By.ID, "sid").text
    assert browser.current_url.endswith(f"/s/{sid}")

    # a bad file: the Archivist's specific error is shown
    browser.find_element(By.ID, "file").send_keys(str(ROBUST / "whitespace_only.txt"))
    browser.find_element(By.ID, "upload").click()
    wait.until(EC.visibility_of_element_located((By.ID, "error")))
    assert "no text found in whitespace_only.txt" in browser.find_element(By.ID, "error-text").text
    browser.save_screenshot(str(shots / "1_bad_upload_error.png"))

    # the session is still usable: upload the contract
    browser.find_element(By.ID, "file").send_keys(str(CONTRACT))
    browser.find_element(By.ID, "upload").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "documents"), "four_clause_contract.txt"))
    assert not browser.find_element(By.ID, "error").is_displayed()

    # ask; the rounds stream into the progress list; the report arrives
    browser.find_element(By.ID, "question").send_keys("How can this agreement be terminated?")
    browser.find_element(By.ID, "ask").click()
    cite = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#report a.citation")))
    progress = browser.find_element(By.ID, "progress").text
    assert "Round 1: Researcher searched" in progress and "Report: 1 verified citation(s)" in progress
    assert "60 days' written notice" in browser.find_element(By.CSS_SELECTOR, "#report .answer").text
    assert "60 days' written notice" in browser.find_element(By.ID, "chat").text
    browser.save_screenshot(str(shots / "2_report.png"))

    # click the citation: the document opens with the quoted clause highlighted
    quote = browser.find_element(By.CSS_SELECTOR, "#report .citations blockquote").text
    cite.click()
    mark = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#doctext mark.hl")))
    assert mark.text == quote
    assert "Either party may terminate" in mark.text
    assert browser.find_element(By.ID, "doc-title").text == "SERVICES AGREEMENT"
    browser.save_screenshot(str(shots / "3_citation_highlighted.png"))

    # the model backend goes down: a clear message and a Retry button; Retry works once it is back
    fake_model.down = True
    browser.find_element(By.ID, "question").send_keys("Which law governs this agreement?")
    browser.find_element(By.ID, "ask").click()
    retry = wait.until(EC.visibility_of_element_located((By.ID, "retry")))
    assert "language model is not available" in browser.find_element(By.ID, "error-text").text
    browser.save_screenshot(str(shots / "4_model_down_retry.png"))
    fake_model.down = False
    retry.click()
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "#report .answer"), "laws of Scotland"))
    assert not browser.find_element(By.ID, "error").is_displayed()

    # a second tab on the same session sees the same history
    browser.switch_to.new_window("tab")
    browser.get(f"{server}/s/{sid}")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
    chat = browser.find_element(By.ID, "chat").text
    assert chat.index("How can this agreement be terminated?") < chat.index("Which law governs this agreement?")


def test_library_session_asks_which_agreement_then_cites_it(library_root, browser, tmp_path):
    """``serve --library``: no upload form; a question two agreements tie on gets one clarifying
    question listing them; the answer "1" picks the first; its citation opens that agreement."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    from clauselens.config import RetrievalSettings, Settings
    from clauselens.interfaces.commands import build_service

    from .fakes import ContractFakeChatModel

    service = build_service(Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none")),
                            models=ContractFakeChatModel(calls=[]), library=str(library_root))
    with serving(create_app(service)) as url:
        wait = WebDriverWait(browser, 30)
        browser.get(f"{url}/")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
        assert "5 agreements" in browser.find_element(By.ID, "library").text
        assert not browser.find_elements(By.ID, "upload-form")

        browser.find_element(By.ID, "question").send_keys(
            "How is 'Facility' defined in the MediWound / Challenge Bioproducts supply agreement?")
        browser.find_element(By.ID, "ask").click()
        wait.until(EC.text_to_be_present_in_element((By.ID, "chat"), "Which agreement do you mean?"))
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1")
        assert browser.find_elements(By.CSS_SELECTOR, "#chat .msg.clarify")

        browser.find_element(By.ID, "question").send_keys("1")
        browser.find_element(By.ID, "ask").click()
        cite = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#report a.citation")))
        assert "Library: searching your choice: SUPPLY AGREEMENT" in browser.find_element(By.ID, "progress").text
        quote = browser.find_element(By.CSS_SELECTOR, "#report .citations blockquote").text
        cite.click()
        mark = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#doctext mark.hl")))
        assert mark.text == quote
