"""The adjudicator's pages in a real browser: what a person sees, clicks and types."""
import base64
import json
import re
import time
import zlib
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import SHOTS
from tests.webclient import call

EXAMPLES = Path(__file__).parents[2] / "examples"
RECORDS = Path(__file__).parents[1] / "engine" / "records"


def wait_for(condition, seconds=10.0):
    """`condition()`'s first true value; an element a live page swapped away meanwhile is not yet."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
        except WebDriverException as error:
            if not _swapped(error):
                raise
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def api(base, method, path, body=None, key=None, etag=None):
    status, answer, tag = call(base, method, path, body, key, etag)
    assert status < 300, answer
    return answer, tag


def paste(browser, base, text):
    """The record pasted and sent; returns once its answer's page shows. The landing page has
    a hidden problems paragraph of its own (a moment link's), so what is waited for is the
    form's page left (or a problem it shows in place) and then a deal or problem shown."""
    browser.get(base + "/")
    area = browser.find_element(By.ID, "record")
    browser.execute_script("arguments[0].value = arguments[1];", area, text)
    browser.find_element(By.CSS_SELECTOR, "form.check button[type=submit]").click()
    wait_for(lambda: _left(area) or _shown(browser, "section.problems"))
    wait_for(lambda: _shown(browser, "section.deal, .problems"))


def _left(element) -> bool:
    try:
        element.tag_name
    except WebDriverException as error:
        if not _swapped(error):
            raise
        return True
    return False


def _swapped(error) -> bool:
    """Was the element asked about swapped away? Asked while the page is being replaced,
    chromium may answer "does not belong to the document" where it would say stale."""
    return isinstance(error, StaleElementReferenceException) or "does not belong to the document" in str(error)


def _event_clicked(browser, selector) -> bool:
    """Deal 0's event list opened and its `selector` link clicked, once shown: the page may
    still swap in its answer (a closed list again) between the summary's click and the link's."""
    events = browser.find_element(By.CSS_SELECTOR, "#deal-0 details.events")
    if events.get_attribute("open") is None:
        events.find_element(By.TAG_NAME, "summary").click()
    link = events.find_element(By.CSS_SELECTOR, selector)
    if not link.is_displayed():
        return False
    link.click()
    return True


def _shown(browser, selector):
    return [e for e in browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]


def problems(browser):
    """The record form's problems, once shown: the page may still be swapping in its answer
    (a tab that kept an earlier record shows that record's deal first)."""
    return wait_for(lambda: "\n".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, ".problems")))


def position(browser):
    """The stepper's line; a live page may swap itself in between finding and reading."""
    for _ in range(50):
        try:
            return browser.find_element(By.CSS_SELECTOR, "#deal-0 .position").text
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError("the page kept changing")


def test_the_revoke_is_on_seat_twos_card_with_its_proof_and_rule_and_the_keyboard_steps_to_the_proof(served, browser):
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    play = browser.find_element(By.ID, "deal-0-event-1")
    card = play.find_element(By.CSS_SELECTOR, ".card")
    assert card.get_attribute("aria-label") == "two of diamonds"
    note = play.find_element(By.CSS_SELECTOR, ".violation")
    assert "revoke" in note.text and "decides the deal" in note.text
    assert "later played 7♥ (event 6)" in note.text  # events counted from 1, as the page counts them
    rule_links = [a.get_attribute("href") for a in note.find_elements(By.CSS_SELECTOR, ".rules a")]
    assert any(h.endswith("/rules#trick.follow") for h in rule_links) and any(h.endswith("/rules#R-1") for h in rule_links)
    # Step to the revoke, then with the arrow keys to the play that proved it.
    play.find_element(By.CSS_SELECTOR, "a.event-link").click()
    assert position(browser).startswith("Event 2 of 12: seat 2 plays 2♦")
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(4):
        body.send_keys(Keys.ARROW_RIGHT)
    assert position(browser).startswith("Event 6 of 12: ignored after the penalty: seat 2 plays 7♥")
    assert "deal=1&event=6" in browser.current_url
    body.send_keys(Keys.ARROW_LEFT)
    assert "seat 1 plays 10♥" in position(browser)
    # The rule link opens the rulebook at that rule (waiting for that page, not for the last one).
    browser.get(rule_links[0])
    heading = WebDriverWait(browser, 10).until(expected_conditions.presence_of_element_located((By.ID, "trick.follow")))
    assert heading.text.startswith("trick.follow")


