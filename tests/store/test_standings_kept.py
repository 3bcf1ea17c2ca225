"""The standings kept per team (issue 39): each write that finishes, corrects or closes a
match updates its teams' rows only, and the kept rows are always what counting every
finished match from scratch gives; the standings.changed it publishes is exactly the change
between the two tables counted from scratch, as it was when every write counted them so."""
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from referee.store.director import heads
from referee.store.models import StandingMerit
from referee.store.standings import _merit, change, finished_rows, kept_rows, pair_of, ranked, table
from tests.helpers import won_by
from tests.store.test_standings_feed import feed_of

NAMES = "ABCDEFG"
DEALS = [won_by(0, [1] * 7, n=7), won_by(0, [0] * 7, n=7), won_by(0, [1, 0, 1, 3, 0, 1, 2, 3, 0, 1, 3])]


def from_scratch(store, tid):
    with store.db.reading() as s:
        return ranked(finished_rows(s, tid))


def kept(store, tid):
    """The kept rows ranked, once the teams kept per merit are checked against them."""
    with store.db.reading() as s:
        rows = kept_rows(s, tid)
        merits = s.execute(select(StandingMerit.won, StandingMerit.court_difference, StandingMerit.points_difference,
                                  StandingMerit.teams).where(StandingMerit.tournament_id == tid)).all()
    assert {tuple(m[:3]): m[3] for m in merits} == Counter(_merit(r) for r in rows.values())
    return ranked(rows)


def with_rules_from_scratch(store, tid):
    """The director's standings as they were counted from every finished match before the
    rows kept them (each team's deals and rules; its rules in no order: the kept rows list
    them as first counted, not as their matches were made) and the matches finished."""
    with store.db.reading() as s:
        finished = [h for h in heads(s, tid) if h.match.status == "finished"]
    rules: dict[tuple, list[str]] = {}
    deals: dict[tuple, int] = {}
    for h in finished:
        for team in (0, 1):
            pair = pair_of(h.record["players"], team)
            ids = rules.setdefault(pair, [])
            ids.extend(i for i in h.verdict["match"].get("rule") or [] if i not in ids)
            deals[pair] = deals.get(pair, 0) + len(h.verdict["deals"])
    rows = [{**row, "deals": deals.get(tuple(row["team"]), 0), "rule": sorted(rules.get(tuple(row["team"]), []))}
            for row in table([(h.record, h.verdict) for h in finished])]
    return rows, len(finished)


def with_rules_kept(store, tid, key):
    sheet = store.standings_sheet(tid, key)
    return [{**row, "rule": sorted(row["rule"])} for row in sheet["standings"]], sheet["finished"]


def a_record(rng, players=None, closed=True):
    """One or two deals (a court to either side, or tricks shared) between four of NAMES."""
    record = {"players": players or rng.sample(NAMES, 4), "deals": rng.choices(DEALS, k=rng.randrange(1, 3))}
    return {**record, "closed": True} if closed else record


def step(store, rng, tid, key, views):
    """One write: a finished match or a live one uploaded, a correction (other players, other
    deals), or a close of a live match."""
    live = [i for i, v in enumerate(views) if not v.match.closed]
    roll = rng.random()
    if views and roll < 0.3:
        i = rng.randrange(len(views))
        players = None if rng.random() < 0.5 else views[i].match.record["players"]
        views[i] = store.revise(views[i].match.id, key, views[i].etag, a_record(rng, players, rng.random() < 0.5),
                                "wrong sheet")
    elif live and roll < 0.5:
        i = rng.choice(live)
        views[i] = store.close(views[i].match.id, key, views[i].etag)
    else:
        views.append(store.create_match(tid, key, a_record(rng, closed=rng.random() < 0.6), None)[0])


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1))
def test_the_kept_rows_are_the_rows_counted_from_scratch_after_every_write(store, seed):
    rng = random.Random(seed)
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    views, seen = [], 0
    for n in range(16):
        before = from_scratch(store, t.id)
        step(store, rng, t.id, key, views)
        after = from_scratch(store, t.id)
        assert kept(store, t.id) == after == store.standings(t.id, key), n
        assert with_rules_kept(store, t.id, key) == with_rules_from_scratch(store, t.id), n
        events = feed_of(store, t.id, key)
        said = [e["payload"] for e in events[seen:] if e["type"] == "standings.changed"]
        seen = len(events)
        assert said == ([{"match": said[0]["match"], **change(before, after)}] if before != after else []), n


def test_a_correction_takes_the_old_result_off_and_a_close_counts_the_match(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    first = store.create_match(t.id, key, {"players": list("ABCD"), "deals": [DEALS[0]], "closed": True}, None)[0]
    live = store.create_match(t.id, key, {"players": list("ABEF"), "deals": [DEALS[1]]}, None)[0]
    table = {r["team"][0] + r["team"][1]: (r["won"], r["lost"], r["rank"]) for r in store.standings(t.id, key)}
    assert table == {"BD": (1, 0, 1), "AC": (0, 1, 2)}  # the live match does not count yet
    store.revise(first.match.id, key, first.etag, {"players": list("ABCD"), "deals": [DEALS[1]], "closed": True},
                 "the other side made the court")
    store.close(live.match.id, key, live.etag)
    table = {r["team"][0] + r["team"][1]: (r["won"], r["lost"], r["rank"]) for r in store.standings(t.id, key)}
    assert table == {"AC": (1, 0, 1), "AE": (1, 0, 1), "BD": (0, 1, 3), "BF": (0, 1, 3)}
    last = [e["payload"] for e in feed_of(store, t.id, key) if e["type"] == "standings.changed"][-1]
    assert [r["team"] for r in last["rows"]] == [["A", "E"], ["B", "F"]]
    assert last["moved"] == [{"from": 2, "to": 2, "by": 1}] and last["teams"] == 4  # B+D, passed by A+E


def test_a_team_with_no_finished_match_left_is_removed(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view = store.create_match(t.id, key, {"players": list("ABCD"), "deals": [DEALS[0]], "closed": True}, None)[0]
    store.create_match(t.id, key, {"players": list("ABEF"), "deals": [DEALS[0]], "closed": True}, None)
    store.revise(view.match.id, key, view.etag, {"players": list("GHIJ"), "deals": [DEALS[0]], "closed": True},
                 "other players")
    last = [e["payload"] for e in feed_of(store, t.id, key) if e["type"] == "standings.changed"][-1]
    assert last["removed"] == [["A", "C"], ["B", "D"]] and last["teams"] == 4
    assert [r["team"] for r in last["rows"]] == [["H", "J"], ["G", "I"]]
    assert [(r["team"], r["rank"]) for r in store.standings(t.id, key)] == [
        (["B", "F"], 1), (["H", "J"], 1), (["A", "E"], 3), (["G", "I"], 3)]
