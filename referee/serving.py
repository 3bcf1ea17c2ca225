"""How the referee is served: `gunicorn -c python:referee.serving wsgi:app` (what `referee
serve` runs).

Threaded workers (gunicorn's gthread): a connection waits in the worker's poller until it
sends something, and a client that is slow to send or to read holds one thread, not a
whole worker process; a worker streaming a long answer still tells the arbiter it is alive,
so the worker timeout does not cut the answer. A thread waits at most READ_TIMEOUT for the
next bytes of a request (or for room to write the answer): a client that stops mid-request
gives its thread back then, instead of holding it for as long as it keeps the socket open. What gunicorn refuses before the app sees
it (a request line over 4094 bytes: 414; header fields too large or too many: 431; a
malformed request: 400) is answered as problem+json like every other error.
"""
from __future__ import annotations

import json
import socket

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

# gunicorn settings (the names are gunicorn's); the command line may override each.
worker_class = "referee.serving.ProblemWorker"
workers = 2
threads = 8           # per worker: requests in progress at once, slow clients included
timeout = 30
keepalive = 5
accesslog = "-"

READ_TIMEOUT = 10.0   # seconds a thread waits on one read or write of a client's socket

DETAILS = {
    414: "the request line is longer than the server reads (4094 bytes)",
    431: "the request's header fields are too large or too many",
    500: "the referee failed on this request; it has been logged",
}


class _Captured:
    """Stands in for the client's socket while gunicorn writes its own (HTML) error."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0

    def sendall(self, data: bytes) -> None:
        self.data += data


def problem_response(status: int, reason: str, exc: Exception) -> bytes:
    detail = DETAILS.get(status) or f"the request is malformed: {exc}"
    body = json.dumps({"type": "about:blank", "title": reason, "status": status, "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class _TimedSocket(socket.socket):
    """A client's socket whose blocking mode waits at most READ_TIMEOUT (gthread sets the
    socket blocking, with no timeout, before each request)."""

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(READ_TIMEOUT)
        else:
            super().setblocking(False)


class _Listener:
    """The listening socket, handing out _TimedSockets."""

    def __init__(self, listener):
        self._listener = listener

    def accept(self):
        sock, addr = self._listener.accept()
        return _TimedSocket(sock.family, sock.type, sock.proto, fileno=sock.detach()), addr

    def getsockname(self):
        return self._listener.getsockname()


class ProblemWorker(ThreadWorker):
    """gthread, with a timeout on client reads and gunicorn's own error answers as problem+json."""

    def accept(self, listener):
        super().accept(_Listener(listener))

    def handle_error(self, req, client, addr, exc):
        captured = _Captured()
        super().handle_error(req, captured, addr, exc)  # logs, and picks the status
        try:
            _, status, reason = captured.data.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
            util.write_nonblock(client, problem_response(int(status), reason, exc))
        except Exception:  # noqa: BLE001 - the client may be gone; nothing more to tell it
            self.log.debug("Failed to send error message.")