def test_a_step_of_a_record_with_hands_shows_the_hands_and_the_legal_cards(served, browser):
    base, _ = served
    record = json.loads((RECORDS / "revoke-with-hands.json").read_text())["record"]
    paste(browser, base, json.dumps(record))
    first = browser.find_element(By.CSS_SELECTOR, "#deal-0 .prev")
    for _ in range(60):
        first.click()
    assert position(browser).startswith("Before event 1: the cards are dealt")
    legal_text = browser.find_element(By.CSS_SELECTOR, "#deal-0 .legal-text").text
    caller = record["deals"][0]["dealer"] + 1
    assert legal_text.startswith(f"seat {caller % 4} to play: may play")
    assert re.search(r"\b[2-9TJQKA][SHDC]\b", legal_text) is None and "♠" in legal_text  # cards by face, as people read them
    marked = browser.find_elements(By.CSS_SELECTOR, f"#deal-0 .seat{caller % 4} .card.legal")
    assert len(marked) == 13  # on the lead every card is legal
    hands = browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand .card")
    assert len(hands) == 52


def test_a_malformed_record_shows_the_api_errors_next_to_the_text(served, browser):
    base, _ = served
    paste(browser, base, '{"preset": "court-piece", "deals": [{"dealer": 5}]}')
    shown = problems(browser)
    assert "/deals/0/dealer" in shown and "must be a seat 0..3" in shown
    assert "dealer\": 5" in browser.find_element(By.ID, "record").get_attribute("value")


def test_a_live_match_updates_itself_and_hides_the_hands_from_a_reader_without_the_key(served, browser):
    base, _ = served
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "court-piece"})
    record = json.loads((RECORDS / "revoke-with-hands.json").read_text())["record"]
    first = dict(record["deals"][0], events=record["deals"][0]["events"][:2])
    m, etag = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": [first]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}")
    hands = browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand")
    assert hands and all(h.text == "(hand hidden until the deal ends)" for h in hands)
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand .card") == []
    assert "may play" not in browser.find_element(By.CSS_SELECTOR, "#deal-0 .legal-text").text
    before = position(browser)
    nxt = record["deals"][0]["events"][2]
    api(base, "POST", f"/v1/matches/{m['id']}/events", {"events": [nxt]}, key=t["key"], etag=etag)
    wait_for(lambda: position(browser) != before)
    assert f"seat {nxt['seat']} plays {nxt['play'][0]}{'♠♥♦♣'['SHDC'.index(nxt['play'][1])]}" in position(browser)
    # With the key (typed into the page, never into the address) the hands appear.
    browser.find_element(By.ID, "key").send_keys(t["key"])
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .hand .card"))
    assert t["key"] not in browser.current_url


def test_the_rulebook_page_has_an_anchor_per_rule(served, browser):
    base, app = served
    browser.get(base + "/rules#R-23")
    heading = browser.find_element(By.ID, "R-23")
    assert "Band reveals" in heading.text
    from referee.engine import catalogue

    ids = browser.execute_script("return Array.from(document.querySelectorAll('h3[id]')).map(h => h.id)")
    assert ids == list(catalogue())


