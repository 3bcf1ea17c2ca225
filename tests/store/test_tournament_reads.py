"""The tournament's ETag (what every live page poll reads) and the list of tournaments are
read from the tournaments' rows (issue 39): a write of any match changes the ETag, even one
the feed says nothing of, a read changes nothing, and neither read sends a statement on a
match's table, however many matches there are."""
import re
from datetime import datetime, timezone

from sqlalchemy import select, text

from referee.store.db import Database, downgrade, upgrade
from referee.store.models import FeedEvent, Tournament
from referee.store.service import Store
from tests.helpers import won_by
from tests.store.reads import counted

ONE_COURT = won_by(0, [1] * 7, n=7)
ON_MATCHES = re.compile(r"\bmatch(es|_deals)\b")


def tag_and_statements(store, tid, key=None):
    with counted(store.db.engine) as reads:
        tag = store.tournament_etag(tid, key)
    assert reads.statements and not any(ON_MATCHES.search(q) for q in reads.statements)
    return tag


def feed_length(store, tid):
    with store.db.reading() as s:
        return s.query(FeedEvent).filter(FeedEvent.tournament_id == tid).count()


def test_every_write_of_a_match_changes_the_tournament_etag_and_nothing_else_does(store):
    t, key, read_key = store.create_tournament("Cup", "court-piece", {}, False)
    tags = [tag_and_statements(store, t.id, read_key)]

    def changed():
        """The ETag after a write: a new one, the page's too."""
        tags.append(tag_and_statements(store, t.id, read_key))
        assert len(set(tags)) == len(tags)
        assert store.overview(t.id, read_key)["etag"] == tags[-1]

    view, _ = store.create_match(t.id, key, {"players": list("ABCD"), "deals": [{"dealer": 0, "trump": {"suit": "S"},
                                                                              "events": []}]}, "table-1")
    changed()
    mid = view.match.id
    before = feed_length(store, t.id)
    view = store.append_events(mid, key, view.etag, [{"seat": 1, "play": "2C"}])
    assert feed_length(store, t.id) == before  # a card in the middle of a trick: no feed event, yet the page shows it
    changed()
    view = store.revise(mid, key, view.etag, {"deals": [ONE_COURT]}, "entered wrong")
    changed()
    view = store.add_deal(mid, key, view.etag, {"dealer": 1, "trump": {"suit": "H"}, "events": []})
    changed()
    store.close(mid, key, view.etag)
    changed()
    other, _ = store.create_match(t.id, key, {"players": list("EFGH"), "deals": [ONE_COURT], "closed": True}, None)
    changed()
    exported = [line for line in store.export(t.id) if line["kind"] == "match"][0]
    store.restore_match(t.id, "again", [{k: v for k, v in r.items() if k != "created_at"} for r in exported["revisions"]])
    changed()
    # reads, a key's rotation (the page shows the same) and another tournament's writes leave it
    store.overview(t.id, key), store.get_match(mid, key), store.standings_sheet(t.id, key), store.feed(t.id, key, 0, 50)
    store.rotate_key(t.id, key, "read")
    u, ukey, _ = store.create_tournament("Other", "court-piece", {}, True)
    store.create_match(u.id, ukey, {"players": list("ABCD"), "deals": [ONE_COURT]}, None)
    assert tag_and_statements(store, t.id, key) == tags[-1] == store.overview(t.id, key)["etag"]


def test_the_list_of_tournaments_reads_their_rows_only(store):
    t, key, _ = store.create_tournament("Cup", "court-piece", {}, True)
    empty, _, _ = store.create_tournament("Empty", "seven-courts", {}, True)
    hidden, hkey, _ = store.create_tournament("Hidden", "court-piece", {}, False)
    view, _ = store.create_match(t.id, key, {"players": list("ABCD"), "deals": [ONE_COURT]}, None)
    store.create_match(hidden.id, hkey, {"players": list("ABCD"), "deals": [ONE_COURT]}, None)
    later = store.add_deal(view.match.id, key, view.etag, ONE_COURT)
    # a match restored from an export keeps its own last change, older than the others'
    store.restore_match(t.id, "old", [{"kind": "import", "record": {"players": list("EFGH"), "deals": [ONE_COURT]}}],
                        created_at=datetime(2020, 1, 1, tzinfo=timezone.utc),
                        updated_at=datetime(2020, 1, 2, tzinfo=timezone.utc))
    with counted(store.db.engine) as reads:
        public = store.tournament_listing()
        every = store.tournament_listing(public_only=False, limit=2, offset=1)
    assert reads.statements and not any(ON_MATCHES.search(q) for q in reads.statements)
    assert [(r["name"], r["matches"]) for r in public] == [("Empty", 0), ("Cup", 2)]
    assert public[0]["last_change"] == public[0]["created_at"]
    assert public[1]["last_change"] == later.as_dict()["updated_at"]
    assert [(r["name"], r["matches"]) for r in every] == [("Empty", 0), ("Cup", 2)]


def test_the_migration_counts_what_the_tournaments_held_before_it(db_url):
    """0011 on a database with matches made before it: the ETag, then, is a new one that the
    next write changes again, and the list's last change is the latest of its matches'."""
    downgrade(db_url, "0010")
    made = Store(Database(db_url))
    with made.db.transaction() as s:
        s.execute(text("INSERT INTO tournaments (id, name, preset, options, public, key_hash, created_at, feed_seq, "
                       "match_count, finished_count) VALUES ('t1', 'Cup', 'court-piece', '{}', true, 'x', "
                       ":created, 0, 2, 0), ('t2', 'Empty', 'court-piece', '{}', true, 'y', :created, 0, 0, 0)"),
                  {"created": datetime(2026, 1, 1, tzinfo=timezone.utc)})
        for mid, revision, day in (("m1", 3, 5), ("m2", 1, 4)):
            s.execute(text("INSERT INTO matches (id, tournament_id, revision, record, verdict, status, closed, "
                           "created_at, updated_at) VALUES (:id, 't1', :revision, '{}', '{}', 'in_progress', false, "
                           ":at, :at)"), {"id": mid, "revision": revision, "at": datetime(2026, 1, day, tzinfo=timezone.utc)})
    made.db.dispose()
    upgrade(db_url)
    store = Store(Database(db_url))
    try:
        with store.db.reading() as s:
            kept = {t.id: (t.write_count, t.changed_at) for t in s.scalars(select(Tournament))}
        assert kept == {"t1": (2 + 3 + 1, datetime(2026, 1, 5, tzinfo=timezone.utc)), "t2": (0, None)}
        listed = {r["id"]: (r["matches"], r["last_change"]) for r in store.tournament_listing()}
        assert listed == {"t1": (2, "2026-01-05T00:00:00Z"), "t2": (0, "2026-01-01T00:00:00Z")}
        assert store.tournament_etag("t1", None) == '"t.t1.6"'
    finally:
        store.db.dispose()
