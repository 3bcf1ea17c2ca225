"""Perfect play as a hostile client meets it on a real `referee serve` (issue 33): a search
whose client sends its request and goes away stops at once; the server stays up."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.pg import free_port
from tests.solver.claim_deals import early_claim


@pytest.fixture
def served(tmp_path):
    """`referee serve` with one worker and one search slot; its log in a file."""
    port = free_port()
    log = tmp_path / "serve.log"
    url = f"sqlite:///{tmp_path / 'referee.db'}"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", "--database", url, "--bind",
                                 f"127.0.0.1:{port}", "--workers", "1"], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "REFEREE_WEBHOOK_HOSTS": "", "REFEREE_SEARCHES_PER_SERVER": "1"})
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield port, log
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def wait_for_line(log, text: str, timeout: float = 90) -> str:
    """The log's first line holding `text`, waited for (the server's own word, not a guess at its timing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if text in line:
                return line
        time.sleep(0.1)
    raise AssertionError(f"no {text!r} in the server's log:\n{log.read_text(errors='replace')[-3000:]}")


def post_and_leave(port: int, body: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)


def test_a_claim_whose_client_has_gone_stops_searching_and_frees_its_slot(served):
    port, log = served
    body = json.dumps(early_claim()).encode()
    post_and_leave(port, body)  # settling it alone searches to its node limit
    line = wait_for_line(log, "perfect play stopped (cancelled)")
    assert "POST /v1/verdicts" in line and "the client has gone" in line
    post_and_leave(port, body)  # the one slot was given back: this one searches too, and stops too
    deadline = time.monotonic() + 90
    while log.read_text(errors="replace").count("perfect play stopped (cancelled)") < 2:
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.1)
    assert "perfect play stopped (busy)" not in log.read_text(errors="replace")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
        assert r.status == 200
