"""Live play and whole tournaments through the served API: does a write cost the same at the
first deal and the fortieth, the first match and the two-thousandth (issue 39)? Each figure
beside its baseline from the same run, on SQLite and on a throwaway PostgreSQL 15.

    python bench/bench_live.py --quick          # a couple of minutes
    python bench/bench_live.py --full           # the issue's sizes
    python bench/bench_live.py --quick --databases sqlite --parts table

Every server is gunicorn with referee.serving's settings (what `referee serve` runs: 2
workers of 8 threads), on 127.0.0.1, its database made fresh for the run. The parts:

1. table: one court-piece session (no target) played card by card through the API, one POST
   /v1/matches/{id}/events per card after POST .../deals with the deal's dealer, trump and
   hands, each write with If-Match. Two tables alternate write for write, so a loaded
   machine falls on both alike: one answered as a live app asks (the default,
   `Prefer: return=minimal`), one with `Prefer: return=representation` (the whole match: the
   old whole-match answer). The median append and the answer's size at deals 2, 10, 20, 40,
   and deal N against deal 2 (goal: within 1.2x, the size independent of the deal).
2. tables: 100 matches in 4 tournaments at once, from 16 client threads (each owning its
   tables and playing one card on each in turn, as fast as answers come: every table plays
   at the same steady pace, each write to a different match than the one before it), for a
   bounded time and at most a deal's cards: appends/s and p50/p99 at deal 1 (new matches) and
   at deal 30 (matches created with 29 played deals), against the limit: a bare write, a
   tiny WSGI app under the same gunicorn settings and database that checks a bearer key
   against a stored SHA-256 and inserts one row (bare_write below), from the same threads.
   Goals: deal 30 at least half the bare write's rate, its p99 within 1.5x of deal 1's.
   Beside it, for information only (the goals stay judged against the bare write): the bare
   write plus the feed's numbering, the one UPDATE ... RETURNING of the tournament's row that
   every real write makes (referee/store/publishing.py's _numbered: the write counted, the
   feed's number moved, the last change kept; on PostgreSQL it holds that row's lock to the
   commit), its owners in 4 tournaments as the live tables are: its own column of ratios.
3. tournament: finished one-deal Double Sir matches between different teams (new players in
   each), first with `referee import --close` (in three runs: the first 100, the middle, the
   last 100; each run's wall and CPU time less an import of an empty file's, its start-up),
   then in another tournament through the API (POST /v1/matches with the record, then POST
   .../close: the median of a match's two writes, and the workers' CPU a match): the time
   and the feed bytes (the compact JSON of its feed events, read back through GET
   /v1/tournaments/{id}/feed) each match adds, last 100 against first 100 (goal: within
   1.2x), and the database's bytes each match adds (SQLite: the pages in use, its WAL's
   included; PostgreSQL: pg_database_size).

Beside each wall time, the server workers' CPU time (from /proc) for the same writes: the
machine's load stretches the one more than the other (the other too, by up to twice under
load average 15 on the shared cores: compare CPU times of one run, not of runs apart).

--split (the tables part): the referee's server runs split_worker.SplitWorker (SPLIT_WORKER
below: referee.worker's ProblemWorker, each request's thread CPU taken apart), and each live
row is followed by where a write's CPU went: the worker's poller thread; gunicorn in the
request's thread (parsing, the environ, writing the answer, the access log, the hooks);
Flask around the view (its request context, routing, after-request hooks, the response
object); the view around the store (the body received, the answer's JSON, ETag and
headers); the store's write (the body parsed and validated, the key checked, the
connection's checkout and its pre-ping, the statements, the judging), the pre-ping apart;
and, beside the workers, the database server's CPU (PostgreSQL's processes) and the bench's
own (the clients), every row's bare writes included.

--quick: 10 deals, 100 tables for 8 s each, 300 matches; --full: 40 deals, 100 tables for
20 s each, 2,000 matches (--deals, --tables, --seconds, --matches change one size).
Figures only: no assertion; not part of the tests. Every loop is bounded in count and time;
every server started is stopped at the end.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_replay import deal_json  # noqa: E402

PY = sys.executable
WAIT = 60.0  # the longest one request is waited for
SIZES = {
    "quick": dict(deals=10, tables=100, threads=16, seconds=8.0, prefill=29, matches=300),
    "full": dict(deals=40, tables=100, threads=16, seconds=20.0, prefill=29, matches=2000),
}


# -- servers ----------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BARE_APP = '''
"""The limit: a write that checks a bearer key and inserts one row, nothing else."""
import hashlib
import json
import os
from datetime import datetime, timezone

from sqlalchemy import text

from referee.store.db import make_engine

engine = make_engine(os.environ["DATABASE_URL"])
# /numbered/<owner>: also the feed's numbering, as publishing.numbered's UPDATE of the tournament
NUMBERED = text("UPDATE bench_bare_tournaments SET write_count = write_count + 1, feed_seq = feed_seq + 1,"
                " changed_at = CASE WHEN changed_at IS NULL OR changed_at < :at THEN :at ELSE changed_at END"
                " WHERE id = :t RETURNING feed_seq")


def app(environ, start_response):
    key = environ.get("HTTP_AUTHORIZATION", "").removeprefix("Bearer ")
    size = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(size)
    path = environ.get("PATH_INFO", "/")
    owner = path.rsplit("/", 1)[-1]
    with engine.begin() as db:
        stored = db.execute(text("SELECT hash FROM bench_bare_keys WHERE id = :id"), {"id": owner}).scalar()
        if stored is None or stored != hashlib.sha256(key.encode()).hexdigest():
            start_response("403 Forbidden", [("Content-Type", "application/json")])
            return [b'{"status": 403}']
        if path.startswith("/numbered/"):
            at = datetime.now(timezone.utc).replace(tzinfo=None).isoformat(" ")
            db.execute(NUMBERED, {"t": int(owner.rsplit("-", 1)[-1]) % 4, "at": at}).scalar_one()
        row = db.execute(text("INSERT INTO bench_bare_rows (owner, body) VALUES (:o, :b) RETURNING id"),
                         {"o": owner, "b": body.decode()}).scalar()
    out = json.dumps({"id": row}).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(out)))])
    return [out]
'''


SPLIT_WORKER = """
\"\"\"bench_live --split: referee.worker's ProblemWorker, each request's thread CPU taken apart
(time.thread_time around gunicorn's handling, the WSGI app, the view, the store's write, the
pool's pre-ping), the totals written every 10 requests to $BENCH_SPLIT/<pid>.json with the
poller's (the main thread's) CPU.\"\"\"
import functools
import json
import os
import threading
import time

