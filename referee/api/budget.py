"""Perfect play in the service: one budget per request (referee.budget), the server's search
slots, a search stopped when its client has gone, and the problem a client gets when perfect
play stops for the request (settlement.Stopped)."""
from __future__ import annotations

import hashlib
import ipaddress
import select
import socket
import ssl
from typing import Callable

from flask import Flask, current_app, g, request

from referee.budget import Budget, Limits
from referee.engine.settlement import Stopped

from .problems import problem

STATUS = {"busy": 429, "seconds": 503, "cancelled": 503, "nodes": 422}
TITLE = {"busy": "Too Many Requests", "seconds": "Perfect play took too long", "cancelled": "Client gone",
         "nodes": "Perfect play limit reached"}


def register(app: Flask, database_url: str | None) -> None:
    limits = Limits.from_settings(app.config, database_url)
    app.extensions["referee.limits"] = limits
    app.extensions["referee.slots"] = limits.slots()

    @app.teardown_request
    def _close(_exc):
        budget = g.pop("referee_budget", None)
        if budget is not None:
            budget.close()

    @app.errorhandler(Stopped)
    def _stopped(exc: Stopped):
        return stopped_response(exc)


def stopped_response(exc: Stopped):
    """The problem for a request whose perfect play stopped; logged, since a gone client reads nothing."""
    current_app.logger.warning("perfect play stopped (%s): %s %s: %s", exc.reason, request.method, request.path,
                               exc.message)
    extra = {"reason": exc.reason}
    if exc.setting is not None:
        extra.update(setting=exc.setting, limit=exc.limit)
    response = problem(STATUS[exc.reason], TITLE[exc.reason], exc.message + _advice(exc), **extra)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _advice(exc: Stopped) -> str:
    if exc.reason in ("busy", "seconds"):
        return f"; send the request again after {exc.retry_after} s (Retry-After)"
    return ""


def new_budget(**limits) -> Budget:
    """A budget for work that outlives the view (a streamed answer): its owner closes it."""
    app = current_app
    limits_ = app.extensions["referee.limits"]
    watch = client_gone(request.environ) if limits_.watch_clients else None
    return Budget(limits_, "wall", watch, app.extensions["referee.slots"], labels=client_labels(), **limits)


def client_labels() -> tuple[str, ...]:
    """Who asks, for the fair queue of search slots (referee/slots.py): the client's address
    (an IPv6 address by its /64, which one client is usually given whole) and the key it
    sends, if any (hashed: the slots' files do not keep keys)."""
    labels = []
    try:
        address = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        address = None
    if isinstance(address, ipaddress.IPv6Address):
        address = address.ipv4_mapped or ipaddress.ip_network(f"{address}/64", strict=False)
    labels.append(f"address:{address or request.remote_addr or '-'}")
    auth = request.headers.get("Authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        labels.append("key:" + hashlib.sha256(auth[7:].strip().encode()).hexdigest()[:16])
    return tuple(labels)


def request_budget(**limits) -> Budget:
    """This request's budget (made at its first use, closed when the request ends); `limits`:
    the request's own `nodes` and `seconds`, when not the operator's (the analysis)."""
    budget = g.get("referee_budget")
    if budget is None:
        budget = g.referee_budget = new_budget(**limits)
    return budget


def client_gone(environ: dict) -> Callable[[], bool] | None:
    """Whether the client has closed its connection, where the server hands the app its socket
    (gunicorn, Werkzeug's server); None where it cannot be known."""
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if not isinstance(sock, socket.socket) or isinstance(sock, ssl.SSLSocket):
        return None  # an SSL socket's bytes are not the request's: no peeking there
    return lambda: _gone(sock)


def _gone(sock: socket.socket) -> bool:
    """The request is read whole before perfect play starts, so a readable socket with nothing
    to read is the client's end of the connection (a next request waiting is not)."""
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN | select.POLLERR | select.POLLHUP)
        if not poller.poll(0):
            return False
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):  # reset, or closed already
        return True
