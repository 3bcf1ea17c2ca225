"""Where a live card's CPU goes (issue 39, many tables): one process, no server, the API's
`POST /v1/matches/{id}/events` through Flask's test client, timed section by section with
the thread's CPU clock (or the wall's: --wall; each section's own time: what a wrapped function took less what the
wrapped functions inside it took), over a few hundred cards at deal 30.

    python bench/bench_append_split.py                       # SQLite, 300 cards at deal 30
    python bench/bench_append_split.py --database postgresql --cards 400 --deal 1

Every match is a court-piece session without a target whose first deal-1 deals are played
(created whole), then dealt its next deal; the cards go round the matches in turn, as many
tables would send them. Printed: the mean of each section per card, its share of the whole
request, and the SQL statements a card sent (the time the driver took for them among the
sections that sent them). Figures only: no assertion; not part of the tests.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_live import database  # noqa: E402
from bench_replay import deal_json  # noqa: E402

# (module, attribute, section): each wrapped where the write path looks it up
SECTIONS = [
    ("referee.api.auth", "check_write_key", "key checked before the body (its own read)"),
    ("referee.api.tournaments", "load", "body read and validated"),
    ("referee.api.tournaments", "load_events", "body read and validated"),  # a card's events (api/bodies.py)
    ("referee.api.tournaments", "_live_response", "answer built (JSON)"),
    ("referee.store.writes", "load_match", "match row read"),
    ("referee.store.writes", "load_tournament", "tournament row read"),
    ("referee.store.writes", "load_match_in", "match and tournament rows read"),
    ("referee.store.writes", "match_rows_in", "match and tournament rows read (plain rows)"),
    ("referee.store.writes", "live_rows_in", "match, tournament and last deal's rows read"),
    ("referee.store.writes", "require_write_key", "key checked (SHA-256)"),
    ("referee.store.writes", "tail", "last deal's row read (tail)"),
    ("referee.store.writes", "resumes", "resumes()"),
    ("referee.store.writes", "check_tail", "limits checked"),
    ("referee.store.writes", "Reusing", "settler made"),
    ("referee.judge", "judge_deal", "the deal judged"),
    ("referee.judge", "write_tail", "provenance and signature"),
    ("referee.store.judging", "place", "place()"),
    ("referee.store.history", "diff", "revision's patches"),
    ("referee.store.history", "store_head", "deal row and match row set"),
    ("referee.store.publishing", "_ledger_events", "feed diff (ledger)"),
    ("referee.store.publishing", "load_tournament", "tournament row locked"),
    ("referee.store.publishing", "_ended", "feed: match ended?"),
    ("referee.store.publishing", "standings_change", "standings"),
    ("sqlalchemy.orm.session", "SessionTransaction.commit", "commit (flush, COMMIT)"),
    ("sqlalchemy.orm.session", "Session.flush", "flush"),
]


CLOCK = time.thread_time  # CPU time by default (--wall: perf_counter)


class Timer:
    def __init__(self) -> None:
        self.own: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.stack: list[list] = []  # [section, began, inner]

    def wrap(self, fn, section: str):
        def timed(*args, **kwargs):
            frame = [section, CLOCK(), 0.0]
            self.stack.append(frame)
            try:
                return fn(*args, **kwargs)
            finally:
                took = CLOCK() - frame[1]
                self.stack.pop()
                self.own[section] += took - frame[2]
                self.calls[section] += 1
                if self.stack:
                    self.stack[-1][2] += took
        timed.__wrapped__ = fn
        return timed

    def install(self) -> None:
        for module, name, section in SECTIONS:
            owner = importlib.import_module(module)
            if "." in name:
                cls, name = name.split(".")
                owner = getattr(owner, cls)
            if hasattr(owner, name):  # an older or newer write path may lack it
                setattr(owner, name, self.wrap(getattr(owner, name), section))

    def reset(self) -> None:
        self.own.clear()
        self.calls.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite", choices=("sqlite", "postgresql"))
    parser.add_argument("--deal", type=int, default=30, help="the deal the cards are played in")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--cards", type=int, default=300)
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not the thread's CPU")
    parser.add_argument("--statements", action="store_true", help="print the SQL statements of one card")
    parser.add_argument("--profile", action="store_true", help="cProfile the cards instead (inflates small calls)")
    parser.add_argument("--profile-to", help="with --profile: the stats also written to this file (pstats)")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.thread_time

    from sqlalchemy import event

    from referee.app import create_app
    from referee.engine import adjudicate, resolve, Record
    from referee.engine.simulate import random_deal, random_record

    with database(args.database, Path(tempfile.mkdtemp(prefix="split-"))) as url:
        app = create_app({"DATABASE_URL": url, "TESTING": True})
        client = app.test_client()
        store = app.extensions["referee.store"]
        made = client.post("/v1/tournaments", json={"name": "split", "preset": "court-piece",
                                                      "options": {"target": None}}).get_json()
        auth = {"Authorization": f"Bearer {made['key']}"}
        options = resolve("court-piece", {"target": None})
        tables = []
        for n in range(args.matches):
            rng = random.Random(n)
            done = random_record("court-piece", options, args.deal - 1, rng, {"target": None}) if args.deal > 1 else None
            record = {"players": [f"m{n}-{s}" for s in range(4)],
                      "deals": [deal_json(d) for d in done.deals] if done else []}
            got = client.post("/v1/matches", json={"tournament": made["id"], "record": record}, headers=auth)
            assert got.status_code == 201, got.data[:300]
            dealer = adjudicate(Record.from_dict({"preset": "court-piece", "options": {"target": None}, **record}))[
                "next"]["dealer"] if done else 0
            deal = deal_json(random_deal(options, dealer, rng, reveal_rate=0.0))
            events = deal.pop("events")
            mid = got.get_json()["id"]
            got = client.post(f"/v1/matches/{mid}/deals", json=deal, headers={**auth, "If-Match": got.headers["ETag"]})
            assert got.status_code == 200, got.data[:300]
            tables.append([mid, got.headers["ETag"], events])

        timer, sql = Timer(), {"n": 0, "t": 0.0, "began": 0.0}
        timer.install()

        @event.listens_for(store.db.engine, "before_cursor_execute")
        def _before(*_):
            sql["began"] = CLOCK()

        @event.listens_for(store.db.engine, "after_cursor_execute")
        def _after(*_):
            sql["n"] += 1
            sql["t"] += CLOCK() - sql["began"]

        def card(table) -> float:
            mid, etag, events = table
            began = CLOCK()
            got = client.post(f"/v1/matches/{mid}/events", json={"events": [events.pop(0)]},
                              headers={**auth, "If-Match": etag})
            took = CLOCK() - began
            assert got.status_code == 200, got.data[:300]
            table[1] = got.headers["ETag"]
            return took

        for table in tables[:3]:  # warm: first calls import and compile
            card(table)
        if args.statements:
            @event.listens_for(store.db.engine, "before_cursor_execute")
            def _show(conn, cursor, statement, *_):
                print("   ", " ".join(statement.split())[:200])

            print("the statements of one card:")
            card(tables[0])
            event.remove(store.db.engine, "before_cursor_execute", _show)
        locked = lock_clock(store.db.engine)
        timer.reset()
        sql["n"], sql["t"] = 0, 0.0
        locked["took"], locked["cpu"], locked["n"] = 0.0, 0.0, 0
        whole, cpu0 = [], time.process_time()
        profile = None
        if args.profile:
            import cProfile

            profile = cProfile.Profile(CLOCK)  # the thread's CPU (--wall: the wall clock)
            profile.enable()
        while len(whole) < args.cards and any(t[2] for t in tables):
            for table in tables:
                if table[2] and len(whole) < args.cards:
                    whole.append(card(table))
        if profile is not None:
            import pstats

            profile.disable()
            if args.profile_to:
                profile.dump_stats(args.profile_to)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
        cpu = (time.process_time() - cpu0) / len(whole) * 1000
        n = len(whole)
        mean = statistics.fmean(whole) * 1000
        print(f"{args.database}, deal {args.deal}, {n} cards over {args.matches} matches: "
              f"mean {mean:.2f} ms ({'wall' if args.wall else 'CPU'}) a card (median {statistics.median(whole) * 1000:.2f}), process CPU {cpu:.2f} ms")
        listed = sum(timer.own.values()) / n * 1000
        for section, own in sorted(timer.own.items(), key=lambda kv: -kv[1]):
            print(f"  {own / n * 1000:6.3f} ms  {own / n * 1000 / mean:5.1%}  {section} ({timer.calls[section] / n:.1f} a card)")
        print(f"  {mean - listed:6.3f} ms  {(mean - listed) / mean:5.1%}  the rest (Flask, routing, sessions, ...)")
        print(f"  SQL: {sql['n'] / n:.1f} statements a card, {sql['t'] / n * 1000:.3f} ms in the driver"
              " (inside the sections above)")
        print(f"  writing transactions: {locked['n'] / n:.1f} a card, from their BEGIN to their COMMIT's end"
              f" {locked['took'] / n * 1000:.3f} ms a card by the wall clock, {locked['cpu'] / n * 1000:.3f} ms of CPU"
              " (SQLite: the one write lock held)")


def lock_clock(engine) -> dict:
    """The wall time of the engine's writing transactions, from their BEGIN to the end of
    their commit or rollback (on SQLite, BEGIN IMMEDIATE: the database's one write lock)."""
    from sqlalchemy import event

    from referee.store.db import READ_ONLY

    out, began = {"took": 0.0, "cpu": 0.0, "n": 0}, {}

    @event.listens_for(engine, "begin")
    def _begin(conn):
        if not conn.get_execution_options().get(READ_ONLY):
            began[id(conn.connection)] = (time.perf_counter(), time.thread_time())

    def ended(original):
        def timed(dbapi_connection):
            try:
                original(dbapi_connection)
            finally:
                at = began.pop(id(dbapi_connection), None)
                if at is not None:
                    out["took"] += time.perf_counter() - at[0]
                    out["cpu"] += time.thread_time() - at[1]
                    out["n"] += 1
        return timed

    engine.dialect.do_commit = ended(engine.dialect.do_commit)
    engine.dialect.do_rollback = ended(engine.dialect.do_rollback)
    return out


if __name__ == "__main__":
    main()
