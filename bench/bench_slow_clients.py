"""Slow and idle clients against the served referee, side by side with gunicorn's default
(sync) workers in the same run. Everything on 127.0.0.1; every wait bounded.

    python bench/bench_slow_clients.py

    python bench/bench_slow_clients.py --cases trickle,idle   # some cases only

Each case runs against each server (2 worker processes each, the same run): gunicorn's
default sync workers and plain gthread (8 threads), the unprotected baselines, then
`referee serve`'s settings (referee.serving). The cases (CASES below; add one as a function
of the port that returns its line):
- alone: GET /healthz alone (median of 5);
- idle: GET /healthz while four sockets have sent half a request (`GET /healthz HTTP/1.1`,
  `Host: x`, then nothing);
- trickle (slowloris): 48 connections each sending one header line every 4 s for 24 s, and
  a /healthz probe every 2 s meanwhile (each waited for at most 5 s): probes answered, and
  the worst;
- slow-reader: a reader sending a batch of about 15 MiB (full deals) and taking its answer
  at 1 MiB/s, and GET /healthz meanwhile; the reader's lines and whether the answer was
  complete (its terminating chunk);
- trickle-chunked, trickle-expect (issue 38): 64 connections from one client, each sending
  a byte of its body every 8 s for 24 s (chunked, or after `Expect: 100-continue`), and a
  /healthz probe every 2 s meanwhile (each waited for at most 5 s);
- many-connections (issue 38): 2,100 connections from one client (gunicorn's workers take
  1,000 each), each sending a header line every 4 s for 16 s, and /healthz probed from
  another address (127.0.0.2) every 2 s meanwhile: how many were opened, how many were
  answered 429 at once, and the probes;
- never-closing: 20 clients each asking with `Connection: close`, then neither reading nor
  closing, and /healthz probed from another address every 2 s for 12 s.

Webhook delivery cases (DELIVERY below, each a function of the worker's settings) run
against the unprotected baseline (one subscription at a time, 10 s an attempt, no budget:
the worker before issue 33) and `referee deliver`'s settings:
- slow-receivers: one tournament, four subscriptions: the first receiver answers 200 only
  after 7 s, the three others at once; one match's events, the worker running for at most
  90 s: when the prompt receivers had every event, and what the slow one got;
- slow-fleet (issue 38): 16 subscriptions whose receivers answer 200 after 4.5 s (under the
  attempt's limit: never failing), each with a match's events; once the first of them has
  an event, another tournament writes its first event: how long until its receiver has it
  (at most 120 s).

Perfect-play cases (PERFECT_PLAY below) run against `referee serve`'s settings twice, with
perfect play unbounded (no time budget, no search slots, searches not stopped when their
client goes: the referee before issue 33, the baseline) and as served (referee.budget):
- claim-flood: 16 POSTs of about 1 KB, a record whose claim is disputed at the first lead
  (settling it searches to the claim's node limit), each sent and then disconnected; a
  /healthz probe every second for 20 s meanwhile (each waited for at most 5 s): probes
  answered, the worst, and the CPU time the workers spent in those 20 s;
- analyses: 32 concurrent POST /v1/analysis of a Double Sir deal's first lead, each searched
  to its time limit (REFEREE_ANALYSIS_MAX_SECONDS=2 as the issue ran them, the node limit
  out of reach), and /healthz meanwhile: the answers by status, how long the 32 took, and
  the worst /healthz.

The fair-use case (FAIR below) runs against `referee serve`'s settings twice, with search slots
given first come and a request finding none refused at once (REFEREE_SEARCH_QUEUE_SECONDS=0:
the referee before issue 38, the baseline) and as served (a fair queue, referee.slots):
- claim-loop: four connections from 127.0.0.1 (so both workers have some) looping disputed
  claims that search to the claim's node limit (REFEREE_CLAIM_MAX_NODES=200000 here, a new
  deal each time: no claim settled before), for 20 s; another client (127.0.0.2) posts a
  quick claim every second meanwhile: its answers by status and the slowest.

Figures only: no assertion; not part of the tests.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_replay import make_texts  # noqa: E402
from tests.solver.claim_deals import early_claim  # noqa: E402

PY = sys.executable
WAIT = 40.0            # the longest any one request is waited for
TARGET = 15 * 2**20    # bytes of the batch
RATE = 2**20           # bytes a second the slow reader takes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args: list[str], env: dict) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen([PY, "-m", "gunicorn", *args, "--bind", f"127.0.0.1:{port}", "--workers", "2", "wsgi:app"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("gunicorn did not start")


def healthz(port: int, wait: float = WAIT) -> float | None:
    """Seconds for GET /healthz, or None when not answered within `wait`."""
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=wait) as r:
            r.read()
    except OSError:
        return None
    return time.perf_counter() - began


def shown(seconds: float | None, wait: float = WAIT) -> str:
    return f"> {wait:.0f} s" if seconds is None else f"{seconds * 1000:,.1f} ms"


def with_idle_sockets(port: int) -> float | None:
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    try:
        for sock in idle:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.5)
        return healthz(port)
    finally:
        for sock in idle:
            sock.close()


def trickle(port: int, conns: int = 48, every: float = 4.0, seconds: float = 24.0, probe_every: float = 2.0) -> str:
    """Slowloris: `conns` connections each sending one header line every `every` seconds."""
    tricklers = []
    for _ in range(conns):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=1)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            tricklers.append(sock)
        except OSError:
            break
    probes, began, line = [], time.perf_counter(), 0
    next_line = began + every
    try:
        while time.perf_counter() - began < seconds:
            if time.perf_counter() >= next_line:
                line, next_line = line + 1, next_line + every
                for sock in tricklers:
                    try:
                        sock.sendall(b"X-Line-%d: still sending\r\n" % line)
                    except OSError:
                        pass  # cut by the server: the protection working
            probe_began = time.perf_counter()
            probes.append(healthz(port, wait=5.0))
            time.sleep(max(0.0, probe_began + probe_every - time.perf_counter()))
    finally:
        for sock in tricklers:
            sock.close()
    answered = [p for p in probes if p is not None]
    worst = shown(max(answered), wait=5.0) if answered else "-"
    return f"trickle: {len(tricklers)} conns, /healthz answered {len(answered)} of {len(probes)} (worst {worst})"


def _open(port: int, count: int, head: bytes, source: str = "127.0.0.1") -> list[socket.socket]:
    """Up to `count` connections (each connect waited for 1 s at most), each sent `head`."""
    opened = []
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=1, source_address=(source, 0))
            sock.sendall(head)
        except OSError:
            break
        opened.append(sock)
    return opened


def _keep_sending(socks: list[socket.socket], piece: bytes, every: float, seconds: float, port: int,
                  source: str = "127.0.0.1") -> list[float | None]:
    """`piece` on each socket every `every` seconds for `seconds`, and a /healthz probe (from
    `source`) every 2 s meanwhile, each waited for 5 s at most: the probes."""
    probes, began = [], time.monotonic()
    next_piece = began + every
    while time.monotonic() - began < seconds:
        if time.monotonic() >= next_piece:
            next_piece += every
            for sock in socks:
                try:
                    sock.sendall(piece)
                except OSError:
                    pass  # cut by the server
        probe_began = time.monotonic()
        probes.append(_healthz_from(port, source))
        time.sleep(max(0.0, probe_began + 2.0 - time.monotonic()))
    return probes


def _healthz_from(port: int, source: str) -> float | None:
    began = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    return time.perf_counter() - began if data.startswith(b"HTTP/1.1 200") else None


BODY_HEADS = {
    "chunked": b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n",
    "expect": b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n",
}
BODY_PIECES = {"chunked": b"1\r\n \r\n", "expect": b" "}


def trickle_bodies(port: int, kind: str, conns: int = 64, every: float = 8.0, seconds: float = 24.0) -> str:
    """The issue's reproduction: `conns` connections from one client, each sending a byte of
    its body every `every` seconds (chunked, or after `Expect: 100-continue`)."""
    socks = _open(port, conns, BODY_HEADS[kind] + BODY_PIECES[kind])
    try:
        probes = _keep_sending(socks, BODY_PIECES[kind], every, seconds, port)
    finally:
        for sock in socks:
            sock.close()
    return f"{kind} bodies, a byte every {every:.0f} s on {len(socks)} conns: {_probed(probes)}"


def many_connections(port: int, conns: int = 2100, seconds: float = 16.0) -> str:
    """More connections from one client than gunicorn's workers take (1,000 each), each
    sending a header line every 4 s; /healthz probed from another address (127.0.0.2)."""
    socks = _open(port, conns, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    try:
        time.sleep(1)
        refused = sum(_status(sock) == b"429" for sock in socks)
        probes = _keep_sending(socks, b"X-Line: still sending\r\n", 4.0, seconds, port, source="127.0.0.2")
    finally:
        for sock in socks:
            sock.close()
    return (f"{len(socks):,} of {conns:,} conns opened ({refused:,} answered 429 at once); another client's "
            f"{_probed(probes)}")


def never_closing(port: int, conns: int = 20, seconds: float = 12.0) -> str:
    """`conns` clients each asking with `Connection: close`, then neither reading nor closing;
    /healthz probed from another address (127.0.0.2) every 2 s meanwhile."""
    socks = _open(port, conns, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    try:
        probes = _keep_sending(socks, b"", 60.0, seconds, port, source="127.0.0.2")
    finally:
        for sock in socks:
            sock.close()
    return f"{len(socks)} clients never closing after a closing answer: another client's {_probed(probes)}"


def _status(sock: socket.socket) -> bytes:
    """The status of an answer already there (without waiting), else b""."""
    sock.settimeout(0)
    try:
        return sock.recv(64)[9:12]
    except OSError:
        return b""
    finally:
        sock.settimeout(1)


def batch_body() -> tuple[bytes, int]:
    """JSON Lines of full deals, about TARGET bytes; (body, records)."""
    per_record = statistics.mean(len(t) + 1 for t in make_texts(20))
    count = min(10_000, int(TARGET / per_record))
    return "\n".join(make_texts(count)).encode(), count


def dechunk(data: bytes) -> tuple[bytes, bool]:
    """The body of a chunked answer, and whether its terminating chunk arrived."""
    _, _, rest = data.partition(b"\r\n\r\n")
    body = bytearray()
    while rest:
        size_line, sep, rest = rest.partition(b"\r\n")
        if not sep:
            return bytes(body), False
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return bytes(body), True
        body += rest[:size]
        rest = rest[size + 2:]
    return bytes(body), False


def slow_read(port: int, body: bytes, result: dict) -> None:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)  # the reader's pace, not the kernel's
    sock.settimeout(WAIT)
    sock.connect(("127.0.0.1", port))
    began = time.perf_counter()
    sock.sendall(b"POST /v1/verdicts/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                 b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
    data, step = bytearray(), RATE // 16
    try:
        while chunk := sock.recv(step):
            data += chunk
            time.sleep(max(0.0, began + len(data) / RATE - time.perf_counter()))  # RATE on average
    except OSError:
        pass
    sock.close()
    text, complete = dechunk(bytes(data))
    result.update(bytes=len(text), lines=text.count(b"\n"), complete=complete, seconds=time.perf_counter() - began)


def during_slow_read(port: int, body: bytes) -> tuple[dict, list[float | None]]:
    result: dict = {}
    reader = threading.Thread(target=slow_read, args=(port, body, result))
    reader.start()
    latencies = []
    time.sleep(1)
    while reader.is_alive() and len(latencies) < 10:
        latencies.append(healthz(port))
        time.sleep(1)
    reader.join(timeout=900)  # a loaded machine computes the answer slowly too
    return result, latencies


def alone(port: int) -> str:
    return f"/healthz alone {shown(statistics.median(healthz(port) or WAIT for _ in range(5)))}"


def idle(port: int) -> str:
    return f"4 idle sockets: /healthz {shown(with_idle_sockets(port))}"


def slow_reader(port: int) -> str:
    body, records = BATCH
    read, latencies = during_slow_read(port, body)
    answered = [x for x in latencies if x is not None]
    worst = shown(None if len(answered) < len(latencies) else max(answered, default=0))
    return (f"slow reader: {read.get('lines', 0):,} of {records:,} lines, {read.get('bytes', 0) / 2**20:.1f} MiB in "
            f"{read.get('seconds', 0):.1f} s, {'complete' if read.get('complete') else 'CUT (no terminating chunk)'}; "
            f"/healthz meanwhile: worst {worst}")


def slow_receivers(conf: dict, delay: float = 7.0, prompt: int = 3, limit: float = 90.0) -> str:
    from referee.store.db import Database, upgrade
    from referee.store.delivery import Worker
    from referee.store.models import Tournament, Webhook
    from referee.store.service import Store
    from referee.store.webhooks import Webhooks
    from tests.helpers import won_by
    from tests.store.receiver import Receiver

    logging.getLogger("referee.deliver").disabled = True  # its failed attempts are the figures here
    os.environ.setdefault("REFEREE_SECRET_KEY", "bench_slow_clients")
    os.environ["REFEREE_WEBHOOK_HOSTS"] = "127.0.0.1"
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'hooks.db'}"
        upgrade(url)
        store = Store(Database(url))
        t, key, _ = store.create_tournament("bench", "court-piece", {}, True)
        receivers = [Receiver(delay=delay)] + [Receiver() for _ in range(prompt)]
        for rx in receivers:
            rx.__enter__()
        try:
            slow_id = Webhooks(store).register(t.id, key, receivers[0].url)[0]["id"]  # first: served first
            for rx in receivers[1:]:
                Webhooks(store).register(t.id, key, rx.url)
            store.create_match(t.id, key, {"players": ["A", "B", "C", "D"], "deals": [won_by(0, [1] * 7)]}, None)
            with store.db.transaction() as s:
                events = s.get(Tournament, t.id).feed_seq
            worker, stop, began = Worker(store.db, conf=conf), threading.Event(), time.perf_counter()

            def work():
                while not stop.is_set() and time.perf_counter() - began < limit:
                    worker.run_once()
                    stop.wait(0.05)
            thread = threading.Thread(target=work, daemon=True)
            thread.start()
            for rx in receivers[1:]:
                rx.wait_for(events, seconds=max(0.0, began + limit - time.perf_counter()))
            took = time.perf_counter() - began
            got = sum(min(events, len(rx.accepted())) for rx in receivers[1:])
            stop.set()
            thread.join(timeout=conf["timeout"] + 5)
            with store.db.transaction() as s:
                hook = s.get(Webhook, slow_id)
                slow = f"slow one: {hook.delivered_seq} of {events} delivered, {hook.failures} failed in a row"
        finally:
            for rx in receivers:
                rx.__exit__(None, None, None)
            store.db.dispose()
    whole = got == events * prompt
    when = f"after {took:.1f} s" if whole else f"not within {limit:.0f} s ({got} of {events * prompt})"
    return f"slow receivers: the {prompt} prompt ones had all {events} events {when}; {slow}"


def slow_fleet(conf: dict, delay: float = 4.5, fleet: int = 16, limit: float = 120.0) -> str:
    from referee.store.db import Database, upgrade
    from referee.store.delivery import Worker
    from referee.store.service import Store
    from referee.store.webhooks import Webhooks
    from tests.helpers import won_by
    from tests.store.receiver import Receiver

    logging.getLogger("referee.deliver").disabled = True
    os.environ.setdefault("REFEREE_SECRET_KEY", "bench_slow_clients")
    os.environ["REFEREE_WEBHOOK_HOSTS"] = "127.0.0.1"
    record = {"players": ["A", "B", "C", "D"], "deals": [won_by(0, [1] * 7)]}
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'hooks.db'}"
        upgrade(url)
        store = Store(Database(url))
        slow = [Receiver(delay=delay) for _ in range(fleet)]
        prompt = Receiver()
        for rx in [*slow, prompt]:
            rx.__enter__()
        stop = threading.Event()
        try:
            busy, busy_key, _ = store.create_tournament("busy", "court-piece", {}, True)
            for rx in slow:
                Webhooks(store).register(busy.id, busy_key, rx.url)
            store.create_match(busy.id, busy_key, record, None)
            other, other_key, _ = store.create_tournament("other", "court-piece", {}, True)
            Webhooks(store).register(other.id, other_key, prompt.url)
            worker = Worker(store.db, conf=conf)

            def work():
                while not stop.is_set():
                    worker.run_once()
                    stop.wait(0.05)
            thread = threading.Thread(target=work, daemon=True)
            thread.start()
            while not any(rx.arrivals for rx in slow):
                time.sleep(0.05)
            store.create_match(other.id, other_key, record, None)
            written = time.monotonic()
            got = prompt.wait_for(1, seconds=limit)
            took = prompt.arrivals[0] - written if got else None
            stop.set()
            thread.join(timeout=conf["timeout"] + 10)
        finally:
            stop.set()
            for rx in [*slow, prompt]:
                rx.__exit__(None, None, None)
            store.db.dispose()
    when = f"after {took:.1f} s" if took is not None else f"not within {limit:.0f} s"
    return f"slow fleet: {fleet} receivers at {delay:g} s each; another tournament's first event arrived {when}"


def _workers_cpu(master: int) -> float:
    """CPU seconds (user and system) the master's worker processes have used so far."""
    total = 0
    for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def _post_and_leave(port: int, path: str, body: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)


