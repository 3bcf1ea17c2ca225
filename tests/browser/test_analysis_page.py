"""Perfect play on the verdict page: fetched after the page shows, one request a deal whose
positions fill in as they arrive, each legal card's value beside it, the costly play the API
found marked on its card; a position past the search limit asked for alone only when the
reader is on it, and once; a deal in play only with the key. At desktop width and at 390 px."""
import copy
import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.api.test_analysis import claimed_endgame
from tests.browser.test_pages import api, paste, position, problems, wait_for
from tests.solver.test_review import random_deal

RECORD = json.loads((Path(__file__).parents[1] / "solver" / "records" / "one-costly-play.json").read_text())
# Trick 2 (event 5 for people, events[4]): seat 0 (Asad) leads the 2S; the AS would have
# dropped Bilal's lone KS, so seat 0's side would take all 11 tricks left, not 10: that play
# cost 1 trick.

# At a desktop's width and a phone's (conftest's `width`).
AT_WIDTHS = pytest.mark.parametrize("width", [1280, 390], indirect=True, ids=["desktop", "390px"])


def values(browser, seat, deal=0):
    """{card: (value, class)} beside seat's cards in the stepper."""
    out = {}
    for card in browser.find_elements(By.CSS_SELECTOR, f"#deal-{deal} .seat{seat} .hand .card[data-card]"):
        badge = card.find_elements(By.XPATH, "following-sibling::*[1][contains(@class, 'card-value')]")
        if badge:
            out[card.get_attribute("data-card")] = (badge[0].text, badge[0].get_attribute("class"))
    return out


def status(browser, deal=0):
    found = browser.find_elements(By.CSS_SELECTOR, f"#deal-{deal} .analysis-status")
    return found[0].text if found else ""


def costly(browser):
    return [(el.find_element(By.XPATH, "..").get_attribute("id"), el.text)
            for el in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .mark.costly")]


def requests(browser, path="/v1/analysis"):
    """The analysis requests the page made (whole deals and positions alone)."""
    return browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.split('?')[0].endsWith(arguments[0]))",
        path)


def fits(browser):
    """Nothing wider than the window: no sideways scrolling, the status and the cards inside it."""
    width, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, (width, inner)
    for el in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .analysis-status, #deal-0 .card-value"):
        assert el.rect["x"] >= 0 and el.rect["x"] + el.rect["width"] <= inner, el.text


def go(browser, event):
    """To the step of `event` (0-based, as the tricks list's ids), by its link."""
    link = browser.find_element(By.CSS_SELECTOR, f"#deal-0-event-{event} a.event-link")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()


@AT_WIDTHS
def test_the_check_page_fills_the_whole_deal_in_from_one_request_and_marks_the_costly_play(served, browser, width):
    base, _ = served
    paste(browser, base, json.dumps(RECORD))
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .tricks .play")  # the page is there at once
    wait_for(lambda: "Perfect play: all 52 positions analysed." in status(browser), 60)
    assert len(requests(browser)) == 1  # the whole deal, in one request
    assert costly(browser) == [("deal-0-event-4", "costly: 1 trick; best was A♠")]  # the API's best_cards
    go(browser, 5)  # the 2S on the table
    assert [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .mark.costly")] == [
        "costly: 1 trick; best was A♠"]
    go(browser, 3)  # before the lead of trick 2
    assert "plays 9♠" in position(browser)
    shown = wait_for(lambda: values(browser, 0))
    assert shown["AS"] == ("11", "card-value best") and shown["2S"] == ("10", "card-value worse")
    assert len(shown) == 12 and all(v == "10" for c, (v, _) in shown.items() if c != "AS")
    assert values(browser, 1) == {}  # only the seat to play
    assert "best 11" in status(browser)
    titles = {c.get_attribute("data-card"): c.find_element(By.XPATH, "following-sibling::*[1]").get_attribute("title")
              for c in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .seat0 .hand .card[data-card]")}
    assert titles["AS"] == "11 tricks from here" and titles["2S"] == "10 tricks from here: costs 1 trick"  # the API's words
    fits(browser)
    assert len(requests(browser)) == 1  # stepping asks nothing more


def test_a_stored_match_a_finished_deal_for_anyone_a_deal_in_play_with_the_key(served, browser):
    base, _ = served
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "seven-courts"})
    m, _ = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": RECORD["deals"]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}?deal=1&event=4")  # the fourth event of the first deal
    wait_for(lambda: values(browser, 0).get("AS") == ("11", "card-value best"), 30)
    wait_for(lambda: costly(browser) == [("deal-0-event-4", "costly: 1 trick; best was A♠")], 60)
    assert [u.split("?")[1] for u in requests(browser, "/analysis")] == [
        "deal=0&objective=tricks&line=false&whole_deal=true&from_event=0"]

    live = dict(RECORD["deals"][0], events=RECORD["deals"][0]["events"][:6])
    m, _ = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": [live]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}")
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand .card") == []
    assert status(browser) == "" and values(browser, 0) == {}  # no hands shown, nothing asked
    browser.find_element(By.ID, "key").send_keys(t["read_key"])
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand .card"))
    # Trick 2 is still open: the 2S is marked on the table, where it lies at the last step.
    assert "plays K♠" in position(browser)
    marks = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .slot .mark.costly"), 60)
    slot = marks[0].find_element(By.XPATH, "..")
    assert marks[0].text == "costly: 1 trick; best was A♠" and slot.find_element(By.CSS_SELECTOR, ".card").get_attribute("data-card") == "2S"
    # The match goes on: the new positions alone are asked for (from event 7 on), in one request.
    api(base, "POST", f"/v1/matches/{m['id']}/events", {"events": RECORD["deals"][0]["events"][6:8]},
        key=t["key"], etag=api(base, "GET", f"/v1/matches/{m['id']}", key=t["key"])[1])
    wait_for(lambda: "Perfect play: all 9 positions analysed." in status(browser), 30)
    assert [u.split("from_event=")[1] for u in requests(browser, "/analysis")] == ["0", "7"]


