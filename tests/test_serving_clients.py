"""`referee serve` against clients that trickle their bodies or hoard connections (issue 38,
items 2 and 3): a real gunicorn on 127.0.0.1 (other clients come from other loopback
addresses, 127.0.0.2 and up), raw sockets, every wait bounded, no timing asserted."""
import json
import select
import socket
import time

import pytest

from tests.test_serving import answer, held_connections, serving, wait_until_held

PER_CLIENT, IN_ALL = 30, 50  # this server's bounds: connections per address, and in all (one worker)
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`referee serve`, one worker of 8 threads, a deadline (60 s) and a keep-alive (30 s) far
    past every wait here: a request holding a thread holds it for the whole test, an idle
    connection stays idle."""
    with serving(tmp_path_factory, {"REFEREE_REQUEST_TIMEOUT": "60", "REFEREE_CONNECTIONS_PER_CLIENT": str(PER_CLIENT),
                                    "GUNICORN_CMD_ARGS": f"--worker-connections {IN_ALL} --keep-alive 30"}) as server:
        yield server


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def probe(port: int, source: str = "127.0.0.2", wait: float = 10) -> int:
    """GET /healthz from another address, its answer waited for at most `wait` seconds: the status."""
    with connect(port, source) as sock:
        sock.settimeout(wait)
        sock.sendall(HEALTHZ)
        return answer(sock)[0]


def all_closed(port: int, proc) -> None:
    """Until the connections of the test before have left the server (at most 20 s): none
    established, none that its client has closed and the server has yet to (a request waiting
    for a thread still counts among the worker's connections)."""
    for _ in range(200):
        if held_connections(proc.pid, port, ("01", "08")) == 0:
            return
        time.sleep(0.1)
    raise AssertionError("the server still holds connections of an earlier test")


def chunked(sock: socket.socket) -> None:
    sock.sendall(b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")


def expecting(sock: socket.socket) -> None:
    """A head with `Expect: 100-continue`, the 100 waited for (at most 10 s), one byte of body."""
    sock.sendall(b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000\r\nExpect: 100-continue\r\n\r\n")
    got = b""
    while len(got) < 25 and (chunk := sock.recv(25 - len(got))):
        got += chunk
    assert got == b"HTTP/1.1 100 Continue\r\n\r\n"
    sock.sendall(b"{")


def over_a_mebibyte(sock: socket.socket) -> None:
    """A 2 MiB body, its first 1 MiB and 64 KiB sent at once: past what the poller receives."""
    sock.sendall(b"POST /v1/verdicts/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                 b"Content-Length: 2097152\r\n\r\n" + b" " * (2**20 + 2**16))


@pytest.mark.parametrize("start, piece", [(chunked, b"1\r\n \r\n"), (expecting, b" "), (over_a_mebibyte, b" ")],
                         ids=["chunked", "expect-100-continue", "over-1-MiB"])
def test_clients_trickling_their_bodies_do_not_hold_every_thread(served, start, piece):
    """24 clients, three times the worker's threads, each sending a body a byte at a time (a
    chunked one, one after `Expect: 100-continue`, one past the poller's 1 MiB): /healthz is
    answered between their bytes. Before, each held a thread until its deadline, and /healthz
    waited for them (the issue: 40-64 connections held all 16 threads of two workers)."""
    port, proc = served
    all_closed(port, proc)
    tricklers = [connect(port) for _ in range(24)]
    try:
        for sock in tricklers:
            start(sock)
        wait_until_held(proc.pid, port, 24)
        statuses = []
        for _ in range(3):
            for sock in tricklers:
                sock.sendall(piece)
            statuses.append(probe(port))
        assert statuses == [200, 200, 200]
    finally:
        for sock in tricklers:
            sock.close()


def test_expect_100_continue_is_answered_once(served):
    """The poller answers `100 Continue` when the head is in; the request's thread does not
    answer it again before the final answer."""
    port, proc = served
    all_closed(port, proc)
    with connect(port) as sock:
        sock.sendall(b"POST /v1/verdicts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        assert sock.recv(25) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(b"{}")
        status, headers, body = answer(sock)
    assert (status, headers["content-type"], json.loads(body)["status"]) == (422, "application/problem+json", 422)


def refused(sock: socket.socket) -> tuple[int, dict, dict]:
    """The answer to a connection refused at once, before it has asked anything."""
    status, headers, body = answer(sock)
    assert not select.select([sock], [], [], 10)[0] or sock.recv(1) == b""  # and closed
    return status, headers, json.loads(body)


def test_one_address_gets_so_many_connections_and_others_are_still_served(served):
    """30 connections from one address (this server's bound): its 31st is a 429 problem with
    Retry-After, closed; another address is served meanwhile; once the address has closed
    some, it is served again."""
    port, proc = served
    all_closed(port, proc)
    held = [connect(port, "127.0.0.5") for _ in range(PER_CLIENT)]
    try:
        for sock in held:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        wait_until_held(proc.pid, port, PER_CLIENT)
        with connect(port, "127.0.0.5") as sock:
            status, headers, body = refused(sock)
        assert (status, body["status"], headers["connection"]) == (429, 429, "close")
        assert int(headers["retry-after"]) > 0 and "REFEREE_CONNECTIONS_PER_CLIENT" in body["detail"]
        assert probe(port, "127.0.0.6") == 200
        for sock in held[:5]:
            sock.close()
        statuses = []
        for _ in range(100):  # until the server has seen them close (at most about 10 s)
            statuses.append(probe(port, "127.0.0.5"))
            if statuses[-1] == 200:
                break
            time.sleep(0.1)
        assert statuses[-1] == 200 and set(statuses) <= {200, 429}
    finally:
        for sock in held:
            sock.close()


def test_past_the_bound_in_all_an_idle_connection_makes_room_else_503(served):
    """50 connections in all (this server's bound), from two addresses: a new client closes
    the one idle among them (kept alive after its answer) and is served; with none idle, it
    gets a 503 problem, closed, and is not left waiting unanswered (gthread stopped accepting)."""
    port, proc = served
    all_closed(port, proc)
    held = [connect(port, f"127.0.0.{7 + n % 2}") for n in range(IN_ALL - 1)]
    idle = connect(port, "127.0.0.9")
    try:
        for sock in held:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        wait_until_held(proc.pid, port, IN_ALL - 1)
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer(idle)[0] == 200  # and kept alive, idle
        statuses = []
        for _ in range(50):  # a 503 until the server has put the answered connection aside as idle
            statuses.append(probe(port, "127.0.0.10"))
            if statuses[-1] == 200:
                break
            time.sleep(0.1)
        assert statuses[-1] == 200 and set(statuses) <= {200, 503}
        assert idle.recv(1) == b""  # it made room
        for _ in range(200):  # until the served client has gone too (at most about 20 s)
            if held_connections(proc.pid, port) < IN_ALL:
                break
            time.sleep(0.1)
        held.append(connect(port, "127.0.0.10"))
        held[-1].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        wait_until_held(proc.pid, port, IN_ALL)
        with connect(port, "127.0.0.10") as sock:
            status, headers, body = refused(sock)
        assert (status, body["status"], headers["connection"]) == (503, 503, "close")
        assert int(headers["retry-after"]) > 0 and "worker_connections" in body["detail"]
    finally:
        for sock in [*held, idle]:
            sock.close()


def test_past_the_bound_in_all_a_connection_that_sends_nothing_makes_room(served):
    """50 connections in all that have sent nothing yet (a flood of silent ones from two
    addresses): a new client closes the oldest of them and is served."""
    port, proc = served
    all_closed(port, proc)
    silent = [connect(port, f"127.0.0.{11 + n % 2}") for n in range(IN_ALL)]
    try:
        wait_until_held(proc.pid, port, IN_ALL)
        assert probe(port, "127.0.0.13") == 200
        silent[0].settimeout(10)
        assert silent[0].recv(1) == b""  # the oldest, closed to make room
    finally:
        for sock in silent:
            sock.close()


def test_clients_that_never_close_after_a_closing_answer_do_not_hold_the_worker(served):
    """20 clients each asking with `Connection: close` and then neither reading nor closing:
    the server closes its side and waits for them in its poller, so /healthz is answered
    meanwhile (gunicorn waited for each in turn, up to 2 s, holding the whole worker: 20 of
    them held it about 30 s), and each still gets its whole answer."""
    port, proc = served
    all_closed(port, proc)
    lingering = [connect(port, "127.0.0.14") for _ in range(20)]
    try:
        for sock in lingering:
            sock.sendall(HEALTHZ)
        assert probe(port, "127.0.0.15", wait=10) == 200
        assert [answer(sock)[0] for sock in lingering] == [200] * 20
    finally:
        for sock in lingering:
            sock.close()
