"""A connection leaving a serving worker (referee/worker.py) after an answer that closes it.

It is closed the graceful way (RFC 9112 section 9.6: the server's side shut first, then
what the client still sends read and dropped until it closes, so that the last answer is not
cut by a reset), as gunicorn does, but in the worker's poller: gunicorn waits for the client
there, up to 2 s a connection, and twenty clients that never close held the whole worker
(every other client's request, /healthz too) for 30 s.
"""
from __future__ import annotations

import selectors
import socket
import time

LINGER = 2.0        # seconds a closing connection waits for its client to close (gunicorn's)
DRAINED = 64 * 1024  # the most read from it meanwhile (gunicorn's)


class Departures:
    """The connections closing, each read when readable and closed when its client has closed,
    after DRAINED bytes, or LINGER seconds (`expire`)."""

    def __init__(self, poller: selectors.BaseSelector):
        self.poller = poller
        self.closing: dict[int, list] = {}  # fileno -> [socket, until, bytes read]

    def close(self, sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_WR)
            sock.setblocking(False)
            self.poller.register(sock, selectors.EVENT_READ, self._readable)
        except (OSError, ValueError, KeyError):
            sock.close()
            return
        self.closing[sock.fileno()] = [sock, time.monotonic() + LINGER, 0]

    def _readable(self, sock: socket.socket) -> None:
        entry = self.closing.get(sock.fileno())
        if entry is None:
            return
        try:
            data = sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        entry[2] += len(data)
        if not data or entry[2] >= DRAINED:
            self._end(entry[0])

    def _end(self, sock: socket.socket) -> None:
        self.closing.pop(sock.fileno(), None)
        try:
            self.poller.unregister(sock)
        except (KeyError, ValueError, OSError):
            pass
        sock.close()

    def expire(self, everyone: bool = False) -> None:
        now = time.monotonic()
        for sock, until, _ in [e for e in self.closing.values() if everyone or e[1] <= now]:
            self._end(sock)
