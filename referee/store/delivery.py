"""Webhook delivery: signed POSTs of feed events, in order per subscription, at least once.

Runs in its own process (`referee deliver`). A worker claims a subscription with a
lease (an atomic conditional UPDATE: on PostgreSQL the row lock makes a second worker
see the lease; on SQLite every transaction takes the database write lock), delivers
that subscription's next events one by one, and releases it. Each attempt has one
deadline (DEADLINE) well inside the lease, and the lease is renewed before each
attempt, so a live worker's lease never runs out mid-delivery: no event is sent twice
to one subscription unless a worker dies mid-delivery (its lease then expires and the
event is sent again: at least once; receivers deduplicate by the event id).

Anything that goes wrong with one attempt is that attempt's failure (logged, retried
with backoff), never the worker's.
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
import re
import socket
import ssl
import threading
import time
import uuid
from datetime import timedelta
from typing import NamedTuple
from urllib.parse import quote, urlsplit

from sqlalchemy import or_, select, update

from .db import Database
from .models import Delivery, FeedEvent, Webhook, utcnow
from .secrets import unseal
from .publishing import events_shown_now

log = logging.getLogger("referee.deliver")

DEADLINE = 10.0                   # seconds for one whole attempt: connect, send, the answer's status
LEASE = timedelta(seconds=60)     # renewed before each attempt; far longer than DEADLINE
BATCH = 50                        # events per claim
NO_ANSWER = "could not connect"   # all a subscriber learns of a failure without an HTTP status


def settings() -> dict:
    env = os.environ
    hosts = [h.strip().lower() for h in env.get("REFEREE_WEBHOOK_HOSTS", "").split(",") if h.strip()]
    return {
        "backoff": float(env.get("REFEREE_WEBHOOK_BACKOFF", "2")),         # first retry after ~this many seconds
        "max_backoff": float(env.get("REFEREE_WEBHOOK_MAX_BACKOFF", "3600")),
        "max_failures": int(env.get("REFEREE_WEBHOOK_MAX_FAILURES", "10")),  # then the subscription is disabled
        "hosts": {_allowed_name(h) for h in hosts if _network(h) is None},
        "networks": [n for n in map(_network, hosts) if n is not None],
        "dev": env.get("REFEREE_DEV") == "1",
    }


def _network(entry: str):
    """An address or network in REFEREE_WEBHOOK_HOSTS (`127.0.0.1`, `10.0.0.0/8`, `::1`), or None."""
    try:
        return ipaddress.ip_network(entry.strip("[]"), strict=False)
    except ValueError:
        return None


def _allowed_name(entry: str) -> str:
    try:
        return _host(entry)
    except TargetRefused:
        return entry


class TargetRefused(ValueError):
    """A webhook URL that points where the referee may not send (SSRF guard)."""


class Target(NamedTuple):
    """A checked webhook URL: where to connect (the address that was checked) and what to ask."""

    scheme: str
    host: str        # for the Host header and TLS: ASCII (IDNA), lower case
    address: str     # the IP address the check resolved and approved
    port: int
    path: str
    url: str         # the URL as normalised: what is stored, and what is connected to


_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")
_NUMERIC = re.compile(r"[0-9a-fx.]+")
_PATH_SAFE = "/%:@!$&'()*+,;=-._~"


def _host(name: str) -> str:
    """The host as the connection will use it: an IP address in its canonical spelling
    (`127.1`, `0x7f000001` and `2130706433` are all 127.0.0.1), or an ASCII name (IDNA:
    `\u24dbocalhost` is `localhost`)."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    try:
        ascii_name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise TargetRefused(f"{json.dumps(name)} is not a host name") from None
    if _NUMERIC.fullmatch(ascii_name):  # the legacy IPv4 spellings, read as the resolver reads them
        try:
            return socket.inet_ntoa(socket.inet_aton(ascii_name))
        except OSError:
            pass
    if not _NAME.fullmatch(ascii_name):
        raise TargetRefused(f"{json.dumps(name)} is not a host name")
    return ascii_name


