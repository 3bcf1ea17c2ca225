"""Concurrent writers, and a crash in the middle of a write."""
import threading

import pytest

from referee.store import writes
from tests.helpers import ev

PLAYERS = ["A", "B", "C", "D"]


def live(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [{"dealer": 0, "trump": {"suit": "S"}, "events": []}]}, None)
    return key, view


def test_two_concurrent_appends_with_the_same_etag_exactly_one_wins(store):
    key, view = live(store)
    barrier = threading.Barrier(2)
    outcomes = []

    def append(events):
        barrier.wait()
        try:
            store.append_events(view.match.id, key, view.etag, events)
            outcomes.append("ok")
        except Exception as exc:  # noqa: BLE001 - record which error it was
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=append, args=(ev(e),)) for e in ("1:AH", "1:KS")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes) == ["PreconditionFailed", "ok"]
    after = store.get_match(view.match.id, key)
    events = after.revision.record["deals"][0]["events"]
    assert len(events) == 1 and after.match.revision == 2
    assert [r["number"] for r in store.revisions(view.match.id, key)] == [1, 2]


def test_many_concurrent_writers_lose_nothing_and_duplicate_nothing(store):
    key, view = live(store)
    plays = ["1:AH", "2:3H", "3:4H", "0:5H", "1:KH", "2:6H", "3:8H", "0:9H"]
    lock = threading.Lock()

    def worker():
        while True:
            current = store.get_match(view.match.id, key)
            n = len(current.revision.record["deals"][0]["events"])
            if n >= len(plays):
                return
            try:
                store.append_events(view.match.id, key, current.etag, ev(plays[n]))
            except Exception as exc:  # noqa: BLE001
                with lock:
                    assert type(exc).__name__ in ("PreconditionFailed",), exc

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    final = store.get_match(view.match.id, key)
    assert [e["play"] for e in final.revision.record["deals"][0]["events"]] == [p.split(":")[1] for p in plays]
    assert final.match.revision == len(plays) + 1


def test_a_crash_in_the_middle_of_a_write_leaves_the_previous_state(store, monkeypatch):
    key, view = live(store)

    def boom(*args, **kwargs):
        raise RuntimeError("power cut")

    monkeypatch.setattr(writes, "publish", boom)  # what a write calls last, inside its transaction
    monkeypatch.setattr(writes, "numbered", boom)  # a live write on SQLite (writes._write_apart)
    with pytest.raises(RuntimeError):
        store.append_events(view.match.id, key, view.etag, ev("1:AH"))
    monkeypatch.undo()
    after = store.get_match(view.match.id, key)
    assert after.match.revision == 1 and after.etag == view.etag
    assert after.revision.record["deals"][0]["events"] == []
    assert len(store.revisions(view.match.id, key)) == 1
    store.append_events(view.match.id, key, view.etag, ev("1:AH"))  # and it still works
