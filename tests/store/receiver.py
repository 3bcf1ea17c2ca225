"""A real HTTP receiver on 127.0.0.1 for webhook tests."""
from __future__ import annotations

import threading
import time
from typing import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """Records every POST (and when it came, `arrivals`); answers 500 for the first
    `fail_first` requests, then 200; `delay`: seconds it takes to answer (a slow receiver)."""

    def __init__(self, fail_first: int = 0, always_fail: bool = False, delay: float = 0.0):
        self.fail_first = fail_first
        self.always_fail = always_fail
        self.delay = delay
        self.requests: list[tuple[dict, bytes, int]] = []
        self.arrivals: list[float] = []
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)  # notified at each request
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    n = len(receiver.requests)
                    status = 500 if receiver.always_fail or n < receiver.fail_first else 200
                    headers = {k: v for k, v in self.headers.items()}
                    headers["_path"] = self.path
                    receiver.requests.append((headers, body, status))
                    receiver.arrivals.append(time.monotonic())
                    receiver.arrived.notify_all()
                if receiver.delay:
                    time.sleep(receiver.delay)  # the slowness under test, not a wait for something
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def accepted(self) -> list[tuple[dict, bytes]]:
        with self.lock:
            return self._accepted()

    def _accepted(self) -> list[tuple[dict, bytes]]:
        return [(h, b) for h, b, status in self.requests if status == 200]

    def wait_for(self, enough: int | Callable[[list], bool], seconds: float = 60) -> list[tuple[dict, bytes]]:
        """The accepted requests once there are `enough` of them (a count, or a test of the
        list), woken by each arrival; what arrived by then if `seconds` pass first."""
        done = enough if callable(enough) else lambda accepted: len(accepted) >= enough
        with self.arrived:
            self.arrived.wait_for(lambda: done(self._accepted()), timeout=seconds)
            return self._accepted()

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
