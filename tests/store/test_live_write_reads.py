"""A live write costs what it changes (issue 39): a card or a deal added at deal 30 reads the
same stored values as at deal 2, the match's row and its last deal's (store/deals.py: tail),
where a correction reads every deal. Counted by what the database hands back: every JSON
value it decodes (a record, a verdict, a standing, a prefix) and every statement on the deal
rows, with the deal it names."""
import re
from contextlib import contextmanager

import orjson
import pytest
from sqlalchemy import event

from referee import midstate
from referee.store import db as database
from referee.store.db import Database
from referee.store.service import Store
from tests.helpers import ev, won_by

PLAYERS = ["A", "B", "C", "D"]


@pytest.fixture
def counted(db_url, monkeypatch, tmp_path):
    """A store whose database counts what it decodes and what it asks of the deal rows."""
    seen = {"json": 0, "deal_rows": []}

    def loads(text):
        seen["json"] += 1
        return orjson.loads(text)

    monkeypatch.setitem(database._JSON, "json_deserializer", loads)
    store = Store(Database(db_url), signing_keys=tmp_path / "keys")

    @event.listens_for(store.db.engine, "before_cursor_execute")
    def statement(conn, cursor, text, parameters, context, many):
        if "match_deals" in text:
            seen["deal_rows"].append(text)

    yield store, seen
    store.db.dispose()


@contextmanager
def counting(seen):
    seen["json"], seen["deal_rows"] = 0, []
    yield seen


def session_at(store, deals: int):
    """A court-piece session without a target, `deals` deals played, the next one begun."""
    t, key, _ = store.create_tournament("t", "court-piece", {"target": None}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)] * deals}, None)
    dealer = view.revision.verdict["next"]["dealer"]
    return key, view, dealer


def one_card_and_one_deal(store, seen, deals: int) -> tuple[tuple, tuple]:
    """What a deal added at deal `deals` + 1 and then a card in it read: (JSON values, statements
    on the deal rows) of each."""
    key, view, dealer = session_at(store, deals)
    with counting(seen):
        view = store.add_deal(view.match.id, key, view.etag, {"dealer": dealer, "trump": {"suit": "S"}, "events": []})
        added = seen["json"], list(seen["deal_rows"])
    with counting(seen):
        view = store.append_events(view.match.id, key, view.etag, ev(f"{(dealer + 1) % 4}:AH"))
        card = seen["json"], list(seen["deal_rows"])
    assert view.revision.verdict["deals"][deals]["tricks"] == [] and len(view.revision.record["deals"]) == deals + 1
    return added, card


@pytest.mark.skipif(not midstate.available(), reason="no libcrypto here: the store reads and judges whole matches")
def test_a_card_at_deal_30_reads_what_a_card_at_deal_2_reads(counted):
    store, seen = counted
    at_2, at_30 = one_card_and_one_deal(store, seen, 1), one_card_and_one_deal(store, seen, 29)
    for early, late in zip(at_2, at_30):
        assert early == late
        json_values, statements = late
        # the match's row (its record and verdict, read and then locked), its tournament's
        # options, the last deal's row (record, verdict, start, prefix) and what the feed
        # said of that deal: a handful of values, and each deal-row statement names its deal
        assert json_values <= 16
        assert all(re.search(r"match_deals\.deal = |INSERT INTO match_deals", s) for s in statements), statements
        assert len(statements) <= 3


def test_a_correction_reads_every_deal(counted):
    """The counter sees deal rows: a write that changes an earlier deal reads them all."""
    store, seen = counted
    key, view, _ = session_at(store, 29)
    record = view.revision.record
    with counting(seen):
        store.revise(view.match.id, key, view.etag, {"deals": [won_by(0, [2] * 7), *record["deals"][1:]]}, "typo")
    assert seen["json"] >= 2 * 29


@pytest.mark.skipif(not midstate.available(), reason="no libcrypto here: the store reads and judges whole matches")
def test_a_card_is_one_transaction_and_a_deal_added_another(counted):
    """A card or a deal added is read, judged and stored in one transaction on PostgreSQL (no
    claim or bell to search: tests/store/test_perfect_play_writes.py has those judged outside
    any); its key, If-Match and body are checked in it, once. On SQLite it is read and judged
    in a read transaction and stored by a writing one, which reads only what it compares."""
    from referee.store.db import READ_ONLY

    store, seen = counted
    each = 1 if store.db.is_postgres else 2  # transactions a write begins
    begun = []
    event.listen(store.db.engine, "begin", lambda conn: begun.append(conn))
    key, view, dealer = session_at(store, 29)
    begun.clear()
    view = store.add_deal(view.match.id, key, view.etag, lambda: {"dealer": dealer, "trump": {"suit": "S"}})
    assert len(begun) == each
    sent = []
    event.listen(store.db.engine, "before_cursor_execute",
                 lambda conn, cursor, text, *_: sent.append((conn.get_execution_options().get(READ_ONLY, False), text)))
    view = store.append_events(view.match.id, key, view.etag, lambda: ev(f"{(dealer + 1) % 4}:AH"))
    assert len(begun) == 2 * each and view.match.revision == 3
    # the match's row (locked) with its tournament's and its last deal's (with the dealer
    # before it), by one statement; the revision, the two rows updated, the tournament's count
    # (its row locked by that update), on PostgreSQL by one statement (store/held.py); not
    # whether the match was announced finished (a card that changes no outcome), nor what the
    # feed said of the deal (a card that changes none of its facts)
    sent = [(reading, t) for reading, t in sent if not t.startswith("BEGIN")]
    texts = [t for _, t in sent]
    assert not any("LIMIT" in t or "feed_events.type IN" in t for t in texts), texts
    if store.db.is_postgres:
        assert len(sent) <= 2, texts
    else:  # read: the three rows; written: the revision and tournament key compared, then the four writes
        assert [reading for reading, _ in sent] == [True] + [False] * 5, sent
        assert texts[0].startswith("SELECT") and texts[1].startswith("SELECT") and "match_deals" not in texts[1]
        assert not any(t.startswith("SELECT") for t in texts[2:]), texts
    assert view.live_dict()["deal"] == {"index": 29, "verdict": view.revision.verdict["deals"][29]}


def test_the_feed_is_numbered_in_turn_whichever_way_a_write_counts(store):
    """A write that changes no standings numbers its feed events by one UPDATE of the
    tournament's row, one that does by the row read and locked: both in one sequence, each
    write counted once in the tournament's ETag, its last change the last write's."""
    from referee.store.models import Tournament

    t, key, _ = store.create_tournament("t", "court-piece", {"target": None}, True)
    live, _ = store.create_match(t.id, key, {"players": PLAYERS}, None)  # counted by the update
    live = store.add_deal(live.match.id, key, live.etag, {"dealer": 0, "trump": {"suit": "S"}})
    done, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, None)
    done = store.close(done.match.id, key, done.etag)  # finished: standings counted, the row locked
    live = store.append_events(live.match.id, key, live.etag, ev("1:AH 2:3H 3:4H 0:5H"))  # trick.finished
    events = store.feed(t.id, key, 0, 100)["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert {"match.finished", "standings.changed", "trick.finished"} <= {e["type"] for e in events}
    assert events[-1]["type"] == "trick.finished" and events[-1]["match"] == live.match.id
    with store.db.reading() as s:
        row = s.get(Tournament, t.id)
        assert (row.write_count, row.feed_seq, row.changed_at) == (5, len(events), live.match.updated_at)
