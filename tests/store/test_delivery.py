"""Delivery against hostile targets: odd URLs, failing and slow receivers, non-public
addresses. Every receiver here listens on 127.0.0.1, every loop is bounded in time and count."""
import json
import socket
import threading
import time
from datetime import timedelta

import pytest

from referee.store import leases
from referee.store.delivery import Worker
from referee.store.targets import TargetRefused, check_target
from referee.store.errors import Invalid
from referee.store.models import Delivery, Tournament, Webhook, utcnow
from referee.store.ids import new_id
from referee.store.webhooks import Webhooks
from tests.helpers import won_by
from tests.store.receiver import Receiver

PLAYERS = ["A", "B", "C", "D"]
NO_ANSWER = "could not connect"


def one_match(store, tid, key):
    store.create_match(tid, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, None)


def log_of(store, wid):
    with store.db.transaction() as s:
        return [(d.ok, d.http_status, d.error) for d in s.query(Delivery).filter_by(webhook_id=wid).order_by(Delivery.id)]


def raw_hook(store, tid, url, secret):
    """A subscription as an older version may have stored it (no check on the way in)."""
    with store.db.transaction() as s:
        w = Webhook(id=new_id(), tournament_id=tid, url=url, secret=secret, active=True, delivered_seq=0,
                    failures=0, next_attempt_at=utcnow(), created_at=utcnow())
        s.add(w)
        return w.id


def working(store, stop: threading.Event) -> threading.Thread:
    """A worker delivering pass after pass, on a thread of its own, until `stop` is set."""
    def work():
        worker = Worker(store.db)
        while not stop.is_set():
            worker.run_once()
            stop.wait(0.05)
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def port_of(rx):
    return rx.server.server_address[1]


# -- 4: one URL must not stop delivery for everyone ------------------------------------------

def test_a_url_is_normalised_before_it_is_checked_and_stored_as_it_is_connected_to(store, monkeypatch):
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "localhost")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver() as rx:
        hook, _ = Webhooks(store).register(t.id, key, f"http://\u24dbocalhost:{port_of(rx)}/x")
        assert hook["url"] == f"http://localhost:{port_of(rx)}/x"
        one_match(store, t.id, key)
        Worker(store.db).run_once()
        assert {h["Host"] for h, _ in rx.accepted()} == {f"localhost:{port_of(rx)}"}  # each of the match's events
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "127.0.0.1")
    assert check_target("http://0x7f000001:9/a b/\u00e9?q=\u00e9").url == "http://127.0.0.1:9/a%20b/%C3%A9?q=%C3%A9"


def test_one_bad_subscription_is_its_own_failure_and_the_others_are_delivered(store, allow_loopback_hooks):
    """A URL stored before normalisation, and a secret this REFEREE_SECRET_KEY cannot open:
    each attempt fails (logged, retried later); every other tournament still gets its events."""
    with Receiver() as rx:
        hooks = []
        for url, secret in ((f"http://\u24dbocalhost:{port_of(rx)}/odd", "whsec_plain"),
                            (rx.url + "?sealed-elsewhere", "enc:v1:not-a-token"),
                            (rx.url + "?good", "whsec_plain")):
            t, key, _ = store.create_tournament("t", "court-piece", {}, True)
            hooks.append(raw_hook(store, t.id, url, secret))
            one_match(store, t.id, key)
        worker = Worker(store.db)
        worker.run_once()
        paths = sorted({h["_path"] for h, _ in rx.accepted()})  # each match's events (its tricks, its deal)
    assert paths == ["/hook?good", "/odd"]
    assert log_of(store, hooks[1]) == [(False, None, "the referee could not send this event (see its log)")]
    with store.db.transaction() as s:
        later = s.get(Webhook, hooks[1])
        assert later.failures == 1 and later.active  # retried later, with backoff


# -- 9: the default is no scanner of this machine or its network ---------------------------------

