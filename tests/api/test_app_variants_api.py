"""The deployed apps' games over HTTP: their options in GET /v1/presets, bad values as 422s
naming their pointer (docs/rules.md pile.each-win, dealer.rotate, score.deals)."""
import json

import pytest

from tests.api.spec import validate_response
from tests.helpers import won_by


def post(client, body):
    r = client.post("/v1/verdicts", data=json.dumps(body), content_type="application/json")
    validate_response(r, "/v1/verdicts", "post")
    return r


def test_presets_list_the_new_options_with_their_values(client):
    options = client.get("/v1/presets").get_json()["options"]
    assert options["pile_after_collect"]["values"] == ["new_run", "each_win"]
    assert options["pile_after_collect"]["default"] == "new_run"
    assert options["dealer_rule"]["values"] == ["result", "rotate"]
    assert "deals" in options["scoring"]["values"]


@pytest.mark.parametrize("name, value", [("pile_after_collect", "each"), ("dealer_rule", "clockwise"),
                                         ("scoring", "deal"), ("dealer_rule", None)])
def test_a_bad_value_is_a_422_naming_its_pointer(client, name, value):
    r = post(client, {"preset": "double-sir", "options": {name: value}, "deals": []})
    assert r.status_code == 422
    assert [e["pointer"] for e in r.get_json()["errors"]] == [f"/options/{name}"]


def test_the_options_are_accepted_and_judged(client):
    body = {"preset": "double-sir", "options": {"pile_after_collect": "each_win", "dealer_rule": "rotate",
                                                "scoring": "deals"},
            "deals": [won_by(0, [1] * 13)]}
    v = post(client, body).get_json()
    d = v["deals"][0]
    assert [t["collected"] for t in d["tricks"]][:3] == [0, 2, 1]
    assert d["result"]["points"] == [0, 1] and d["next_dealer_rule"] == ["dealer.rotate"]
    assert v["next"]["dealer"] == 1