def _parse(url: str) -> tuple[str, str, int, str, str]:
    """(scheme, host, port, path, normalised URL), or TargetRefused."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:  # a bad port or bracket
        raise TargetRefused(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("a webhook URL is http:// or https:// with a host")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("a webhook URL carries no user name or password")
    host = _host(parts.hostname)
    default = 443 if parts.scheme == "https" else 80
    port = port or default
    path = quote(parts.path or "/", safe=_PATH_SAFE) + (f"?{quote(parts.query, safe=_PATH_SAFE + '?')}"
                                                          if parts.query else "")
    netloc = f"[{host}]" if ":" in host else host
    netloc += "" if port == default else f":{port}"
    return parts.scheme, host, port, path, f"{parts.scheme}://{netloc}{path}"


def _public(address) -> bool:
    if address.version == 6 and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def check_target(url: str, conf: dict | None = None) -> Target:
    """Public addresses only, unless REFEREE_WEBHOOK_HOSTS names the host (or holds the
    address or its network), or REFEREE_DEV=1: loopback, private, link-local, unspecified
    and multicast addresses are refused, in every spelling. The answer names the resolved
    address, so the connection goes where the check looked (no second lookup that a name
    could answer differently)."""
    conf = settings() if conf is None else conf
    scheme, host, port, path, normal = _parse(url)
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError):
        raise TargetRefused(f"cannot resolve {json.dumps(host)}") from None
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    allowed = conf["dev"] or host in conf["hosts"] or all(
        _public(a) or any(a in net for net in conf["networks"]) for a in addresses)
    if not addresses or not allowed:
        raise TargetRefused(f"{json.dumps(host)} is not a public address, and REFEREE_WEBHOOK_HOSTS does not allow it")
    return Target(scheme, host, str(addresses[0]), port, path, normal)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str, tolerance: float = 300) -> bool:
    """What a receiver does (the README shows the same): recompute and compare."""
    if abs(time.time() - float(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), signature)


class _Deadline:
    """One deadline for a whole attempt. When it passes, a timer shuts the socket down,
    which ends a read or write blocked on it however slowly the peer trickles bytes."""

    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds
        self._sock: socket.socket | None = None
        self._expired = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def left(self) -> float:
        return max(0.001, self.end - time.monotonic())

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock
            if self._expired:
                self._shut()

    def _expire(self) -> None:
        with self._lock:
            self._expired = True
            self._shut()

    def _shut(self) -> None:
        if self._sock is not None:
            try:  # the plain socket's shutdown, also under TLS: it wakes the blocked reader
                socket.socket.shutdown(self._sock, socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self._timer.cancel()


class _PinnedHTTP(http.client.HTTPConnection):
    """HTTP to the checked address, every step within one deadline."""

    def __init__(self, target: Target, deadline: _Deadline):
        super().__init__(target.address, target.port, timeout=deadline.left())
        self._deadline = deadline

    def connect(self):
        super().connect()
        self._deadline.watch(self.sock)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to the checked address, with TLS (SNI, certificate) for the URL's host name."""

    def __init__(self, target: Target, deadline: _Deadline):
        super().__init__(target.host, target.port, timeout=deadline.left(), context=ssl.create_default_context())
        self._address, self._deadline = target.address, deadline

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self._deadline.left())
        self._deadline.watch(sock)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)
        self._deadline.watch(self.sock)


def _send(target: Target, secret: str, event: dict, body: bytes) -> int:
    """POST and read the answer's status, all within DEADLINE; the status."""
    timestamp = str(int(time.time()))
    deadline = _Deadline(DEADLINE)
    conn = (_PinnedHTTPS if target.scheme == "https" else _PinnedHTTP)(target, deadline)
    try:
        netloc = urlsplit(target.url).netloc
        conn.request("POST", target.path, body=body, headers={
            "Host": netloc, "Content-Type": "application/json", "User-Agent": "referee-webhooks/1",
            "Referee-Event-Id": event["id"], "Referee-Event-Type": event["type"],
            "Referee-Timestamp": timestamp, "Referee-Signature": sign(secret, timestamp, body),
        })
        return conn.getresponse().status
    finally:
        deadline.cancel()
        conn.close()