from referee.worker import ProblemWorker

_now = threading.local()


def _timed(name, f):
    @functools.wraps(f)
    def timed(*args, **kwargs):
        began = time.thread_time()
        try:
            return f(*args, **kwargs)
        finally:
            _now.took[name] = _now.took.get(name, 0.0) + time.thread_time() - began
    return timed


class SplitWorker(ProblemWorker):
    def load_wsgi(self):
        super().load_wsgi()
        app = self.wsgi.args[0]  # ProblemWorker's partial(closing_unread, app)
        self.wsgi = _timed("app", self.wsgi)
        for name, view in list(app.view_functions.items()):
            app.view_functions[name] = _timed("view", view)
        store = app.extensions["referee.store"]
        for name in ("append_events", "add_deal"):
            setattr(store, name, _timed("store", getattr(store, name)))
        dialect = store.db.engine.dialect
        dialect.do_ping = _timed("ping", dialect.do_ping)
        self.split, self.split_lock = {"requests": 0}, threading.Lock()

    def handle(self, conn):
        _now.took = {}
        began = time.thread_time()
        try:
            return super().handle(conn)
        finally:
            took = dict(_now.took, handle=time.thread_time() - began)
            with self.split_lock:
                self.split["requests"] += 1
                for k, v in took.items():
                    self.split[k] = self.split.get(k, 0.0) + v
                if self.split["requests"] % 10 == 0:
                    self._write()

    def _write(self):
        pid = os.getpid()
        fields = open(f"/proc/{pid}/task/{pid}/stat").read().rsplit(")", 1)[1].split()
        poller = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        with open(os.path.join(os.environ["BENCH_SPLIT"], f"{pid}.json"), "w") as f:
            json.dump(dict(self.split, poller=poller), f)