NOT_PUBLIC = ["http://127.0.0.1/", "http://127.1/", "http://0x7f000001/", "http://2130706433/", "http://0177.0.0.1/",
              "http://[::1]/", "http://localhost/", "http://\u24dbocalhost/", "http://LOCALHOST./", "http://0.0.0.0/",
              "http://0/", "http://[::]/", "http://10.1.2.3/", "http://172.16.0.1/", "http://192.168.0.1/",
              "http://169.254.169.254/latest", "http://[fe80::1]/", "http://[fc00::1]/", "http://[::ffff:127.0.0.1]/",
              "http://100.64.0.1/", "http://224.0.0.1/"]


def refused(store, monkeypatch, url) -> Invalid:
    """The refusal of a webhook to `url`, the operator listing no host (checked only: nothing is sent)."""
    monkeypatch.delenv("REFEREE_WEBHOOK_HOSTS", raising=False)
    monkeypatch.delenv("REFEREE_DEV", raising=False)
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with pytest.raises(Invalid) as refusal:
        Webhooks(store).register(t.id, key, url)
    return refusal.value


@pytest.mark.parametrize("url", NOT_PUBLIC)
def test_non_public_addresses_are_refused_in_every_spelling(store, monkeypatch, url):
    assert refused(store, monkeypatch, url).extra["errors"][0]["pointer"] == "/url"


def test_the_operator_allows_hosts_addresses_networks_or_everything_in_development(store, monkeypatch):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    monkeypatch.delenv("REFEREE_DEV", raising=False)
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "127.0.0.0/8")
    assert Webhooks(store).register(t.id, key, "http://127.1:9/x")[0]["url"] == "http://127.0.0.1:9/x"
    with pytest.raises(Invalid):
        Webhooks(store).register(t.id, key, "http://[::1]:9/x")
    monkeypatch.delenv("REFEREE_WEBHOOK_HOSTS")
    monkeypatch.setenv("REFEREE_DEV", "1")
    assert Webhooks(store).register(t.id, key, "http://[::1]:9/x")[0]["url"] == "http://[::1]:9/x"


# IPv4 inside IPv6: on a network that translates these, each reaches the IPv4 address it holds
EMBEDDED = {
    "NAT64 64:ff9b::/96, loopback": "http://[64:ff9b::7f00:1]/",
    "NAT64 64:ff9b::/96, link-local": "http://[64:ff9b::a9fe:a9fe]/",
    "NAT64 64:ff9b::/96, private": "http://[64:ff9b::a00:1]/",
    "local NAT64 64:ff9b:1::/48, /96 form": "http://[64:ff9b:1::c0a8:1]/",
    "local NAT64 64:ff9b:1::/48, /48 form": "http://[64:ff9b:1:7f00:0:100::]/",
    "6to4 2002::/16, loopback": "http://[2002:7f00:1::]/",
    "6to4 2002::/16, private": "http://[2002:c0a8:101::1]/",
    "IPv4-mapped ::ffff:0:0/96": "http://[::ffff:a9fe:a9fe]/",
    "IPv4-compatible ::/96": "http://[::7f00:1]/",
    "IPv4-compatible ::/96, private": "http://[::ac10:1]/",
    "IPv4-translated ::ffff:0:0:0/96": "http://[::ffff:0:7f00:1]/",
    "IPv4-translated ::ffff:0:0:0/96, link-local": "http://[::ffff:0:a9fe:a9fe]/",
}


@pytest.mark.parametrize("url", EMBEDDED.values(), ids=EMBEDDED.keys())
def test_ipv4_inside_ipv6_is_the_ipv4_address_it_is(store, monkeypatch, url):
    """Only the address is checked: nothing is sent to it."""
    assert "is not a public address" in str(refused(store, monkeypatch, url))


def test_a_public_ipv4_inside_ipv6_is_public_and_the_operator_may_allow_the_ipv4_address(monkeypatch):
    monkeypatch.delenv("REFEREE_DEV", raising=False)
    monkeypatch.delenv("REFEREE_WEBHOOK_HOSTS", raising=False)
    for url in ("http://[64:ff9b::808:808]/", "http://[2002:808:808::1]/", "http://[::ffff:808:808]/"):
        assert check_target(url).url == url  # 8.8.8.8, only checked
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "127.0.0.1")
    assert check_target("http://[64:ff9b::7f00:1]:9/").address == "64:ff9b::7f00:1"
    with pytest.raises(TargetRefused):
        check_target("http://[64:ff9b::7f00:2]:9/")  # 127.0.0.2: not the address allowed


