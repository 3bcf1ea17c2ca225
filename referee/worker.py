"""The referee's serving worker (referee/serving.py's `worker_class`, with its settings and
limits): gunicorn's gthread, protected against clients that trickle or hoard:

- A request arrives in the worker's poller, not in a thread (referee/arrival.py): its
  request line and headers, and its body up to BUFFERED_BODY bytes however it is sent (with
  a Content-Length, chunked, after `Expect: 100-continue`), are received there, and a thread
  takes the request only once all of it is in. A thousand clients sending a header line or
  a byte of body every few seconds hold no thread at all.
- A longer body is read on by the request's thread; at most half of a worker's threads
  (`reading_threads`) read such requests at once, the next ones waiting (not read) until
  one is done, so the other requests always have threads.
- The whole request (line, headers and body) must arrive within REQUEST_TIMEOUT of its first
  byte. Past it the client gets a 408 problem and the connection is closed, wherever it is;
  a thread also waits at most READ_TIMEOUT for each read, and for room to write the answer.
- A worker holds at most CLIENT_CONNECTIONS connections from one address, past it a 429
  problem, and `worker_connections` in all: past it the oldest idle connection (kept alive,
  or not yet sending) is closed to make room, else a 503 problem (gthread would stop
  accepting, new clients left unanswered).
- An answer that leaves the body unread says `Connection: close`; a connection closed after
  its answer is closed in the poller (referee/departure.py), not waited for there.

A connection that sends nothing is closed after `keepalive` seconds. What gunicorn refuses
before the app sees it (a request line over 4094 bytes: 414; header fields too large or too
many: 431; a malformed request: 400) is answered as problem+json like every other error.
"""
from __future__ import annotations

import errno
import selectors
import socket
import threading
import time
from collections import Counter, deque
from functools import partial

from gunicorn import http, util
from gunicorn.workers.gthread import TConn, ThreadWorker

from referee.arrival import CONTINUE, Arrival, closing_unread
from referee.departure import Departures
from referee.serving import (BUFFERED_TOTAL, CLIENT_CONNECTIONS, DETAILS, READ_TIMEOUT, REQUEST_TIMEOUT, RequestTimeout,
                             problem_response)


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
    continued = False          # the poller has answered `100 Continue`: gunicorn's is not sent again
    on_close = None            # called once when the connection closes (its client's count)

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

    def send(self, data, flags: int = 0) -> int:
        if self.continued and data == CONTINUE:
            self.continued = False
            return len(data)
        return super().send(data, flags)

    def close(self) -> None:
        done, self.on_close = self.on_close, None
        super().close()
        if done is not None:
            done()


class _Conn(TConn):
    """A connection whose graceful close (after an answer that closes it) is left to the
    worker's poller (referee/departure.py), not waited for there."""

    leave = None

    def close(self, graceful=False):
        if graceful and self.leave is not None:
            return self.leave(self.sock)
        return super().close(graceful)