def test_a_moment_of_a_stored_match_has_its_own_address_and_printing_gives_the_report(served, browser):
    base, _ = served
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "court-piece"})
    record = json.loads((EXAMPLES / "revoke.json").read_text())
    m, _ = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": record["deals"]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}?deal=1&event=6")
    assert "Event 6 of 12" in position(browser) and "seat 2 plays 7♥" in position(browser)  # the proof, from the link alone
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not browser.find_element(By.CSS_SELECTOR, "#deal-0 .controls").is_displayed()
        assert not browser.find_element(By.CSS_SELECTOR, "header.site").is_displayed()
        # a moment's page prints as the ruling on its deal: the decision with its rules, on one page
        assert not browser.find_element(By.ID, "deal-0").is_displayed()
        report = browser.find_element(By.ID, "ruling").text
        assert "revoke" in report and "Decision: team 1, penalty court" in report and "R-1" in report
        browser.save_screenshot(str(SHOTS / "print-report.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_a_big_records_deals_open_one_at_a_time_each_steppable(served, browser):
    """A record of more deals than the page holds at once: the first deal whole, every other
    deal's decision, and opening a deal fetches its tricks and steps; an event link of a deal
    not opened yet opens it."""
    base, app = served
    browser.get("about:blank")  # a live page of an earlier test may still poll its server, now gone
    browser.get_log("browser")
    app.config["PAGE_INLINE_DEALS"] = 2
    record = json.loads((RECORDS / "seven-deals-in-a-row.json").read_text())["record"]
    paste(browser, base, json.dumps(record))
    assert len(browser.find_elements(By.CSS_SELECTOR, "section.deal")) == len(record["deals"])
    assert len(browser.find_elements(By.CSS_SELECTOR, "script.steps")) == 1  # the first deal's, in the page
    assert position(browser).startswith("Event ")
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-5 .stepper") == []
    browser.find_element(By.CSS_SELECTOR, "#deal-5 details.deal-more summary").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-5 .stepper .position"))
    browser.find_element(By.CSS_SELECTOR, "#deal-5 button.prev").click()
    line = browser.find_element(By.CSS_SELECTOR, "#deal-5 .position").text
    assert line.startswith("Event ") and "deal=6&event=" in browser.current_url
    # An event link of the seventh deal, not open yet, opens it at that event.
    browser.find_element(By.CSS_SELECTOR, "#deal-6 details.deal-more summary").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-6 a.event-link"))
    browser.find_element(By.CSS_SELECTOR, "#deal-6-event-2 a.event-link").click()
    assert "deal=7&event=3" in browser.current_url
    assert wait_for(lambda: "Event 3 of" in browser.find_element(By.CSS_SELECTOR, "#deal-6 .position").text)


def test_at_the_fourth_card_the_table_marks_the_winner_and_the_step_bar_says_who_collects(served, browser):
    """examples/revoke.json, trick 1: at its fourth card (event 3) seat 1's A♥ has won it."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-3 a.event-link").click()
    line = position(browser)
    assert "seat 1 wins the trick with A♥, team 1 collects 1 trick" in line and "tricks 0–1" in line
    winner = browser.find_element(By.CSS_SELECTOR, "#deal-0 .centre .slot.wins")
    assert winner.find_element(By.CSS_SELECTOR, ".card").text == "A♥" and "wins" in winner.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .slot")) == 4


def test_a_pile_games_step_bar_shows_the_pile(served, browser):
    """examples/double-sir.json: tricks 1 and 2 go to the pile until a pair collects."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "double-sir.json").read_text())
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-3 a.event-link").click()
    line = position(browser)
    assert "pile 1" in line and "to the pile" in line
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert "tricks 13–0" in position(browser) and "pile 0" in position(browser)
    body.send_keys(Keys.HOME)
    assert position(browser).startswith("Before event 1")


def test_after_the_revoke_penalty_the_events_are_greyed_as_ignored_and_off_the_table(served, browser):
    """examples/revoke.json: the revoke of trick 1 decides the deal; the events after it (R-11)."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    line = position(browser)
    assert "ignored after the penalty" in line and "tricks 0–1" in line and "trick 1 " in line + " "
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .slot") == []
    assert "ignored" in browser.find_element(By.CSS_SELECTOR, "#deal-0 .stepper").get_attribute("class")
    legal = browser.find_element(By.CSS_SELECTOR, "#deal-0 .legal-text")
    assert "Ignored" in legal.text and legal.find_element(By.TAG_NAME, "a").get_attribute("href").endswith("/rules#R-11")
    browser.find_element(By.CSS_SELECTOR, "#deal-0 details.events summary").click()
    greyed = browser.find_elements(By.CSS_SELECTOR, "#deal-0 details.events li.ignored")
    assert len(greyed) == 8 and all("R-11" in li.text for li in greyed)


def test_the_hands_on_the_table_are_sorted_by_suit_then_rank(served, browser):
    base, _ = served
    record = json.loads((RECORDS / "revoke-with-hands.json").read_text())["record"]
    paste(browser, base, json.dumps(record))
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    cards = [c.get_attribute("data-card") for c in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .seat0 .hand .card")]
    assert len(cards) == 13
    assert cards == sorted(cards, key=lambda c: ("SHCD".index(c[1]), "AKQJT98765432".index(c[0])))


def test_a_claims_line_steps_like_played_cards_marked_as_the_referees(served, browser):
    """Seat 0 claims 3 with AS KS QH, which perfect play holds to 2 (R-34): the claim at its
    moment, then the referee's twelve plays, each step and card marked as the referee's."""
    from tests.solver.claim_deals import endgame

    hands, events = endgame(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], [1, 1, 1, 0, 0, 0, 0, 3, 2, 0])
    events += [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    base, _ = served
    paste(browser, base, json.dumps({"preset": "seven-courts", "deals": [
        {"dealer": 0, "hands": hands, "trump": {"suit": "S"}, "events": events}]}))
    claim = browser.find_element(By.CSS_SELECTOR, "#deal-0 div.claim")
    assert "did not hold" in claim.text and "awarded 2" in claim.text and "R-34" in claim.text
    wait_for(lambda: _event_clicked(browser, "li.claim a"))
    assert "claims 3 of the remaining tricks" in position(browser)
    stepper = browser.find_element(By.CSS_SELECTOR, "#deal-0 .stepper")
    assert "referee" not in stepper.get_attribute("class").split()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert "the referee plays" in position(browser) and "tricks 8–5" in position(browser)
    assert "referee" in stepper.get_attribute("class").split()
    legal = browser.find_element(By.CSS_SELECTOR, "#deal-0 .legal-text")
    assert "Played by the referee" in legal.text
    assert legal.find_element(By.TAG_NAME, "a").get_attribute("href").endswith("/rules#R-34")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#deal-0 .centre .slot.referee")) == 4
    assert len(browser.find_elements(By.CSS_SELECTOR, "#deal-0 li.play.referee")) == 12
    browser.save_screenshot(str(SHOTS / "claim-line.png"))


def test_the_message_the_step_bar_and_the_address_count_deals_and_events_alike(served, browser):
    """The revoke's proof is "event 6" in its message, in its link, on the step bar and in the address."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    assert browser.find_element(By.ID, "deal-0-title").text == "Deal 1"
    note = browser.find_element(By.CSS_SELECTOR, "#deal-0-event-1 .violation")
    assert "played 2♦ on a heart lead and later played 7♥ (event 6)" in note.text
    proof = note.find_element(By.PARTIAL_LINK_TEXT, "at event 6")
    assert proof.get_attribute("href").endswith("?deal=1&event=6")
    proof.click()
    assert position(browser).startswith("Event 6 of 12: ") and "7♥" in position(browser)
    assert "deal=1&event=6" in browser.current_url


def test_a_pasted_records_moment_link_carries_the_record_and_opens_that_moment_anywhere(served, browser):
    """The link holds the record itself, compressed in its fragment: a fresh tab with no
    history opens the same verdict at the same moment."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-1 .violation").find_element(By.PARTIAL_LINK_TEXT, "at event 6").click()
    link = wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#deal-0 .permalink").get_attribute("href")
                    if "&r=" in (browser.find_element(By.CSS_SELECTOR, "#deal-0 .permalink").get_attribute("href") or "")
                    else None)
    assert link.startswith(base + "/check#deal=1&event=6&r=") and "7H" not in link  # packed, not spelled out
    browser.get("about:blank")
    browser.delete_all_cookies()
    browser.get(link)
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .position"))
    assert position(browser).startswith("Event 6 of 12: ") and "7♥" in position(browser)
    assert "Result: team 1, penalty court" in browser.find_element(By.ID, "deal-0").text


def _link(base: str, text: bytes) -> str:
    packed = base64.urlsafe_b64encode(zlib.compress(text, 9)).decode().rstrip("=")
    return f"{base}/check#deal=1&event=1&r={packed}"


def test_a_moment_link_that_unpacks_past_the_body_limit_is_refused_and_the_tab_lives(served, browser):
    """A 100 KiB link that unpacks to 100 MiB (it crashed the tab): the page unpacks it as a
    stream, stops past 1 MiB (the API's body limit) and says so; the form is still there
    and the tab still works (a link that is cut says that instead)."""
    base, _ = served
    bomb = _link(base, b" " * (100 * 2**20))
    assert len(bomb) < 200_000
    browser.get("about:blank")
    browser.get(bomb)
    said = wait_for(lambda: browser.find_element(By.ID, "link-problem").text or None)
    assert "more than 1 MiB unpacked" in said and "not opened" in said
    assert browser.find_element(By.ID, "record").get_attribute("value") == ""
    assert browser.execute_script("return 6 * 7") == 42  # the tab lives
    browser.get("about:blank")
    browser.get(_link(base, (EXAMPLES / "revoke.json").read_bytes())[:-40])  # cut short
    said = wait_for(lambda: browser.find_element(By.ID, "link-problem").text or None)
    assert "could not be unpacked" in said


def test_a_phone_sized_window_has_no_horizontal_scrolling_and_the_print_view_still_works(served, browser):
    """390 px wide: the header, the table's seat boxes and "(hand not in the record)" fit."""
    base, _ = served
    record = json.loads((RECORDS / "revoke-with-hands.json").read_text())["record"]
    browser.set_window_size(390, 900)
    try:
        for width in (360, 390, 430):
            browser.set_window_size(width, 900)
            for text in ((EXAMPLES / "revoke.json").read_text(), json.dumps(record)):
                paste(browser, base, text)
                browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
                sizes = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
                assert sizes[0] <= sizes[1], (width, sizes)
                link = browser.find_element(By.CSS_SELECTOR, "header.site nav a:last-child")
                assert link.text == "API (openapi.yaml)" and link.rect["x"] + link.rect["width"] <= sizes[1]
                for seat in browser.find_elements(By.CSS_SELECTOR, "#deal-0 .seat"):
                    assert seat.rect["x"] >= 0 and seat.rect["x"] + seat.rect["width"] <= sizes[1]
        note = browser.find_element(By.CSS_SELECTOR, "#deal-0 .seat1 .hand")
        paste(browser, base, (EXAMPLES / "revoke.json").read_text())
        note = browser.find_element(By.CSS_SELECTOR, "#deal-0 .seat1 .hand")
        assert note.text == "(hand not in the record)" and note.rect["height"] < 3 * 24  # two lines at most
        browser.save_screenshot(str(SHOTS / "phone-390.png"))
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            assert not browser.find_element(By.CSS_SELECTOR, "#deal-0 .stepper").is_displayed()
            report = browser.find_element(By.ID, "deal-0").text
            assert "Result: team 1, penalty court" in report and "revoke" in report
            sizes = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert sizes[0] <= sizes[1]
        finally:
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    finally:
        browser.set_window_size(1280, 1600)


def test_the_rulebook_has_contents_and_finds_a_rule_as_you_type(served, browser):
    base, _ = served
    browser.get(f"{base}/rules")
    contents = browser.find_element(By.ID, "contents")
    assert "2. Playing a trick" in contents.text and "13. Perfect play" in contents.text
    assert contents.find_element(By.PARTIAL_LINK_TEXT, "Playing a trick").get_attribute("href").endswith("#section-2")
    query = browser.find_element(By.ID, "rule-query")
    query.send_keys("revoke penalty")
    hits = wait_for(lambda: [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#rule-hits a")])
    assert any(h.endswith("#revoke.penalty") for h in hits)
    assert "rule" in browser.find_element(By.ID, "rule-hits-state").text
    query.clear()
    query.send_keys("zzzz nothing like this")
    wait_for(lambda: "No rule has these words." in browser.find_element(By.ID, "rule-hits-state").text)
    query.clear()
    query.send_keys("R-34a")
    query.submit()
    wait_for(lambda: browser.current_url.endswith("#R-34a"))
