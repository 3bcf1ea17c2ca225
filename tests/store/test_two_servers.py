"""How the service grows past one machine: two app servers (gunicorn) and two delivery
workers on one PostgreSQL. Both servers take appends at once; every webhook event is
delivered once, in order."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests import webclient
from tests.helpers import won_by
from tests.pg import free_port
from tests.store.receiver import Receiver

ROOT = Path(__file__).parents[2]
PLAYERS = ["A", "B", "C", "D"]


def call(base, method, path, body=None, key=None, etag=None):
    return webclient.call(base, method, path, body, key, etag)[:2]


def start_server(url: str, env: dict) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2",
                             "wsgi:app"], cwd=ROOT, env={**env, "DATABASE_URL": url},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


@pytest.fixture
def pg_url(request):
    from tests.conftest import _fresh_database

    return _fresh_database("postgres", request, None)


def test_two_servers_and_two_workers_on_one_postgresql(pg_url):
    env = {**os.environ, "REFEREE_WEBHOOK_BACKOFF": "0.05", "REFEREE_WEBHOOK_MAX_BACKOFF": "0.2",
           "REFEREE_WEBHOOK_HOSTS": "127.0.0.1"}  # the receiver's address
    servers = [start_server(pg_url, env) for _ in range(2)]
    workers = []
    try:
        (_, a), (_, b) = servers
        status, t = call(a, "POST", "/v1/tournaments", {"name": "big night", "preset": "court-piece"})
        assert status == 201
        with Receiver(fail_first=3) as rx:
            assert call(b, "POST", f"/v1/tournaments/{t['id']}/webhooks", {"url": rx.url}, t["key"])[0] == 201
            workers = [subprocess.Popen([sys.executable, "-m", "referee.cli", "deliver", "--database", pg_url],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
            matches = []
            for n in range(4):
                status, m = call((a, b)[n % 2], "POST", "/v1/matches", {"tournament": t["id"], "record": {"players": PLAYERS}},
                                 t["key"])
                matches.append(m)

            def play(m, n):
                """Deals to a court, each card sent to one server or the other; a lost ETag race
                (412) is read again and retried."""
                etag = m["etag"]
                for d in range(3):
                    deal = won_by(0 if d % 2 == 0 else 2, [1] * 7 if d % 2 == 0 else [3] * 7)
                    for step, body in enumerate([("deals", {"dealer": deal["dealer"], "trump": deal["trump"]})] +
                                                [("events", {"events": [e]}) for e in deal["events"]]):
                        base = (a, b)[(step + n) % 2]
                        while True:
                            status, answer = call(base, "POST", f"/v1/matches/{m['id']}/{body[0]}", body[1], t["key"], etag)
                            if status == 412:
                                etag = answer["etag"]
                                continue
                            assert status == 200, answer
                            etag = answer["etag"]
                            break

            threads = [threading.Thread(target=play, args=(m, n)) for n, m in enumerate(matches)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            status, page = call(a, "GET", f"/v1/tournaments/{t['id']}/feed?limit=1000", key=t["key"])
            total = len(page["events"])
            assert total >= 4 * 3  # a deal.finished per deal at least
            seqs = [json.loads(body)["seq"] for _, body in
                    rx.wait_for(lambda accepted: len({json.loads(b)["seq"] for _, b in accepted}) >= total)]
        assert seqs == list(range(1, total + 1))  # every event once, in order, despite the failures
        assert [e["seq"] for e in page["events"]] == list(range(1, total + 1))
    finally:
        for p in workers + [proc for proc, _ in servers]:
            p.terminate()
        for p in workers + [proc for proc, _ in servers]:
            p.wait(timeout=30)
