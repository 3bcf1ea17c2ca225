"""`referee serve` as a hostile client meets it: a real gunicorn on 127.0.0.1, raw sockets,
every wait bounded."""
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.pg import free_port

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 3  # REFEREE_REQUEST_TIMEOUT for these servers, in seconds


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def delivery_workers(pid: int) -> list[int]:
    return [c for c in _children(pid) if "referee.cli deliver" in _cmdline(c)]


def held_connections(pid: int, port: int, states: tuple[str, ...] = ("01",)) -> int:
    """Connections to `port` that the gunicorn workers under `referee serve` (pid) have accepted:
    the sockets among their open files that /proc/net/tcp lists as established on that port
    (or in other `states`: 08 the client has closed, 04-07 and 09-0B closing)."""
    workers = [w for c in _children(pid) if "gunicorn" in _cmdline(c) for w in _children(c)]
    inodes = set()
    for w in workers:
        fds = Path(f"/proc/{w}/fd")
        for fd in fds.iterdir():
            try:
                target = os.readlink(fd)
            except OSError:  # closed meanwhile
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    held = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        held += int(local.rsplit(":", 1)[1], 16) == port and state in states and inode in inodes
    return held


def wait_until_held(pid: int, port: int, count: int, seconds: float = 30) -> None:
    """Until the server has taken up `count` connections (accepted, in a worker's hands), so
    that a request sent next queues behind them instead of going first."""
    deadline = time.monotonic() + seconds
    while held_connections(pid, port) < count:
        assert time.monotonic() < deadline, f"the server took up {held_connections(pid, port)} of {count} connections"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`referee serve` with one worker process, the way an operator starts it."""
    with serving(tmp_path_factory, {"REFEREE_REQUEST_TIMEOUT": str(DEADLINE)}) as server:
        yield server


@contextmanager
def serving(tmp_path_factory, env: dict):
    """`referee serve` with one worker process and these settings: (port, process)."""
    port = free_port()
    url = f"sqlite:///{tmp_path_factory.mktemp('served') / 'referee.db'}"
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", "--database", url, "--bind",
                             f"127.0.0.1:{port}", "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "REFEREE_WEBHOOK_HOSTS": "", **env})
    try:
        wait_until_up(port)
        yield port, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def wait_until_up(port: int) -> None:
    for _ in range(150):  # at most about 15 s
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not answer /healthz")


def exchange(port: int, raw: bytes, timeout: float = 10) -> tuple[int, dict, bytes]:
    """Send raw bytes, read the whole answer: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        return answer(sock)


def answer(sock: socket.socket) -> tuple[int, dict, bytes]:
    """Read one answer from the socket (to its Content-Length, or to the close)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep and b"content-length" in head.lower():
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            if len(body) >= length:
                break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def test_a_malformed_chunk_size_is_a_400_problem(served):
    port, _ = served
    for path in ("/v1/verdicts", "/v1/verdicts/batch", "/v1/tournaments"):
        status, headers, body = exchange(port, (
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n").encode())
        assert (status, headers["content-type"]) == (400, "application/problem+json"), path
        assert json.loads(body)["status"] == 400


def test_a_long_request_line_is_a_414_and_large_headers_a_431_problem(served):
    port, _ = served
    status, headers, body = exchange(port, b"GET /healthz?" + b"x" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert (status, headers["content-type"], json.loads(body)["status"]) == (414, "application/problem+json", 414)
    many = "".join(f"X-H{n}: v\r\n" for n in range(120))
    status, headers, body = exchange(port, f"GET /healthz HTTP/1.1\r\nHost: x\r\n{many}\r\n".encode())
    assert (status, headers["content-type"], json.loads(body)["status"]) == (431, "application/problem+json", 431)
    status, headers, body = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"v" * 9000 + b"\r\n\r\n")
    assert (status, headers["content-type"]) == (431, "application/problem+json")


def test_four_idle_connections_do_not_stall_the_service(served):
    """Four clients that send half a request and then nothing, against one worker process:
    /healthz is still answered (before threaded workers it waited for the 30 s worker timeout)."""
    port, proc = served
    idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(4)]
    try:
        for sock in idle:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        wait_until_held(proc.pid, port, 4)
        status, _, body = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=10)
        assert (status, json.loads(body)) == (200, {"status": "ok"})
    finally:
        for sock in idle:
            sock.close()


def test_serve_starts_the_delivery_worker_again_when_it_dies(served):
    _, proc = served
    (first,) = delivery_workers(proc.pid)
    os.kill(first, signal.SIGKILL)
    again = []
    for _ in range(200):  # at most 20 s; the first restart comes after about 1 s
        again = [pid for pid in delivery_workers(proc.pid) if pid != first]
        if again:
            break
        time.sleep(0.1)
    assert len(again) == 1


def test_more_stalled_clients_than_threads_hold_no_thread(served):
    """Twelve half-sent requests against one worker of 8 threads: a request waits in the
    poller until it is all in, so /healthz is answered (before, it waited for the stalled
    clients' reads to time out, and for ever without that timeout)."""
    port, proc = served
    idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(12)]
    try:
        for sock in idle:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        wait_until_held(proc.pid, port, 12)
        status, _, body = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=40)
        assert (status, json.loads(body)) == (200, {"status": "ok"})
    finally:
        for sock in idle:
            sock.close()