class ProblemWorker(ThreadWorker):
    """gthread, receiving each request in the poller under one deadline, with a timeout on
    a thread's reads and writes, bounds on the connections open, and gunicorn's own error
    answers as problem+json."""

    @classmethod
    def check_config(cls, cfg, log):
        """In gunicorn's master, once, before any worker starts: the app's modules imported
        (about 1 s of CPU), so each worker forks with them loaded and only builds its app
        (create_app: its own database engine, keys and search slots, nothing opened shared).
        A worker is replaced every max_requests requests: each replacement imported them
        again, about 1 ms of CPU a request amortised. A module that fails to import here is
        left to the worker, which fails as it did."""
        super().check_config(cfg, log)
        try:
            import referee.api, referee.app, referee.pages, referee.store.service  # noqa: F401, E401
        except Exception:  # noqa: BLE001 - the worker's own import says what is wrong
            log.debug("the app's modules were not imported before the workers", exc_info=True)

    def init_process(self):
        self.arrivals: dict[int, Arrival] = {}
        self.buffered = 0
        self.reading = 0  # threads reading a request still arriving, at most half of them
        self.reading_threads = max(1, self.cfg.threads // 2)
        self.waiting: deque[Arrival] = deque()  # requests still arriving, for a thread to read them
        self.clients: Counter[str] = Counter()  # connections open by address
        self.clients_lock = threading.Lock()    # a thread may close a connection
        self.bound, self.worker_connections = self.worker_connections, 2**62  # gthread stops accepting there
        super().init_process()

    def run(self):
        self.departures = Departures(self.poller)
        super().run()

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = partial(closing_unread, self.wsgi)

    def accept(self, listener):
        """A connection past a bound is answered at once and closed (gthread would stop
        accepting: new clients waited unanswered): past this client's, 429; past the worker's,
        its oldest idle connection is closed to make room, else 503."""
        try:
            sock, addr = listener.accept()
        except OSError as e:
            if e.errno in (errno.EMFILE, errno.ENFILE):  # out of files: accepted again next turn
                self.set_accept_enabled(False)
                return
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        client = addr[0] if isinstance(addr, tuple) and CLIENT_CONNECTIONS and not self.cfg.is_ssl else None
        refusal = self._past_bound(client)
        if refusal is not None:
            return self._refuse(sock, *refusal)
        self.nr_conns += 1
        sock = _TimedSocket(sock.family, sock.type, sock.proto, fileno=sock.detach())
        if client is not None:
            with self.clients_lock:
                self.clients[client] += 1
            sock.on_close = partial(self._closed, client)
        conn = _Conn(self.cfg, sock, addr, listener.getsockname())
        if self.cfg.is_ssl:  # the handshake needs a thread: gthread's own way
            self.enqueue_req(conn)
        else:
            conn.leave = self.departures.close
            self._receive(conn)

    def _past_bound(self, client: str | None) -> tuple[int, str] | None:
        if client is not None and self.clients[client] >= CLIENT_CONNECTIONS:
            return 429, "Too Many Requests"
        if self.nr_conns < self.bound:
            return None
        if self.keepalived_conns:
            idle = self.keepalived_conns.popleft()
            self.poller.unregister(idle.sock)
            self.nr_conns -= 1
            idle.close()
            return None
        silent = next((a for a in self.arrivals.values() if a.began is None), None)  # the oldest first
        if silent is not None:
            self._drop(silent)
            return None
        return 503, "Service Unavailable"

    def _refuse(self, sock: socket.socket, status: int, reason: str) -> None:
        try:
            sock.setblocking(False)
            try:
                sock.recv(65536)  # what the request sent already, so that closing does not reset
            except OSError:
                pass
            sock.send(problem_response(status, reason, retry_after=REQUEST_TIMEOUT))
        except OSError:
            pass
        finally:
            sock.close()

    def _closed(self, client: str) -> None:
        with self.clients_lock:
            self.clients[client] -= 1
            if self.clients[client] <= 0:
                del self.clients[client]

    def on_client_socket_readable(self, conn, client):
        """A kept-alive connection's next request: received in the poller too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._receive(conn)
        self._on_bytes(conn, client)

    def _receive(self, conn) -> None:
        self.arrivals[conn.sock.fileno()] = Arrival(conn, time.monotonic() + self.cfg.keepalive)
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
        elif arrival.wants_continue():
            arrival.continued = True
            try:
                conn.sock.send(CONTINUE)  # non-blocking, into an empty send buffer
            except OSError:
                pass

    def _forget(self, arrival: Arrival) -> None:
        self.arrivals.pop(arrival.conn.sock.fileno(), None)
        self.buffered -= len(arrival.data)
        try:
            self.poller.unregister(arrival.conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _drop(self, arrival: Arrival, answer: bytes = b"") -> None:
        self._forget(arrival)
        if answer:
            try:
                arrival.conn.sock.send(answer)  # non-blocking: what fits; the client is not waited for
            except OSError:
                pass
        self.nr_conns -= 1
        arrival.conn.close()

    def _hand_over(self, arrival: Arrival) -> None:
        """The request is in: a thread takes it, its bytes given back to the parser. One still
        arriving (a body over BUFFERED_BODY) waits, not read, while `reading_threads` threads
        read such requests, so that the others always have threads."""
        conn = arrival.conn
        if not arrival.whole and self.reading >= self.reading_threads:
            self.poller.unregister(conn.sock)  # still among the arrivals: its deadline holds
            self.waiting.append(arrival)
            return
        self._forget(arrival)
        if not arrival.whole:
            self.reading += 1
            conn.reading = True
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(arrival.data))
        conn.sock.deadline = arrival.until
        conn.sock.continued = arrival.continued
        conn.data_ready = True
        self.enqueue_req(conn)

    def finish_request(self, conn, fs):
        if getattr(conn, "reading", False):
            conn.reading = False
            self.reading -= 1
            while self.waiting and self.reading < self.reading_threads:
                arrival = self.waiting.popleft()
                if self.arrivals.get(arrival.conn.sock.fileno()) is arrival:  # not timed out meanwhile
                    self._hand_over(arrival)
        super().finish_request(conn, fs)

    def murder_pending(self):
        """Also: requests that did not arrive in time get a 408; silent connections are closed."""
        super().murder_pending()
        self.departures.expire()
        now = time.monotonic()
        for arrival in [a for a in self.arrivals.values() if a.until <= now]:
            self._drop(arrival, problem_response(408, "Request Timeout") if arrival.began is not None else b"")

    def murder_keepalived(self, force=False):
        super().murder_keepalived(force)
        if force:
            self.departures.expire(everyone=True)
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
            sock.deadline, sock.continued = None, False

    def handle_error(self, req, client, addr, exc):
        captured = _Captured()
        super().handle_error(req, captured, addr, exc)  # logs, and picks the status
        try:
            _, status, reason = captured.data.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
            util.write_nonblock(client, problem_response(int(status), reason, exc))
        except Exception:  # noqa: BLE001 - the client may be gone; nothing more to tell it
            self.log.debug("Failed to send error message.")