def post(url: str, secret: str, event: dict) -> tuple[int | None, str | None]:
    """(HTTP status, error): success is a 2xx status and no error. Redirects are not followed.
    The error is the refusal, the status, or NO_ANSWER: never the socket's own words, which
    would tell a subscriber what else listens where it points (the operator's log has them)."""
    body = json.dumps(event, separators=(",", ":")).encode()
    try:
        target = check_target(url)
        status = _send(target, secret, event, body)
    except TargetRefused as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - every failure of one attempt is that attempt's
        log.info("webhook POST to %s: %s: %s", url, type(exc).__name__, exc)
        return None, NO_ANSWER
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

    def _renew(self, wid: str) -> bool:
        """Extend our lease before an attempt, so that it outlives the attempt's deadline;
        False when another worker owns the subscription now."""
        with self.db.transaction() as s:
            result = s.execute(update(Webhook).where(Webhook.id == wid, Webhook.lease_owner == self.owner)
                               .values(leased_until=utcnow() + LEASE))
            return result.rowcount == 1

    def _release(self, wid: str) -> None:
        with self.db.transaction() as s:
            s.execute(update(Webhook).where(Webhook.id == wid, Webhook.lease_owner == self.owner)
                      .values(lease_owner=None, leased_until=None))

    def _next_event(self, wid: str) -> tuple[Webhook, FeedEvent | None, dict | None]:
        """The subscription, its next event, and that event as the feed shows it now (R-31)."""
        with self.db.transaction() as s:
            hook = s.get(Webhook, wid)
            event = s.scalars(select(FeedEvent).where(FeedEvent.tournament_id == hook.tournament_id,
                                                      FeedEvent.seq > hook.delivered_seq)
                              .order_by(FeedEvent.seq).limit(1)).one_or_none()
            return hook, event, events_shown_now(s, [event])[0] if event is not None else None

    def _record(self, hook: Webhook, event: FeedEvent, status: int | None, error: str | None, ms: int) -> bool:
        ok = error is None
        with self.db.transaction() as s:
            live = s.get(Webhook, hook.id)
            if live is None or live.lease_owner != self.owner:  # deleted, or another worker owns it now
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
            hook, event, shown = self._next_event(wid)
            if event is None or not self._renew(wid):
                break
            start = time.monotonic()
            status, error = self._attempt(hook, event, shown)
            if not self._record(hook, event, status, error, int((time.monotonic() - start) * 1000)):
                break
            sent += 1
        return sent

    @staticmethod
    def _attempt(hook: Webhook, event: FeedEvent, shown: dict) -> tuple[int | None, str | None]:
        try:
            return post(hook.url, unseal(hook.secret), shown)
        except Exception:  # noqa: BLE001 - e.g. a secret this REFEREE_SECRET_KEY cannot open
            log.exception("webhook %s: event %s could not be sent", hook.id, event.seq)
            return None, "the referee could not send this event (see its log)"

    def run_once(self) -> int:
        sent = 0
        for wid in self._due():
            try:
                if self._claim(wid):
                    try:
                        sent += self.deliver(wid)
                    finally:
                        self._release(wid)
            except Exception:  # noqa: BLE001 - one subscription's trouble is not the others'
                log.exception("webhook %s: delivery stopped; it is tried again on the next pass", wid)
        return sent


def run_forever(db: Database, once: bool = False, seconds: float | None = None, poll: float = 0.5) -> tuple[int, int]:
    """Deliver until stopped; (events delivered, failed attempts). A pass that fails (the
    database unreachable, say) is logged and the next one tried after `poll`."""
    worker = Worker(db)
    deadline = None if seconds is None else time.monotonic() + seconds
    sent = 0
    while True:
        try:
            sent += worker.run_once()
        except Exception:  # noqa: BLE001 - the worker outlives any one pass
            log.exception("delivery pass failed; trying again")
        if once or (deadline is not None and time.monotonic() >= deadline):
            return sent, worker.failed
        time.sleep(poll)
