"""How the referee is served: the one source of its gunicorn settings and worker. `referee
serve` runs `gunicorn -c python:referee.serving wsgi:app`; the repository's gunicorn.conf.py
takes the same settings from here, so a plain `gunicorn wsgi:app` from the root is the same.

Threaded workers (gunicorn's gthread), with two protections against clients that trickle:

- A request arrives in the worker's poller, not in a thread: its request line and headers,
  and a body of up to BUFFERED_BODY bytes sent with a Content-Length, are received there,
  and a thread takes the request only once all of it is in. A thousand clients sending one
  header line every few seconds hold no thread at all.
- The whole request (line, headers and body) must arrive within REQUEST_TIMEOUT of its first
  byte. Past it the client gets a 408 problem and the connection is closed, whether it was
  still waiting in the poller or its thread was reading a larger body (a chunked one, one
  over BUFFERED_BODY, or one sent with `Expect: 100-continue`); such a thread also waits at
  most READ_TIMEOUT for each read, and for room to write the answer.

A connection that sends nothing is closed after `keepalive` seconds. What gunicorn refuses
before the app sees it (a request line over 4094 bytes: 414; header fields too large or too
many: 431; a malformed request: 400) is answered as problem+json like every other error.
"""
from __future__ import annotations

import errno
import json
import os
import re
import selectors
import socket
import time
from functools import partial

from gunicorn import http, util
from gunicorn.http.body import ChunkedReader, LengthReader
from gunicorn.workers.gthread import TConn, ThreadWorker

__all__ = ["worker_class", "workers", "threads", "timeout", "keepalive", "accesslog", "control_socket_disable"]

# gunicorn settings (the names are gunicorn's); the command line may override each.
worker_class = "referee.serving.ProblemWorker"
workers = 2
threads = 8           # per worker: requests in progress at once
timeout = 30          # a worker that does not report for this long is restarted
keepalive = 5         # seconds an idle connection is kept (a new one too, before its first byte)
accesslog = "-"
# No control socket (gunicornc): its default path is one per user, so a second server on the
# machine would take it over from the first.
control_socket_disable = True

REQUEST_TIMEOUT = float(os.environ.get("REFEREE_REQUEST_TIMEOUT") or 30)  # seconds from a request's first byte to its last
READ_TIMEOUT = 10.0           # seconds a thread waits on one read or write of a client's socket
BUFFERED_BODY = 1024 * 1024   # a body up to this (the API's body limit) is received before a thread takes it
BUFFERED_TOTAL = 64 * 2**20   # bytes of requests a worker's poller holds at once; past it, threads read
HEAD_LIMIT = 64 * 1024        # a head longer than this goes to a thread at once (the parser refuses it)
DISCARDED = 64 * 1024         # the most of a body left unread that gunicorn discards to keep the connection

DETAILS = {
    408: f"the request did not arrive within {REQUEST_TIMEOUT:.0f} s of its first byte",
    414: "the request line is longer than the server reads (4094 bytes)",
    431: "the request's header fields are too large or too many",
    500: "the referee failed on this request; it has been logged",
}


class RequestTimeout(TimeoutError):
    """The client did not send its request in time (the app answers 408)."""


