"""A real headless Chromium (Debian's chromium and chromium-driver) against the app served on
loopback. Without the browser these tests are skipped, and say so; with
REFEREE_REQUIRE_BROWSER=1 (set by .ci/run) a missing browser is a failure."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from referee.app import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(os.environ.get("REFEREE_SCREENSHOTS", Path(__file__).parents[2] / "build" / "screenshots"))


def browser_missing() -> str | None:
    for path in (CHROMIUM, DRIVER):
        if not Path(path).exists():
            return f"{path} not found (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    return None


def report_header() -> str:
    missing = browser_missing()
    if missing:
        return f"browser tests: SKIPPED, {missing}"
    return f"browser tests: headless {CHROMIUM}; screenshots in {SHOTS}"


@pytest.fixture(scope="session")
def chromium():
    missing = browser_missing()
    if missing:
        if os.environ.get("REFEREE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser required but {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,1600"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.implicitly_wait(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium, request):
    chromium.get_log("browser")  # drop what earlier tests left
    yield chromium
    chromium.save_screenshot(str(SHOTS / f"{request.node.name}.png"))
    chromium.get("about:blank")  # a live page polls on: not into the next test, whose server is another
    # A form answered 422 is logged as a failed "resource": that is the page itself, not a script error
    # (so is an analysis past its search limit).
    # So is a 404 page a test opens on purpose (an unknown page, a private tournament or its match,
    # a page asked for with a wrong key).
    errors = [e for e in chromium.get_log("browser") if e["level"] == "SEVERE"
              and not (e["source"] == "network" and "/check - " in e["message"])
              # a position past the search limit is answered 422, an analysis while every search
              # slot is taken 429: the page says so beside the cards
              and not (e["source"] == "network" and ("422" in e["message"] or "429" in e["message"])
                       and "analysis" in e["message"])
              and not (e["source"] == "network" and "404" in e["message"]
                       and ("/tournaments/" in e["message"] or "/no-such-page" in e["message"]
                            or request.node.name.startswith("test_a_private_tournaments_match_page")
                            or "wrong_key" in request.node.name))]
    assert errors == [], f"JavaScript console errors: {errors}"


@pytest.fixture
def served(sqlite_url):
    """The app on a loopback port, in a thread: (base URL, app)."""
    app = create_app({"DATABASE_URL": sqlite_url})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    app.extensions["referee.store"].db.dispose()


@pytest.fixture
def width(browser, request):
    """The window's width for one test (`@pytest.mark.parametrize("width", [...], indirect=True)`),
    the usual one again after it."""
    browser.set_window_size(request.param, 1000)
    yield request.param
    browser.set_window_size(1280, 1600)
