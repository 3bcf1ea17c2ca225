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
import http.client
import ipaddress
import json
import logging
import os
import random
import socket
import ssl
import time
import uuid
from datetime import timedelta
from typing import NamedTuple
from urllib.parse import urlsplit

from sqlalchemy import or_, select, update

from .db import Database
from .models import Delivery, FeedEvent, Webhook, utcnow
from .secrets import unseal
from .views import event_dict

log = logging.getLogger("referee.deliver")

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


class Target(NamedTuple):
    """A checked webhook URL: where to connect (the address that was checked) and what to ask."""

    scheme: str
    host: str        # for the Host header and TLS
    address: str     # the IP address the check resolved and approved
    port: int
    path: str


def check_target(url: str, allowed_hosts: set[str] | None = None) -> Target:
    """Only loopback addresses, or hosts named in REFEREE_WEBHOOK_HOSTS. The answer names
    the resolved address, so the connection goes where the check looked (no second lookup
    that a name could answer differently)."""
    allowed = settings()["hosts"] if allowed_hosts is None else allowed_hosts
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:  # a bad port or bracket
        raise TargetRefused(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("a webhook URL is http:// or https:// with a host")
    host = parts.hostname.lower()
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError):
        raise TargetRefused(f"cannot resolve {json.dumps(host)}") from None
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    if not addresses or (host not in allowed and not all(a.is_loopback for a in addresses)):
        raise TargetRefused(f"{json.dumps(host)} is not a loopback address and not in REFEREE_WEBHOOK_HOSTS")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, str(addresses[0]), port, path)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str, tolerance: float = 300) -> bool:
    """What a receiver does (the README shows the same): recompute and compare."""
    if abs(time.time() - float(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), signature)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a fixed address, with TLS (SNI, certificate) for the URL's host name."""

    def __init__(self, address: str, host: str, port: int, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _connection(target: Target) -> http.client.HTTPConnection:
    if target.scheme == "https":
        return _PinnedHTTPS(target.address, target.host, target.port, TIMEOUT)
    return http.client.HTTPConnection(target.address, target.port, timeout=TIMEOUT)


def post(url: str, secret: str, event: dict) -> tuple[int | None, str | None]:
    """(HTTP status, error): success is a 2xx status and no error. Redirects are not followed."""
    body = json.dumps(event, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    try:
        target = check_target(url)
        conn = _connection(target)
        host = target.host if ":" not in target.host else f"[{target.host}]"
        default = {"http": 80, "https": 443}[target.scheme]
        conn.request("POST", target.path, body=body, headers={
            "Host": host if target.port == default else f"{host}:{target.port}",
            "Content-Type": "application/json", "User-Agent": "referee-webhooks/1",
            "Referee-Event-Id": event["id"], "Referee-Event-Type": event["type"],
            "Referee-Timestamp": timestamp, "Referee-Signature": sign(secret, timestamp, body),
        })
        status = conn.getresponse().status
        conn.close()
    except TargetRefused as exc:
        return None, str(exc)
    except (OSError, http.client.HTTPException) as exc:
        return None, str(exc) or type(exc).__name__
    return status, None if 200 <= status < 300 else f"HTTP {status}"


def backoff(failures: int, conf: dict) -> float:
    """Exponential with jitter: ~base, 2 base, 4 base ... capped, times 0.5-1."""
    return min(conf["max_backoff"], conf["backoff"] * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)


class Worker:
    def __init__(self, db: Database, owner: str | None = None):
        self.db = db
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.conf = settings()
        self.failed = 0  # failed attempts, for the operator's summary

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
                wait = backoff(live.failures, self.conf)
                live.next_attempt_at = now + timedelta(seconds=wait)
                self.failed += 1
                log.warning("webhook %s: event %s to %s failed (attempt %d): %s; next retry in %.1f s",
                            hook.id, event.seq, hook.url, live.failures, error, wait)
                if live.failures >= self.conf["max_failures"]:
                    live.active = False
                    live.disabled_reason = f"disabled after {live.failures} failed attempts in a row: {error}"
                    log.error("webhook %s to %s disabled: %s", hook.id, hook.url, live.disabled_reason)
            live.leased_until = now + LEASE
        return ok

    def deliver(self, wid: str) -> int:
        """Deliver a claimed subscription's pending events in order; stop at a failure."""
        sent = 0
        for _ in range(BATCH):
            hook, event = self._next_event(wid)
            if event is None:
                break
            start = time.monotonic()
            status, error = post(hook.url, unseal(hook.secret), event_dict(event))
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


def run_forever(db: Database, once: bool = False, seconds: float | None = None, poll: float = 0.5) -> tuple[int, int]:
    """Deliver until stopped; (events delivered, failed attempts)."""
    worker = Worker(db)
    deadline = None if seconds is None else time.monotonic() + seconds
    sent = 0
    while True:
        sent += worker.run_once()
        if once or (deadline is not None and time.monotonic() >= deadline):
            return sent, worker.failed
        time.sleep(poll)
