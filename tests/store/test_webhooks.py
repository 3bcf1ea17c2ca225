"""Webhooks: signed, in order, retried with backoff, disabled after failures, never duplicated."""
import json
import os
import subprocess
import sys
import time

import pytest

from referee.store.delivery import TargetRefused, Worker, check_target, sign, verify
from referee.store.errors import Invalid
from referee.store.service import Webhooks
from tests.helpers import won_by
from tests.store.receiver import Receiver

PLAYERS = ["A", "B", "C", "D"]


def matches(store, tid, key, n):
    for _ in range(n):
        store.create_match(tid, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, None)


def drain(worker, until, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        worker.run_once()
        time.sleep(0.02)


def test_events_arrive_signed_in_order_once_each_after_two_failures(store):
    t, key = store.create_tournament("t", "court-piece", {}, True)
    with Receiver(fail_first=2) as rx:
        hook, secret = Webhooks(store).register(t.id, key, rx.url)
        matches(store, t.id, key, 3)
        drain(Worker(store.db), lambda: len(rx.accepted()) >= 3)
        accepted = rx.accepted()
        bodies = [json.loads(b) for _, b in accepted]
        assert [b["seq"] for b in bodies] == [1, 2, 3]
        assert len({b["id"] for b in bodies}) == 3
        assert [status for _, _, status in rx.requests] == [500, 500, 200, 200, 200]
        headers, body = accepted[0]
        assert headers["Referee-Event-Id"] == bodies[0]["id"] and headers["Referee-Event-Type"] == "deal.finished"
        assert verify(secret, headers["Referee-Timestamp"], body, headers["Referee-Signature"])
        tampered = body.replace(b"deal.finished", b"deal.finishes")
        assert not verify(secret, headers["Referee-Timestamp"], tampered, headers["Referee-Signature"])
        assert not verify("whsec_other", headers["Referee-Timestamp"], body, headers["Referee-Signature"])
    log = Webhooks(store).deliveries(t.id, key, hook["id"], 100)["deliveries"]
    assert [(d["seq"], d["ok"], d["http_status"]) for d in reversed(log)] == [(1, False, 500), (1, False, 500), (1, True, 200), (2, True, 200), (3, True, 200)]


def test_a_subscription_that_keeps_failing_is_disabled_and_can_be_re_enabled(store, monkeypatch):
    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_FAILURES", "3")
    t, key = store.create_tournament("t", "court-piece", {}, True)
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
        drain(worker, lambda: len(rx.accepted()) == 1)
        assert len(rx.accepted()) == 1 and Webhooks(store).list(t.id, key)[0]["delivered_seq"] == 1


def test_only_loopback_or_configured_hosts_are_targets(store, monkeypatch):
    t, key = store.create_tournament("t", "court-piece", {}, True)
    for url in ("http://10.0.0.1/hook", "http://192.168.1.5/", "ftp://127.0.0.1/", "http://no-such-host.invalid/"):
        with pytest.raises(Invalid):
            Webhooks(store).register(t.id, key, url)
    check_target("http://localhost:9/x")
    check_target("http://[::1]:9/x")
    with pytest.raises(TargetRefused):
        check_target("http://scores.example.org/hook")
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "scores.example.org")
    check_target("http://scores.example.org/hook")


def test_signature_is_hmac_sha256_over_timestamp_and_body():
    import hashlib
    import hmac

    expected = hmac.new(b"s3cret", b"1700000000.{}", hashlib.sha256).hexdigest()
    assert sign("s3cret", "1700000000", b"{}") == "v1=" + expected
    assert not verify("s3cret", "1700000000", b"{}", "v1=" + expected)  # too old


def test_two_delivery_processes_never_send_an_event_twice(store, db_url):
    t, key = store.create_tournament("t", "court-piece", {}, True)
    with Receiver() as rx:
        Webhooks(store).register(t.id, key, rx.url)
        Webhooks(store).register(t.id, key, rx.url + "?second")
        matches(store, t.id, key, 12)
        env = {**os.environ, "REFEREE_WEBHOOK_BACKOFF": "0.01"}
        cmd = [sys.executable, "-m", "referee.cli", "deliver", "--database", db_url, "--seconds", "4"]
        procs = [subprocess.Popen(cmd, env=env) for _ in range(2)]
        for p in procs:
            assert p.wait(timeout=60) == 0
        received = [(h["_path"], h["Referee-Event-Id"]) for h, b in rx.accepted()]
    assert len(received) == 24 and len(set(received)) == 24  # each event once per subscription
    for path in ("/hook", "/hook?second"):
        seqs = [json.loads(b)["seq"] for h, b in rx.accepted() if h["_path"] == path]
        assert seqs == list(range(1, 13))  # in order


@pytest.mark.parametrize("preset,scoring,winner", [("court-piece", "courts", 1), ("court-piece", "points", 1),
                                                    ("seven-courts", "deal-courts", 1)])
def test_closing_a_session_names_the_winner_in_verdict_feed_and_webhook(store, preset, scoring, winner):
    """R-26: the team ahead wins a closed session; the stored verdict, the feed event and the
    webhook body all say so, and nothing more is offered."""
    t, key = store.create_tournament("t", preset, {"scoring": scoring, "target": None}, True)
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