def _probes(seconds: float, every: float, port: int, until=None) -> list[float | None]:
    """/healthz every `every` seconds for `seconds` (or while `until()`), each waited for 5 s at most."""
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end and (until is None or until()):
        began = time.monotonic()
        out.append(healthz(port, 5.0))
        time.sleep(max(0.0, every - (time.monotonic() - began)))
    return out


def _probed(probes: list[float | None]) -> str:
    answered = [p for p in probes if p is not None]
    worst = shown(max(answered), 5.0) if len(answered) == len(probes) and answered else "> 5 s"
    return f"/healthz {len(answered)} of {len(probes)} answered, worst {worst}"


def claim_flood(port: int, master: int) -> str:
    body = json.dumps(early_claim()).encode()
    cpu = _workers_cpu(master)
    for _ in range(16):
        _post_and_leave(port, "/v1/verdicts", body)
    probes = _probes(20.0, 1.0, port)
    return (f"claim flood ({len(body):,} B x 16, gone): {_probed(probes)}; "
            f"workers' CPU in those 20 s {_workers_cpu(master) - cpu:.1f} s")


def claim_loop(port: int, master: int) -> str:
    import http.client

    from tests.test_budget import claim_deal, record_of

    stop, searched = time.monotonic() + 20.0, []

    def loop(seed: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        while time.monotonic() < stop:
            conn.request("POST", "/v1/verdicts", json.dumps(early_claim(seed)), {"Content-Type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            searched.append(answer.status)
            seed += 4
        conn.close()

    def victim() -> tuple[int, float]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT, source_address=("127.0.0.2", 0))
        began = time.monotonic()
        try:
            conn.request("POST", "/v1/verdicts", json.dumps(record_of(claim_deal(3))), {"Content-Type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            return answer.status, time.monotonic() - began
        except OSError:
            return 0, time.monotonic() - began
        finally:
            conn.close()

    loops = [threading.Thread(target=loop, args=(1000 + k,)) for k in range(4)]
    for t in loops:
        t.start()
    time.sleep(1.0)  # both searching
    answers = []
    while time.monotonic() < stop:
        began = time.monotonic()
        answers.append(victim())
        time.sleep(max(0.0, 1.0 - (time.monotonic() - began)))
    for t in loops:
        t.join()
    statuses = [s for s, _ in answers]
    counts = ", ".join(f"{statuses.count(c)} x {c or 'no answer'}" for c in sorted(set(statuses)))
    looped = ", ".join(f"{searched.count(c)} x {c}" for c in sorted(set(searched)))
    return (f"four connections looping claims ({looped}); another client's claim each second: "
            f"{counts}, the slowest {max(t for _, t in answers):.2f} s")


def analyses(port: int, master: int) -> str:
    record = early_claim()
    record["preset"] = "double-sir"  # a pile game's first lead: past 2 s of search
    record["deals"][0]["events"] = []
    body = json.dumps({"record": record, "deal": 0}).encode()
    statuses: list[int] = []

    def ask() -> None:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/analysis", body,
                                         {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as r:
                statuses.append(r.status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
        except OSError:
            statuses.append(0)

    began = time.monotonic()
    askers = [threading.Thread(target=ask) for _ in range(32)]
    for t in askers:
        t.start()
    probes = _probes(300.0, 0.5, port, lambda: any(t.is_alive() for t in askers))
    for t in askers:
        t.join()
    took = time.monotonic() - began
    counts = ", ".join(f"{statuses.count(c)} x {c or 'no answer'}" for c in sorted(set(statuses)))
    return f"32 analyses at once: {counts} in {took:.1f} s; {_probed(probes)}"


CASES = {"alone": alone, "idle": idle, "trickle": trickle, "slow-reader": slow_reader,
         "trickle-chunked": partial(trickle_bodies, kind="chunked"),
         "trickle-expect": partial(trickle_bodies, kind="expect"), "many-connections": many_connections,
         "never-closing": never_closing}
DELIVERY = {"slow-receivers": slow_receivers, "slow-fleet": slow_fleet}
PERFECT_PLAY = {"claim-flood": claim_flood, "analyses": analyses}
FAIR = {"claim-loop": claim_loop}
FAIR_SERVERS = [("first come, no queue, baseline", {"REFEREE_SEARCH_QUEUE_SECONDS": "0"}),
                ("referee serve (referee.slots)", {})]
FAIR_LIMITS = {"REFEREE_CLAIM_MAX_NODES": "200000"}  # short searches: the loop keeps the slots busy
UNBOUNDED = {"REFEREE_PERFECT_PLAY_MAX_SECONDS": "0", "REFEREE_SEARCHES_PER_PROCESS": "0",
             "REFEREE_SEARCHES_PER_SERVER": "0", "REFEREE_PERFECT_PLAY_WATCH_CLIENTS": "0"}
ANALYSIS_LIMITS = {"REFEREE_ANALYSIS_MAX_SECONDS": "2", "REFEREE_ANALYSIS_MAX_NODES": "1000000000"}
PERFECT_PLAY_SERVERS = [("perfect play unbounded, baseline", UNBOUNDED), ("referee serve (referee.budget)", {})]
NO_CONFIG = ["-c", "/dev/null"]  # not the repository's gunicorn.conf.py: gunicorn's own defaults
SERVERS = [
    ("gunicorn default (sync), baseline", NO_CONFIG),
    ("gunicorn gthread, 8 threads, baseline", [*NO_CONFIG, "--worker-class", "gthread", "--threads", "8"]),
    ("referee serve (referee.serving)", ["-c", "python:referee.serving"]),
]
BATCH: tuple[bytes, int] = (b"", 0)


def measure(name: str, args: list[str], env: dict, cases: list[str]) -> None:
    proc, port = start(args, env)
    try:
        for n, case in enumerate(cases):
            line = CASES[case](port) if case in CASES else {**PERFECT_PLAY, **FAIR}[case](port, proc.pid)
            print(f"{name if n == 0 else '':<38} {line}", flush=True)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # sync workers wait for their clients
            proc.kill()
            proc.wait(timeout=30)


def workers() -> list[tuple[str, dict]]:
    from referee.store.delivery import BATCH as EVENTS, settings

    baseline = {**settings(), "timeout": 10.0, "budget": float("inf"), "turn": EVENTS, "threads": 1,
                "slow": float("inf")}
    return [("unprotected delivery, baseline", baseline), ("referee deliver (referee.store.delivery)", settings())]


def main() -> None:
    global BATCH
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    every = [*CASES, *DELIVERY, *PERFECT_PLAY, *FAIR]
    parser.add_argument("--cases", default=",".join(every), help=f"comma-separated, of {', '.join(every)}")
    chosen = parser.parse_args().cases.split(",")
    cases = [c for c in chosen if c in CASES]
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'referee.db'}"
        subprocess.run([PY, "-m", "referee.cli", "db", "upgrade", "--database", url], check=True,
                       stdout=subprocess.DEVNULL)
        env = {**os.environ, "DATABASE_URL": url}
        if "slow-reader" in cases:
            BATCH = batch_body()
            print(f"batch: {BATCH[1]:,} full deals, {len(BATCH[0]) / 2**20:.1f} MiB in; reader at {RATE / 2**20:.0f} MiB/s")
        for name, args in SERVERS if cases else []:
            measure(name, args, env, cases)
        perfect = [c for c in chosen if c in PERFECT_PLAY]
        for name, unbounded in PERFECT_PLAY_SERVERS if perfect else []:
            measure(name, SERVERS[-1][1], {**env, **ANALYSIS_LIMITS, **unbounded}, perfect)
        fair = [c for c in chosen if c in FAIR]
        for name, queue in FAIR_SERVERS if fair else []:
            measure(name, SERVERS[-1][1], {**env, **FAIR_LIMITS, **queue}, fair)
    for case in (c for c in chosen if c in DELIVERY):
        for name, conf in workers():
            print(f"{name:<42} {DELIVERY[case](conf)}", flush=True)


if __name__ == "__main__":
    main()
