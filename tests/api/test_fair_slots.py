"""Search slots shared fairly (issue 38, item 4): two connections looping disputed claims kept
every slot busy, and another client's 10 ms claim got 429 in 22 of 23 tries; a client reading
a batch's answer slowly held its slot as long as it read, with Retry-After dropping to 1.

Now a slot is held for one search, not for a request, and a request finding none free waits
its turn in a fair queue: the next slot goes to the waiter whose client holds the fewest,
not to whoever came first; a client waits with one request at a time."""
import json
import threading
import time

import pytest

from referee.app import create_app
from referee.slots import Slots
from tests.test_budget import claim_deal, record_of

pytestmark = pytest.mark.usefixtures("fresh_claims")

ATTACKER, VICTIM = {"REMOTE_ADDR": "10.0.0.1"}, {"REMOTE_ADDR": "10.0.0.2"}


class Taking(threading.Thread):
    """slots.take(...) in a thread of its own (a request waiting its turn)."""

    def __init__(self, slots, labels, wait=30.0):
        super().__init__(daemon=True)
        self.slots, self.labels, self.wait, self.slot = slots, labels, wait, None

    def run(self):
        self.slot = self.slots.take(labels=self.labels, wait=self.wait)


def until(condition, what: str):
    """Wait for a state the test set up in other threads (never a timing assertion: it only
    waits for the state, and fails only if it never comes)."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def waiting(slots) -> int:
    return len(slots._waiting) + (len(slots.files.waiters()) if slots.files is not None else 0)


@pytest.mark.parametrize("server", [False, True], ids=["one process", "server files"])
def test_the_next_free_slot_goes_to_the_client_holding_fewest_not_to_who_came_first(tmp_path, server):
    slots = Slots(None, 2, tmp_path / "slots", seconds=30) if server else Slots(2, None, None, seconds=30)
    held = [slots.take(labels=("address:a",)), slots.take(labels=("address:a",))]
    assert None not in held
    a_again = Taking(slots, ("address:a",))
    a_again.start()
    until(lambda: waiting(slots) == 1, "a's third request waits")
    b = Taking(slots, ("address:b",))
    b.start()
    until(lambda: waiting(slots) == 2, "b waits too, after a")
    assert slots.take(labels=("address:a",), wait=30) is None  # a waits already: its next is refused at once
    held.pop().release()
    b.join(60)
    assert b.slot is not None and a_again.is_alive()  # b holds none: its turn first
    held.pop().release()
    a_again.join(60)
    assert a_again.slot is not None
    a_again.slot.release()
    b.slot.release()


def test_a_client_sharing_a_key_with_the_holder_waits_behind_one_that_shares_nothing():
    slots = Slots(1, None, None, seconds=30)
    held = slots.take(labels=("address:a", "key:k"))
    same_key = Taking(slots, ("address:c", "key:k"))
    same_key.start()
    until(lambda: waiting(slots) == 1, "c waits")
    other = Taking(slots, ("address:d",))
    other.start()
    until(lambda: waiting(slots) == 2, "d waits")
    held.release()  # key k is free again: both hold nothing now, so who came first
    same_key.join(60)
    assert same_key.slot is not None and other.is_alive()
    same_key.slot.release()
    other.join(60)
    assert other.slot is not None
    other.slot.release()


@pytest.fixture
def make_client(sqlite_url):
    apps = []

    def make(**config):
        app = create_app({"TESTING": True, "DATABASE_URL": sqlite_url, **config})
        apps.append(app)
        return app.test_client()
    yield make
    for app in apps:
        app.extensions["referee.store"].db.dispose()


def post_claim(client, environ, results):
    r = client.post("/v1/verdicts", json=record_of(claim_deal(3)), environ_overrides=environ)
    results.append(r.status_code)


def test_a_client_looping_claims_cannot_keep_another_s_claim_out(make_client):
    """The attacker holds both slots and has a third claim waiting; the victim, who came
    later, gets the next slot and its verdict; the attacker's next claim meanwhile is
    refused at once (one waiting request a client)."""
    client = make_client(SEARCHES_PER_PROCESS=2, SEARCH_QUEUE_SECONDS=60)
    slots = client.application.extensions["referee.slots"]
    held = [slots.take(labels=("address:10.0.0.1",)), slots.take(labels=("address:10.0.0.1",))]
    granted, take = [], slots.take

    def taking(hold=None, labels=(), *args):  # whose request each slot went to, in turn
        slot = take(hold, labels, *args)
        if slot is not None:
            granted.append(labels[0])
        return slot
    slots.take = taking
    attacker, victim = [], []
    third = threading.Thread(target=post_claim, args=(client, ATTACKER, attacker), daemon=True)
    third.start()
    until(lambda: waiting(slots) == 1, "the attacker's third claim waits")
    wanting = threading.Thread(target=post_claim, args=(client, VICTIM, victim), daemon=True)
    wanting.start()
    until(lambda: waiting(slots) == 2, "the victim's claim waits")
    r = client.post("/v1/verdicts", json=record_of(claim_deal(3)), environ_overrides=ATTACKER)
    assert r.status_code == 429 and r.get_json()["reason"] == "busy" and int(r.headers["Retry-After"]) >= 1
    held.pop().release()
    wanting.join(60)
    held.pop().release()
    third.join(60)
    assert (victim, attacker) == ([200], [200])
    assert granted == ["address:10.0.0.2", "address:10.0.0.1"]  # the victim came later, and went first


def test_a_batch_read_slowly_holds_no_slot_between_its_searches(make_client):
    """The slot is given back when a search ends, not when the answer has been read."""
    client = make_client(SEARCHES_PER_PROCESS=1, SEARCH_QUEUE_SECONDS=0)
    slots = client.application.extensions["referee.slots"]
    body = "\n".join(json.dumps(record_of(claim_deal(n))) for n in (3, 2, 1))
    r = client.post("/v1/verdicts/batch", data=body, content_type="application/x-ndjson", buffered=False)
    lines = iter(r.response)
    first = json.loads(next(lines))
    assert first["status"] == 200 and first["verdict"]["deals"][0]["claim"]["awarded"] == 2
    other = slots.take()  # the client has not read on: the batch holds no slot meanwhile
    assert other is not None
    other.release()
    assert [json.loads(line)["status"] for line in lines] == [200, 200]
    r.close()


def whole_deal_stream(make_client):
    """A whole deal's analysis on a server of one slot, its answer not yet read: (slots, response, lines)."""
    from pathlib import Path

    client = make_client(SEARCHES_PER_PROCESS=1, SEARCH_QUEUE_SECONDS=0)
    record = json.loads((Path(__file__).parents[1] / "solver" / "records" / "one-costly-play.json").read_text())
    r = client.post("/v1/analysis", json={"record": record, "deal": 0, "whole_deal": True, "from_event": 44},
                    buffered=False)
    return client.application.extensions["referee.slots"], r, iter(r.response)


