"""The feed: events written with their change, in commit order, resumable by cursor."""
import threading

import pytest

from referee.store.errors import Conflict
from tests.helpers import ev, round_robin_hands, untricked, won_by

PLAYERS = ["A", "B", "C", "D"]


def all_events(store, tid, key):
    return untricked(store.feed(tid, key, 0, 1000)["events"])


def test_live_play_publishes_deals_violations_and_the_match_end(store):
    t, key, _ = store.create_tournament("t", "rr-single-sir", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": []}, None)
    hands = round_robin_hands()
    view = store.add_deal(view.match.id, key, view.etag, {"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": []})
    view = store.append_events(view.match.id, key, view.etag, ev("1:AH 2:2D 3:4H"))
    assert all_events(store, t.id, key) == []  # a pending revoke in an open trick is not news yet
    view = store.append_events(view.match.id, key, view.etag, ev("0:5H 1:TH"))
    events = all_events(store, t.id, key)
    assert [e["type"] for e in events] == ["deal.finished", "violation.found"]
    assert events[0]["payload"]["result"]["kind"] == "penalty_court"
    assert events[1]["payload"]["violation"]["code"] == "revoke" and events[1]["payload"]["deal"] == 0
    assert [e["seq"] for e in events] == [2, 3] and all(e["time"].endswith("Z") for e in events)  # after trick 1's trick.finished
    assert all(e["tournament"] == t.id and e["match"] == view.match.id for e in events)
    # Finish the match: three callers' courts more (3 points each) reach 10+.
    for dealer, winners in ((2, [3] * 7), (0, [1] * 7), (2, [3] * 7)):
        view = store.add_deal(view.match.id, key, view.etag, won_by(dealer, winners))
    types = [e["type"] for e in all_events(store, t.id, key)]
    assert types[-3:] == ["deal.finished", "match.finished", "standings.changed"]
    last = all_events(store, t.id, key)[-1]["payload"]
    assert [r["team"] for r in last["rows"]] == [["B", "D"], ["A", "C"]]  # both teams new: every row
    assert last["rows"][0]["won"] == 1 and last["rows"][0]["rank"] == 1 and last["rows"][1]["lost"] == 1
    assert last["removed"] == [] and last["moved"] == [] and last["teams"] == 2


def test_a_refused_write_publishes_nothing(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 6)]}, None)
    with pytest.raises(Conflict):
        store.append_events(view.match.id, key, view.etag, ev("3:AS"))
    assert all_events(store, t.id, key) == []


def test_payloads_never_show_unplayed_cards_or_a_hidden_trump(store):
    t, key, _ = store.create_tournament("t", "rr-hidden-rung", {}, True)
    hands = round_robin_hands()
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [
        {"dealer": 0, "trump": {"hidden": "7S"}, "hands": hands, "events": ev("1:7S")}]}, None)
    # The caller played the hidden card (a violation proven by the hand) in an open trick.
    assert all_events(store, t.id, key) == []
    store.append_events(view.match.id, key, view.etag, ev("2:4S 3:5S 0:6S 1:AH"))
    events = all_events(store, t.id, key)
    assert [e["type"] for e in events] == ["deal.finished", "violation.found"]
    assert events[1]["payload"]["violation"]["code"] == "hidden_card_played"


def test_revisions_are_published(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 3)]}, None)
    store.revise(view.match.id, key, view.etag, {"players": PLAYERS, "deals": [won_by(0, [1] * 2)]}, "typo")
    assert [e["type"] for e in all_events(store, t.id, key)] == ["match.revised"]


def test_the_cursor_resumes_without_skips_or_repeats(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    for _ in range(5):
        store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, None)
    seen, cursor = [], 0
    while True:
        page = store.feed(t.id, key, cursor, 2)
        if not page["events"]:
            break
        seen += [e["seq"] for e in page["events"]]
        cursor = int(page["next_cursor"])
    assert seen == list(range(1, 5 * 8 + 1))  # five matches: seven trick.finished and a deal.finished each


def test_a_reader_resuming_during_concurrent_writes_sees_every_event_exactly_once(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    matches = [store.create_match(t.id, key, {"players": PLAYERS, "deals": []}, None)[0] for _ in range(3)]
    done = threading.Event()
    seen: list[int] = []

    def writer(view, dealer):
        for _ in range(6):
            view = store.add_deal(view.match.id, key, view.etag, won_by(0, [1, 3, 0, 2, 1, 3, 0, 2, 1, 3, 1]))

    def reader():
        cursor = 0
        while True:
            finished = done.is_set()
            page = store.feed(t.id, key, cursor, 3)
            seen.extend(e["seq"] for e in page["events"])
            cursor = int(page["next_cursor"])
            if finished and not page["events"]:
                return

    threads = [threading.Thread(target=writer, args=(m, i)) for i, m in enumerate(matches)]
    r = threading.Thread(target=reader)
    r.start()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    done.set()
    r.join()
    total = len(store.feed(t.id, key, 0, 1000)["events"])
    assert total == 3 * 6 * (11 + 1)  # each deal: eleven trick.finished, then its deal.finished
    assert seen == list(range(1, total + 1))