"""


def split_totals(where: Path) -> dict[str, dict]:
    """--split's totals so far, by worker (each worker's file, as last written)."""
    found = {}
    for path in where.glob("*.json"):
        try:
            found[path.name] = json.loads(path.read_text())
        except (OSError, ValueError):
            continue  # being written
    return found


def database_cpu(url: str) -> float:
    """CPU seconds of the PostgreSQL server behind `url` (its postmaster and the processes it
    started, those ended included), from /proc; 0 for SQLite (it runs in the workers)."""
    if not url.startswith("postgresql"):
        return 0.0
    if url not in PG_DIRS:
        return float("nan")
    pid = int((PG_DIRS[url] / "data" / "postmaster.pid").read_text().splitlines()[0])
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(x) for x in fields[11:15])
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class Window:
    """CPU seconds over one timed part: the workers', the database server's, the bench's own
    (its client threads), and --split's totals when the server keeps them."""

    def __init__(self, port: int, url: str, split: Path | None):
        self.port, self.url, self.split = port, url, split

    def read(self) -> tuple:
        own = os.times()
        return (workers_cpu(self.port), database_cpu(self.url), own.user + own.system,
                split_totals(self.split) if self.split else {})

    def __enter__(self):
        self.before = self.read()
        return self

    def __exit__(self, *exc):
        self.after = self.read()

    def per_write(self, writes: int) -> dict[str, float]:
        """ms a write: workers, database, client, and --split's parts (per request counted)."""
        (w0, d0, c0, s0), (w1, d1, c1, s1) = self.before, self.after
        out = {"workers": (w1 - w0) / writes * 1000, "database": (d1 - d0) / writes * 1000,
               "client": (c1 - c0) / writes * 1000}
        sums: dict[str, float] = {"new workers": len(set(s1) - set(s0))}
        for name, now in s1.items():
            then = s0.get(name, {})
            for k, v in now.items():
                sums[k] = sums.get(k, 0.0) + v - then.get(k, 0.0)
        if sums.get("requests"):
            out.update({k: v / sums["requests"] * 1000 for k, v in sums.items() if k not in ("requests", "new workers")},
                       requests=sums["requests"], new=sums["new workers"])
        return out


def bare_tables(url: str, owners: list[str], key: str) -> None:
    """The bare write's tables, in the referee's database (so the same engine settings): the
    keys, the rows, and the 4 tournaments' rows the numbered write updates."""
    import hashlib

    from sqlalchemy import text

    from referee.store.db import make_engine

    engine = make_engine(url)
    serial = "SERIAL" if engine.dialect.name == "postgresql" else "INTEGER"
    with engine.begin() as db:
        db.execute(text("CREATE TABLE bench_bare_keys (id VARCHAR(64) PRIMARY KEY, hash VARCHAR(64) NOT NULL)"))
        db.execute(text(f"CREATE TABLE bench_bare_rows (id {serial} PRIMARY KEY, owner VARCHAR(64), body TEXT)"))
        db.execute(text("CREATE TABLE bench_bare_tournaments (id INTEGER PRIMARY KEY, write_count INTEGER NOT NULL,"
                        " feed_seq INTEGER NOT NULL, changed_at TIMESTAMP)"))
        for t in range(4):
            db.execute(text("INSERT INTO bench_bare_tournaments VALUES (:t, 0, 0, NULL)"), {"t": t})
        for owner in owners:
            db.execute(text("INSERT INTO bench_bare_keys VALUES (:i, :h)"),
                       {"i": owner, "h": hashlib.sha256(key.encode()).hexdigest()})
    engine.dispose()


def start_server(app: str, url: str, cwd: Path, more: tuple[str, ...] = (),
                 env_more: dict | None = None) -> tuple[subprocess.Popen, int]:
    """gunicorn with referee.serving's settings (as `referee serve`), its 2 workers, on a free
    loopback port, answering /healthz (or anything, for the bare app) within 30 s; `more`:
    gunicorn's arguments after those (--split's worker class)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": f"{ROOT}:{cwd}", **(env_more or {})}
    proc = subprocess.Popen([PY, "-m", "gunicorn", "-c", "python:referee.serving", "--access-logfile", "/dev/null",
                             "--bind", f"127.0.0.1:{port}", "--workers", "2", *more, app],
                            cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return proc, port
        except urllib.error.HTTPError:
            return proc, port  # the bare app answers every path
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise RuntimeError(f"{app} did not start within 30 s")


PIDS: dict[int, int] = {}  # port -> the gunicorn master's pid, while it serves


def workers_cpu(port: int) -> float:
    """CPU seconds (user and system) the server's workers have used (Linux /proc): a figure
    the machine's load stretches less than wall times (see the module's docstring). The
    workers that ended (they are recycled) count by the master's cutime and cstime."""
    pid = PIDS[port]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = int(fields[13]) + int(fields[14])
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a worker just restarted
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