@AT_WIDTHS
def test_the_page_shows_before_the_analysis_which_says_it_is_under_way_with_a_ring_no_glyph(served, browser, width):
    browser.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        paste(browser, served[0], json.dumps(RECORD))
        assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .tricks .play")
        assert wait_for(lambda: "Analysing\u2026" in status(browser) and "of 52 positions" in status(browser))
        el = browser.find_element(By.CSS_SELECTOR, "#deal-0 .analysis-status")
        assert el.get_attribute("class") == "analysis-status busy"
        # The busy sign is drawn (a ring of border), not a character a font may lack.
        ring = browser.execute_script(
            "var s = getComputedStyle(arguments[0], '::before'); return [s.content, s.borderTopStyle, s.width];", el)
        assert ring[0] == '""' and ring[1] == "solid" and ring[2] != "auto"
        fits(browser)
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
    wait_for(lambda: "Perfect play: all 52 positions analysed." in status(browser), 60)
    assert "busy" not in browser.find_element(By.CSS_SELECTOR, "#deal-0 .analysis-status").get_attribute("class")


@AT_WIDTHS
def test_positions_past_the_deals_budget_are_asked_for_alone_only_when_the_reader_is_on_one(served, browser, width):
    base, app = served
    app.config.update(ANALYSIS_DEAL_MAX_NODES=1000, ANALYSIS_MAX_NODES=1000)  # the whole deal's budget, and one position's
    record = random_deal(5, 52)
    paste(browser, base, json.dumps(record))
    text = wait_for(lambda: "past the search limit" in status(browser) and status(browser), 60)
    analysed, total = [int(n) for n in text.split("Perfect play: ")[1].split(" positions analysed")[0].split(" of ")]
    assert total == 52 and 0 < analysed < 52
    assert f"; {52 - analysed} past the search limit (step to one to try it alone)." in text
    assert len(requests(browser)) == 1  # one request for the deal, the deep positions not asked again
    go(browser, 0)  # after event 1: past the deal's budget, so asked for alone, and too deep for it too
    wait_for(lambda: "This position is too deep to analyse within the search limit." in status(browser), 30)
    assert values(browser, record["deals"][0]["events"][1]["seat"]) == {}
    assert len(requests(browser)) == 2
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .prev").click()  # the first lead: the same
    assert position(browser).startswith("Before event 1")
    wait_for(lambda: len(requests(browser)) == 3 and "too deep" in status(browser), 30)
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .next").click()  # back to event 1: known to be too deep
    assert "too deep" in status(browser)
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .prev").click()
    assert "too deep" in status(browser) and len(requests(browser)) == 3  # each asked for alone once
    fits(browser)


def test_nothing_analysed_is_said_so_and_numbers_for_people_count_from_1(served, browser):
    base, app = served
    app.config.update(ANALYSIS_DEAL_MAX_NODES=1000, ANALYSIS_MAX_NODES=1000)
    opening = random_deal(5, 0)  # the cards dealt, nothing played: one position, too deep
    paste(browser, base, json.dumps(opening))
    wait_for(lambda: "too deep" in status(browser), 30)
    assert status(browser) == ("Perfect play: no position analysed; 1 past the search limit. "
                               "This position is too deep to analyse within the search limit.")
    app.config.update(ANALYSIS_DEAL_MAX_NODES=None, ANALYSIS_MAX_NODES=None)  # the defaults
    revoke = copy.deepcopy(RECORD)
    revoke["deals"][0]["events"][5] = {"seat": 1, "play": "2D"}  # Bilal holds the KS: the penalty decides
    paste(browser, base, json.dumps(revoke))
    # the whole count, not the position's own line, which says "cannot be analysed" while the rest still come
    wait_for(lambda: "Perfect play: 6 of 9 positions analysed; 3 cannot be analysed." in status(browser), 30)
    go(browser, 6)
    assert "This position cannot be analysed: the deal has an illegal play on record" in status(browser)
    assert "deal 0" not in browser.find_element(By.TAG_NAME, "body").text
    # The record's form answers a record that is not one with its pointers, and where they point.
    paste(browser, base, json.dumps({"preset": "court-piece", "deals": [
        {"dealer": 0, "events": [{"seat": 1, "play": "ZZ"}]}]}))
    assert "/deals/0/events/0/play (deal 1, event 1, play):" in problems(browser)