def test_a_whole_deal_s_analysis_holds_no_slot_while_its_lines_are_written(make_client):
    slots, r, lines = whole_deal_stream(make_client)
    assert json.loads(next(lines))["kind"] == "deal"
    assert json.loads(next(lines))["kind"] == "position"
    other = slots.take()
    assert other is not None  # between two positions, while the client reads, no slot is held
    other.release()
    assert json.loads(list(lines)[-1])["kind"] == "end"
    r.close()


def test_retry_after_is_when_the_holders_searches_should_end_by_their_pace_then_the_waiters_before():
    slots = Slots(1, None, None, seconds=30)
    held = slots.take(hold=30, until=4)  # measured: about 4 s, at most its 30 s budget
    assert 1 <= slots.retry_after() <= 4
    slots.measured(5.0)  # searches here take about 5 s
    waiter = Taking(slots, ("address:b",))
    waiter.start()
    until(lambda: waiting(slots) == 1, "b waits")
    assert 5 <= slots.retry_after() <= 9  # b takes the first slot to free; the next one a search later
    held.release()
    waiter.join(60)
    waiter.slot.release()


def test_a_search_past_its_measured_end_is_counted_at_its_budget_not_as_free():
    """Retry-After dropped to 1 while nothing freed: a holder past its expected end is still
    there until its time budget is spent."""
    slots = Slots(1, None, None, seconds=30)
    held = slots.take(hold=30, until=0.001)
    time.sleep(0.01)  # its expected end has passed (this only makes sure of it)
    assert slots.retry_after() > 20
    held.release()


