"""End-to-end in a real browser: Debian's Chromium (headless) driven by Selenium through
/usr/bin/chromedriver against the web UI served by uvicorn on loopback.

upload a bad file (the Archivist's error is shown, the session stays usable) -> upload a
contract -> ask (deterministic fake model) -> watch the rounds -> report -> click a citation
-> the quoted clause is highlighted in the document view; then the model backend goes down
-> a clear message with a Retry button -> Retry works. Issue #19 item 5: remove a document,
a PDF citation opens the page image with the quoted words boxed, the questions of a session and
the sessions list reopen earlier reports and sessions, and the layout has three columns at 1600 px
and one at 800 px without overflow (where a citation scrolls the page view into sight). Screenshots go to docs/screenshots/
when CLAUSELENS_SAVE_SCREENSHOTS=1 (so a routine test run does not rewrite the committed
images), otherwise to pytest's tmp_path.
"""

import contextlib
import os
import re
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
PDF = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"

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


def shot(browser, path: Path) -> None:
    """A screenshot of the window, reduced to a 256-colour palette (the committed ones stay small)."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


@pytest.fixture
def server(service):
    with serving(create_app(service, pick_dirs=(ROBUST, PDF.parent))) as url:
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
    assert "whitespace_only.txt: no text found" in browser.find_element(By.ID, "error-text").text
    shot(browser, shots / "1_bad_upload_error.png")

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
    assert "Round 1: Researcher searched" in progress and re.search(r"Report ready: .*\d+ verified citation\(s\)", progress)
    assert "60 days' written notice" in browser.find_element(By.CSS_SELECTOR, "#report .answer").text
    assert "60 days' written notice" in browser.find_element(By.ID, "chat").text
    # issue #19: the fact is the quote, word for word; the model's statement is shown as its reading
    # issue #38: the clauses retrieval found for the question lead, quoted by rule, above the model's findings
    assert "The clauses that speak to this" in browser.find_element(By.ID, "report").text
    assert any("Either party may terminate" in e.text for e in browser.find_elements(By.CSS_SELECTOR, "#report li.quoted-fact q.fact"))
    readings = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#report li.quoted-fact .reading")]
    # quick depth (the default): the clauses are quoted by rule, the model's one reading is the answer (no findings)
    assert readings and all(t.startswith("Why it is quoted") for t in readings)
    assert browser.find_element(By.CSS_SELECTOR, "#report .answer").text.startswith("Reading (the model's words")
    shot(browser, shots / "2_report.png")

    # click the citation: the document opens with the quoted clause highlighted
    quote = browser.find_element(By.CSS_SELECTOR, "#report .citations blockquote").text
    cite.click()
    mark = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#doctext mark.hl")))
    assert mark.text == quote
    assert "Either party may terminate" in mark.text
    assert browser.find_element(By.ID, "doc-title").text == "SERVICES AGREEMENT"
    shot(browser, shots / "3_citation_highlighted.png")

    # the model backend goes down: a clear message and a Retry button; Retry works once it is back
    fake_model.down = True
    browser.find_element(By.ID, "question").send_keys("Which law governs this agreement?")
    browser.find_element(By.ID, "ask").click()
    retry = wait.until(EC.visibility_of_element_located((By.ID, "retry")))
    assert "language model is not available" in browser.find_element(By.ID, "error-text").text
    shot(browser, shots / "4_model_down_retry.png")
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


def _rect(browser, css: str) -> dict:
    return browser.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                  "return {x: r.left, y: r.top, r: r.right, b: r.bottom};", css)


#: The file picker's parts, which must stay inside their card at any width.
PICKER = (".file-btn", "#file-name", "#upload", "#pick", "#pick-btn")


def _inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["r"] <= outer["r"] + slack
            and inner["y"] >= outer["y"] - slack and inner["b"] <= outer["b"] + slack)


def test_remove_pdf_citation_history_and_layouts(server, browser, tmp_path):
    """Issue #19 item 5 in the browser: document list with remove, a PDF citation's page image
    with the quoted words boxed, session history, three columns at 1600 px and one at 800 px."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    wait = WebDriverWait(browser, 30)
    shots = SHOTS if os.environ.get("CLAUSELENS_SAVE_SCREENSHOTS") == "1" else tmp_path
    shots.mkdir(parents=True, exist_ok=True)

    def idle(d) -> bool:
        return d.find_element(By.TAG_NAME, "body").get_attribute("data-idle") == "1"

    def ask(question: str) -> None:
        browser.find_element(By.ID, "question").send_keys(question)
        browser.find_element(By.ID, "ask").click()
        wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "#report h3 + p"), question))
        wait.until(idle)

    browser.get(server + "/")
    wait.until(idle)
    sid = browser.find_element(By.ID, "sid").text
    # wide: three columns side by side; the file picker stays inside its card
    left, middle, right = (_rect(browser, f"#{c}") for c in ("left", "middle", "right"))
    assert left["r"] <= middle["x"] and middle["r"] <= right["x"] and abs(left["y"] - right["y"]) < 1
    card = _rect(browser, "#documents-card")
    assert all(_inside(_rect(browser, c), card) for c in PICKER)

    # two documents, then the text contract is removed: the list and the next answer lose it
    browser.find_element(By.ID, "file").send_keys(str(CONTRACT))
    browser.find_element(By.ID, "upload").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "documents"), CONTRACT.name))
    Select(browser.find_element(By.ID, "pick")).select_by_visible_text(PDF.name)
    browser.find_element(By.ID, "pick-btn").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "documents"), PDF.name))
    items = browser.find_elements(By.CSS_SELECTOR, "#documents li.document")
    assert len(items) == 2 and "7 pages" in items[1].text and "Consulting Agreement" in items[1].text
    items[0].find_element(By.CSS_SELECTOR, "button.remove").click()
    wait.until(lambda d: CONTRACT.name not in d.find_element(By.ID, "documents").text)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#documents li.document")) == 1

    # a PDF citation: the cited page's image with the quoted words boxed, scrolled into view
    ask("How long does the non-solicitation last?")
    cite = browser.find_element(By.CSS_SELECTOR, "#report a.citation")
    assert "p. " in cite.text and cite.get_attribute("data-doc").startswith("driven-deliveries")
    quote = browser.find_element(By.CSS_SELECTOR, "#report .citations blockquote").text
    cite.click()
    wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#pageview .hl-box")))
    wait.until(lambda d: d.execute_script("const i = document.querySelector('#pageview img');"
                                          "return i && i.complete && i.naturalWidth > 0;"))
    boxes = browser.find_elements(By.CSS_SELECTOR, "#pageview .hl-box")
    assert len(boxes) >= 2  # the quote runs over several lines: one box per line
    page = _rect(browser, "#pageview figure.page img")
    for i in range(len(boxes)):
        assert _inside(_rect(browser, f"#pageview .hl-box:nth-of-type({i + 1})"), page)
    assert _inside(_rect(browser, "#pageview .hl-box"), _rect(browser, "#pageview"))  # scrolled to it
    assert "the quoted words are boxed" in browser.find_element(By.ID, "doc-note").text
    assert browser.find_element(By.CSS_SELECTOR, "#pageview figcaption").text.endswith("of 7")
    browser.find_element(By.ID, "zoom").click()  # larger, still scrolled to the quote
    assert browser.find_element(By.ID, "zoom").get_attribute("aria-pressed") == "true"
    box, view = _rect(browser, "#pageview .hl-box"), _rect(browser, "#pageview")
    assert view["y"] <= box["y"] and box["b"] <= view["b"] and view["x"] <= box["x"] < view["r"]
    shot(browser, shots / "5_pdf_citation_highlight.png")
    browser.find_element(By.ID, "tab-text").click()  # the text view marks the same quote
    assert browser.find_element(By.CSS_SELECTOR, "#doctext mark.hl").text == quote
    assert not browser.find_element(By.ID, "pageview").is_displayed()
    browser.find_element(By.ID, "tab-page").click()

    # a second question; the questions of the session each reopen their report
    ask("How can either party terminate this agreement?")
    assert "thirty (30) days" in browser.find_element(By.CSS_SELECTOR, "#report .answer").text
    links = browser.find_elements(By.CSS_SELECTOR, "#questions a.report-link")
    assert [a.find_element(By.CSS_SELECTOR, ".q").text.split("\n")[0] for a in links][0].startswith("How long does")
    assert "active" in links[1].get_attribute("class")

    # another session; the sessions list shows both, and reopens the first with its history
    browser.find_element(By.ID, "new-session").click()
    wait.until(lambda d: d.find_element(By.ID, "sid").text != sid)
    wait.until(idle)
    browser.find_element(By.ID, "file").send_keys(str(CONTRACT))
    browser.find_element(By.ID, "upload").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "documents"), CONTRACT.name))
    ask("Which law governs this agreement?")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sessions a.session-link")) == 2)
    first = browser.find_element(By.CSS_SELECTOR, f'#sessions a.session-link[data-session="{sid}"]')
    assert "How long does the non-solicitation last?" in first.text and "2 questions" in first.text
    first.click()
    wait.until(lambda d: d.current_url.endswith(f"/s/{sid}"))
    wait.until(idle)
    chat = browser.find_element(By.ID, "chat").text
    assert chat.index("How long does the non-solicitation last?") < chat.index("How can either party terminate")
    browser.find_element(By.CSS_SELECTOR, '#questions a.report-link[data-index="0"]').click()
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "#report h3 + p"), "non-solicitation"))
    assert "active" in browser.find_element(By.CSS_SELECTOR, '#questions a.report-link[data-index="0"]').get_attribute("class")
    assert "this session" in browser.find_element(By.CSS_SELECTOR, "#sessions a.session-link.active").text
    browser.find_element(By.CSS_SELECTOR, "#report a.citation").click()  # the reopened report's citation
    wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#pageview .hl-box")))
    shot(browser, shots / "6_session_history.png")

    # narrow: one column in the order of use, nothing wider than the window
    browser.set_window_size(800, 1000)
    wait.until(lambda d: d.execute_script("return window.innerWidth") <= 800)
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    cards = [_rect(browser, f"#{c}") for c in ("documents-card", "conversation", "report-card", "viewer", "questions-card")]
    assert all(abs(c["x"] - cards[0]["x"]) < 1 for c in cards)
    assert all(a["b"] <= b["y"] for a, b in zip(cards, cards[1:]))
    card = _rect(browser, "#documents-card")
    assert all(_inside(_rect(browser, c), card) for c in PICKER)
    shot(browser, shots / "7_narrow_layout.png")
    # a citation clicked in the one-column layout brings the page view to the reader
    browser.find_element(By.CSS_SELECTOR, "#report a.citation").click()
    wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#pageview .hl-box")))
    wait.until(lambda d: abs(_rect(d, "#viewer")["y"]) < 2)
    box, view = _rect(browser, "#pageview .hl-box"), _rect(browser, "#pageview")
    assert view["y"] <= box["y"] and box["b"] <= view["b"]
    shot(browser, shots / "8_narrow_pdf_citation.png")


def test_library_session_asks_which_agreement_then_cites_it(library_root, browser, tmp_path):
    """``serve --library``: no upload form; a question two agreements tie on gets one clarifying
    question listing them; the answer "1" picks the first; its citation opens that agreement."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    from clauselens.config import RetrievalSettings, Settings
    from clauselens.interfaces.commands import build_service
    from tests.fakes import ContractFakeChatModel

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