@contextmanager
def served(app: str, url: str, cwd: Path, more: tuple[str, ...] = (), env_more: dict | None = None):
    proc, port = start_server(app, url, cwd, more, env_more)
    PIDS[port] = proc.pid
    try:
        yield port
    finally:
        PIDS.pop(port, None)
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


PG_DIRS: dict[str, Path] = {}  # a throwaway PostgreSQL server's URL -> its directory, while it runs


@contextmanager
def database(kind: str, tmp: Path):
    """A fresh database URL at the head of the migrations: a SQLite file under `tmp`, or a
    database of a throwaway PostgreSQL server (tests/pg.py), stopped at the end."""
    from referee.store.db import upgrade

    if kind == "sqlite":
        path = Path(tempfile.mkdtemp(dir=tmp)) / "bench.db"
        url = f"sqlite:///{path}"
        upgrade(url)
        yield url
        return
    from tests.pg import Server, bindir

    found = bindir()
    if found is None:
        raise RuntimeError("PostgreSQL not found (pg_config --bindir)")
    server = Server(found).start()
    try:
        url = server.url()
        PG_DIRS[url] = server.dir
        upgrade(url)
        yield url
    finally:
        PG_DIRS.pop(url, None)
        server.stop()


def db_bytes(url: str) -> int:
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        import sqlite3

        with sqlite3.connect(path) as db:  # the pages in use, the WAL's not yet checkpointed included
            pages = db.execute("PRAGMA page_count").fetchone()[0] - db.execute("PRAGMA freelist_count").fetchone()[0]
            return pages * db.execute("PRAGMA page_size").fetchone()[0]
    from sqlalchemy import text

    from referee.store.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as db:
            return db.execute(text("SELECT pg_database_size(current_database())")).scalar()
    finally:
        engine.dispose()


# -- a client ---------------------------------------------------------------------------