def test_a_scorer_s_claim_waits_its_turn_on_both_databases_and_its_key_is_a_client(db_url):
    """A stored write whose dispute needs a search, while another client holds the one slot:
    the write waits its turn and is stored (it was 429); the server's slot folder is the
    referee's own (owner-only), next to SQLite or in the temporary folder for PostgreSQL."""
    import os
    import stat

    from tests.api.test_matches import auth, start

    app = create_app({"TESTING": True, "DATABASE_URL": db_url, "SEARCHES_PER_PROCESS": 1, "SEARCHES_PER_SERVER": 1,
                      "SEARCH_QUEUE_SECONDS": 60})
    try:
        client = app.test_client()
        slots = app.extensions["referee.slots"]
        assert stat.S_IMODE(os.stat(slots.directory).st_mode) == 0o700
        t, mid, etag = start(client, "seven-courts", [claim_deal(3) | {"events": claim_deal(3)["events"][:-1]}])
        held = slots.take(labels=("address:10.0.0.1",))
        answers = []

        def dispute():
            answers.append(client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 1, "dispute": True}]},
                                       headers=auth(t["key"], etag), environ_overrides=VICTIM))
        writer = threading.Thread(target=dispute, daemon=True)
        writer.start()
        until(lambda: waiting(slots) == 1, "the scorer's write waits")
        (waiter,) = slots._waiting + slots.files.waiters()  # its place in this process's line, or the server's
        assert waiter.labels[0] == "address:10.0.0.2" and waiter.labels[1].startswith("key:")
        assert t["key"] not in " ".join(waiter.labels)  # the files keep no key
        held.release()
        writer.join(60)
        (r,) = answers
        assert r.status_code == 200 and r.get_json()["deal"]["verdict"]["claim"]["awarded"] == 2, r.get_json()
    finally:
        app.extensions["referee.store"].db.dispose()


def test_a_waiter_s_file_is_removed_only_while_deciding_never_while_it_may_be_half_made(tmp_path):
    """A server's waiter makes its file, then locks it: one read in between (a refusal's
    Retry-After, another request joining the line) took it for a dead waiter's and removed
    it, and the waiter's own removal then failed (a 500 under load)."""
    slots = Slots(None, 1, tmp_path / "slots", seconds=30)
    held = slots.take(labels=("address:a",))
    half_made = tmp_path / "slots" / "wait-1-0-feed"
    half_made.write_text("")  # made, not yet locked
    half_made.chmod(0o600)
    slots.retry_after()
    assert half_made.exists()
    held.release()
    assert slots.take(labels=("address:b",), wait=0.01) is not None  # deciding, it is known for a dead one's
    assert not half_made.exists()


def test_a_whole_deal_s_position_finding_no_slot_in_its_turn_leaves_the_rest_past_the_limit(make_client):
    """Between two positions the slot is free for others; when none is free in the next
    position's turn, the positions left are past_limit lines (never guessed) and the stream ends."""
    slots, r, lines = whole_deal_stream(make_client)
    start = json.loads(next(lines))
    assert json.loads(next(lines))["kind"] == "position"
    other = slots.take(labels=("address:10.0.0.9",))  # another client's search, until the stream is read
    rest = [json.loads(line) for line in lines]
    other.release()
    r.close()
    assert len(start["events"]) > 2 and [x["kind"] for x in rest[:-1]] == ["past_limit"] * (len(start["events"]) - 1)
    assert rest[-1]["kind"] == "end" and rest[-1]["past_limit"] == sorted(start["events"][1:])


def test_a_waiting_request_whose_client_has_gone_leaves_the_line_at_once():
    """A client that sends costly requests and goes away holds no place in the line (nor a
    thread) for the rest of the wait."""
    slots = Slots(1, None, None, seconds=30)
    held = slots.take(labels=("address:a",))
    gone = threading.Event()
    left = []
    waiter = threading.Thread(target=lambda: left.append(slots.take(labels=("address:b",), wait=600,
                                                                    gone=gone.is_set)), daemon=True)
    waiter.start()
    until(lambda: waiting(slots) == 1, "b waits")
    gone.set()
    waiter.join(60)
    assert left == [None] and waiting(slots) == 0 and held is not None
    held.release()
