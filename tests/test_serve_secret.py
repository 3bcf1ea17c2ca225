"""`referee serve` on the embedded SQLite without REFEREE_SECRET_KEY: it makes the key file
for sealed webhook secrets next to the database (mode 0600), says so once in its log, and the
README's webhook steps then work: a subscription is made, an event arrives signed with its
secret; a second start reuses the file and says nothing."""
import json
import os
import signal
import stat
import subprocess
import sys
import time
import urllib.request

from referee.store.webhook_signing import verify
from tests.helpers import won_by
from tests.pg import free_port
from tests.store.receiver import Receiver

LINE = "REFEREE_SECRET_KEY is not set"


def call(base, method, path, body=None, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(base + path, method=method, headers=headers,
                                 data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, json.loads(r.read())


def start(url, log, env):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", "--database", url, "--bind",
                             f"127.0.0.1:{port}", "--workers", "1"], stdout=subprocess.DEVNULL, stderr=log, env=env)
    base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:  # start-up is slow on a loaded machine
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2).close()
            return proc, base
        except OSError:
            time.sleep(0.2)
    stop(proc)
    raise AssertionError(f"no answer from referee serve (exit code {proc.poll()})")


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)


def test_serve_makes_the_secret_file_once_and_the_readme_webhook_steps_work(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("REFEREE_SECRET_KEY", "REFEREE_DEV")}
    env.update(REFEREE_WEBHOOK_HOSTS="127.0.0.1", REFEREE_WEBHOOK_BACKOFF="0.01")
    url = f"sqlite:///{tmp_path / 'referee.db'}"
    key_file = tmp_path / "referee.db.secret-key"
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    with Receiver() as rx:
        with open(logs[0], "w") as log:
            proc, base = start(url, log, env)
        try:
            assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
            _, t = call(base, "POST", "/v1/tournaments", {"name": "Club night", "preset": "court-piece"})
            status, hook = call(base, "POST", f"/v1/tournaments/{t['id']}/webhooks", {"url": rx.url}, t["key"])
            assert status == 201 and hook["secret"].startswith("whsec_")  # sealed with the file's key
            call(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": [won_by(0, [1] * 7)]}},
                 t["key"])
            headers, body = rx.wait_for(8)[-1]  # serve's own delivery worker sends them
            assert headers["Referee-Event-Type"] == "deal.finished"  # after its seven trick.finished
            assert verify(hook["secret"], headers["Referee-Timestamp"], body, headers["Referee-Signature"])
        finally:
            stop(proc)
        made = key_file.read_text()
        with open(logs[1], "w") as log:
            proc, base = start(url, log, env)  # a second start: the same file, nothing said
        try:  # the stored secret still opens with the kept key: the next events arrive signed with it
            call(base, "POST", "/v1/matches", {"tournament": t["id"], "record": {"deals": [won_by(0, [1] * 7)]}},
                 t["key"])
            headers, body = rx.wait_for(16)[-1]
            assert json.loads(body)["seq"] == 16
            assert verify(hook["secret"], headers["Referee-Timestamp"], body, headers["Referee-Signature"])
        finally:
            stop(proc)
    first, second = (p.read_text() for p in logs)
    assert first.count(LINE) == 1 and str(key_file) in first and "mode 0600" in first
    assert LINE not in second and key_file.read_text() == made
