"""The deal view as a newcomer meets it, at a desktop's width and a phone's (390 px): where a
verdict opens, the violating card on the table, the ends of the stepper, the step bar's count
through the referee's plays, a reload of a pasted record's moment, the form's size limit, a
stored match's bell and a wrong key on a match page."""
import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser.conftest import SHOTS
from tests.browser.test_pages import api, paste, position, wait_for

EXAMPLES = Path(__file__).parents[2] / "examples"
WIDTHS = [1280, 390]


pytestmark = pytest.mark.parametrize("width", WIDTHS, indirect=True, ids=["desktop", "390px"])


def fits(browser) -> bool:
    return browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def buttons(browser, deal=0):
    return [browser.find_element(By.CSS_SELECTOR, f"#deal-{deal} .{b}").is_enabled() for b in ("prev", "next")]


def test_a_verdict_opens_at_its_first_violation_with_the_card_marked_on_the_table(served, browser, width):
    """examples/revoke.json opens at the revoke (event 2), not at an empty table "ignored after
    the penalty": seat 2's 2♦ is marked on the table, and the step says what it broke."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    assert position(browser).startswith("Event 2 of 12: seat 2 plays 2♦")
    marked = browser.find_element(By.CSS_SELECTOR, "#deal-0 .centre .slot.violating")
    assert marked.find_element(By.CSS_SELECTOR, ".card").text == "2♦" and "revoke" in marked.text
    note = browser.find_element(By.CSS_SELECTOR, "#deal-0 .step-violation")
    assert note.is_displayed() and note.text.startswith("revoke, decides the deal: seat 2 played 2♦ on a heart lead")
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .next").click()  # the trick goes on: the card stays marked
    assert "violating" in browser.find_element(By.CSS_SELECTOR, "#deal-0 .centre .slot2").get_attribute("class")
    assert not browser.find_element(By.CSS_SELECTOR, "#deal-0 .step-violation").is_displayed()
    assert fits(browser)
    browser.save_screenshot(str(SHOTS / f"revoke-opens-at-the-revoke-{width}.png"))


def test_previous_and_next_are_disabled_at_the_ends(served, browser, width):
    base, _ = served
    paste(browser, base, (EXAMPLES / "double-sir.json").read_text())
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert position(browser).startswith("Before event 1") and buttons(browser) == [False, True]
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .next").click()
    assert buttons(browser) == [True, True]
    body.send_keys(Keys.END)
    assert buttons(browser) == [True, False]
    browser.find_element(By.CSS_SELECTOR, "#deal-0 .prev").click()
    assert buttons(browser) == [True, True]


def test_the_step_bar_counts_a_claims_referee_plays_among_the_events(served, browser, width):
    """examples/claim-holds.json: 38 events on record (the claim and its answer last), then
    the referee's 12 plays: "Event 50 of 50" at the end, never past the count."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "claim-holds.json").read_text())
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert position(browser).startswith("Event 50 of 50: the referee plays 5♦ for Dev (seat 3)")
    assert "tricks 7–5" in position(browser)
    seen = set()
    for _ in range(13):
        body.send_keys(Keys.ARROW_LEFT)
        text = position(browser)
        n, of = (int(x) for x in text.split(":")[0].removeprefix("Event ").split(" of "))
        assert n <= of == 50
        seen.add(n)
    assert seen == set(range(37, 50)) and "claims 3 of the remaining tricks" in position(browser)


def test_reloading_a_pasted_records_moment_shows_it_again(served, browser, width):
    """The record is kept in the tab: a reload of /check?deal=1&event=6 judges it again and
    opens the same moment, not an empty form."""
    base, _ = served
    paste(browser, base, (EXAMPLES / "revoke.json").read_text())
    browser.refresh()  # at once: the page again, not a question about sending the form again
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .position"))
    assert position(browser).startswith("Event 2 of 12: seat 2 plays 2♦")
    browser.find_element(By.CSS_SELECTOR, "#deal-0-event-1 .violation").find_element(By.PARTIAL_LINK_TEXT, "at event 6").click()
    assert "/check?deal=1&event=6" in browser.current_url
    browser.refresh()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .position"))
    assert position(browser).startswith("Event 6 of 12: ") and "7♥" in position(browser)
    assert "Result: team 1, penalty court" in browser.find_element(By.ID, "deal-0").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    browser.refresh()  # the moment is where the page is now
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#deal-0 .position"))
    assert position(browser).startswith("Before event 1")


def test_a_new_tab_at_check_has_nothing_kept_and_says_so(served, browser, width):
    base, _ = served
    browser.get(base + "/rules")  # this server's origin: its tab storage
    browser.execute_script("sessionStorage.clear()")
    browser.get(base + "/check?deal=1&event=2")
    note = wait_for(lambda: browser.find_element(By.ID, "again").text)
    assert "keeps no record" in note and browser.find_element(By.ID, "record").get_attribute("value") == ""


