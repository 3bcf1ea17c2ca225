"""The migrations that keep the standings per team (0004, 0005, and their deals and rules
with the matches finished, 0009), both ways, on a database holding matches made before it:
upgraded, the rows are counted from the finished matches already stored, the standings (the
director's too) read as they did, and the next write updates them; downgraded, the table is
gone and the matches are as they were."""
from referee.store.db import Database, downgrade, upgrade
from referee.store.service import Store
from referee.store.standings import finished_rows, kept_rows, ranked
from tests.store.test_migrations import table_names
from tests.store.test_standings_kept import DEALS, kept


def made(store) -> dict[str, str]:
    """Two tournaments: finished matches, a correction, a closed session, a live match."""
    keys = {}
    for name in ("one", "two"):
        t, key, _ = store.create_tournament(name, "court-piece", {}, True)
        keys[t.id] = key
        store.create_match(t.id, key, {"players": list("ABCD"), "deals": [DEALS[0]], "closed": True}, None)
        view = store.create_match(t.id, key, {"players": list("AEBF"), "deals": [DEALS[1], DEALS[2]]}, None)[0]
        view = store.revise(view.match.id, key, view.etag, {"players": list("AEBF"), "deals": [DEALS[0]]}, "wrong deal")
        store.close(view.match.id, key, view.etag)
        store.create_match(t.id, key, {"players": list("GHIJ"), "deals": [DEALS[2]]}, None)  # live: not counted
    return keys


def test_the_standings_are_counted_from_the_matches_stored_before_and_read_the_same(db_url):
    store = Store(Database(db_url))
    try:
        keys = made(store)
        before = {tid: store.standings(tid, key) for tid, key in keys.items()}
        assert [len(rows) for rows in before.values()] == [4, 4]
        sheets = {tid: store.standings_sheet(tid, key) for tid, key in keys.items()}
        assert [(r["team"], r["deals"], r["rule"]) for r in sheets[next(iter(keys))]["standings"]][:2] == [
            (["B", "D"], 1, ["match.closed", "R-26"]), (["E", "F"], 1, ["match.closed", "R-26"])]
    finally:
        store.db.dispose()
    downgrade(db_url, "0003")
    assert "standings" not in table_names(db_url) and "matches" in table_names(db_url)
    upgrade(db_url)
    store = Store(Database(db_url))
    try:
        with store.db.reading() as s:
            assert all(kept_rows(s, tid) == finished_rows(s, tid) for tid in keys)
        assert all(kept(store, tid) == before[tid] for tid in keys)  # and the teams kept per merit
        assert {tid: store.standings(tid, key) for tid, key in keys.items()} == before
        assert {tid: store.standings_sheet(tid, key) for tid, key in keys.items()} == sheets
        tid = next(iter(keys))
        store.create_match(tid, keys[tid], {"players": list("ABCD"), "deals": [DEALS[1]], "closed": True}, None)
        rows = {tuple(r["team"]): r for r in store.standings(tid, keys[tid])}
        assert rows[("A", "C")]["won"] == 1 and rows[("B", "D")]["played"] == 2
        with store.db.reading() as s:
            assert ranked(kept_rows(s, tid)) == ranked(finished_rows(s, tid))
    finally:
        store.db.dispose()
