"""A tournament's pages in a real browser: standings, disputes, live play, a private
tournament, the printed standings sheet and the HTML 404."""
import base64
import json
import urllib.request
from pathlib import Path

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser.conftest import SHOTS
from tests.browser.test_pages import api, wait_for
from tests.helpers import won_by

EXAMPLES = Path(__file__).parents[2] / "examples"
REVOKE = {k: v for k, v in json.loads((EXAMPLES / "revoke.json").read_text()).items() if k != "preset"}


def tournament(base, public=True, options=None):
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "court-piece",
                                                   "options": options or {}, "public": public})
    return t


def match(base, t, players, deals, external_id):
    m, tag = api(base, "POST", "/v1/matches", {"tournament": t["id"], "external_id": external_id,
                                                "record": {"players": players, "deals": deals}}, key=t["key"])
    return m, tag


def close(base, t, m, tag):
    return api(base, "POST", f"/v1/matches/{m['id']}/close", key=t["key"], etag=tag)


def rows(browser, section):
    return [r.text for r in browser.find_elements(By.CSS_SELECTOR, f"#{section} tbody tr")]


def test_standings_show_a_shared_rank_the_tie_break_and_the_rules(served, browser):
    base, _ = served
    t = tournament(base)
    for players in (["A", "B", "C", "D"], ["E", "F", "G", "H"]):
        close(base, t, *match(base, t, players, [won_by(0, [1] * 7)], players[0]))
    browser.get(f"{base}/tournaments/{t['id']}")
    standings = rows(browser, "standings")
    assert [line.split()[:4] for line in standings] == [
        ["1=", "B", "&", "D"], ["1=", "F", "&", "H"], ["3=", "A", "&", "C"], ["3=", "E", "&", "G"]]
    tie = browser.find_element(By.CSS_SELECTOR, "#standings .tie-break").text
    assert "won, then court difference, then points difference" in tie and "share a rank" in tie
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#standings .rules a")]
    assert links[0].endswith("/rules#match.closed")
    assert [line.split()[0] for line in rows(browser, "matches")] == ["A", "E"]
    browser.get(f"{base}/tournaments")
    assert browser.find_element(By.CSS_SELECTOR, "#tournaments tbody tr").text.startswith("Club night court-piece 2")


def test_a_dispute_link_lands_on_its_moment_and_the_filters_narrow_the_list(served, browser):
    base, _ = served
    t = tournament(base)
    m, _ = match(base, t, ["A", "B", "C", "D"], REVOKE["deals"], "table-1")
    match(base, t, ["E", "F", "G", "H"], [won_by(0, [1] * 7)], "table-2")
    browser.get(f"{base}/tournaments/{t['id']}")
    [dispute] = rows(browser, "disputes")
    assert "table-1" in dispute and "seat 2 (C)" in dispute and "revoke" in dispute and "decided the deal" in dispute
    Select(browser.find_element(By.ID, "code")).select_by_value("revoke")
    Select(browser.find_element(By.ID, "status")).select_by_value("finished")
    browser.find_element(By.CSS_SELECTOR, "#dispute-filters button").click()
    wait_for(lambda: "status=finished" in browser.current_url)
    assert rows(browser, "disputes") == [] and "No dispute with these filters" in browser.page_source
    Select(browser.find_element(By.ID, "status")).select_by_value("in_progress")
    browser.find_element(By.CSS_SELECTOR, "#dispute-filters button").click()
    wait_for(lambda: "status=in_progress" in browser.current_url)
    browser.find_element(By.CSS_SELECTOR, "#disputes a.moment").click()
    wait_for(lambda: f"/matches/{m['id']}?deal=1&event=2" in browser.current_url)  # counted from 1
    current = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".play.current"))
    assert current[0].get_attribute("id") == "deal-0-event-1"
    # The record's players by name: in the message, on the table, in the step bar.
    note = browser.find_element(By.CSS_SELECTOR, "#deal-0-event-1 .violation").text
    assert "C (seat 2) played 2♦ on a heart lead and later played 7♥ (event 6)" in note
    assert "C (seat 2) plays 2♦" in browser.find_element(By.CSS_SELECTOR, "#deal-0 .position").text
    assert "C (seat 2)" in browser.find_element(By.CSS_SELECTOR, "#deal-0 .centre .slot2").text


def test_the_standings_follow_a_match_finished_in_another_client_without_a_reload(served, browser):
    base, _ = served
    t = tournament(base)
    m, tag = match(base, t, ["A", "B", "C", "D"], [won_by(0, [1] * 7)], "table-1")
    for k in range(30):  # a long page, to scroll
        match(base, t, [f"P{k}", "Q", "R", "S"], [won_by(0, [1] * 7, n=3)], f"other-{k}")
    browser.get(f"{base}/tournaments/{t['id']}")
    assert "No finished match yet" in browser.find_element(By.ID, "standings").text
    browser.execute_script("window.notReloaded = true; window.scrollTo(0, 400);")
    close(base, t, m, tag)
    wait_for(lambda: len(rows(browser, "standings")) == 2)
    assert rows(browser, "standings")[0].startswith("1 B & D")
    assert browser.execute_script("return window.notReloaded === true && window.scrollY === 400")
    assert "closed" in rows(browser, "matches")[0]


