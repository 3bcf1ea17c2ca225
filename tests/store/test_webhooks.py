"""Webhooks: signed, in order, retried with backoff, disabled after failures, never duplicated."""
import json
import os
import random
import socket
import subprocess
import sys
import time

import pytest

from referee.store.delivery import Worker, backoff
from referee.store.hookclient import post
from referee.store.webhook_signing import sign, verify
from referee.store.targets import TargetRefused, check_target
from referee.store.errors import Invalid
from referee.store.webhooks import Webhooks
from tests.helpers import won_by
from tests.store.receiver import Receiver

PLAYERS = ["A", "B", "C", "D"]
pytestmark = pytest.mark.usefixtures("allow_loopback_hooks")  # the receivers listen on 127.0.0.1


PER_MATCH = 8  # each match below: seven trick.finished, then its deal.finished


def matches(store, tid, key, n):
    for _ in range(n):
        store.create_match(tid, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, None)


def drain(worker, until, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        worker.run_once()
        time.sleep(0.02)


def test_events_arrive_signed_in_order_once_each_after_two_failures(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver(fail_first=2) as rx:
        hook, secret = Webhooks(store).register(t.id, key, rx.url)
        matches(store, t.id, key, 3)
        n = 3 * PER_MATCH
        drain(Worker(store.db), lambda: len(rx.accepted()) >= n)
        accepted = rx.accepted()
        bodies = [json.loads(b) for _, b in accepted]
        assert [b["seq"] for b in bodies] == list(range(1, n + 1))
        assert len({b["id"] for b in bodies}) == n
        assert [status for _, _, status in rx.requests] == [500, 500] + [200] * n
        headers, body = accepted[0]
        assert headers["Referee-Event-Id"] == bodies[0]["id"] and headers["Referee-Event-Type"] == "trick.finished"
        assert accepted[PER_MATCH - 1][0]["Referee-Event-Type"] == "deal.finished"
        assert verify(secret, headers["Referee-Timestamp"], body, headers["Referee-Signature"])
        tampered = body.replace(b"trick.finished", b"trick.finishes")
        assert not verify(secret, headers["Referee-Timestamp"], tampered, headers["Referee-Signature"])
        assert not verify("whsec_other", headers["Referee-Timestamp"], body, headers["Referee-Signature"])
    log = Webhooks(store).deliveries(t.id, key, hook["id"], 100)["deliveries"]
    assert [(d["seq"], d["ok"], d["http_status"]) for d in reversed(log)] == [(1, False, 500), (1, False, 500)] + [
        (seq, True, 200) for seq in range(1, n + 1)]


def test_a_subscription_that_keeps_failing_is_disabled_and_can_be_re_enabled(store, monkeypatch):
    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_FAILURES", "3")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver(always_fail=True) as rx:
        hook, _ = Webhooks(store).register(t.id, key, rx.url)
        matches(store, t.id, key, 1)
        worker = Worker(store.db)
        drain(worker, lambda: not Webhooks(store).list(t.id, key)[0]["active"])
        state = Webhooks(store).list(t.id, key)[0]
        assert not state["active"] and "3 failed attempts" in state["disabled_reason"]
        assert len(rx.requests) == 3
        rx.always_fail = False
        Webhooks(store).enable(t.id, key, hook["id"])
        drain(worker, lambda: len(rx.accepted()) == PER_MATCH)
        assert len(rx.accepted()) == PER_MATCH and Webhooks(store).list(t.id, key)[0]["delivered_seq"] == PER_MATCH


def _resolver(answers: dict, calls: list):
    real = socket.getaddrinfo

    def fake(host, port, *args, **kwargs):
        calls.append(host)
        if host in answers:
            address = answers[host] if isinstance(answers[host], str) else answers[host].pop(0)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)
    return fake


def test_only_public_or_configured_hosts_are_targets(store, monkeypatch):
    monkeypatch.delenv("REFEREE_WEBHOOK_HOSTS")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    for url in ("http://10.0.0.1/hook", "http://192.168.1.5/", "ftp://127.0.0.1/", "http://no-such-host.invalid/",
                "http://127.0.0.1:99999/", "http://[::1/", "http://10.0.0.1:80:18200/", "http://127.0.0.1:9/x"):
        with pytest.raises(Invalid):
            Webhooks(store).register(t.id, key, url)
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "localhost,::1")
    assert check_target("http://localhost:9/x").address in ("127.0.0.1", "::1")
    assert check_target("http://[::1]:9/x").address == "::1"
    monkeypatch.setattr(socket, "getaddrinfo", _resolver({"scores.example.org": "203.0.113.7",
                                                          "public.example.org": "93.184.216.34"}, []))
    with pytest.raises(TargetRefused):  # a documentation range: not a public address
        check_target("http://scores.example.org/hook")
    assert check_target("http://public.example.org/hook").address == "93.184.216.34"
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "scores.example.org")
    target = check_target("http://scores.example.org/hook?x=1")
    assert (target.address, target.host, target.port, target.path) == ("203.0.113.7", "scores.example.org", 80, "/hook?x=1")


