"""Writes to different matches of one tournament do not queue behind each other longer than
the feed's numbering needs: on PostgreSQL a write holds its match's row lock, and the
tournament's only from numbering its feed events to its commit; on SQLite a live write is
read and judged without the database's one write lock, taken only to store it, where the
match is checked to be as read (a write to it meanwhile: read and judged again)."""
import threading

import pytest

from referee.store import matches, writes
from referee.store.errors import Forbidden, PreconditionFailed
from tests.helpers import done_while_held, ev

PLAYERS = ["A", "B", "C", "D"]


def test_a_write_to_another_match_is_stored_while_one_is_held_before_its_feed(store, monkeypatch):
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


def held_at_its_revision(monkeypatch, reads: list):
    """writes.add_revision held in the thread named "held" (SQLite: after the write was read
    and judged, before its write lock; PostgreSQL: under its match's row lock), and the
    thread's reads of its match's row counted in `reads`."""
    inside, release = threading.Event(), threading.Event()
    add_revision, live_rows_in = writes.add_revision, matches.live_rows_in

    def held(*args, **kwargs):
        if threading.current_thread().name == "held":
            inside.set()
            release.wait(30)
        return add_revision(*args, **kwargs)

    def counted(*args, **kwargs):
        if threading.current_thread().name == "held":
            reads.append(1)
        return live_rows_in(*args, **kwargs)

    monkeypatch.setattr(writes, "add_revision", held)
    monkeypatch.setattr(writes, "live_rows_in", counted)
    return inside, release


def test_two_cards_on_one_revision_one_is_stored_and_the_other_judged_again(store, monkeypatch):
    """Two cards sent on the same ETag, the first held once judged: one is stored, once, and
    the other answered 412 with the match's new ETag, stored nowhere. On SQLite the second is
    stored while the first is held (no lock taken to judge), and the first, finding the match
    moved under the write lock, is read again (its If-Match then stale); on PostgreSQL the
    second waits for the first's row lock and finds it moved."""
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS}, None)
    view = store.add_deal(view.match.id, key, view.etag, {"dealer": 0, "trump": {"suit": "S"}})
    reads, answers = [], {}
    inside, release = held_at_its_revision(monkeypatch, reads)

    def card(name, text):
        try:
            answers[name] = store.append_events(view.match.id, key, view.etag, ev(text))
        except PreconditionFailed as refused:
            answers[name] = refused

    slow = threading.Thread(target=card, name="held", args=("held", "1:AH"))
    slow.start()
    assert inside.wait(30)
    meanwhile = done_while_held(slow, release, lambda: card("other", "1:KH"))
    stored = [name for name, a in answers.items() if not isinstance(a, PreconditionFailed)]
    assert len(stored) == 1 and len(answers) == 2
    now = store.get_match(view.match.id, key)
    refused = answers["held" if stored == ["other"] else "other"]
    assert now.match.revision == view.match.revision + 1 and refused.extra["etag"] == now.etag
    assert now.revision.record["deals"][-1]["events"] == ev({"held": "1:AH", "other": "1:KH"}[stored[0]])
    if store.db.is_postgres:
        assert not meanwhile and stored == ["held"] and reads == [1]
    else:
        assert meanwhile and stored == ["other"] and reads == [1, 1]  # read again, then refused


def test_a_key_rotated_while_a_card_is_judged_refuses_it(store, monkeypatch):
    """SQLite: the write key is compared again under the write lock; rotated while the card
    was judged, the card is refused (403) and nothing of it is stored."""
    if store.db.is_postgres:
        pytest.skip("PostgreSQL checks the key in the write's one transaction, under its match's row lock")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS}, None)
    view = store.add_deal(view.match.id, key, view.etag, {"dealer": 0, "trump": {"suit": "S"}})
    reads, answers = [], []
    inside, release = held_at_its_revision(monkeypatch, reads)

    def card():
        try:
            answers.append(store.append_events(view.match.id, key, view.etag, ev("1:AH")))
        except Forbidden as refused:
            answers.append(refused)

    slow = threading.Thread(target=card, name="held")
    slow.start()
    assert inside.wait(30)
    new = []
    assert done_while_held(slow, release, lambda: new.append(store.rotate_key(t.id, key, "write")))
    assert isinstance(answers[0], Forbidden) and reads == [1, 1]
    now = store.get_match(view.match.id, new[0])
    assert now.match.revision == view.match.revision and now.revision.record["deals"][-1].get("events", []) == []