def problem_response(status: int, reason: str, exc: Exception | None = None) -> bytes:
    detail = DETAILS.get(status) or f"the request is malformed: {exc}"
    body = json.dumps({"type": "about:blank", "title": reason, "status": status, "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class _Captured:
    """Stands in for the client's socket while gunicorn writes its own (HTML) error."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0

    def sendall(self, data: bytes) -> None:
        self.data += data


class _TimedSocket(socket.socket):
    """A client's socket whose blocking reads wait at most READ_TIMEOUT each and end at the
    request's deadline while a thread handles it, and whose writes wait at most
    READ_TIMEOUT each (gthread sets the socket blocking, with no timeout, before each
    request)."""

    deadline: float | None = None
    wait: float | None = None  # the timeout asked for, which a read's deadline may shorten

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(READ_TIMEOUT)
        else:
            self.wait = 0.0
            super().setblocking(False)

    def settimeout(self, value: float | None) -> None:
        self.wait = value
        super().settimeout(value)

    def _bounded(self) -> bool:
        """Shorten this read's timeout to the deadline; False when there is none to keep."""
        if self.deadline is None or self.wait == 0.0:
            return False
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise RequestTimeout(DETAILS[408])
        super().settimeout(min(self.wait or READ_TIMEOUT, left))
        return True

    def recv(self, size: int, flags: int = 0) -> bytes:
        if not self._bounded():
            return super().recv(size, flags)
        try:
            return super().recv(size, flags)
        except TimeoutError:
            raise RequestTimeout(DETAILS[408]) from None

    def recv_into(self, buffer, nbytes: int = 0, flags: int = 0) -> int:
        if not self._bounded():
            return super().recv_into(buffer, nbytes, flags)
        try:
            return super().recv_into(buffer, nbytes, flags)
        except TimeoutError:
            raise RequestTimeout(DETAILS[408]) from None

    def sendall(self, data, flags: int = 0) -> None:
        if self.wait != 0.0:
            super().settimeout(READ_TIMEOUT)
        super().sendall(data, flags)


_FIELD = re.compile(rb"\r\n([^:\r\n]+):[ \t]*([^\r\n]*)")


def body_to_buffer(head: bytes) -> int | None:
    """How many bytes of body the poller receives after this head, or None to hand the
    request to a thread now (a chunked body, one over BUFFERED_BODY, `Expect`, anything
    unclear: the parser judges those)."""
    length = None
    for name, value in _FIELD.findall(head):
        name = name.strip().lower()
        if name in (b"transfer-encoding", b"expect"):
            return None
        if name == b"content-length":
            if length is not None or not value.strip().isdigit():
                return None
            length = int(value.strip())
    if length is None:
        return 0
    return length if length <= BUFFERED_BODY else None


class _Arrival:
    """A request being received in the poller."""

    def __init__(self, conn, idle_until: float):
        self.conn, self.data, self.until, self.began, self.wanted = conn, bytearray(), idle_until, None, None

    def complete(self) -> bool:
        """Whether the request is in (or should go to a thread as it is)."""
        if self.wanted is None:
            end = self.data.find(b"\r\n\r\n")
            if end < 0:
                return len(self.data) >= HEAD_LIMIT
            body = body_to_buffer(bytes(self.data[:end + 2]))
            if body is None:
                return True
            self.wanted = end + 4 + body
        return len(self.data) >= self.wanted


def body_left(environ: dict) -> bool:
    """Whether the request's body is left unread, its rest not already here to discard (then
    the connection cannot serve another request: gunicorn would close it after the answer)."""
    reader = getattr(environ.get("wsgi.input"), "reader", None)
    if isinstance(reader, ChunkedReader):
        return reader.parser is not None
    if not isinstance(reader, LengthReader) or reader.length == 0:
        return False
    with reader.unreader.buf.getbuffer() as arrived:
        return reader.length > min(arrived.nbytes, DISCARDED)


def closing_unread(app, environ: dict, start_response):
    """The app, its answer saying `Connection: close` when the body is left unread (a 403 or a
    415 sent before reading it, a 413 past the limit), not keep-alive and then a close under the
    client's next request."""
    def start(status, headers, exc_info=None):
        if body_left(environ):
            start_response.__self__.force_close()
        return start_response(status, headers, exc_info)
    return app(environ, start)


class ProblemWorker(ThreadWorker):
    """gthread, receiving each request in the poller under one deadline, with a timeout on
    a thread's reads and writes, and gunicorn's own error answers as problem+json."""

    def init_process(self):
        self.arrivals: dict[int, _Arrival] = {}
        self.buffered = 0
        super().init_process()

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = partial(closing_unread, self.wsgi)

    def accept(self, listener):
        try:
            sock, addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        sock = _TimedSocket(sock.family, sock.type, sock.proto, fileno=sock.detach())
        conn = TConn(self.cfg, sock, addr, listener.getsockname())
        if self.cfg.is_ssl:  # the handshake needs a thread: gthread's own way
            self.enqueue_req(conn)
        else:
            self._receive(conn)

    def on_client_socket_readable(self, conn, client):
        """A kept-alive connection's next request: received in the poller too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._receive(conn)
        self._on_bytes(conn, client)

    def _receive(self, conn) -> None:
        self.arrivals[conn.sock.fileno()] = _Arrival(conn, time.monotonic() + self.cfg.keepalive)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_bytes, conn))

    def _on_bytes(self, conn, _client) -> None:
        arrival = self.arrivals.get(conn.sock.fileno())
        if arrival is None:
            return
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            return self._drop(arrival)
        if arrival.began is None:
            arrival.began = time.monotonic()
            arrival.until = arrival.began + REQUEST_TIMEOUT
        arrival.data += data
        self.buffered += len(data)
        if arrival.complete() or self.buffered > BUFFERED_TOTAL:
            self._hand_over(arrival)

    def _forget(self, arrival: _Arrival) -> None:
        self.arrivals.pop(arrival.conn.sock.fileno(), None)
        self.buffered -= len(arrival.data)
        try:
            self.poller.unregister(arrival.conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _drop(self, arrival: _Arrival, answer: bytes = b"") -> None:
        self._forget(arrival)
        if answer:
            try:
                arrival.conn.sock.send(answer)  # non-blocking: what fits; the client is not waited for
            except OSError:
                pass
        self.nr_conns -= 1
        arrival.conn.close()

    def _hand_over(self, arrival: _Arrival) -> None:
        """The request is in: a thread takes it, its bytes given back to the parser."""
        self._forget(arrival)
        conn = arrival.conn
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(arrival.data))
        conn.sock.deadline = arrival.until
        conn.data_ready = True
        self.enqueue_req(conn)

    def murder_pending(self):
        """Also: requests that did not arrive in time get a 408; silent connections are closed."""
        super().murder_pending()
        now = time.monotonic()
        for arrival in [a for a in self.arrivals.values() if a.until <= now]:
            self._drop(arrival, problem_response(408, "Request Timeout") if arrival.began is not None else b"")

    def murder_keepalived(self, force=False):
        super().murder_keepalived(force)
        if force:
            for arrival in list(self.arrivals.values()):
                self._drop(arrival)

    def handle(self, conn):
        """In a thread: the request's deadline holds while it is read (a request pipelined
        behind the last one, read here and not in the poller, gets its own)."""
        sock = conn.sock
        if not isinstance(sock, _TimedSocket):  # TLS: gthread's own way
            return super().handle(conn)
        if sock.deadline is None:
            sock.deadline = time.monotonic() + REQUEST_TIMEOUT
        try:
            return super().handle(conn)
        finally:
            sock.deadline = None

    def handle_error(self, req, client, addr, exc):
        captured = _Captured()
        super().handle_error(req, captured, addr, exc)  # logs, and picks the status
        try:
            _, status, reason = captured.data.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
            util.write_nonblock(client, problem_response(int(status), reason, exc))
        except Exception:  # noqa: BLE001 - the client may be gone; nothing more to tell it
            self.log.debug("Failed to send error message.")
