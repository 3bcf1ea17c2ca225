"""Webhook delivery: signed POSTs of feed events, in order per subscription, at least once.

Runs in its own process (`referee deliver`). A worker claims a subscription with a
lease (an atomic conditional UPDATE: on PostgreSQL the row lock makes a second worker
see the lease; on SQLite every transaction takes the database write lock), delivers
that subscription's next events one by one, and releases it. So several workers may
run at once and no event is sent twice to one subscription unless a worker dies
mid-delivery (its lease then expires and the event is sent again: at least once;
receivers deduplicate by the event id).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import random
import socket
import time
import urllib.error
import urllib.request
import uuid
from datetime import timedelta
from urllib.parse import urlsplit

from sqlalchemy import or_, select, update

from .db import Database
from .models import Delivery, FeedEvent, Webhook, utcnow

LEASE = timedelta(seconds=60)
TIMEOUT = 10.0          # seconds per delivery attempt
BATCH = 50              # events per claim


def settings() -> dict:
    env = os.environ
    return {
        "backoff": float(env.get("REFEREE_WEBHOOK_BACKOFF", "2")),         # first retry after ~this many seconds
        "max_backoff": float(env.get("REFEREE_WEBHOOK_MAX_BACKOFF", "3600")),
        "max_failures": int(env.get("REFEREE_WEBHOOK_MAX_FAILURES", "10")),  # then the subscription is disabled
        "hosts": {h.strip().lower() for h in env.get("REFEREE_WEBHOOK_HOSTS", "").split(",") if h.strip()},
    }


class TargetRefused(ValueError):
    """A webhook URL that points where the referee may not send (SSRF guard)."""


def check_target(url: str, allowed_hosts: set[str] | None = None) -> None:
    """Only loopback addresses, or hosts named in REFEREE_WEBHOOK_HOSTS."""
    allowed = settings()["hosts"] if allowed_hosts is None else allowed_hosts
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("a webhook URL is http:// or https:// with a host")
    host = parts.hostname.lower()
    if host in allowed:
        return
    try:
        infos = socket.getaddrinfo(host, parts.port or 80, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise TargetRefused(f"cannot resolve {host!r}") from None
    addresses = {ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos}
    if not addresses or not all(a.is_loopback for a in addresses):
        raise TargetRefused(f"{host!r} is not a loopback address and not in REFEREE_WEBHOOK_HOSTS")


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str, tolerance: float = 300) -> bool:
    """What a receiver does (the README shows the same): recompute and compare."""
    if abs(time.time() - float(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), signature)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # a redirect could lead anywhere: refuse it
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def post(url: str, secret: str, event: dict) -> tuple[int | None, str | None]:
    """(HTTP status, error): success is a 2xx status and no error."""
    body = json.dumps(event, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "referee-webhooks/1",
        "Referee-Event-Id": event["id"], "Referee-Event-Type": event["type"],
        "Referee-Timestamp": timestamp, "Referee-Signature": sign(secret, timestamp, body),
    })
    try:
        check_target(url)
        with _opener.open(request, timeout=TIMEOUT) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        return exc.code, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, TargetRefused) as exc:
        return None, str(getattr(exc, "reason", exc))
    return status, None if 200 <= status < 300 else f"HTTP {status}"


def backoff(failures: int, conf: dict) -> float:
    """Exponential with jitter: ~base, 2 base, 4 base ... capped, times 0.5-1."""
    return min(conf["max_backoff"], conf["backoff"] * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)


class Worker:
    def __init__(self, db: Database, owner: str | None = None):
        self.db = db
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.conf = settings()

    def _due(self) -> list[str]:
        now = utcnow()
        with self.db.transaction() as s:
            return list(s.scalars(select(Webhook.id).where(
                Webhook.active.is_(True), Webhook.next_attempt_at <= now,
                or_(Webhook.leased_until.is_(None), Webhook.leased_until < now))))

    def _claim(self, wid: str) -> bool:
        now = utcnow()
        with self.db.transaction() as s:
            result = s.execute(update(Webhook).where(
                Webhook.id == wid, Webhook.active.is_(True),
                or_(Webhook.leased_until.is_(None), Webhook.leased_until < now),
            ).values(lease_owner=self.owner, leased_until=now + LEASE))
            return result.rowcount == 1

    def _release(self, wid: str) -> None:
        with self.db.transaction() as s:
            s.execute(update(Webhook).where(Webhook.id == wid, Webhook.lease_owner == self.owner)
                      .values(lease_owner=None, leased_until=None))

    def _next_event(self, wid: str) -> tuple[Webhook, FeedEvent | None]:
        with self.db.transaction() as s:
            hook = s.get(Webhook, wid)
            event = s.scalars(select(FeedEvent).where(FeedEvent.tournament_id == hook.tournament_id,
                                                      FeedEvent.seq > hook.delivered_seq)
                              .order_by(FeedEvent.seq).limit(1)).one_or_none()
            return hook, event

    def _record(self, hook: Webhook, event: FeedEvent, status: int | None, error: str | None, ms: int) -> bool:
        ok = error is None
        with self.db.transaction() as s:
            live = s.get(Webhook, hook.id)
            if live.lease_owner != self.owner:  # lost the lease: another worker owns it now
                return False
            s.add(Delivery(webhook_id=hook.id, event_id=event.id, seq=event.seq, attempt=live.failures + 1, ok=ok,
                           http_status=status, error=error, duration_ms=ms, created_at=utcnow()))
            now = utcnow()
            if ok:
                live.delivered_seq, live.failures, live.next_attempt_at = event.seq, 0, now
            else:
                live.failures += 1
                live.next_attempt_at = now + timedelta(seconds=backoff(live.failures, self.conf))
                if live.failures >= self.conf["max_failures"]:
                    live.active = False
                    live.disabled_reason = f"disabled after {live.failures} failed attempts in a row: {error}"
            live.leased_until = now + LEASE
        return ok

    def deliver(self, wid: str) -> int:
        """Deliver a claimed subscription's pending events in order; stop at a failure."""
        from .service import event_dict

        sent = 0
        for _ in range(BATCH):
            hook, event = self._next_event(wid)
            if event is None:
                break
            start = time.monotonic()
            status, error = post(hook.url, hook.secret, event_dict(event))
            if not self._record(hook, event, status, error, int((time.monotonic() - start) * 1000)):
                break
            sent += 1
        return sent

    def run_once(self) -> int:
        sent = 0
        for wid in self._due():
            if self._claim(wid):
                try:
                    sent += self.deliver(wid)
                finally:
                    self._release(wid)
        return sent


def run_forever(db: Database, once: bool = False, seconds: float | None = None, poll: float = 0.5) -> None:
    worker = Worker(db)
    deadline = None if seconds is None else time.monotonic() + seconds
    while True:
        worker.run_once()
        if once or (deadline is not None and time.monotonic() >= deadline):
            return
        time.sleep(poll)
