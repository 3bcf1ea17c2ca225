"""Perfect play in the service runs under the request's budget (issue 33): past its time there
is no verdict but a 503 problem naming the setting; a batch's items share it; an analysis
settles the claims on its way within its own limit; a search stops when its client has gone."""
import json
import logging
import socket

import pytest

from referee.app import create_app
from tests.api.spec import validate_response
from tests.test_budget import claim_deal, record_of

PLAIN = {"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "events": [{"seat": 1, "play": "4C"}]}]}

pytestmark = pytest.mark.usefixtures("fresh_claims")


@pytest.fixture
def make_client(sqlite_url):
    apps = []

    def make(**config):  # a request finding no slot is refused at once, unless a test has it wait its turn
        app = create_app({"TESTING": True, "DATABASE_URL": sqlite_url, "SEARCH_QUEUE_SECONDS": 0, **config})
        apps.append(app)
        return app.test_client()
    yield make
    for app in apps:
        app.extensions["referee.store"].db.dispose()


def test_a_claim_past_the_request_s_time_is_a_503_naming_the_setting_and_no_verdict(make_client):
    client = make_client(PERFECT_PLAY_MAX_SECONDS=1e-9)
    r = client.post("/v1/verdicts", json=record_of(claim_deal(3)))
    validate_response(r, "/v1/verdicts", "post")
    problem = r.get_json()
    assert r.status_code == 503 and r.mimetype == "application/problem+json"
    assert int(r.headers["Retry-After"]) >= 1
    assert (problem["reason"], problem["setting"]) == ("seconds", "REFEREE_PERFECT_PLAY_MAX_SECONDS")
    assert "nothing was judged" in problem["detail"] and "valid" not in problem


def test_a_record_without_claims_needs_no_budget(make_client):
    client = make_client(PERFECT_PLAY_MAX_SECONDS=1e-9)
    r = client.post("/v1/verdicts", json=PLAIN)
    assert r.status_code == 200 and r.get_json()["valid"]


def test_the_items_of_a_batch_share_its_budget_and_those_needing_no_search_are_still_judged(make_client):
    client = make_client(PERFECT_PLAY_MAX_SECONDS=1e-9)
    body = "\n".join(json.dumps(r) for r in (record_of(claim_deal(3)), PLAIN, record_of(claim_deal(2))))
    r = client.post("/v1/verdicts/batch", data=body, content_type="application/x-ndjson")
    lines = [json.loads(line) for line in r.get_data().splitlines()]
    assert [line["status"] for line in lines] == [503, 200, 503]
    assert lines[0]["problem"]["reason"] == "seconds" and lines[1]["verdict"]["valid"]


def test_an_analysis_settles_the_claim_on_its_way_within_its_own_limit(make_client):
    """POST /v1/analysis with a claim before the position ran 133 s against its 10 s limit (issue 33)."""
    client = make_client(ANALYSIS_MAX_NODES=20)  # the claim's search alone takes more
    r = client.post("/v1/analysis", json={"record": record_of(claim_deal(3)), "deal": 0})
    validate_response(r, "/v1/analysis", "post")
    problem = r.get_json()
    assert r.status_code == 422 and problem["title"] == "Analysis limit reached"
    assert problem["limit"]["nodes"] == 20 and problem["nodes"] > 20  # stopped once past it
    assert make_client().post("/v1/analysis", json={"record": record_of(claim_deal(3)), "deal": 0}).status_code == 200


def test_a_search_whose_client_has_gone_stops(make_client, caplog):
    """The server sees the client's end of the connection on the socket it hands the app."""
    server_end, client_end = socket.socketpair()
    client_end.close()  # the client sent its request and went away
    client = make_client()
    with caplog.at_level(logging.WARNING):
        r = client.post("/v1/verdicts", json=record_of(claim_deal(3)), environ_overrides={"werkzeug.socket": server_end})
    server_end.close()
    assert r.status_code == 503 and r.get_json()["reason"] == "cancelled"
    assert "perfect play stopped (cancelled)" in caplog.text and "the client has gone" in caplog.text


def test_a_client_still_there_gets_its_verdict(make_client):
    server_end, client_end = socket.socketpair()
    client = make_client()
    r = client.post("/v1/verdicts", json=record_of(claim_deal(3)), environ_overrides={"werkzeug.socket": server_end})
    server_end.close()
    client_end.close()
    assert r.status_code == 200 and r.get_json()["deals"][0]["claim"]["awarded"] == 2


# -- how many searches run at once -------------------------------------------------------------

def test_past_the_searches_allowed_per_process_a_claim_is_429_with_retry_after(make_client):
    client = make_client(SEARCHES_PER_PROCESS=1, PERFECT_PLAY_MAX_SECONDS=30)
    slots = client.application.extensions["referee.slots"]
    held = slots.take()  # a search of another request of this process
    try:
        r = client.post("/v1/verdicts", json=record_of(claim_deal(3)))
        validate_response(r, "/v1/verdicts", "post")
        problem = r.get_json()
        assert r.status_code == 429 and problem["reason"] == "busy"
        assert 1 <= int(r.headers["Retry-After"]) <= 30  # that search stops by then at the latest
        assert "REFEREE_SEARCHES_PER_PROCESS" in problem["detail"] and "nothing was judged" in problem["detail"]
        assert client.post("/v1/verdicts", json=PLAIN).status_code == 200  # no search needed: no slot
    finally:
        held.release()
    assert client.post("/v1/verdicts", json=record_of(claim_deal(3))).status_code == 200


def test_thirty_two_analysis_requests_while_every_slot_is_taken_are_each_refused_at_once(make_client, monkeypatch):
    """32 concurrent small analyses put /healthz at 5.9 s (issue 33): past the bound none searches."""
    from referee.solver import Solver

    searched = []
    solve = Solver.solve
    monkeypatch.setattr(Solver, "solve", lambda *a, **k: searched.append(1) or solve(*a, **k))
    client = make_client(SEARCHES_PER_PROCESS=1)
    record = json.loads((__import__("pathlib").Path(__file__).parents[1] / "solver" / "records"
                         / "one-costly-play.json").read_text())
    held = client.application.extensions["referee.slots"].take()
    try:
        statuses = {client.post("/v1/analysis", json={"record": record, "deal": 0, "event": 40}).status_code
                    for _ in range(32)}
    finally:
        held.release()
    assert statuses == {429} and searched == []
    assert client.post("/v1/analysis", json={"record": record, "deal": 0, "event": 40}).status_code == 200


def test_a_slot_held_by_another_worker_process_of_the_server_counts(make_client, tmp_path):
    """gunicorn's workers share the server's slots: lock files in one directory."""
    import subprocess
    import sys

    lock_dir = tmp_path / "slots"
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; from referee.slots import Slots\n"
                               f"slot = Slots(None, 1, Path({str(lock_dir)!r})).take()\n"
                               "print('held' if slot else 'full', flush=True); sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        client = make_client(SEARCHES_PER_SERVER=1, SEARCHES_PER_PROCESS=0, SEARCH_LOCK_DIR=str(lock_dir))
        r = client.post("/v1/verdicts", json=record_of(claim_deal(3)))
        assert r.status_code == 429 and "REFEREE_SEARCHES_PER_SERVER" in r.get_json()["detail"]
    finally:
        holder.stdin.close()
        holder.wait(60)
        holder.stdout.close()
    assert client.post("/v1/verdicts", json=record_of(claim_deal(3))).status_code == 200  # its end freed the slot


def test_a_stored_write_past_the_bound_is_429_and_nothing_is_stored(make_client):
    from tests.api.test_matches import auth, start

    client = make_client(SEARCHES_PER_PROCESS=1)
    t, mid, etag = start(client, "seven-courts", [claim_deal(3) | {"events": claim_deal(3)["events"][:-1]}])
    held = client.application.extensions["referee.slots"].take()
    try:
        r = client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 1, "dispute": True}]},
                        headers=auth(t["key"], etag))
        validate_response(r, "/v1/matches/{match_id}/events", "post")
        assert r.status_code == 429 and r.headers["Retry-After"]
    finally:
        held.release()
    assert client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).headers["ETag"] == etag  # no revision added
    r = client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 1, "dispute": True}]},
                    headers=auth(t["key"], etag))
    assert r.status_code == 200 and r.get_json()["deal"]["verdict"]["claim"]["awarded"] == 2


