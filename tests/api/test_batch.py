"""POST /v1/verdicts/batch: JSON Lines or a JSON array in, JSON Lines out, in input order;
each item as it would be alone; limits are 413 problems that name the limit."""
import json
from pathlib import Path

from referee.app import create_app
from tests.api.spec import validate_response

EXAMPLES = Path(__file__).parents[2] / "examples"


def lines(r):
    return [json.loads(line) for line in r.get_data(as_text=True).splitlines()]


def unsigned(verdict):
    return {**verdict, "provenance": {**verdict["provenance"], "signed_at": None}, "signature": None}


def test_a_batch_of_json_lines_answers_each_item_as_alone_in_order(client):
    revoke = (EXAMPLES / "revoke.json").read_text()
    body = "\n".join([revoke.replace("\n", " "), "{oops", json.dumps({"preset": "court-piece", "deals": [{"dealer": 5}]}),
                      "", json.dumps({"preset": "court-piece", "deals": []})]) + "\n"
    r = client.post("/v1/verdicts/batch", data=body, content_type="application/x-ndjson")
    validate_response(r, "/v1/verdicts/batch", "post")
    got = lines(r)
    assert [(x["index"], x["status"]) for x in got] == [(0, 200), (1, 400), (2, 422), (3, 200)]
    alone = client.post("/v1/verdicts", data=revoke, content_type="application/json").get_json()
    assert unsigned(got[0]["verdict"]) == unsigned(alone)  # signed apart, maybe a second apart
    assert got[2]["problem"]["errors"] == [{"pointer": "/deals/0/dealer", "detail": "must be a seat 0..3"}]
    assert got[1]["problem"]["title"] == "Malformed JSON"


def test_a_json_array_batch_and_the_same_bytes_every_run(client):
    records = [json.loads((EXAMPLES / name).read_text()) for name in ("revoke.json", "double-sir.json")] + [7]
    first = client.post("/v1/verdicts/batch", json=records)
    assert [(x["index"], x["status"]) for x in lines(first)] == [(0, 200), (1, 200), (2, 422)]
    assert client.post("/v1/verdicts/batch", json=records).get_data() == first.get_data()
    assert client.post("/v1/verdicts/batch", json={"preset": "court-piece"}).status_code == 422


def test_over_a_limit_is_a_413_that_names_it(sqlite_url, monkeypatch):
    monkeypatch.setenv("REFEREE_BATCH_MAX_ITEMS", "3")
    monkeypatch.setenv("REFEREE_BATCH_MAX_BYTES", "5000")
    client = create_app({"DATABASE_URL": sqlite_url}).test_client()
    four = "\n".join(json.dumps({"preset": "court-piece", "deals": []}) for _ in range(4))
    r = client.post("/v1/verdicts/batch", data=four, content_type="application/x-ndjson")
    validate_response(r, "/v1/verdicts/batch", "post")
    assert r.status_code == 413 and r.get_json()["limit"] == 3 and "REFEREE_BATCH_MAX_ITEMS" in r.get_json()["detail"]
    big = "\n".join([json.dumps({"preset": "court-piece", "deals": [], "players": ["x" * 2000] * 4})])
    r = client.post("/v1/verdicts/batch", data=big, content_type="application/x-ndjson")
    assert r.status_code == 413 and r.get_json()["limit"] == 5000


def test_one_item_over_a_mebibyte_is_its_own_413(client):
    huge = json.dumps({"preset": "court-piece", "deals": [], "options": {}, "players": ["y" * 300_000] * 4})
    body = huge + "\n" + json.dumps({"preset": "court-piece", "deals": []}) + "\n"
    got = lines(client.post("/v1/verdicts/batch", data=body, content_type="application/x-ndjson"))
    assert [(x["index"], x["status"]) for x in got] == [(0, 413), (1, 200)]


def test_a_batch_in_another_type_is_415(client):
    r = client.post("/v1/verdicts/batch", data="x", content_type="text/plain")
    assert r.status_code == 415 and r.mimetype == "application/problem+json"
