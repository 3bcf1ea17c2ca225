"""The feed's trick ledger: a completed trick is announced once by trick.finished; a later
change to it (a take-back after its fourth card, a correction, a penalty that ends the deal
before it) is a trick.revised that says what it was and what it is now (`now` null: no
longer a completed trick that counts), so folding the feed gives the verdicts' tricks."""
import json
import re

from tests.helpers import ev

PLAYERS = ["A", "B", "C", "D"]


def tricks_of(store, tid, key):
    return [e for e in store.feed(tid, key, 0, 1000)["events"] if e["type"].startswith("trick.")]


def live(store, preset="court-piece", trump=None):
    t, key, _ = store.create_tournament("t", preset, {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": []}, None)
    view = store.add_deal(view.match.id, key, view.etag, {"dealer": 0, "trump": trump or {"suit": "S"}})
    return t, key, view


def test_a_trick_is_announced_at_its_fourth_card_with_its_winner_collection_and_pile(store):
    t, key, view = live(store)
    view = store.append_events(view.match.id, key, view.etag, ev("1:TH 2:2H 3:4H"))
    assert tricks_of(store, t.id, key) == []  # an open trick is not news
    view = store.append_events(view.match.id, key, view.etag, ev("0:5H"))
    [event] = tricks_of(store, t.id, key)
    assert event["type"] == "trick.finished" and event["match"] == view.match.id
    assert event["payload"] == {"match": view.match.id, "deal": 0, "trick": 1, "leader": 1, "winner": 1,
                                "winning_team": 1, "collected_by": 1, "collected": 1, "pile": 0}
    store.append_events(view.match.id, key, view.etag, ev("1:2D"))
    assert len(tricks_of(store, t.id, key)) == 1  # announced once


def test_a_take_back_of_the_fourth_card_reopens_the_trick_and_its_new_winner_revises_it(store):
    t, key, view = live(store)
    view = store.append_events(view.match.id, key, view.etag, ev("1:TH 2:2H 3:4H 0:5S"))  # trumped: a show-out
    view = store.append_events(view.match.id, key, view.etag, ev("0:<"))  # corrected in time
    view = store.append_events(view.match.id, key, view.etag, ev("0:KH"))
    finished, reopened, again = tricks_of(store, t.id, key)
    assert [e["type"] for e in (finished, reopened, again)] == ["trick.finished", "trick.revised", "trick.revised"]
    assert finished["payload"]["winner"] == 0  # 5S trumped
    assert reopened["payload"]["previous"] == {k: v for k, v in finished["payload"].items() if k != "match"}
    assert reopened["payload"]["now"] is None
    assert reopened["payload"]["why"] == "take_back" and reopened["payload"]["trick"] == 1
    assert again["payload"]["previous"] is None
    assert again["payload"]["now"]["winner"] == 0 and again["payload"]["now"]["collected_by"] == 0
    assert again["payload"]["revision"] == view.match.revision


def test_a_correction_revises_the_trick_it_changes(store):
    t, key, view = live(store)
    view = store.append_events(view.match.id, key, view.etag, ev("1:TH 2:2H 3:4H 0:5H 1:2C"))
    view = store.revise(view.match.id, key, view.etag, {"deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "events": ev("1:TH 2:2H 3:4H 0:5S 0:2C")}]}, "seat 0 trumped")
    [_, revised] = tricks_of(store, t.id, key)
    p = revised["payload"]
    assert revised["type"] == "trick.revised" and p["why"] == "correction"
    assert (p["previous"]["winner"], p["now"]["winner"], p["now"]["winning_team"]) == (1, 0, 0)


def test_a_penalty_proven_later_withdraws_the_tricks_after_the_penalty_trick(store):
    """R-11: the tricks stop at the penalty trick; trick 2 was announced, so it is revised away."""
    t, key, view = live(store)
    view = store.append_events(view.match.id, key, view.etag, ev("1:AH 2:2D 3:4H 0:5H 1:TH 2:3C 3:8H 0:9H"))
    assert [e["payload"]["trick"] for e in tricks_of(store, t.id, key)] == [1, 2]
    store.append_events(view.match.id, key, view.etag, ev("1:QH 2:7H"))  # seat 2 held a heart: a revoke
    events = tricks_of(store, t.id, key)
    assert [(e["type"], e["payload"]["trick"]) for e in events] == [
        ("trick.finished", 1), ("trick.finished", 2), ("trick.revised", 2)]
    assert events[-1]["payload"]["now"] is None and events[-1]["payload"]["previous"]["winner"] == 1


def test_a_trick_event_names_no_card_so_a_correction_cannot_leave_an_unseen_card_in_the_ledger(store):
    """R-31: trick 1 of a live hidden-trump deal was won by 3S after a reveal; a correction
    takes the reveal and the 3S away. The ledger keeps what it said, so it never said 3S."""
    t, key, view = live(store, "rr-hidden-rung", {"hidden": "4S"})
    view = store.append_events(view.match.id, key, view.etag, ev("1:AH 2:KH 3:? 3:3S 0:2H"))
    store.revise(view.match.id, key, view.etag, {"deals": [
        {"dealer": 0, "trump": {"hidden": "4S"}, "events": ev("1:AH 2:KH 3:3D 0:2H")}]}, "typo")
    finished, revised = tricks_of(store, t.id, key)
    assert (finished["payload"]["winner"], revised["payload"]["now"]["winner"]) == (3, 1)
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b", json.dumps([finished, revised]))