def test_a_wrong_key_on_a_public_tournament_page_says_so_and_the_page_follows_on(served, browser):
    base, _ = served
    t = tournament(base)
    m, tag = match(base, t, ["A", "B", "C", "D"], [won_by(0, [1] * 7)], "table-1")
    browser.get(f"{base}/tournaments/{t['id']}")
    browser.find_element(By.ID, "key").send_keys("rk_not-the-key")
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: "does not open" in browser.find_element(By.ID, "key-state").text)
    close(base, t, m, tag)
    wait_for(lambda: len(rows(browser, "standings")) == 2)
    assert "does not open" in browser.find_element(By.ID, "key-state").text  # still said, after the swap


def open_with_the_key(browser, t, shown):
    """On a private page's not-found page: a wrong key says so; the read key shows `shown`."""
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not found"
    assert browser.find_elements(By.ID, shown) == []
    browser.find_element(By.ID, "key").send_keys("rr_not-the-key")
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: "does not open" in browser.find_element(By.ID, "key-state").text)
    key = browser.find_element(By.ID, "key")
    key.clear()
    key.send_keys(t["read_key"])
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: browser.find_elements(By.ID, shown))


def test_a_private_tournament_is_a_404_page_until_its_read_key_is_entered(served, browser):
    base, _ = served
    t = tournament(base, public=False)
    close(base, t, *match(base, t, ["A", "B", "C", "D"], REVOKE["deals"], "table-1"))
    browser.get(f"{base}/tournaments/{t['id']}")
    open_with_the_key(browser, t, "standings")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Club night"
    assert "revoke" in rows(browser, "disputes")[0]
    assert t["read_key"] not in browser.current_url
    browser.refresh()  # kept in the tab: the page opens itself again
    wait_for(lambda: browser.find_elements(By.ID, "standings"))


def _print_pages(browser) -> int:
    pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"])
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


def test_the_tournament_prints_as_a_one_page_standings_sheet_and_a_disputes_list(served, browser):
    base, _ = served
    t = tournament(base, options={"target": 7})
    close(base, t, *match(base, t, ["A", "B", "C", "D"], REVOKE["deals"], "table-1"))
    browser.get(f"{base}/tournaments/{t['id']}")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        shown = {s: browser.find_element(By.ID, s).is_displayed() for s in ("standings", "matches", "disputes", "key-form")}
        assert shown == {"standings": True, "matches": False, "disputes": True, "key-form": False}
        sheet = browser.find_element(By.ID, "preset").text
        assert "Court Piece (Single Sir), traditional" in sheet and "match target: 7" in sheet
        assert "Standings as of" in browser.find_element(By.CSS_SELECTOR, ".sheet-meta").text
        assert _print_pages(browser) == 2  # the standings sheet, then the disputes
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_the_match_page_prints_the_decision_with_the_text_of_its_rules(served, browser):
    base, _ = served
    t = tournament(base)
    m, _ = match(base, t, ["A", "B", "C", "D"], REVOKE["deals"], "table-1")
    browser.get(f"{base}/matches/{m['id']}")
    cited = browser.find_element(By.CSS_SELECTOR, ".rules-cited")
    assert not cited.is_displayed()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert cited.is_displayed()
        assert "trick.follow — Follow suit" in cited.text and "revoke.penalty" in cited.text
        assert browser.find_element(By.CSS_SELECTOR, "#deal-0 .decision").is_displayed()
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_a_page_not_found_is_html_with_a_way_home_and_api_clients_keep_problem_json(served, browser):
    base, _ = served
    browser.get(f"{base}/no-such-page")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not found"
    browser.find_element(By.LINK_TEXT, "Home: check a record").click()
    wait_for(lambda: browser.find_elements(By.ID, "record"))
    answer = urllib.request.Request(f"{base}/no-such-page", headers={"Accept": "application/json"})
    try:
        urllib.request.urlopen(answer, timeout=10)
    except urllib.error.HTTPError as exc:
        assert exc.code == 404 and exc.headers["Content-Type"] == "application/problem+json"
        assert json.loads(exc.read())["status"] == 404
    else:
        raise AssertionError("expected a 404")