class Client:
    """One keep-alive connection (one per thread); a connection the server closed while idle
    is opened again once."""

    def __init__(self, port: int):
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict, bytes, float]:
        data = None if body is None else json.dumps(body).encode()
        head = {"Content-Type": "application/json", **(headers or {})}
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
            began = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=head)
                response = self.conn.getresponse()
                out = response.read()
            except (http.client.RemoteDisconnected, ConnectionError, http.client.BadStatusLine):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            took = time.perf_counter() - began
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            return response.status, dict(response.getheaders()), out, took
        raise AssertionError("unreachable")

    def ok(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[dict, bytes, float]:
        status, head, out, took = self.send(method, path, body, headers)
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {out[:300]!r}")
        return head, out, took

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def tournament(client: Client, name: str, preset: str, options: dict | None = None) -> tuple[str, str]:
    _, out, _ = client.ok("POST", "/v1/tournaments", {"name": name, "preset": preset, "options": options or {}})
    made = json.loads(out)
    return made["id"], made["key"]


class Table:
    """One live match played card by card: start each deal, then one write per event."""

    def __init__(self, client: Client, tid: str, key: str, name: str, seed: int, record: dict | None = None,
                 prefer: str | None = None):
        from referee.engine import adjudicate, resolve

        self.client, self.key, self.prefer = client, key, prefer
        self.options, self.rng = resolve("court-piece"), random.Random(seed)
        body = {"tournament": tid, "external_id": name,
                "record": record or {"players": [f"{name} seat {s}" for s in range(4)]}}
        head, out, _ = client.ok("POST", "/v1/matches", body, self.auth())
        made = json.loads(out)
        self.id, self.etag = made["id"], head["ETag"]
        self.dealer, self.deals_started = 0, 0
        if record and record.get("deals"):
            from referee.engine import Record

            self.dealer = adjudicate(Record.from_dict({"preset": "court-piece", **record}))["next"]["dealer"]
            self.deals_started = len(record["deals"])
        self.events: list[dict] = []

    def auth(self) -> dict:
        head = {"Authorization": f"Bearer {self.key}"}
        if self.prefer:
            head["Prefer"] = f"return={self.prefer}"
        return head

    def write(self, path: str, body: dict) -> tuple[float, int, dict]:
        head, out, took = self.client.ok("POST", f"/v1/matches/{self.id}/{path}", body, {**self.auth(), "If-Match": self.etag})
        self.etag = head["ETag"]
        return took, len(out), json.loads(out)

    def start_deal(self) -> float:
        from referee.engine.simulate import random_deal

        deal = deal_json(random_deal(self.options, self.dealer, self.rng, reveal_rate=0.0))
        self.events = deal.pop("events")
        self.deals_started += 1
        took, _, _ = self.write("deals", deal)
        self.dealer = None  # known again from the deal's last answer
        return took

    def play(self) -> tuple[float, int]:
        """One card; the time and the answer's bytes."""
        took, size, answer = self.write("events", {"events": [self.events.pop(0)]})
        if not self.events:
            self.dealer = next_dealer(answer)
        return took, size

    def play_counted(self) -> tuple[float, int, float]:
        """One card, the only request on its server: also the workers' CPU seconds for it."""
        before = workers_cpu(self.client.port)
        took, size = self.play()
        return took, size, workers_cpu(self.client.port) - before


def next_dealer(answer: dict) -> int:
    """The next deal's dealer from a live answer (`next`, at its top or in the whole match's
    verdict)."""
    up = answer.get("next") or (answer.get("verdict") or {}).get("next") or {}
    return up.get("dealer", 0)


# -- 1. one table -------------------------------------------------------------------------

def one_table(port: int, deals: int) -> dict[str, dict[int, tuple[float, float, int, float]]]:
    """{prefer: {deal: (median ms, slowest ms, median answer bytes, mean CPU ms)}} at the
    checkpoints."""
    client = Client(port)
    tid, key = tournament(client, "One table", "court-piece", {"target": None})
    tables = {p: Table(client, tid, key, f"table-{p}", 39, prefer=p) for p in ("minimal", "representation")}
    marks = [d for d in (2, 10, 20, 40) if d <= deals] or [deals]
    if deals not in marks:
        marks.append(deals)
    found: dict[str, dict[int, tuple[float, float, int, float]]] = {p: {} for p in tables}
    for number in range(1, deals + 1):
        for t in tables.values():
            t.start_deal()
        samples: dict[str, list[tuple[float, int, float]]] = {p: [] for p in tables}
        while any(t.events for t in tables.values()):
            for p, t in tables.items():
                if t.events:
                    samples[p].append(t.play_counted())
        if number in marks:
            for p, got in samples.items():
                ms = [s * 1000 for s, _, _ in got]
                found[p][number] = (statistics.median(ms), max(ms), int(statistics.median(b for _, b, _ in got)),
                                    statistics.fmean(c for _, _, c in got) * 1000)
    client.close()
    return found


def show_table(found: dict) -> None:
    for prefer, marks in found.items():
        first = marks[min(marks)]
        label = "return=minimal (the default)" if prefer == "minimal" else "return=representation (whole match)"
        print(f"  one table, {label}:")
        for deal, (median, worst, size, cpu) in marks.items():
            print(f"    deal {deal:2}: median append {median:6.1f} ms ({median / first[0]:4.2f}x deal {min(marks)}),"
                  f" slowest {worst:6.1f} ms, server CPU {cpu:5.1f} ms ({cpu / max(first[3], 1e-9):4.2f}x),"
                  f" answer {size / 1024:5.1f} KiB ({size / first[2]:4.2f}x)")


# -- 2. many tables ---------------------------------------------------------------------------

def prefilled(deals: int, seed: int) -> dict:
    from referee.engine import resolve
    from referee.engine.simulate import random_record

    record = random_record("court-piece", resolve("court-piece", {"target": None}), deals, random.Random(seed),
                           {"target": None})
    return {"players": [f"p{seed}-{s}" for s in range(4)], "options": {"target": None},
            "deals": [deal_json(d) for d in record.deals]}


def run_threads(threads: int, work) -> list:
    """`work(i)` for each thread index at once; their results."""
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(work, range(threads)))


