"""standings.changed says what a write changed in the standings, not the whole table: folded
from the first event, it is the table GET .../standings gives, and its size does not grow with
the tournament."""
import random

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.store import standings
from referee.store.standings import change
from tests.helpers import won_by

NAMES = "ABCDEFGHIJKL"


def fold(table: dict, payload: dict) -> dict:
    """A client's fold of one standings.changed into the rows it keeps (team -> row)."""
    named = {tuple(r["team"]) for r in payload["rows"]} | {tuple(t) for t in payload["removed"]}
    kept = {team: dict(row) for team, row in table.items() if team not in named}
    for row in kept.values():
        runs = [m["by"] for m in payload["moved"] if m["from"] <= row["rank"] <= m["to"]]
        assert len(runs) <= 1  # the runs do not overlap
        row["rank"] += sum(runs)
    kept.update({tuple(r["team"]): dict(r) for r in payload["rows"]})
    assert len(kept) == payload["teams"]
    return kept


def ordered(table: dict) -> list[dict]:
    return sorted(table.values(), key=lambda r: (r["rank"], r["team"]))


def row(team, won, courts, points=0):
    return {"team": list(team), "played": 1, "won": won, "lost": 1 - won, "drawn": 0, "courts_for": courts,
            "courts_against": 0, "points_for": points, "points_against": 0}


def ranked(rows):
    return standings.ranked({tuple(r["team"]): dict(r) for r in rows})


def test_a_team_that_climbs_moves_the_rows_it_passes_by_one_in_one_run():
    old = ranked([row(("A", "B"), 1, 3), row(("C", "D"), 1, 2), row(("E", "F"), 1, 1), row(("G", "H"), 0, 0)])
    new = ranked([row(("A", "B"), 1, 3), row(("C", "D"), 1, 2), row(("E", "F"), 1, 1), row(("G", "H"), 1, 4)])
    said = change(old, new)
    assert said["rows"] == [{**row(("G", "H"), 1, 4), "rank": 1}]
    assert said["moved"] == [{"from": 1, "to": 3, "by": 1}] and said["removed"] == [] and said["teams"] == 4
    assert ordered(fold({tuple(r["team"]): r for r in old}, said)) == new


def test_a_team_that_joins_a_shared_rank_moves_only_the_rows_below():
    old = ranked([row(("A", "B"), 1, 2), row(("C", "D"), 1, 1), row(("E", "F"), 0, 0)])
    new = ranked([row(("A", "B"), 1, 2), row(("C", "D"), 1, 1), row(("E", "F"), 0, 0), row(("G", "H"), 1, 1)])
    said = change(old, new)
    assert [r["rank"] for r in new] == [1, 2, 2, 4]  # C+D and G+H share rank 2
    assert said["rows"] == [{**row(("G", "H"), 1, 1), "rank": 2}]
    assert said["moved"] == [{"from": 3, "to": 3, "by": 1}]
    assert ordered(fold({tuple(r["team"]): r for r in old}, said)) == new


teams = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)).map(sorted).map(tuple), unique=True,
                 max_size=8)
figures = st.tuples(st.integers(0, 2), st.integers(-2, 2), st.integers(-1, 1))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_folding_the_change_into_the_old_table_gives_the_new_one(data):
    def table(names):
        rows = []
        for team in names:
            won, courts, points = data.draw(figures)
            rows.append({**row(team, 0, 0), "won": won, "courts_for": courts, "points_for": points})
        return ranked(rows)

    old = table(data.draw(teams))
    kept = [r["team"] for r in old if data.draw(st.booleans())]  # unchanged rows, with the same figures
    new = ranked([{k: v for k, v in r.items() if k != "rank"} for r in old if r["team"] in kept] +
                 [r for r in table(data.draw(teams)) if r["team"] not in kept])
    said = change(old, new)
    assert ordered(fold({tuple(r["team"]): r for r in old}, said)) == new
    unchanged = {tuple(r["team"]) for r in old} & {tuple(r["team"]) for r in new} - {tuple(r["team"]) for r in said["rows"]}
    assert len(said["moved"]) <= 2 * (len(old) + len(new) - 2 * len(unchanged)) + 1


def feed_of(store, tid, key):
    return store.feed(tid, key, 0, 100_000)["events"]


def finished(players, winner_seat, deals=1):
    """A match closed after `deals` deals, each a court (7 tricks) to `winner_seat`'s team."""
    return {"players": players, "deals": [won_by(0, [winner_seat] * 7, n=7)] * deals, "closed": True}


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1))
def test_folding_the_feed_gives_the_standings_through_uploads_and_corrections(store, seed):
    rng = random.Random(seed)
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    views = []
    for step in range(14):
        if views and rng.random() < 0.35:  # a correction: another winner, or other players
            i = rng.randrange(len(views))
            players = rng.sample(NAMES, 4) if rng.random() < 0.5 else views[i].match.record["players"]
            views[i] = store.revise(views[i].match.id, key, views[i].etag,
                                    finished(players, rng.randrange(4), rng.randrange(1, 3)), "wrong sheet")
        else:
            views.append(store.create_match(t.id, key, finished(rng.sample(NAMES, 4), rng.randrange(4)), None)[0])
        table: dict = {}
        for e in feed_of(store, t.id, key):
            if e["type"] == "standings.changed":
                table = fold(table, e["payload"])
        assert ordered(table) == store.standings(t.id, key), step


def test_a_finished_match_says_no_more_of_the_standings_in_the_thousandth_team_than_in_the_tenth(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    sizes = []
    for i in range(60):
        players = [f"p{i}a", f"p{i}b", f"p{i}c", f"p{i}d"]  # new teams each time, winning and losing
        store.create_match(t.id, key, finished(players, i % 2), None)
        last = feed_of(store, t.id, key)[-1]
        assert last["type"] == "standings.changed"
        sizes.append(len(orjson.dumps(last["payload"])))
    # every match adds two new teams and moves the rows below them: two rows and two runs
    assert max(sizes[40:]) <= max(sizes[:10]) + 40  # digits of bigger ranks, not more rows
    assert len(store.standings(t.id, key)) == 120
