"""How the referee is served: the one source of its gunicorn settings and limits. `referee
serve` runs `gunicorn -c python:referee.serving 'referee.app:served_app()'`; the repository's
gunicorn.conf.py takes the same settings from here, so a plain `gunicorn wsgi:app` from the
root is served alike.

The worker that keeps the limits is referee/worker.py's (`worker_class`): threaded, protected
against clients that trickle or hoard. This module says the limits (a whole request within
REQUEST_TIMEOUT of its first byte, CLIENT_CONNECTIONS from one address, `worker_connections`
in all, READ_TIMEOUT for each read or write of a thread, BUFFERED_TOTAL held in the poller)
and what a client sees past one: a problem+json answer (`problem_response`, DETAILS), or the
app's 408 for a RequestTimeout raised while it reads a body.
"""
from __future__ import annotations

import json
import os

from referee.recycling import post_request

__all__ = ["worker_class", "workers", "threads", "worker_connections", "timeout", "keepalive", "accesslog",
           "control_socket_disable", "max_requests", "max_requests_jitter", "post_request"]

# gunicorn settings (the names are gunicorn's); the command line may override each.
worker_class = "referee.worker.ProblemWorker"
workers = 2
threads = 8           # per worker: requests in progress at once
worker_connections = 1000  # per worker: connections open at once (past it, see referee/worker.py ProblemWorker.accept)
timeout = 30          # a worker that does not report for this long is restarted
keepalive = 5         # seconds an idle connection is kept (a new one too, before its first byte)
accesslog = "-"
# No control socket (gunicornc): its default path is one per user, so a second server on the
# machine would take it over from the first.
control_socket_disable = True
# Workers are replaced now and then (referee/recycling.py): after max_requests requests plus up
# to max_requests_jitter, or after a request that leaves one past its memory ceiling.
max_requests = 1000
max_requests_jitter = 100

REQUEST_TIMEOUT = float(os.environ.get("REFEREE_REQUEST_TIMEOUT") or 30)  # seconds from a request's first byte to its last
_per_client = os.environ.get("REFEREE_CONNECTIONS_PER_CLIENT", "").strip()
CLIENT_CONNECTIONS = int(_per_client) if _per_client else 100  # per worker, from one address (0: no bound)
READ_TIMEOUT = 10.0           # seconds a thread waits on one read or write of a client's socket
BUFFERED_TOTAL = 64 * 2**20   # bytes of requests a worker's poller holds at once; past it, threads read

DETAILS = {
    408: f"the request did not arrive within {REQUEST_TIMEOUT:.0f} s of its first byte",
    429: f"this address has {CLIENT_CONNECTIONS} connections open with the server's worker, as many as it "
         "takes from one address (REFEREE_CONNECTIONS_PER_CLIENT): close one, or try again later",
    503: "the server's worker has as many connections open as it takes (worker_connections): try again later",
    414: "the request line is longer than the server reads (4094 bytes)",
    431: "the request's header fields are too large or too many",
    500: "the referee failed on this request; it has been logged",
}


class RequestTimeout(TimeoutError):
    """The client did not send its request in time (the app answers 408)."""


def problem_response(status: int, reason: str, exc: Exception | None = None,
                     retry_after: float | None = None) -> bytes:
    detail = DETAILS.get(status) or f"the request is malformed: {exc}"
    body = json.dumps({"type": "about:blank", "title": reason, "status": status, "detail": detail}).encode()
    retry = "" if retry_after is None else f"Retry-After: {retry_after:.0f}\r\n"
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n{retry}Content-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body
