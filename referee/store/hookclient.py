"""The HTTP client of webhook delivery: one signed POST to the checked address, connect,
send and the answer's status all within one deadline (the attempt's time limit), however
slowly the receiver trickles; redirects are not followed."""
from __future__ import annotations

import http.client
import json
import logging
import socket
import ssl
import threading
import time
from urllib.parse import urlsplit

from .targets import Target, TargetRefused, check_target
from .webhook_signing import sign

log = logging.getLogger("referee.deliver")

NO_ANSWER = "could not connect"   # all a subscriber learns of a failure without an HTTP status


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

    @property
    def expired(self) -> bool:
        return self._expired

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


class TooSlow(Exception):
    """The receiver did not answer within the attempt's limit."""


def _send(target: Target, secret: str, event: dict, body: bytes, limit: float) -> int:
    """POST and read the answer's status, all within `limit` seconds; the status."""
    timestamp = str(int(time.time()))
    deadline = _Deadline(limit)
    conn = (_PinnedHTTPS if target.scheme == "https" else _PinnedHTTP)(target, deadline)
    try:
        netloc = urlsplit(target.url).netloc
        conn.request("POST", target.path, body=body, headers={
            "Host": netloc, "Content-Type": "application/json", "User-Agent": "referee-webhooks/1",
            "Referee-Event-Id": event["id"], "Referee-Event-Type": event["type"],
            "Referee-Timestamp": timestamp, "Referee-Signature": sign(secret, timestamp, body),
        })
        return conn.getresponse().status
    except Exception as exc:
        if deadline.expired or isinstance(exc, TimeoutError):  # the socket's timeout is the same deadline
            raise TooSlow() from None
        raise
    finally:
        deadline.cancel()
        conn.close()


def post(url: str, secret: str, event: dict, limit: float, targets: dict | None = None) -> tuple[int | None, str | None]:
    """(HTTP status, error): success is a 2xx status within `limit` seconds and no error.
    Redirects are not followed. The error is the refusal, the status, "no answer within
    N s", or NO_ANSWER: never the socket's own words, which would tell a subscriber what
    else listens where it points (the operator's log has them). `targets`: what
    allowed_targets() says, read once by the caller."""
    body = json.dumps(event, separators=(",", ":")).encode()
    try:
        target = check_target(url, targets)
        status = _send(target, secret, event, body, limit)
    except TargetRefused as exc:
        return None, str(exc)
    except TooSlow:
        log.info("webhook POST to %s: no answer within %g s", url, limit)
        return None, f"no answer within {limit:g} s"
    except Exception as exc:  # noqa: BLE001 - every failure of one attempt is that attempt's
        log.info("webhook POST to %s: %s: %s", url, type(exc).__name__, exc)
        return None, NO_ANSWER
    return status, None if 200 <= status < 300 else f"HTTP {status}"