def test_a_whole_deal_s_analysis_holds_a_slot_too(make_client):
    client = make_client(SEARCHES_PER_PROCESS=1)
    record = json.loads((__import__("pathlib").Path(__file__).parents[1] / "solver" / "records"
                         / "one-costly-play.json").read_text())
    held = client.application.extensions["referee.slots"].take()
    try:
        r = client.post("/v1/analysis", json={"record": record, "deal": 0, "whole_deal": True, "from_event": 44})
        assert r.status_code == 429 and r.get_json()["reason"] == "busy"
    finally:
        held.release()
    r = client.post("/v1/analysis", json={"record": record, "deal": 0, "whole_deal": True, "from_event": 44})
    assert r.status_code == 200 and json.loads(r.get_data().splitlines()[-1])["kind"] == "end"
    assert client.application.extensions["referee.slots"].take() is not None  # the stream gave its slot back


def test_an_operator_may_let_searches_run_on_when_their_client_has_gone(make_client):
    server_end, client_end = socket.socketpair()
    client_end.close()
    client = make_client(PERFECT_PLAY_WATCH_CLIENTS=0)
    r = client.post("/v1/verdicts", json=record_of(claim_deal(3)), environ_overrides={"werkzeug.socket": server_end})
    server_end.close()
    assert r.status_code == 200 and r.get_json()["deals"][0]["claim"]["awarded"] == 2


def test_retry_after_is_when_the_search_holding_the_slot_must_have_stopped(make_client):
    client = make_client(SEARCHES_PER_PROCESS=1, PERFECT_PLAY_MAX_SECONDS=30)
    held = client.application.extensions["referee.slots"].take(3)  # an analysis, say, with 3 s to go
    try:
        r = client.post("/v1/verdicts", json=record_of(claim_deal(3)))
    finally:
        held.release()
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 3