def test_the_connection_goes_to_the_address_that_was_checked(store, monkeypatch):
    """A name that answers loopback to the check and a private address afterwards (DNS
    rebinding) is delivered to the checked loopback address, after one lookup."""
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver() as rx:
        port = rx.url.split(":")[2].split("/")[0]
        calls = []
        monkeypatch.setattr(socket, "getaddrinfo", _resolver({"rebind.test": ["127.0.0.1", "10.0.0.1", "10.0.0.1"]}, calls))
        status, error = post(f"http://rebind.test:{port}/hook", "whsec_x", {"id": "e1", "type": "deal.finished"}, 5)
        assert (status, error) == (200, None) and calls.count("rebind.test") == 1  # then the IP itself
        assert rx.accepted()[0][0]["Host"] == f"rebind.test:{port}"


def test_secrets_are_sealed_at_rest_and_rotation_signs_with_the_new_one(store):
    from referee.store.models import Webhook

    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver() as rx:
        hook, secret = Webhooks(store).register(t.id, key, rx.url)
        with store.db.transaction() as s:
            stored = s.get(Webhook, hook["id"]).secret
        assert secret not in stored and stored.startswith("enc:v1:")
        _, rotated = Webhooks(store).rotate_secret(t.id, key, hook["id"])
        assert rotated != secret
        matches(store, t.id, key, 1)
        drain(Worker(store.db), lambda: rx.accepted())
        headers, body = rx.accepted()[0]
        assert verify(rotated, headers["Referee-Timestamp"], body, headers["Referee-Signature"])
        assert not verify(secret, headers["Referee-Timestamp"], body, headers["Referee-Signature"])


def test_without_a_secret_key_webhooks_are_refused_outside_development(store, monkeypatch):
    from referee.store.errors import Unavailable

    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    monkeypatch.delenv("REFEREE_SECRET_KEY")
    monkeypatch.delenv("REFEREE_DEV", raising=False)
    with pytest.raises(Unavailable):
        Webhooks(store).register(t.id, key, "http://127.0.0.1:9/x")
    monkeypatch.setenv("REFEREE_DEV", "1")
    assert Webhooks(store).register(t.id, key, "http://127.0.0.1:9/x")[1].startswith("whsec_")


