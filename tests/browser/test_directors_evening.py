"""A director's evening, end to end in a real browser: two tournaments, four tables, a claim
disputed, a correction with its reason, the bell closing every table of a tournament at once,
the standings printed, and one ruling printed on one page."""
import base64
import json
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.browser.conftest import SHOTS
from tests.browser.test_pages import api, wait_for
from tests.helpers import won_by

EXAMPLES = Path(__file__).parents[2] / "examples"
CLAIM = json.loads((EXAMPLES / "claim-fails.json").read_text())
REVOKE = json.loads((EXAMPLES / "revoke.json").read_text())
REASON = "B and C were entered in each other's seats"


def _tournament(base, name):
    t, _ = api(base, "POST", "/v1/tournaments", {"name": name, "preset": "court-piece"})
    return t


def _table(base, t, external_id, players, deals):
    return api(base, "POST", "/v1/matches", {"tournament": t["id"], "external_id": external_id,
                                             "record": {"players": players, "deals": deals}}, key=t["key"])


def _pdf_pages(browser) -> int:
    pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"])
    (SHOTS / "directors-evening-last.pdf").write_bytes(pdf)
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


def _printed(browser, check):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        return check()
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def _rows(browser, section):
    """The table's rows by their first cell; read again if the live page swaps itself meanwhile."""
    return wait_for(lambda: {r.find_element(By.CSS_SELECTOR, "td.head").text: r.text
                             for r in browser.find_elements(By.CSS_SELECTOR, f"#{section} tbody tr")})


def test_a_directors_evening(served, browser):
    base, _ = served
    friday, other = _tournament(base, "Friday club"), _tournament(base, "Saturday club")
    # table-1: one deal played, the next one live; table-2: a claim disputed (examples/claim-fails.json)
    t1, tag1 = _table(base, friday, "table-1", ["A", "B", "C", "D"], [won_by(0, [1] * 7)])
    t1, tag1 = api(base, "POST", f"/v1/matches/{t1['id']}/deals", {"dealer": 2, "trump": {"suit": "H"}},
                   key=friday["key"], etag=tag1)
    t1, tag1 = api(base, "POST", f"/v1/matches/{t1['id']}/events", {"events": [{"seat": 3, "play": "AS"}]},
                   key=friday["key"], etag=tag1)
    t2, _ = _table(base, friday, "table-2", CLAIM["players"], CLAIM["deals"])
    # the other tournament's tables: a revoke, and a table not started
    _table(base, other, "table-3", ["E", "F", "G", "H"], REVOKE["deals"])
    _table(base, other, "table-4", ["I", "J", "K", "L"], [])

    # the correction, with its reason: B and C were entered in each other's seats
    current, tag1 = api(base, "GET", f"/v1/matches/{t1['id']}", key=friday["key"])
    record = {**current["record"], "players": ["A", "C", "B", "D"]}
    api(base, "PUT", f"/v1/matches/{t1['id']}/record", {"record": record, "reason": REASON}, key=friday["key"],
        etag=tag1)

    # every table at a glance, with the key
    browser.get(f"{base}/tournaments/{friday['id']}")
    browser.find_element(By.ID, "key").send_keys(friday["key"])
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: "Showing everything" in browser.find_element(By.ID, "key-state").text)
    tables = _rows(browser, "matches")
    assert set(tables) == {"table-1", "table-2"}
    assert "deal 2, trick 1: A to play" in tables["table-1"]
    assert "corrected (revision" in tables["table-1"] and REASON in tables["table-1"]
    assert "deal 2 to be dealt by Asad" in tables["table-2"] and "1 dispute" in tables["table-2"]
    disputes = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#disputes tbody tr")]
    assert any("claim" in d and "claimed 2, awarded 1" in d and "Chandni" in d for d in disputes), disputes
    # the correction's trail: the flag opens the revision, which says what it corrected and why
    link = browser.find_element(By.CSS_SELECTOR, f"tr[data-match='{t1['id']}'] a.correction-flag")
    revision_url = link.get_attribute("href")
    # the nav bar leads to the tournaments, the match page back to its tournament
    assert browser.find_element(By.LINK_TEXT, "Tournaments").get_attribute("href").endswith("/tournaments")

    # the bell: every match in play, listed, then closed at once
    browser.find_element(By.ID, "bell-ask").click()
    listed = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#bell-confirm li")]
    assert listed == ["table-1", "table-2"]
    browser.find_element(By.ID, "bell-ring").click()
    wait_for(lambda: "table-2: closed" in browser.find_element(By.ID, "bell-state").text, seconds=30)
    assert "table-1: closed" in browser.find_element(By.ID, "bell-state").text
    wait_for(lambda: all("closed at the bell" in row for row in _rows(browser, "matches").values()), seconds=15)
    assert not browser.find_elements(By.ID, "bell-ask")  # nothing left in play
    browser.save_screenshot(str(SHOTS / "directors-evening-tables.png"))

    # the other tournament is untouched by this bell
    status, page, _ = _status(base, other)
    assert status == {"table-3": "in_progress", "table-4": "in_progress"}, page

    # the standings, printed
    def standings_sheet():
        assert browser.find_element(By.ID, "standings").is_displayed()
        assert not browser.find_element(By.ID, "matches").is_displayed()
        return _pdf_pages(browser)
    assert _printed(browser, standings_sheet) <= 2  # the standings, then the disputes

    browser.get(revision_url)
    assert browser.title.startswith("Revision ") and "of match table-1" in browser.title
    assert REASON in browser.find_element(By.CSS_SELECTOR, ".correction-note").text
    browser.get(f"{base}/matches/{t1['id']}")
    corrections = browser.find_element(By.ID, "corrections").text
    assert REASON in corrections
    assert browser.find_element(By.CSS_SELECTOR, "a.tournament-link").get_attribute("href").endswith(
        f"/tournaments/{friday['id']}")

    # one ruling, printed on one page: the claim's deal at its moment
    browser.get(f"{base}/matches/{t2['id']}?deal=1&event=37")

    def ruling():
        text = browser.find_element(By.ID, "ruling").text
        assert "Ruling on deal 1 of match table-2" in text
        assert "claimed 2 of the remaining tricks" in text and "awarded 1" in text
        assert "signed" in text and "key" in text and "record sha256:" in text
        cited = browser.find_element(By.CSS_SELECTOR, ".rules-cited").text
        assert "R-34 — " in cited
        browser.save_screenshot(str(SHOTS / "directors-evening-ruling.png"))
        return _pdf_pages(browser)
    assert _printed(browser, ruling) == 1


def _status(base, t):
    page, _ = api(base, "GET", f"/v1/matches?tournament={t['id']}", key=t["key"])
    return {m["external_id"]: m["status"] for m in page["items"]}, page, None
