"""POST /v1/verdicts, GET /v1/presets, health, and every error status."""
import json

import pytest

from tests.api.spec import validate_response
from tests.helpers import deal, ev, round_robin_hands, won_by

PATH = "/v1/verdicts"


def post(client, body, **kwargs):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    response = client.post(PATH, data=data, content_type=kwargs.pop("content_type", "application/json"), **kwargs)
    validate_response(response, PATH, "post")
    return response


def test_a_record_gets_its_verdict(client):
    record = {"preset": "court-piece", "players": ["Asad", "Bilal", "Chandni", "Dev"],
              "deals": [won_by(0, [1] * 7)]}
    r = post(client, record)
    assert r.status_code == 200
    v = r.get_json()
    assert v["valid"] and v["deals"][0]["result"]["kind"] == "court"
    assert v["next"]["dealer"] == 2


def test_input_spellings_come_back_canonical(client):
    events = [{"seat": 1, "play": "10♥"}, {"seat": 2, "play": "ah"}]
    r = post(client, {"preset": "court-piece", "deals": [{"dealer": 0, "trump": {"suit": "♠"}, "events": events}]})
    assert r.status_code == 200
    assert r.get_json()["next"]["trick"] == 1


def test_an_impossible_record_is_200_with_valid_false(client):
    r = post(client, {"preset": "court-piece", "deals": [deal(0, ev("0:AH"), {"suit": "S"})]})
    assert r.status_code == 200
    assert r.get_json()["errors"][0]["code"] == "out_of_turn"


def test_in_progress_record_tells_who_plays_and_what_is_legal(client):
    r = post(client, {"preset": "court-piece",
                      "deals": [deal(0, ev("1:AH 2:3H"), {"suit": "S"}, round_robin_hands())]})
    nxt = r.get_json()["next"]
    assert nxt["trick"] == 1 and nxt["to_play"] == 3 and nxt["legal"] == ["4H", "8H", "QH"]


def test_malformed_json_is_400_problem(client):
    r = post(client, '{"preset": ')
    assert r.status_code == 400
    assert r.mimetype == "application/problem+json"
    assert r.get_json()["title"] == "Malformed JSON" and "line 1" in r.get_json()["detail"]


def test_deeply_nested_and_non_standard_json_is_400(client):
    assert post(client, "[" * 100000 + "]" * 100000).status_code == 400
    r = post(client, '{"preset": "court-piece", "deals": [{"dealer": NaN}]}')
    assert r.status_code == 400 and "NaN" in r.get_json()["detail"]


def test_non_utf8_body_is_400(client):
    r = post(client, b"\xff\xfe{")
    assert r.status_code == 400
    assert "not UTF-8" in r.get_json()["detail"]


def test_a_byte_order_mark_is_ignored(client):
    r = post(client, b"\xef\xbb\xbf" + json.dumps({"preset": "court-piece", "deals": []}).encode())
    assert r.status_code == 200 and r.get_json()["valid"]


def test_a_number_too_large_to_be_exact_is_422_not_changed(client):
    # 2**70 cannot be held exactly by every JSON reader (I-JSON); it is refused, never rounded.
    r = post(client, '{"preset": "court-piece", "options": {"streak_points": 1180591620717411303424}, "deals": []}')
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["pointer"] == "/options/streak_points"


def test_wrong_content_type_is_415(client):
    r = post(client, "preset=court-piece", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415


@pytest.mark.parametrize("body, pointer", [
    ({"deals": []}, "/preset"),
    ({"preset": "whist", "deals": []}, "/preset"),
    ({"preset": "court-piece"}, "/deals"),
    ({"preset": "court-piece", "deals": [{"dealer": 4}]}, "/deals/0/dealer"),
    ({"preset": "court-piece", "deals": [{"dealer": 0, "events": [{"seat": 1, "play": "ZZ"}]}]}, "/deals/0/events/0/play"),
    ({"preset": "court-piece", "deals": [{"dealer": 0, "events": [{"seat": 1}]}]}, "/deals/0/events/0"),
    ({"preset": "court-piece", "deals": [{"dealer": 0, "trump": {"suit": "X"}}]}, "/deals/0/trump/suit"),
    ({"preset": "court-piece", "deals": [], "options": {"trumps": "called"}}, "/options/trumps"),
    ({"preset": "court-piece", "deals": [], "options": {"target": "ten"}}, "/options/target"),
    ({"preset": "court-piece", "deals": [], "colour": "red"}, "/colour"),
    ([1, 2], "/"),
])
def test_schema_mismatch_is_422_with_the_pointer(client, body, pointer):
    r = post(client, body)
    assert r.status_code == 422
    assert r.mimetype == "application/problem+json"
    assert pointer in [e["pointer"] for e in r.get_json()["errors"]]


def test_every_problem_gets_a_pointer(client):
    body = {"preset": "court-piece", "deals": [{"dealer": 9, "events": [{"seat": -1, "play": "AS"}]}]}
    pointers = {e["pointer"] for e in post(client, body).get_json()["errors"]}
    assert pointers == {"/deals/0/dealer", "/deals/0/events/0/seat"}


def test_body_over_one_mebibyte_is_413(client):
    big = json.dumps({"preset": "court-piece", "deals": [], "players": ["x" * (1024 * 1024)] * 4})
    r = post(client, big)
    assert r.status_code == 413 and r.mimetype == "application/problem+json"


def test_wrong_method_is_405_and_unknown_path_404(client):
    r = client.get(PATH)
    assert r.status_code == 405 and r.mimetype == "application/problem+json"
    assert "POST" in r.headers["Allow"]
    r = client.get("/v1/nothing")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"


def test_presets_lists_every_preset_with_its_options(client):
    r = client.get("/v1/presets")
    validate_response(r, "/v1/presets", "get")
    data = r.get_json()
    names = [p["name"] for p in data["presets"]]
    assert "court-piece" in names and "mendikot" in names and len(names) == 14
    hidden = next(p for p in data["presets"] if p["name"] == "hidden-rung")
    assert hidden["options"]["pile_no_collect_after"] == [1, 2, 12]
    assert data["options"]["trump"]["default"] == "called"
    assert "band" in data["options"]["trump"]["values"]


def test_health_and_spec_are_served(client):
    r = client.get("/healthz")
    validate_response(r, "/healthz", "get")
    assert r.get_json() == {"status": "ok"}
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.data.startswith(b"openapi: 3.1")