def test_a_deleted_subscription_gets_nothing_more(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver() as rx:
        hook, _ = Webhooks(store).register(t.id, key, rx.url)
        Webhooks(store).delete(t.id, key, hook["id"])
        matches(store, t.id, key, 2)
        Worker(store.db).run_once()
        assert rx.requests == [] and Webhooks(store).list(t.id, key) == []


def test_a_new_subscription_gets_only_what_is_written_after_it(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    matches(store, t.id, key, 2)  # history: the feed has it, the new subscription does not
    with Receiver() as rx:
        Webhooks(store).register(t.id, key, rx.url)
        matches(store, t.id, key, 1)
        worker = Worker(store.db)
        drain(worker, lambda: rx.accepted())
        worker.run_once()
        seqs = [json.loads(b)["seq"] for _, b in rx.accepted()]
        history = len(store.feed(t.id, key, 0, 100)["events"])
        assert seqs == list(range(history - PER_MATCH + 1, history + 1))  # the events written after subscribing


def test_retries_back_off_exponentially_with_jitter():
    conf = {"backoff": 2.0, "max_backoff": 3600.0}
    random.seed(7)
    waits = [[backoff(n, conf) for _ in range(50)] for n in (1, 2, 3, 4, 12, 40)]
    for n, samples in zip((1, 2, 3, 4), waits):
        full = 2.0 * 2 ** (n - 1)
        assert all(full * 0.5 <= w <= full for w in samples) and len(set(samples)) > 40  # jitter
    assert max(waits[0]) < min(waits[3])             # it grows
    assert all(w <= 3600 for w in waits[5]) and min(waits[5]) >= 1800  # capped


def test_failed_attempts_and_a_disabled_subscription_are_logged(store, monkeypatch, caplog):
    import logging

    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_FAILURES", "2")
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver(always_fail=True) as rx:
        Webhooks(store).register(t.id, key, rx.url)
        matches(store, t.id, key, 1)
        with caplog.at_level(logging.INFO, logger="referee.deliver"):
            drain(Worker(store.db), lambda: not Webhooks(store).list(t.id, key)[0]["active"])
    failed = [r.getMessage() for r in caplog.records if "failed (attempt" in r.getMessage()]
    assert len(failed) == 2 and rx.url in failed[0] and "HTTP 500" in failed[0] and "next retry in" in failed[0]
    assert any("disabled" in r.getMessage() and r.levelname == "ERROR" for r in caplog.records)


def test_signature_is_hmac_sha256_over_timestamp_and_body():
    import hashlib
    import hmac

    expected = hmac.new(b"s3cret", b"1700000000.{}", hashlib.sha256).hexdigest()
    assert sign("s3cret", "1700000000", b"{}") == "v1=" + expected
    assert not verify("s3cret", "1700000000", b"{}", "v1=" + expected)  # too old


def test_two_delivery_processes_never_send_an_event_twice(store, db_url):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    with Receiver() as rx:
        Webhooks(store).register(t.id, key, rx.url)
        Webhooks(store).register(t.id, key, rx.url + "?second")
        matches(store, t.id, key, 2)
        env = {**os.environ, "REFEREE_WEBHOOK_BACKOFF": "0.01"}
        cmd = [sys.executable, "-m", "referee.cli", "deliver", "--database", db_url, "--seconds", "4"]
        procs = [subprocess.Popen(cmd, env=env) for _ in range(2)]
        for p in procs:
            assert p.wait(timeout=60) == 0
        received = [(h["_path"], h["Referee-Event-Id"]) for h, b in rx.accepted()]
    n = 2 * PER_MATCH
    assert len(received) == 2 * n and len(set(received)) == 2 * n  # each event once per subscription
    for path in ("/hook", "/hook?second"):
        seqs = [json.loads(b)["seq"] for h, b in rx.accepted() if h["_path"] == path]
        assert seqs == list(range(1, n + 1))  # in order


@pytest.mark.parametrize("preset,scoring,winner", [("court-piece", "courts", 1), ("court-piece", "points", 1),
                                                    ("seven-courts", "deal-courts", 1)])
def test_closing_a_session_names_the_winner_in_verdict_feed_and_webhook(store, preset, scoring, winner):
    """R-26: the team ahead wins a closed session; the stored verdict, the feed event and the
    webhook body all say so, and nothing more is offered."""
    t, key, _ = store.create_tournament("t", preset, {"scoring": scoring, "target": None}, True)
    with Receiver() as rx:
        Webhooks(store).register(t.id, key, rx.url)
        view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7, n=13)]}, None)
        closed = store.close(view.match.id, key, view.etag).as_dict()
        assert closed["verdict"]["match"]["winner"] == winner and closed["verdict"]["match"]["finished"] is True
        assert closed["verdict"]["next"] is None and closed["record"]["closed"] is True
        finished = [e for e in store.feed(t.id, key, 0, 100)["events"] if e["type"] == "match.finished"]
        assert [e["payload"]["match"]["winner"] for e in finished] == [winner]
        drain(Worker(store.db), lambda: any(b"match.finished" in b for _, b in rx.accepted()))
        bodies = [json.loads(b) for _, b in rx.accepted()]
        (hooked,) = [b for b in bodies if b["type"] == "match.finished"]
        assert hooked["payload"]["match"]["winner"] == winner and hooked["payload"]["match"]["rule"] == ["match.closed", "R-26"]