def many_tables(port: int, size: dict, prefill: int, url: str = "", split: Path | None = None) -> tuple:
    """(appends/s, p50 ms, p99 ms, appends, workers' CPU ms a write, CPU parts) of `tables`
    matches in 4 tournaments, each at deal prefill+1, played one card a turn by `threads`
    clients for at most `seconds`."""
    setup = Client(port)
    owners = [tournament(setup, f"Tables {k}", "court-piece", {"target": None}) for k in range(4)]
    setup.close()
    records = [prefilled(prefill, 100 + k) if prefill else None for k in range(4)]
    threads, tables = size["threads"], size["tables"]

    def make(i: int) -> list[Table]:
        client = Client(port)
        mine = []
        for n in range(i, tables, threads):
            tid, key = owners[n % 4]
            record = dict(records[n % 4], players=[f"t{n}-{s}" for s in range(4)]) if prefill else None
            mine.append(Table(client, tid, key, f"table-{n}", 1000 + n, record))
        for t in mine:
            t.start_deal()
        return mine

    mine = run_threads(threads, make)
    start = threading.Barrier(threads, timeout=WAIT)
    times: list[list[float]] = [[] for _ in range(threads)]

    def play(i: int) -> float:
        start.wait()
        began = time.perf_counter()
        while time.perf_counter() - began < size["seconds"] and any(t.events for t in mine[i]):
            for t in mine[i]:
                if t.events and time.perf_counter() - began < size["seconds"]:
                    times[i].append(t.play()[0])
        return time.perf_counter() - began

    with Window(port, url, split) as window:
        spans = run_threads(threads, play)
    for group in mine:
        for t in group[:1]:
            t.client.close()
    return timed(times, spans, window)


def timed(times: list[list[float]], spans: list[float], window: "Window") -> tuple:
    done = [x for ts in times for x in ts]
    return (*latency(done, max(spans), window.after[0] - window.before[0]), window.per_write(max(1, len(done))))


def latency(times: list[float], span: float, cpu: float) -> tuple[float, float, float, int, float]:
    """(writes/s, p50 ms, p99 ms, writes, the workers' CPU ms a write)."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return len(times) / span, statistics.median(ordered) * 1000, p99 * 1000, len(times), cpu / len(times) * 1000


def bare_write(port: int, size: dict, owners: list[str], key: str, kind: str = "bare", url: str = "") -> tuple:
    """The bare write (`kind` "bare"), or the bare write plus the feed's numbering ("numbered")."""
    threads = size["threads"]
    start = threading.Barrier(threads, timeout=WAIT)
    times: list[list[float]] = [[] for _ in range(threads)]
    body = {"events": [{"seat": 1, "play": "KH"}]}

    def write(i: int) -> float:
        client = Client(port)
        start.wait()
        began, n = time.perf_counter(), 0
        while time.perf_counter() - began < size["seconds"] and n < 100_000:
            owner = owners[(i + n * threads) % len(owners)]
            times[i].append(client.ok("POST", f"/{kind}/{owner}", body, {"Authorization": f"Bearer {key}"})[2])
            n += 1
        client.close()
        return time.perf_counter() - began

    with Window(port, url, None) as window:
        spans = run_threads(threads, write)
    return timed(times, spans, window)


def show_tables(bare, numbered, first, later, prefill: int, split: bool = False) -> None:
    """Each row's rate as a share of the bare write's (the goal's) and, in its own column, of
    the bare write plus the feed's numbering (information); with --split, where each row's
    CPU went."""
    rows = [("bare write (key check + one INSERT), the limit", bare),
            ("bare write + the feed's numbering (information)", numbered), ("live appends at deal 1", first),
            (f"live appends at deal {prefill + 1}", later)]
    for label, (rate, p50, p99, count, cpu, parts) in rows:
        print(f"    {label:48} {rate:6.1f} appends/s ({rate / bare[0]:4.2f} of bare, {rate / numbered[0]:4.2f} of"
              f" bare+numbering)  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  server CPU {cpu:5.1f} ms a write ({count} writes)")
        if split:
            show_split(parts)
    print(f"    deal {prefill + 1} against deal 1: rate {later[0] / first[0]:4.2f}x, p99 {later[2] / first[2]:4.2f}x"
          f" (goals: at least 0.5 of bare's rate: {later[0] / bare[0]:4.2f}; p99 within 1.5x;"
          f" information: {later[0] / numbered[0]:4.2f} of bare+numbering's)")