def test_clients_trickling_their_headers_hold_no_thread(served):
    """24 clients, three times the worker's 8 threads, each sending its request one header
    line at a time: /healthz is answered between their lines (it waited for them before)."""
    port, _ = served
    tricklers = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(24)]
    try:
        for sock in tricklers:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        statuses = []
        for line in range(3):
            for sock in tricklers:
                sock.sendall(b"X-Line-%d: still sending\r\n" % line)
            status, _, _ = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=5)
            statuses.append(status)
        assert statuses == [200, 200, 200]
    finally:
        for sock in tricklers:
            sock.close()


def trickle(port: int, head: bytes, piece: bytes) -> tuple[int, dict, bytes]:
    """Send `head`, then `piece` every 0.25 s until the server answers (at most 40 pieces,
    about 10 s, against the 3 s deadline): the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        for _ in range(40):
            if select.select([sock], [], [], 0.25)[0]:
                return answer(sock)
            sock.sendall(piece)
    raise AssertionError("the server kept reading a trickling request past its deadline")


@pytest.mark.parametrize("head, piece", [
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"X-Line: one more\r\n"),
    (b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n",
     b" "),
    (b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
     b"1\r\n \r\n"),
], ids=["headers", "body-with-length", "chunked-body"])
def test_a_request_still_arriving_at_its_deadline_is_a_408_problem(served, head, piece):
    """Headers, a body with its length (received in the poller) or a chunked body (read by
    the app's thread), one piece every 0.25 s: each read is quick, but the whole request is
    not in within the 3 s deadline, so the client gets 408 and the connection closes."""
    port, _ = served
    status, headers, body = trickle(port, head, piece)
    assert (status, headers["content-type"], json.loads(body)["status"]) == (408, "application/problem+json", 408)
    assert f"within {DEADLINE} s" in json.loads(body)["detail"]


def test_plain_gunicorn_from_the_root_has_the_production_settings(tmp_path):
    """`gunicorn wsgi:app` as a Flask user runs it, no -c: gunicorn.conf.py gives it the
    threaded worker, so six idle clients do not stall /healthz (sync workers waited 30 s),
    and its own refusals are problem+json."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                             "wsgi:app"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'referee.db'}"})
    try:
        wait_until_up(port)
        idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(6)]
        try:
            for sock in idle:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            status, _, body = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=5)
            assert (status, json.loads(body)) == (200, {"status": "ok"})
        finally:
            for sock in idle:
                sock.close()
        status, headers, _ = exchange(port, b"GET /healthz?" + b"x" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (status, headers["content-type"]) == (414, "application/problem+json")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _closed_after(sock: socket.socket, seconds: float = 10) -> bool:
    """Whether the server closes the connection (within `seconds`) with nothing more to say."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@pytest.mark.parametrize("head, size, status", [
    ("POST /v1/verdicts HTTP/1.1\r\nContent-Type: text/plain", 100_000, 415),
    ("POST /v1/matches HTTP/1.1\r\nContent-Type: application/json", 100_000, 401),
    ("POST /v1/verdicts HTTP/1.1\r\nContent-Type: application/json", 2_000_000, 413),
], ids=["415", "401-before-the-body", "413"])
def test_an_answer_that_leaves_the_body_unread_says_connection_close(served, head, size, status):
    """An answer given without reading a body over 64 KiB (more than the server discards to
    keep the connection): `Connection: close`, and the connection closes; before, it said
    keep-alive and closed under the client's next request."""
    port, _ = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"{head}\r\nHost: x\r\nContent-Length: {size}\r\n\r\n".encode())
        try:
            sock.sendall(b"{" + b" " * (size - 1))
        except OSError:
            pass  # the server answered and closed before taking all of it: what the test is about
        got, headers, body = answer(sock)
        assert (got, headers["connection"], json.loads(body)["status"]) == (status, "close", status)
        assert _closed_after(sock)


def test_a_small_body_left_unread_keeps_the_connection(served):
    """A 415 for a body of 100 bytes, all arrived: the server discards it, says keep-alive, and
    answers the next request on the same connection."""
    port, _ = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"
                     + b"x" * 100)
        status, headers, _ = answer(sock)
        assert (status, headers["connection"]) == (415, "keep-alive")
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _, body = answer(sock)
        assert (status, json.loads(body)) == (200, {"status": "ok"})