def _closing_receiver():
    """Accepts, reads, and hangs up without an answer."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(10)

    def serve():
        try:
            for _ in range(3):
                conn, _ = server.accept()
                conn.recv(65536)
                conn.close()
        except OSError:
            pass
    threading.Thread(target=serve, daemon=True).start()
    return server


def test_the_delivery_log_says_could_not_connect_or_the_status_never_the_sockets_words(store, allow_loopback_hooks):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    nothing = socket.create_server(("127.0.0.1", 0))
    closed_port = nothing.getsockname()[1]
    nothing.close()  # nothing listens there now: refused
    hangs_up = _closing_receiver()
    with Receiver(always_fail=True) as rx:
        ids = [Webhooks(store).register(t.id, key, url)[0]["id"] for url in
               (f"http://127.0.0.1:{closed_port}/", f"http://127.0.0.1:{hangs_up.getsockname()[1]}/", rx.url)]
        one_match(store, t.id, key)
        Worker(store.db).run_once()
    hangs_up.close()
    assert [log_of(store, wid) for wid in ids] == [[(False, None, NO_ANSWER)], [(False, None, NO_ANSWER)],
                                                   [(False, 500, "HTTP 500")]]


# -- 5: a slow receiver stalls nothing and gets no event twice ---------------------------------

class Trickler:
    """Reads a request, then answers one byte every `every` seconds, never finishing, until
    stopped; counts the requests it read."""

    def __init__(self, every=0.1):
        self.every, self.requests, self.stop = every, [], threading.Event()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.threads = [threading.Thread(target=self._accept, daemon=True)]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.getsockname()[1]}/slow"

    def _accept(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            thread = threading.Thread(target=self._trickle, args=(conn,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _trickle(self, conn):
        with conn:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                body += chunk
            self.requests.append(json.loads(body)["id"])
            try:
                for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 10_000:
                    if self.stop.wait(self.every):
                        break
                    conn.sendall(bytes([byte]))
            except OSError:
                pass  # the sender gave up

    def __enter__(self):
        self.threads[0].start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in list(self.threads):
            thread.join(timeout=10)
        self.server.close()


def test_a_slow_receiver_is_cut_at_one_deadline_and_a_live_worker_never_duplicates(store, monkeypatch,
                                                                                    allow_loopback_hooks):
    """Two workers for 3 s against a receiver that trickles its answer forever, with a lease
    much shorter than the trickle: each POST the receiver got is an attempt its worker
    logged (none sent again behind a live worker's back), and each was cut off."""
    monkeypatch.setenv("REFEREE_WEBHOOK_TIMEOUT", "0.4")  # one attempt's limit
    monkeypatch.setattr(leases, "LEASE", timedelta(seconds=1.2))
    monkeypatch.setenv("REFEREE_WEBHOOK_BACKOFF", "0.2")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Trickler() as rx:
        hook, _ = Webhooks(store).register(t.id, key, rx.url)
        one_match(store, t.id, key)
        stop = threading.Event()
        workers = [working(store, stop) for _ in range(2)]
        stop.wait(3)
        stop.set()
        for w in workers:
            w.join(timeout=3)  # an attempt in flight ends at its deadline
    for w in workers:
        w.join(timeout=10)
    attempts = log_of(store, hook["id"])
    assert len(rx.requests) >= 2 and len(rx.requests) == len(attempts)
    assert set(attempts) == {(False, None, "no answer within 0.4 s")}


# -- issue 33: fair delivery -------------------------------------------------------------------

def _feed_length(store, tid):
    with store.db.transaction() as s:
        return s.get(Tournament, tid).feed_seq


def test_a_slow_receiver_counts_as_failing_and_holds_up_no_other(store, monkeypatch, allow_loopback_hooks):
    """Three subscriptions to one tournament; one receiver answers (200) only after 1.5 s,
    over the 0.5 s an attempt may take (REFEREE_WEBHOOK_TIMEOUT). One pass: the two others
    get every event of the match; the slow one's attempt failed ("no answer within 0.5 s")
    and it is backed off (before, it counted as delivered and the others waited behind it)."""
    monkeypatch.setenv("REFEREE_WEBHOOK_TIMEOUT", "0.5")
    monkeypatch.setenv("REFEREE_WEBHOOK_BACKOFF", "60")
    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_BACKOFF", "60")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver(delay=1.5) as slow, Receiver() as one, Receiver() as two:
        slow_hook, _ = Webhooks(store).register(t.id, key, slow.url)
        for rx in (one, two):
            Webhooks(store).register(t.id, key, rx.url)
        one_match(store, t.id, key)
        events = _feed_length(store, t.id)
        Worker(store.db).run_once()
        assert (len(one.accepted()), len(two.accepted())) == (events, events)
    assert log_of(store, slow_hook["id"]) == [(False, None, "no answer within 0.5 s")]
    with store.db.transaction() as s:
        hook = s.get(Webhook, slow_hook["id"])
        assert (hook.failures, hook.delivered_seq, hook.active) == (1, 0, True)
        assert hook.next_attempt_at > utcnow()  # backed off (30-60 s)


def test_subscriptions_are_served_in_turn_each_within_its_budget_per_pass(store, monkeypatch, allow_loopback_hooks):
    """Three subscriptions, each receiver 0.2 s to answer (under the limit), and a budget of
    0.1 s a pass (REFEREE_WEBHOOK_PASS_BUDGET), less than one attempt: each pass gives each
    subscription one event, the three in turn, and the next pass goes on where it stopped."""
    monkeypatch.setenv("REFEREE_WEBHOOK_PASS_BUDGET", "0.1")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    receivers = [Receiver(delay=0.2) for _ in range(3)]
    with receivers[0], receivers[1], receivers[2]:
        for rx in receivers:
            Webhooks(store).register(t.id, key, rx.url)
        one_match(store, t.id, key)
        assert _feed_length(store, t.id) > 2
        worker = Worker(store.db)
        worker.run_once()
        assert [len(rx.accepted()) for rx in receivers] == [1, 1, 1]
        worker.run_once()
        assert [len(rx.accepted()) for rx in receivers] == [2, 2, 2]
        assert max(rx.arrivals[0] for rx in receivers) < min(rx.arrivals[1] for rx in receivers)
        assert [b for _, b in receivers[0].accepted()] == [b for _, b in receivers[1].accepted()]  # in order, once


def test_one_pass_interleaves_the_subscriptions_events(store, monkeypatch, allow_loopback_hooks):
    """One pass on one thread delivers every event to three subscriptions round by round (the
    fewest turns first): each receiver has its k-th event before any has its (k+1)-th
    (before, the first had all of its own before the second had one)."""
    monkeypatch.setenv("REFEREE_WEBHOOK_THREADS", "1")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    receivers = [Receiver(delay=0.02) for _ in range(3)]
    with receivers[0], receivers[1], receivers[2]:
        for rx in receivers:
            Webhooks(store).register(t.id, key, rx.url)
        one_match(store, t.id, key)
        events = _feed_length(store, t.id)
        Worker(store.db).run_once()
        assert [len(rx.accepted()) for rx in receivers] == [events] * 3
        for k in range(events - 1):
            assert max(rx.arrivals[k] for rx in receivers) < min(rx.arrivals[k + 1] for rx in receivers), k


def test_subscriptions_with_nothing_to_send_take_no_place_in_a_pass(store, allow_loopback_hooks):
    """Twenty subscriptions made before one whose tournament then plays, none with anything
    to send: the one pass serves the one with events (a pass serves at most 16, due longest
    first, and the idle ones would have been first)."""
    with Receiver() as idle, Receiver() as busy:
        t, key, _ = store.create_tournament("quiet", "court-piece", {}, True)
        for _ in range(20):
            Webhooks(store).register(t.id, key, idle.url)
        other, other_key, _ = store.create_tournament("playing", "court-piece", {}, True)
        Webhooks(store).register(other.id, other_key, busy.url)
        one_match(store, other.id, other_key)
        Worker(store.db).run_once()
        assert (len(busy.accepted()), len(idle.accepted())) == (_feed_length(store, other.id), 0)


# -- issue 38, item 5: no subscription delays another's first attempt by more than one attempt --

def test_a_slow_answer_delivers_its_event_and_counts_against_the_receiver(store, monkeypatch, allow_loopback_hooks):
    """A receiver that answers 200 after 0.4 s, over REFEREE_WEBHOOK_SLOW (0.2 s) and under the
    attempt's limit: its event is delivered (not sent again), and the subscription is backed
    off as after a failure, leaving the pass after that one event; it is not disabled for it.
    A prompt receiver of the same tournament gets every event in the same pass."""
    monkeypatch.setenv("REFEREE_WEBHOOK_SLOW", "0.2")
    monkeypatch.setenv("REFEREE_WEBHOOK_BACKOFF", "60")
    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_BACKOFF", "60")
    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_FAILURES", "1")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver(delay=0.4) as slow, Receiver() as prompt:
        slow_hook, _ = Webhooks(store).register(t.id, key, slow.url)
        Webhooks(store).register(t.id, key, prompt.url)
        one_match(store, t.id, key)
        events = _feed_length(store, t.id)
        assert Worker(store.db).run_once() == 1 + events  # the slow one's event is delivered
        assert (len(slow.requests), len(prompt.accepted())) == (1, events)
    assert log_of(store, slow_hook["id"]) == [(True, 200, None)]
    with store.db.transaction() as s:
        hook = s.get(Webhook, slow_hook["id"])
        assert (hook.delivered_seq, hook.failures, hook.active) == (1, 1, True)
        assert hook.next_attempt_at > utcnow()  # backed off (30-60 s)


def test_slow_receivers_that_never_fail_delay_another_tournament_s_first_event_by_one_attempt(
        store, monkeypatch, allow_loopback_hooks):
    """Issue 38's reproduction, scaled down: 16 receivers that each answer every event in
    0.5 s (under REFEREE_WEBHOOK_SLOW here, so never backed off) on a worker of 4 threads,
    each with a match's events to take. Another tournament's first event, written while they
    are served, is sent before any more of theirs than the 4 attempts under way and the 4
    the worker may start before it looks again (before: after every one of theirs, 16 x 10
    events, about 149 s in the issue's run)."""
    monkeypatch.setenv("REFEREE_WEBHOOK_THREADS", "4")
    monkeypatch.setenv("REFEREE_WEBHOOK_SLOW", "60")
    busy, busy_key, _ = store.create_tournament("busy", "court-piece", {}, True)
    slow = [Receiver(delay=0.5) for _ in range(16)]
    for rx in slow:
        rx.__enter__()
    try:
        for rx in slow:
            Webhooks(store).register(busy.id, busy_key, rx.url)
        one_match(store, busy.id, busy_key)
        stop = threading.Event()
        thread = working(store, stop)
        for rx in slow:
            assert rx.wait_for(1, seconds=60), "every slow receiver had its first event"
        with Receiver() as prompt:
            other, other_key, _ = store.create_tournament("other", "court-piece", {}, True)
            Webhooks(store).register(other.id, other_key, prompt.url)
            one_match(store, other.id, other_key)
            written = time.monotonic()
            assert prompt.wait_for(1, seconds=60)
            first = prompt.arrivals[0]
            stop.set()
            thread.join(timeout=30)
        meanwhile = sum(1 for rx in slow for at in rx.arrivals if written < at < first)
        assert meanwhile <= 8, meanwhile
        assert sum(len(rx.arrivals) for rx in slow) < 16 * _feed_length(store, busy.id)  # still under way
    finally:
        for rx in slow:
            rx.__exit__(None, None, None)


def test_no_threads_is_one_thread(monkeypatch):
    """REFEREE_WEBHOOK_THREADS=0 would leave a pass waiting for a thread forever."""
    from referee.store.delivery import settings

    monkeypatch.setenv("REFEREE_WEBHOOK_THREADS", "0")
    assert settings()["threads"] == 1
