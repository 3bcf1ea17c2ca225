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

    def make(**config):
        app = create_app({"TESTING": True, "DATABASE_URL": sqlite_url, **config})
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

