"""`referee serve`: the API under gunicorn with the delivery worker beside it, both kept
running; `referee deliver`: the delivery worker alone."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .database import database_url, open_database, with_db

if TYPE_CHECKING:  # imported where a child is started: `referee serve` pays for it, not `referee check`
    import subprocess


class Supervised:
    """A child process kept running: started again when it dies, after a pause that doubles
    while it keeps dying young (1 s up to a minute)."""

    def __init__(self, name: str, cmd: list[str], env: dict):
        self.name, self.cmd, self.env = name, cmd, env
        self.pause, self.restart_at = 1.0, 0.0
        self.proc = self._start()

    def _start(self) -> subprocess.Popen:
        import subprocess
        import time

        self.started = time.monotonic()
        return subprocess.Popen(self.cmd, env=self.env)

    def check(self) -> None:
        import time

        code = self.proc.poll()
        if code is None:
            return
        now = time.monotonic()
        if not self.restart_at:
            self.pause = 1.0 if now - self.started > 60 else min(60.0, self.pause * 2)
            self.restart_at = now + self.pause
            print(f"referee serve: the {self.name} exited ({code}); starting it again in {self.pause:.0f} s",
                  file=sys.stderr, flush=True)
        elif now >= self.restart_at:
            self.restart_at = 0.0
            self.proc = self._start()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait()


def serve(args) -> int:
    """Migrate the database, run gunicorn (threaded workers: referee/serving.py) until
    stopped, and keep the delivery worker running beside it."""
    import signal
    import subprocess

    from referee.store.db import upgrade
    from referee.store.secrets import local_key

    url = database_url(args)
    upgrade(url)
    env = {**os.environ, "DATABASE_URL": url}
    local = local_key(url)
    if local is not None:
        env["REFEREE_SECRET_KEY"] = local[0]
        if local[1]:
            print(local[1], file=sys.stderr, flush=True)
    _signing_keys(url, env)
    deliverer = Supervised("delivery worker", [sys.executable, "-m", "referee.cli", "deliver"], env)
    gunicorn = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:referee.serving", "--bind", args.bind,
                                 "--workers", str(args.workers), "referee.app:served_app()"], env=env)

    def stop(*_):
        gunicorn.terminate()
    signal.signal(signal.SIGTERM, stop)
    try:
        while True:
            try:
                return gunicorn.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                deliverer.check()
    except KeyboardInterrupt:
        gunicorn.terminate()
        return gunicorn.wait()
    finally:
        deliverer.stop()


def _signing_keys(url: str, env: dict) -> None:
    """The key ring that signs the verdicts (referee/verdict_signing.py): made on first start when there
    is none (said once), and named to the workers so that they all sign with the same key."""
    from referee.verdict_signing import made_message, open_ring, ring_path

    path = ring_path(url)
    if path is None:
        print("referee serve: verdicts are not signed: set REFEREE_SIGNING_KEYS to a key ring file "
              "(`referee signing-keys rotate --keys FILE` makes one)", file=sys.stderr, flush=True)
        return
    _, made = open_ring(path)
    if made:
        print(made_message(path), file=sys.stderr, flush=True)
    env["REFEREE_SIGNING_KEYS"] = str(path.resolve())


def deliver(args) -> int:
    import logging

    from referee.store.delivery import run_forever

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    sent, failed = run_forever(open_database(args), once=args.once, seconds=args.seconds)
    if args.once or args.seconds is not None:
        print(f"delivered {sent} event(s); {failed} failed attempt(s)")
    return 0


def add_commands(sub) -> None:
    from referee.serving import workers  # the one source of the gunicorn settings; imports no web

    p = with_db(sub.add_parser("serve", help="migrate, then serve the API with gunicorn and run the delivery worker"))
    p.add_argument("--bind", default="127.0.0.1:8000",
                   help="HOST:PORT to listen on (default 127.0.0.1:8000; if that port is taken, pick another, "
                        "e.g. --bind 127.0.0.1:8080)")
    p.add_argument("--workers", type=int, default=workers,
                   help=f"gunicorn worker processes (default {workers}; about one or two per core)")
    p.set_defaults(run=serve)

    p = with_db(sub.add_parser("deliver", help="deliver feed events to webhooks (runs until stopped)"))
    p.add_argument("--once", action="store_true", help="one pass over the subscriptions, print a summary, exit")
    p.add_argument("--seconds", type=float, help="stop after this many seconds")
    p.set_defaults(run=deliver)
