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
    assert options["dealer_rule"]["values"][:2] == ["result", "rotate"]
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


# -- bid-double-sir ---------------------------------------------------------------------------------

def bid_record(bid, preset="bid-double-sir"):
    d = won_by(0, [1] * 7)
    if bid is not ...:
        d["bid"] = bid
    return {"preset": preset, "deals": [d]}


@pytest.mark.parametrize("bid, preset, pointer", [
    ({"seat": 1, "tricks": 6}, "bid-double-sir", "/deals/0/bid/tricks"),
    ({"seat": 1, "tricks": 14}, "bid-double-sir", "/deals/0/bid/tricks"),
    ({"seat": 1, "tricks": 7.5}, "bid-double-sir", "/deals/0/bid/tricks"),
    ({"seat": 4, "tricks": 7}, "bid-double-sir", "/deals/0/bid/seat"),
    ({"seat": 1}, "bid-double-sir", "/deals/0/bid/tricks"),
    ({"seat": 1, "tricks": 7, "by": 2}, "bid-double-sir", "/deals/0/bid/by"),
    ("7", "bid-double-sir", "/deals/0/bid"),
    (..., "bid-double-sir", "/deals/0/bid"),
    ({"seat": 1, "tricks": 7}, "double-sir", "/deals/0/bid"),
    ({"seat": 1, "tricks": 7}, "court-piece", "/deals/0/bid"),
])
def test_a_bad_bid_is_a_422_naming_its_pointer(client, bid, preset, pointer):
    r = post(client, bid_record(bid, preset))
    assert r.status_code == 422
    assert [e["pointer"] for e in r.get_json()["errors"]] == [pointer]


def test_a_bid_game_is_judged_and_the_bid_comes_back(client):
    body = bid_record({"seat": 1, "tricks": 7.0})
    body["deals"][0]["trump"]["by"] = 1
    v = post(client, body).get_json()
    assert v["valid"] and v["deals"][0]["bid"] == {"seat": 1, "tricks": 7}
    assert v["deals"][0]["result"]["kind"] == "bid_made" and v["deals"][0]["result"]["points"] == [7, 0]
    assert v["next"]["dealer"] == 1 and v["next"]["caller"] is None
    assert "bid-double-sir" in {p["name"] for p in client.get("/v1/presets").get_json()["presets"]}


def test_the_page_shows_the_bid_with_the_trump(client):
    body = bid_record({"seat": 1, "tricks": 7})
    page = client.post("/check", data={"record": json.dumps(body)}).get_data(as_text=True)
    assert "bid 7 tricks, named trump and led" in page and 'href="/rules#record.bid"' in page


def test_the_page_marks_the_deciding_pair(client):
    body = {"preset": "band-rang", "deals": [won_by(0, [1, 3, 0, 0, 0])]}
    page = client.post("/check", data={"record": json.dumps(body)}).get_data(as_text=True)
    assert page.count('class="trick deciding"') == 2 and "won tricks 4 and 5" in page
    assert "won with an ace, so the pair waited" in page and 'href="/rules#end.deciding-pair-ace"' in page
    assert "collected" not in page.split("<h3>Tricks</h3>")[1].split("</ol>\n\n")[0]


@pytest.mark.parametrize("name, value", [("deciding_pair", "yes"), ("deciding_pair_ace_rule", 1)])
def test_a_bad_band_rang_option_is_a_422(client, name, value):
    r = post(client, {"preset": "band-rang", "options": {name: value}, "deals": []})
    assert r.status_code == 422 and [e["pointer"] for e in r.get_json()["errors"]] == [f"/options/{name}"]


# -- hokm, the dealer rules of turn 5, option.no-effect ------------------------------------------------

def test_presets_list_hokm_and_the_new_options(client):
    body = client.get("/v1/presets").get_json()
    hokm = next(p for p in body["presets"] if p["name"] == "hokm")
    assert hokm["rule"] == "preset.hokm" and hokm["end"] == "seven"
    assert (hokm["options"]["scoring"], hokm["options"]["target"], hokm["options"]["dealer_rule"]) == ("hokm", 7,
                                                                                                       "caller_stays")
    options = body["options"]
    assert options["dealer_rule"]["values"] == ["result", "rotate", "caller_stays", "partner_on_callers_win"]
    assert options["mendikot_loser_deals"] == {**options["mendikot_loser_deals"], "default": "same",
                                               "values": ["same", "partner"]}
    assert options["next_deal_from"]["values"] == ["dealer", "trump_setter"] and "hokm" in options["scoring"]["values"]
    assert options["tens_end"]["values"] == ["all_tricks", "settled"] and options["band_caller_reveals"]["default"] is True


def test_a_hokm_kot_over_http(client):
    v = post(client, {"preset": "hokm", "deals": [won_by(3, [0] * 7)]}).get_json()
    assert v["deals"][0]["result"]["points"] == [2, 0] and v["next"]["dealer"] == 3 and v["next"]["caller"] == 0


@pytest.mark.parametrize("preset, options, name", [
    ("court-piece", {"scoring": "deals", "kot": True}, "kot"),
    ("court-piece", {"scoring": "deals", "defenders_double": True}, "defenders_double"),
    ("hokm", {"next_deal_from": "trump_setter"}, "next_deal_from"),
    ("court-piece", {"pile_trump_ace_no_seal": True}, "pile_trump_ace_no_seal"),
    ("court-piece", {"tens_end": "settled"}, "tens_end"),
])
def test_an_option_that_decides_nothing_is_a_422_saying_why(client, preset, options, name):
    r = post(client, {"preset": preset, "options": options, "deals": []})
    assert r.status_code == 422
    errors = r.get_json()["errors"]
    assert [e["pointer"] for e in errors] == [f"/options/{name}"] and "has no effect here" in errors[0]["detail"]


def test_a_tournament_with_an_option_that_decides_nothing_is_a_422(store_client):
    r = store_client.post("/v1/tournaments", json={"name": "x", "preset": "court-piece", "options": {"kot": True}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/options/kot"


def test_a_record_taken_before_with_an_option_that_decides_nothing_is_still_read():
    """option.no-effect refuses new records only: a stored match's record and a signed verdict's
    (check_record's stored and accepted) are read as they were taken, and judged the same."""
    from referee.record_shape import RecordProblems, check_record

    record = {"preset": "court-piece", "options": {"scoring": "deals", "kot": True}, "deals": [won_by(0, [1] * 7)]}
    with pytest.raises(RecordProblems) as info:
        check_record(record)
    assert [p["pointer"] for p in info.value.problems] == ["/options/kot"]
    assert check_record(record, stored=True)["options"] == check_record(record, accepted=True)["options"]