def show_split(parts: dict[str, float]) -> None:
    """--split's line: ms of CPU a write, by part."""
    line = f"workers {parts['workers']:.2f}"
    if "handle" in parts:
        g = parts.get
        line += (f" = poller {g('poller', 0):.2f} + gunicorn {g('handle', 0) - g('app', 0):.2f}"
                 f" + Flask {g('app', 0) - g('view', 0):.2f} + view {g('view', 0) - g('store', 0):.2f}"
                 f" + store {g('store', 0):.2f} (pre-ping {g('ping', 0):.2f})"
                 f" ({parts['requests']:.0f} requests taken apart; {parts['new']} workers started meanwhile,"
                 f" a start counted in its poller)")
    print(f"      CPU ms a write: {line}; database server {parts['database']:.2f}; bench clients {parts['client']:.2f}")


# -- 3. a tournament --------------------------------------------------------------------------

def finished_matches(count: int, seed: int = 5) -> list[dict]:
    """One-deal Double Sir records, each between four new players."""
    from referee.engine import resolve
    from referee.engine.simulate import random_deal

    options, rng = resolve("double-sir"), random.Random(seed)
    return [{"preset": "double-sir", "external_id": f"m{k}", "players": [f"m{k}-{s}" for s in range(4)],
             "deals": [deal_json(random_deal(options, rng.randrange(4), rng, reveal_rate=0.0))]}
            for k in range(count)]


def feed_bytes(client: Client, tid: str, key: str, after: int) -> tuple[int, int, int]:
    """(bytes, events, cursor) of the feed's events after `after` (pages of 1,000, at most
    1,000 pages)."""
    total = events = 0
    for _ in range(1000):
        _, out, _ = client.ok("GET", f"/v1/tournaments/{tid}/feed?after={after}&limit=1000",
                              headers={"Authorization": f"Bearer {key}"})
        page = json.loads(out)
        for e in page["events"]:
            total += len(json.dumps(e, separators=(",", ":")))
        events += len(page["events"])
        if not page["events"] or page.get("next_cursor") in (None, after):
            break
        after = page["next_cursor"]
    return total, events, after


