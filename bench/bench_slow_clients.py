"""Slow and idle clients against the served referee, side by side with gunicorn's default
(sync) workers in the same run. Everything on 127.0.0.1; every wait bounded.

    python bench/bench_slow_clients.py

For each server (2 worker processes each):
1. GET /healthz alone (median of 5);
2. GET /healthz while four sockets have sent half a request (`GET /healthz HTTP/1.1`,
   `Host: x`, then nothing);
3. a reader sending a batch of about 15 MiB (full deals) and taking its answer at 1 MiB/s,
   and GET /healthz meanwhile; the reader's lines and whether the answer was complete (its
   terminating chunk).

Figures only: no assertion; not part of the tests.
"""
from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_replay import make_texts  # noqa: E402

PY = sys.executable
WAIT = 40.0            # the longest any one request is waited for
TARGET = 15 * 2**20    # bytes of the batch
RATE = 2**20           # bytes a second the slow reader takes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args: list[str], env: dict) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen([PY, "-m", "gunicorn", *args, "--bind", f"127.0.0.1:{port}", "--workers", "2", "wsgi:app"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("gunicorn did not start")


def healthz(port: int) -> float | None:
    """Seconds for GET /healthz, or None when not answered within WAIT."""
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=WAIT) as r:
            r.read()
    except OSError:
        return None
    return time.perf_counter() - began


def shown(seconds: float | None) -> str:
    return f"> {WAIT:.0f} s" if seconds is None else f"{seconds * 1000:,.1f} ms"


def with_idle_sockets(port: int) -> float | None:
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    try:
        for sock in idle:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.5)
        return healthz(port)
    finally:
        for sock in idle:
            sock.close()


def batch_body() -> tuple[bytes, int]:
    """JSON Lines of full deals, about TARGET bytes; (body, records)."""
    per_record = statistics.mean(len(t) + 1 for t in make_texts(20))
    count = min(10_000, int(TARGET / per_record))
    return "\n".join(make_texts(count)).encode(), count


def dechunk(data: bytes) -> tuple[bytes, bool]:
    """The body of a chunked answer, and whether its terminating chunk arrived."""
    _, _, rest = data.partition(b"\r\n\r\n")
    body = bytearray()
    while rest:
        size_line, sep, rest = rest.partition(b"\r\n")
        if not sep:
            return bytes(body), False
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return bytes(body), True
        body += rest[:size]
        rest = rest[size + 2:]
    return bytes(body), False


def slow_read(port: int, body: bytes, result: dict) -> None:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)  # the reader's pace, not the kernel's
    sock.settimeout(WAIT)
    sock.connect(("127.0.0.1", port))
    began = time.perf_counter()
    sock.sendall(b"POST /v1/verdicts/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                 b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
    data, step = bytearray(), RATE // 16
    try:
        while chunk := sock.recv(step):
            data += chunk
            time.sleep(max(0.0, began + len(data) / RATE - time.perf_counter()))  # RATE on average
    except OSError:
        pass
    sock.close()
    text, complete = dechunk(bytes(data))
    result.update(bytes=len(text), lines=text.count(b"\n"), complete=complete, seconds=time.perf_counter() - began)


def during_slow_read(port: int, body: bytes) -> tuple[dict, list[float | None]]:
    result: dict = {}
    reader = threading.Thread(target=slow_read, args=(port, body, result))
    reader.start()
    latencies = []
    time.sleep(1)
    while reader.is_alive() and len(latencies) < 10:
        latencies.append(healthz(port))
        time.sleep(1)
    reader.join(timeout=900)  # a loaded machine computes the answer slowly too
    return result, latencies


def measure(name: str, args: list[str], env: dict, body: bytes, records: int) -> None:
    proc, port = start(args, env)
    try:
        alone = statistics.median(healthz(port) or WAIT for _ in range(5))
        idle = with_idle_sockets(port)
        read, latencies = during_slow_read(port, body)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    answered = [x for x in latencies if x is not None]
    worst = shown(None if len(answered) < len(latencies) else max(answered, default=0))
    print(f"{name:<34} /healthz alone {shown(alone):>10}   4 idle sockets {shown(idle):>10}")
    print(f"{'':<34} slow reader: {read.get('lines', 0):,} of {records:,} lines, "
          f"{read.get('bytes', 0) / 2**20:.1f} MiB in {read.get('seconds', 0):.1f} s, "
          f"{'complete' if read.get('complete') else 'CUT (no terminating chunk)'}; /healthz meanwhile: worst {worst}")


def main() -> None:
    body, records = batch_body()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'referee.db'}"
        subprocess.run([PY, "-m", "referee.cli", "db", "upgrade", "--database", url], check=True,
                       stdout=subprocess.DEVNULL)
        env = {**os.environ, "DATABASE_URL": url}
        print(f"batch: {records:,} full deals, {len(body) / 2**20:.1f} MiB in; reader at {RATE / 2**20:.0f} MiB/s")
        measure("gunicorn default (sync), baseline", [], env, body, records)
        measure("referee serve (referee.serving)", ["-c", "python:referee.serving"], env, body, records)


if __name__ == "__main__":
    main()
