"""Writes to different matches of one tournament do not queue behind each other on
PostgreSQL longer than the feed's numbering needs: a write holds its match's row lock, and
the tournament's only from numbering its feed events to its commit."""
import threading

import pytest

from referee.store import writes
from tests.helpers import done_while_held, ev

PLAYERS = ["A", "B", "C", "D"]


def test_a_write_to_another_match_is_stored_while_one_is_held_before_its_feed(store, db_url, monkeypatch):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serialises every writing transaction (BEGIN IMMEDIATE)")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    views = []
    for _ in range(2):
        view, _ = store.create_match(t.id, key, {"players": PLAYERS}, None)
        views.append(store.add_deal(view.match.id, key, view.etag, {"dealer": 0, "trump": {"suit": "S"}}))
    inside, release = threading.Event(), threading.Event()
    add_revision = writes.add_revision

    def held(*args, **kwargs):
        if threading.current_thread().name == "held":
            inside.set()
            release.wait(30)
        return add_revision(*args, **kwargs)

    monkeypatch.setattr(writes, "add_revision", held)
    first = views[0]
    slow = threading.Thread(target=store.append_events, name="held",
                            args=(first.match.id, key, first.etag, ev("1:AH 2:3H 3:4H 0:5H")))
    slow.start()
    assert inside.wait(30)
    stored_meanwhile = done_while_held(slow, release, lambda: store.append_events(
        views[1].match.id, key, views[1].etag, ev("1:AH 2:3H 3:4H 0:5H")))
    assert stored_meanwhile, "the other match's write waited for the held one"
    events = store.feed(t.id, key, 0, 100)["events"]
    # numbered in commit order: the other match's trick first, then the held one's
    assert [(e["type"], e["match"]) for e in events] == [("trick.finished", views[1].match.id),
                                                         ("trick.finished", first.match.id)]
    assert [e["seq"] for e in events] == [1, 2]