def test_a_pasted_record_over_the_forms_limit_is_told_so_and_the_file_upload_takes_it(served, browser, width, tmp_path):
    """500 KB of pasted text at most: a bigger paste is not sent; the page names the limits
    and offers the file, and the same record as a file (up to 1 MiB) is judged."""
    base, _ = served
    big = (EXAMPLES / "revoke.json").read_text() + " " * 600_000  # still the one record, padded
    browser.get(base + "/")
    area = browser.find_element(By.ID, "record")
    browser.execute_script("arguments[0].value = arguments[1];", area, big)
    browser.find_element(By.CSS_SELECTOR, "form.check button[type=submit]").click()
    problem = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "section.problems"))[0].text
    assert "too big for this form" in problem and "500 KB" in problem and "1 MiB" in problem and "file" in problem
    assert "Request Entity Too Large" not in browser.page_source and browser.current_url == base + "/"
    assert len(browser.find_element(By.ID, "record").get_attribute("value")) == len(big)  # the text is kept
    path = tmp_path / "big.json"
    path.write_text(big)
    browser.find_element(By.ID, "file").send_keys(str(path))
    browser.find_element(By.CSS_SELECTOR, "form.check button[type=submit]").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "section.deal"))
    assert "Result: team 1, penalty court" in browser.find_element(By.ID, "deal-0").text
    assert fits(browser)


def _stored(base, name, **options):
    data = json.loads((EXAMPLES / name).read_text())
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": data["preset"], "options": options})
    record = {k: v for k, v in data.items() if k != "preset"}
    m, tag = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": record}, key=t["key"])
    return t, m, tag


def test_a_stored_match_closed_at_the_bell_steps_through_the_referees_plays(served, browser, width):
    """The match page steps as the verdict counts: deal 2 past its 36 recorded events, the
    referee's 12 plays to 5-7, each steppable."""
    base, _ = served
    _, m, _ = _stored(base, "closed-at-the-bell.json", abandoned_deal="perfect_play")
    browser.get(f"{base}/matches/{m['id']}?deal=2&event=48")
    line = lambda: browser.find_element(By.CSS_SELECTOR, "#deal-1 .position").text  # noqa: E731
    wait_for(lambda: line().startswith("Event 48 of 48"))
    assert "the referee plays 5♠ for Chandni (seat 2)" in line() and "tricks 5–7" in line()
    assert buttons(browser, 1) == [True, False]
    browser.find_element(By.CSS_SELECTOR, "#deal-1 .prev").click()
    assert line().startswith("Event 47 of 48: the referee plays 10♥ for Bilal (seat 1)")
    for _ in range(10):
        browser.find_element(By.CSS_SELECTOR, "#deal-1 .prev").click()
    assert line().startswith("Event 37 of 48: the referee plays 7♦ for Dev (seat 3)") and "tricks 4–5" in line()
    browser.find_element(By.CSS_SELECTOR, "#deal-1 .prev").click()
    assert line().startswith("Event 36 of 48: Dev (seat 3) plays")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#deal-1 li.play.referee")) == 12
    assert fits(browser)


def test_a_wrong_key_on_a_match_page_says_so_and_the_page_still_follows_the_match(served, browser, width):
    base, _ = served
    data = json.loads((EXAMPLES / "revoke.json").read_text())
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "court-piece"})
    first = dict(data["deals"][0], events=data["deals"][0]["events"][:2])
    m, tag = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": [first]}}, key=t["key"])
    browser.get(f"{base}/matches/{m['id']}")
    browser.find_element(By.ID, "key").send_keys("rk_not-the-key")
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    wait_for(lambda: "does not open this match" in browser.find_element(By.ID, "key-state").text)
    before = position(browser)
    api(base, "POST", f"/v1/matches/{m['id']}/events", {"events": data["deals"][0]["events"][2:3]}, key=t["key"], etag=tag)
    wait_for(lambda: position(browser) != before)
    assert "Event 3 of 3: seat 3 plays 4♥" in position(browser)
    assert "does not open this match" in browser.find_element(By.ID, "key-state").text  # still said, after the swap


def test_the_referees_plays_cite_the_rules_that_made_them_and_an_abandoned_deal_has_nobody_to_play(served, browser, width):
    """A settled claim's line cites the claim's rules (R-34, R-34a), the bell's line R-32; a
    deal abandoned at the close ends with nobody to play, and says why."""
    base, _ = served
    browser.get("about:blank")  # no page of an earlier test asks for searches meanwhile
    _, bell, _ = _stored(base, "closed-at-the-bell.json", abandoned_deal="perfect_play")
    data = json.loads((EXAMPLES / "closed-at-the-bell.json").read_text())
    t, _ = api(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": data["preset"]})
    abandoned, _ = api(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {  # not finished by the referee
        k: v for k, v in data.items() if k not in ("preset", "options")}}, key=t["key"])
    paste(browser, base, (EXAMPLES / "claim-holds.json").read_text())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    legal = browser.find_element(By.CSS_SELECTOR, "#deal-0 .legal-text")
    assert "the claim is settled by perfect play (rules R-34, R-34a)" in legal.text
    browser.get(f"{base}/matches/{bell['id']}?deal=2&event=48")
    wait_for(lambda: "at the close (rules R-32, R-34)" in browser.find_element(By.CSS_SELECTOR, "#deal-1 .legal-text").text)
    browser.get(f"{base}/matches/{abandoned['id']}?deal=2&event=36")
    wait_for(lambda: "the deal is abandoned" in browser.find_element(By.CSS_SELECTOR, "#deal-1 .legal-text").text)
    assert "rule R-32" in browser.find_element(By.CSS_SELECTOR, "#deal-1 .legal-text").text
    assert browser.find_elements(By.CSS_SELECTOR, "#deal-1 .seat.to-play") == []
    summary = browser.find_element(By.CSS_SELECTOR, "p.summary").text
    assert "with" not in summary or "{" not in summary  # options in words, never as JSON
