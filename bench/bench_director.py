"""The tournament page against the match page, what a poll costs, and the standings read.

    python bench/bench_director.py [--matches 200] [--deals 10] [--repeat 5]

Stores a tournament of MATCHES matches of DEALS deals each (200 x 10 = 2,000 deals, as
issue 23 asks), then times, in the same run, the tournament page (standings, matches,
disputes) against the match page of one of its matches (the baseline), as a median of
REPEAT renders each, and prints their ratio. It also counts the SQL statements of one poll
of the tournament page that finds nothing changed (If-None-Match: 304) and of one full
render; and times `referee standings --json` (in this process: the command's store, read
and output) against the same baseline, with its statements and the bytes of match rows
they return (issue 39: a read of the standings costs the teams, not the matches). Figures
only: no assertion, not part of the tests.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import random
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine

from referee.app import create_app
from referee.engine import resolve
from referee.engine.simulate import random_deal
from referee.store.db import upgrade


def deal_json(d) -> dict:
    return {"dealer": d.dealer, "trump": {"suit": d.trump.suit},
            "events": [{"seat": e.seat, "play": str(e.card)} for e in d.events]}


def build(app, matches: int, deals: int) -> tuple[str, str]:
    store = app.extensions["referee.store"]
    t, key, _ = store.create_tournament("Bench", "seven-courts", {"target": 10_000}, True)
    options, rng = resolve("seven-courts", {"target": 10_000}), random.Random(23)
    mid = None
    for k in range(matches):
        players = [f"p{k}-{s}" for s in range(4)]
        record = {"players": players, "deals": [deal_json(random_deal(options, rng.randrange(4), rng))
                                                for _ in range(deals)]}
        view, _ = store.create_match(t.id, key, record, f"table-{k}")
        mid = view.match.id
    return t.id, mid


def median_seconds(client, path: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path, headers={"Accept": "text/html"})
        response.get_data()
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    return statistics.median(times)


def statements(app, client, path: str, headers: dict) -> tuple[int, int]:
    """(SQL statements, HTTP status) of one request."""
    engine = app.extensions["referee.store"].db.engine
    count = [0]

    def counted(*_args):
        count[0] += 1
    event.listen(engine, "before_cursor_execute", counted)
    try:
        status = client.get(path, headers=headers).status_code
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    return count[0], status


def standings_command(url: str, tid: str, repeat: int) -> tuple[float, int, int]:
    """`referee standings TID --json`, run in this process: (median seconds, SQL statements
    of one run, of which those that name a match's table)."""
    from referee.cli import main as referee

    seen: list[str] = []

    def counted(_conn, _cursor, statement, *_args):
        seen.append(statement)
    times = []
    for _ in range(repeat):
        seen.clear()
        event.listen(Engine, "before_cursor_execute", counted)
        start = time.perf_counter()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                assert referee(["standings", tid, "--json", "--database", url]) == 0
        finally:
            event.remove(Engine, "before_cursor_execute", counted)
        times.append(time.perf_counter() - start)
    on_matches = sum(" matches" in q or "match_deals" in q for q in seen)
    return statistics.median(times), len(seen), on_matches


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        upgrade(url)
        app = create_app({"DATABASE_URL": url})
        with app.test_request_context():  # the store's writes take a request's perfect-play budget
            tid, mid = build(app, args.matches, args.deals)
        client = app.test_client()
        page, one = f"/tournaments/{tid}", f"/matches/{mid}"
        tournament = median_seconds(client, page, args.repeat)
        match = median_seconds(client, one, args.repeat)
        etag = client.get(page).headers["ETag"]
        poll, poll_status = statements(app, client, page, {"If-None-Match": etag})
        full, _ = statements(app, client, page, {"Accept": "text/html"})
        print(f"tournament page, {args.matches} matches x {args.deals} deals: {tournament * 1000:.0f} ms (median of {args.repeat})")
        print(f"match page of one match ({args.deals} deals), the baseline: {match * 1000:.0f} ms")
        print(f"ratio tournament page / match page: {tournament / match:.1f}")
        print(f"a poll with nothing changed: {poll} SQL statement(s), HTTP {poll_status}; a full render: {full}")
        standings, sent, on_matches = standings_command(url, tid, args.repeat)
        print(f"referee standings --json: {standings * 1000:.0f} ms (median of {args.repeat}), ratio to the match page "
              f"{standings / match:.2f}; {sent} SQL statement(s), {on_matches} of them on a match's table")
        app.extensions["referee.store"].db.dispose()


if __name__ == "__main__":
    main()