def test_a_private_tournaments_match_page_opens_with_its_read_key_and_follows_the_match(served, browser):
    """Without the key: the not-found page with the key form (not a 401 problem); a wrong key
    says so; the read key, kept in the tab and sent as a header, opens the live match."""
    base, _ = served
    t = tournament(base, public=False)
    m, tag = match(base, t, ["A", "B", "C", "D"], [{"dealer": 0, "trump": {"suit": "S"},
                                                    "events": REVOKE["deals"][0]["events"][:3]}], "table-1")
    browser.get(f"{base}/matches/{m['id']}")
    open_with_the_key(browser, t, "verdict")
    assert t["read_key"] not in browser.current_url
    assert browser.find_elements(By.ID, "not-found") == []
    api(base, "POST", f"/v1/matches/{m['id']}/events", {"events": REVOKE["deals"][0]["events"][3:6]},
        key=t["key"], etag=tag)  # another client plays on: the page follows it
    wait_for(lambda: "revoke" in browser.execute_script(  # read at once: the page swaps itself in
        "var v = document.getElementById('verdict'); return v ? v.textContent.toLowerCase() : '';"))
    browser.refresh()  # kept in the tab: the page opens itself again
    wait_for(lambda: browser.find_elements(By.ID, "verdict"))


def _fits(browser) -> list:
    """What sticks out of the window: the page wider than it, or a table's cell past its edge."""
    return browser.execute_script("""
        var width = document.documentElement.clientWidth, out = [];
        if (document.documentElement.scrollWidth > width) { out.push(['page', document.documentElement.scrollWidth, width]); }
        document.querySelectorAll('table.listing td, table.listing th, .preset, .sheet-meta').forEach(function (el) {
          var r = el.getBoundingClientRect(), head = el.closest('thead');
          if (head && head.getBoundingClientRect().height <= 1) { return; }  // kept for screen readers only
          if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5)) { out.push([el.textContent.trim().slice(0, 30), r.left, r.right, width]); }
        });
        return out;""")


def _a_night(base):
    t = tournament(base, options={"target": 7})
    names = [["Asad Mahmood", "Bilal Chaudhry", "Chandni Kapoor", "Dev Malhotra"], ["Esha", "Faisal", "Gul", "Hina"]]
    close(base, t, *match(base, t, names[0], REVOKE["deals"], "table-1"))
    close(base, t, *match(base, t, names[1], [won_by(0, [1] * 7)], "table-2"))
    return t


def test_the_tournament_page_fits_a_phone_on_screen_and_in_print(served, browser):
    """360-430 px: the standings, matches and disputes are read without sideways scrolling,
    each row's cells labelled; printed (the standings sheet), no column is cut either."""
    base, _ = served
    t = _a_night(base)
    try:
        for width in (360, 390, 430):
            browser.set_window_size(width, 900)
            browser.get(f"{base}/tournaments/{t['id']}")
            assert _fits(browser) == [], width
            courts = browser.find_element(By.CSS_SELECTOR, "#standings tbody tr td.courts")
            assert courts.is_displayed() and "Courts" in courts.get_attribute("data-label")
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
            try:
                assert _fits(browser) == [], ("print", width)
                assert browser.find_element(By.CSS_SELECTOR, "#standings tbody tr td.courts").is_displayed()
            finally:
                browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        browser.save_screenshot(str(SHOTS / "tournament-390.png"))
    finally:
        browser.set_window_size(1280, 1600)
    browser.get(f"{base}/tournaments/{t['id']}")  # at desktop width the tables are tables
    assert _fits(browser) == []
    assert browser.find_element(By.CSS_SELECTOR, "#standings thead").is_displayed()


@pytest.mark.parametrize("width", [1280, 390], indirect=True)
def test_the_presets_text_is_the_rulebooks_words_not_its_markdown(served, browser, width):
    base, _ = served
    t = tournament(base)
    browser.get(f"{base}/tournaments/{t['id']}")
    text = browser.find_element(By.CSS_SELECTOR, "#preset .preset-text")
    assert "`" not in text.text and "*" not in text.text
    assert [c.text for c in text.find_elements(By.TAG_NAME, "code")] == ["play_on"]
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert text.is_displayed() and "`" not in text.text
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


@pytest.mark.parametrize("width", [1280, 390], indirect=True)
def test_the_printed_match_page_numbers_each_trick_once(served, browser, width):
    """"Trick 10, led by ...": no list number before it ("1. Trick 1"), nor one cut off ("0. Trick 10")."""
    base, _ = served
    t = tournament(base)
    m, _ = match(base, t, ["A", "B", "C", "D"], [won_by(0, [1] * 7, n=13)], "table-1")
    browser.get(f"{base}/matches/{m['id']}")
    for media in ("", "print"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": media})
        try:
            marker = browser.execute_script(
                "var li = document.querySelector('ol.tricks > li'); return [getComputedStyle(li).listStyleType,"
                " getComputedStyle(li).display, li.querySelector('.trick-head').textContent];")
            assert marker[0] == "none" or marker[1] != "list-item", (media, marker)
            assert marker[2].startswith("Trick 1, led by")
            assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        finally:
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