def import_run(path: Path, tid: str, url: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `referee import --close` of `path`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([PY, "-m", "referee.cli", "import", str(path), "--tournament", tid, "--database", url,
                           "--id-from", "name", "--close"], capture_output=True, text=True, timeout=3600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    took = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"referee import ({done.returncode}): {done.stdout[-500:]} {done.stderr[-500:]}")
    return took, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def parts_of(records: list[dict]) -> list[tuple[str, list[dict]]]:
    n = len(records)
    if n < 200:
        return [("all", records)]
    return [(label, part) for label, part in (("first 100", records[:100]), ("middle", records[100:n - 100]),
                                               ("last 100", records[n - 100:])) if part]


def imported(port: int, url: str, tmp: Path, records: list[dict]) -> list[tuple]:
    """`referee import --close` in three runs (first 100, middle, last 100), each run's
    start-up (an import of an empty file, the median of 3) taken off: per run, the wall and
    CPU seconds, feed bytes and database bytes per match."""
    client = Client(port)
    tid, key = tournament(client, "Imported", "double-sir")
    empty = tmp / "empty.jsonl"
    empty.write_text("")
    starts = [import_run(empty, tid, url) for _ in range(3)]
    start_wall, start_cpu = statistics.median(w for w, _ in starts), statistics.median(c for _, c in starts)
    cursor, out = 0, []
    for label, part in parts_of(records):
        path = tmp / f"{label.replace(' ', '-')}.jsonl"  # ids `first-100.jsonl:N`: one a match
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "external_id"}) + "\n" for r in part))
        size = db_bytes(url)
        wall, cpu = import_run(path, tid, url)
        fed, _, cursor = feed_bytes(client, tid, key, cursor)
        out.append((label, (wall - start_wall) / len(part), (cpu - start_cpu) / len(part), fed // len(part),
                     (db_bytes(url) - size) // len(part)))
    client.close()
    return out


def posted(port: int, url: str, records: list[dict]) -> list[tuple]:
    """POST /v1/matches and POST .../close of each record in turn: per part (first 100, the
    middle, last 100), the median seconds of a match's two writes, the server's CPU seconds,
    feed bytes and database bytes per match."""
    client = Client(port)
    tid, key = tournament(client, "Posted", "double-sir")
    auth = {"Authorization": f"Bearer {key}"}
    cursor, out = 0, []
    for label, part in parts_of(records):
        size, took, cpu = db_bytes(url), [], workers_cpu(port)
        for r in part:
            body = {"tournament": tid, "external_id": r["external_id"],
                    "record": {k: v for k, v in r.items() if k != "external_id"}}
            head, made, a = client.ok("POST", "/v1/matches", body, auth)
            _, _, b = client.ok("POST", f"/v1/matches/{json.loads(made)['id']}/close", None,
                                {**auth, "If-Match": head["ETag"]})
            took.append(a + b)
        cpu = workers_cpu(port) - cpu
        fed, _, cursor = feed_bytes(client, tid, key, cursor)
        out.append((label, statistics.median(took), cpu / len(part), fed // len(part),
                    (db_bytes(url) - size) // len(part)))
    client.close()
    return out


def show_tournament(label: str, rows: list, kinds: tuple[str, str]) -> None:
    first = rows[0]
    print(f"  {label}:")
    for part, one, two, fed, size in rows:
        print(f"    {part:10} {kinds[0]} {one * 1000:7.1f} ms/match ({one / first[1]:4.2f}x first), {kinds[1]} {two * 1000:7.1f} ms"
              f" ({two / first[2]:4.2f}x)  feed {fed / 1024:6.1f} KiB/match ({fed / max(first[3], 1):4.2f}x)"
              f"  database {size / 1024:6.1f} KiB/match")


# -- the run -----------------------------------------------------------------------------------

def run(kind: str, size: dict, parts: set[str], tmp: Path, split: bool = False) -> None:
    print(f"{kind}:", flush=True)
    (tmp / "bare_app.py").write_text(BARE_APP)
    if "table" in parts:
        with database(kind, tmp) as url, served("wsgi:app", url, ROOT) as port:
            show_table(one_table(port, size["deals"]))
    if "tables" in parts:
        with database(kind, tmp) as url:
            owners, key = [f"owner-{k}" for k in range(size["tables"])], "bench-key"
            bare_tables(url, owners, key)
            with served("bare_app:app", url, tmp) as port:
                bare = bare_write(port, size, owners, key, url=url)
                numbered = bare_write(port, size, owners, key, "numbered", url)
            where = Path(tempfile.mkdtemp(dir=tmp)) if split else None
            if where:
                (tmp / "split_worker.py").write_text(SPLIT_WORKER)
            more = ("--worker-class", "split_worker.SplitWorker") if split else ()
            with served("wsgi:app", url, ROOT, more, {"BENCH_SPLIT": str(where), "PYTHONPATH": f"{ROOT}:{tmp}"}
                        if split else None) as port:
                first = many_tables(port, size, 0, url, where)
                later = many_tables(port, size, size["prefill"], url, where)
        print(f"  {size['tables']} tables in 4 tournaments, {size['threads']} client threads, {size['seconds']:.0f} s each:")
        show_tables(bare, numbered, first, later, size["prefill"], split)
    if "tournament" in parts:
        records = finished_matches(size["matches"])
        with database(kind, tmp) as url, served("wsgi:app", url, ROOT) as port:
            rows = imported(port, url, tmp, records)
        show_tournament(f"{len(records)} one-deal Double Sir matches, referee import --close", rows, ("wall", "CPU"))
        with database(kind, tmp) as url, served("wsgi:app", url, ROOT) as port:
            rows = posted(port, url, records)
        show_tournament(f"the same {len(records)} through the API (POST /v1/matches, then close)", rows,
                        ("median", "server CPU"))
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="10 deals, 100 tables for 8 s, 300 matches (the default)")
    mode.add_argument("--full", action="store_true", help="the issue's sizes: 40 deals, 100 tables for 20 s, 2,000 matches")
    parser.add_argument("--databases", default="sqlite,postgresql", help="sqlite, postgresql or both (comma-separated)")
    parser.add_argument("--parts", default="table,tables,tournament", help="which parts (comma-separated)")
    parser.add_argument("--split", action="store_true",
                        help="tables: also where a write's CPU went (the server's worker taken apart; see above)")
    for name in ("deals", "tables", "seconds", "matches"):
        parser.add_argument(f"--{name}", type=float if name == "seconds" else int, help=f"override the mode's {name}")
    args = parser.parse_args()
    size = dict(SIZES["full" if args.full else "quick"])
    size.update({k: getattr(args, k) for k in ("deals", "tables", "seconds", "matches") if getattr(args, k)})
    parts = set(args.parts.split(","))
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"bench_live ({'full' if args.full else 'quick'}), commit {head or '?'}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())},"
          f" load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-live-") as d:
        for kind in args.databases.split(","):
            run(kind.strip(), size, parts, Path(d), args.split)
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
