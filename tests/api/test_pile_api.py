"""Double Sir's pile over HTTP: `pile_ace_no_seal` (pile.trump-ace, pile.any-ace, R-8) and its
older spelling in GET /v1/presets, a bad or contradicting value a 422 naming its pointer, on a
verdict, a tournament and a match."""
import pytest

from tests.api.spec import validate_response
from tests.api.test_matches import make_tournament


def verdict(client, body):
    return client.post("/v1/verdicts", json=body)


def test_presets_list_pile_ace_no_seal_and_its_older_spelling(client):
    r = client.get("/v1/presets")
    validate_response(r, "/v1/presets", "get")
    options = r.get_json()["options"]
    assert options["pile_ace_no_seal"]["values"] == ["none", "trump", "any"]
    assert options["pile_ace_no_seal"]["default"] == "none"
    assert options["pile_trump_ace_no_seal"]["alias_of"] == "pile_ace_no_seal"
    double = next(p for p in r.get_json()["presets"] if p["name"] == "double-sir")
    assert double["options"]["pile_ace_no_seal"] == "none"


@pytest.mark.parametrize("options,pointer", [
    ({"pile_ace_no_seal": "every"}, "/options/pile_ace_no_seal"),
    ({"pile_trump_ace_no_seal": "yes"}, "/options/pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": True, "pile_ace_no_seal": "any"}, "/options/pile_trump_ace_no_seal"),
])
def test_a_bad_or_contradicting_ace_option_is_a_422_naming_its_pointer(client, options, pointer):
    r = verdict(client, {"preset": "double-sir", "options": options, "deals": []})
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert [e["pointer"] for e in r.get_json()["errors"]] == [pointer]


def test_a_tournament_with_a_bad_ace_option_is_a_422(store_client):
    r = store_client.post("/v1/tournaments", json={"name": "x", "preset": "double-sir",
                                                   "options": {"pile_ace_no_seal": 1}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/options/pile_ace_no_seal"


def test_a_match_may_repeat_its_tournaments_ace_option_in_the_older_spelling(store_client):
    t = make_tournament(store_client, "double-sir", pile_ace_no_seal="trump")
    body = {"tournament": t["id"], "record": {"options": {"pile_trump_ace_no_seal": True}, "deals": []}}
    r = store_client.post("/v1/matches", json=body, headers={"Authorization": f"Bearer {t['key']}"})
    assert r.status_code == 201, r.get_json()