def test_every_deal_is_analysed_as_the_page_loads_and_the_keys_step_the_deal_in_view(served, browser):
    base, _ = served
    record = dict(RECORD, deals=[RECORD["deals"][0]] * 3)  # deals 2 and 3: a wrong dealer, still deals
    paste(browser, base, json.dumps(record))
    for deal in range(3):  # none waits for a step
        wait_for(lambda: "Perfect play: all 52 positions analysed." in status(browser, deal), 90)
        assert [m.find_element(By.XPATH, "..").get_attribute("id")
                for m in browser.find_elements(By.CSS_SELECTOR, f"#deal-{deal} .tricks .mark.costly")] == [
            f"deal-{deal}-event-4"]
    assert len(requests(browser)) == 3  # one request a deal
    body = browser.find_element(By.TAG_NAME, "body")
    go(browser, 3)  # deal 1: the reader steps it...
    before = [step_bar(browser, d) for d in range(3)]
    body.send_keys(Keys.ARROW_RIGHT)
    assert step_bar(browser, 0).startswith("Event 5 of ") and step_bar(browser, 2) == before[2]
    # ...then scrolls to deal 3: the keys step deal 3, not deal 1.
    browser.execute_script("document.getElementById('deal-2').scrollIntoView({block: 'start'});")
    body.send_keys(Keys.HOME)
    body.send_keys(Keys.ARROW_RIGHT)
    assert step_bar(browser, 2).startswith("Event 1 of ") and step_bar(browser, 0).startswith("Event 5 of ")
    assert step_bar(browser, 1) == before[1]


def step_bar(browser, deal):
    return browser.find_element(By.CSS_SELECTOR, f"#deal-{deal} .position").text


@AT_WIDTHS
def test_a_private_tournaments_match_page_opened_with_the_key_is_analysed_and_titled(served, browser, width):
    """Its 404 page, the key form, swaps the match in: analysis.js starts on it, the tab takes its title."""
    base, _ = served
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "seven-courts", "public": False})
    live = dict(RECORD["deals"][0], events=RECORD["deals"][0]["events"][:6])
    m, _ = api(base, "POST", "/v1/matches", {"tournament": t["id"], "external_id": "table-1",
                                             "record": {"deals": [live]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}")
    assert browser.title.startswith("Not found")
    browser.find_element(By.ID, "key").send_keys(t["read_key"])
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand .card"))
    assert browser.title.startswith("Match table-1")  # the swapped-in page's title
    marks = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .slot .mark.costly"), 60)
    assert marks[0].text == "costly: 1 trick; best was A♠"
    wait_for(lambda: status(browser).startswith("Perfect play: all 7 positions analysed."), 60)  # events 0 to 6


def test_a_settled_claim_the_referees_plays_are_no_positions(served, browser):
    base, app = served
    app.config["ANALYSIS_DEAL_MAX_NODES"] = 20_000  # the late positions; the early ones past it
    paste(browser, base, json.dumps(claimed_endgame()))
    text = wait_for(lambda: "past the search limit" in status(browser) and status(browser), 60)
    # 40 positions: every event's but the court's (no seat to play until play goes on), the
    # claim's answer and the referee's plays of the settled claim.
    assert " of 40 positions analysed; " in text and "cannot" not in text
    assert len(requests(browser)) == 1


def test_while_every_search_slot_is_taken_the_page_says_so_and_asks_again_when_told(served, browser):
    base, app = served
    slots = app.extensions["referee.slots"]
    slots.seconds = 2  # the Retry-After the server gives: a held search stops within 2 s (30 by default)
    held = slots.take()  # another request's search
    try:
        paste(browser, base, json.dumps(RECORD))
        text = wait_for(lambda: "busy" in status(browser) and status(browser), 30)
        assert text.startswith("Perfect play: the referee is busy with other searches; asking again in ")
    finally:
        held.release()
    wait_for(lambda: "Perfect play: all 52 positions analysed." in status(browser), 60)
    assert len(requests(browser)) >= 2  # refused (429), then answered
