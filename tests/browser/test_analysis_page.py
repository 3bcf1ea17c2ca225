"""Perfect play on the verdict page: fetched after the page shows, each legal card's value
beside it, the costly play marked on its card with its cost; a deal in play only with the key."""
import json
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.browser.test_pages import api, paste, position, wait_for
from tests.solver.test_review import random_deal

RECORD = json.loads((Path(__file__).parents[1] / "solver" / "records" / "one-costly-play.json").read_text())
# Trick 2 (event 4): seat 0 (Asad) leads the 2S; the AS would have dropped Bilal's lone KS, so
# seat 0's side would take all 11 tricks left, not 10: that play cost 1 trick.


def values(browser, seat):
    """{card: (value, class)} beside seat's cards in the stepper."""
    out = {}
    for card in browser.find_elements(By.CSS_SELECTOR, f"#deal-0 .seat{seat} .hand .card[data-card]"):
        badge = card.find_elements(By.XPATH, "following-sibling::*[1][contains(@class, 'card-value')]")
        if badge:
            out[card.get_attribute("data-card")] = (badge[0].text, badge[0].get_attribute("class"))
    return out


def status(browser):
    found = browser.find_elements(By.CSS_SELECTOR, "#deal-0 .analysis-status")
    return found[0].text if found else ""


def costly(browser):
    return [(el.find_element(By.XPATH, "..").get_attribute("id"), el.text)
            for el in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .mark.costly")]


def test_the_check_page_shows_each_cards_value_and_marks_the_costly_play(served, browser):
    base, _ = served
    paste(browser, base, json.dumps(RECORD))
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .tricks .play")  # the page is there at once
    wait_for(lambda: "Perfect play analysed (52 positions)" in status(browser), 60)
    assert costly(browser) == [("deal-0-event-4", "costly: 1 trick")]
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-5 a.event-link").click()  # the 2S on the table
    assert [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .mark.costly")] == ["costly: 1 trick"]
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-3 a.event-link").click()  # before the lead of trick 2
    assert "plays 9♠" in position(browser)
    shown = wait_for(lambda: values(browser, 0))
    assert shown["AS"] == ("11", "card-value best") and shown["2S"] == ("10", "card-value worse")
    assert len(shown) == 12 and all(v == "10" for c, (v, _) in shown.items() if c != "AS")
    assert values(browser, 1) == {}  # only the seat to play
    assert "best 11" in status(browser)


def test_a_stored_match_a_finished_deal_for_anyone_a_deal_in_play_with_the_key(served, browser):
    base, _ = served
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "seven-courts"})
    m, _ = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": RECORD["deals"]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}?deal=1&event=4")  # the fourth event of the first deal
    wait_for(lambda: values(browser, 0).get("AS") == ("11", "card-value best"), 30)
    wait_for(lambda: costly(browser) == [("deal-0-event-4", "costly: 1 trick")], 60)

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
    assert marks[0].text == "costly: 1 trick" and slot.find_element(By.CSS_SELECTOR, ".card").get_attribute("data-card") == "2S"


def test_the_page_shows_before_the_analysis_which_says_it_is_under_way(served, browser):
    browser.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        paste(browser, served[0], json.dumps(RECORD))
        assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .tricks .play")
        assert wait_for(lambda: "Analysing\u2026" in status(browser) and "of 52 positions" in status(browser))
        assert "analysis-status busy" == browser.find_element(By.CSS_SELECTOR, "#deal-0 .analysis-status").get_attribute("class")
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
    wait_for(lambda: "Perfect play analysed" in status(browser), 60)


def test_a_position_past_the_search_limit_says_so(served, browser):
    base, app = served
    app.config["ANALYSIS_MAX_NODES"] = 1000
    record = random_deal(5, 52)
    paste(browser, base, json.dumps(record))
    wait_for(lambda: "Perfect play analysed" in status(browser), 60)
    assert "past the search limit" in status(browser)
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-0 a.event-link").click()
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .prev").click()  # the first lead: too deep for 1000 nodes
    assert position(browser).startswith("Before event 1")
    # The first lead was not asked for before (deeper than a position past the limit): it is now,
    # and the page says "analysing" until its answer, the limit, comes back.
    wait_for(lambda: "This position is too deep to analyse within the search limit." in status(browser), 30)
    assert values(browser, record["deals"][0]["events"][0]["seat"]) == {}
    # Once a position was past the limit, the deeper ones before it were not asked for
    # (the first lead was, when the reader went to it).
    asked = browser.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/v1/analysis')).length")
    assert asked < 52


def test_a_second_deal_is_analysed_when_the_reader_steps_through_it(served, browser):
    base, _ = served
    record = dict(RECORD, deals=[RECORD["deals"][0], RECORD["deals"][0]])  # deal 1: a wrong dealer, still a deal
    paste(browser, base, json.dumps(record))
    wait_for(lambda: "Perfect play analysed (52 positions)" in status(browser), 60)
    second = browser.find_element(By.CSS_SELECTOR, "#deal-1 .analysis-status")
    assert second.text.startswith("Perfect play: step through the deal to analyse all of it.")
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-1 .mark.costly") == []
    browser.find_element(By.CSS_SELECTOR, "#deal-1 .prev").click()
    wait_for(lambda: "Perfect play analysed (52 positions)" in second.text, 60)
    assert [m.find_element(By.XPATH, "..").get_attribute("id")
            for m in browser.find_elements(By.CSS_SELECTOR, "#deal-1 .tricks .mark.costly")] == ["deal-1-event-4"]
