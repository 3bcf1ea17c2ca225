"""POST /v1/analysis and GET /v1/matches/{id}/analysis: perfect play from a position, each
error a 4xx problem, a deal still in play analysed only for the key."""
import copy
import json
import random
from pathlib import Path

import jsonschema
import pytest

from referee.engine.simulate import deal_hands
from tests.api.spec import spec, validate_response
from tests.solver.test_review import random_deal
from tests.solver.whole_deals import REPORT_EVERY

RECORD = json.loads((Path(__file__).parents[1] / "solver" / "records" / "one-costly-play.json").read_text())
# seven-courts, spades trumps, dealer 0. Trick 1: seat 1 leads 4C, seat 0 trumps it with 9S.
# Trick 2 (event 4): seat 0 leads; seat 1 holds the KS alone, so the AS drops it and seat 0's
# team takes all 11 tricks left; any other spade lets the KS win one (10).


def post(client, body):
    r = client.post("/v1/analysis", json=body)
    validate_response(r, "/v1/analysis", "post")
    return r


def record_with(**changes):
    rec = copy.deepcopy(RECORD)
    rec["deals"][0].update(changes)
    return rec


def test_tricks_value_of_each_card(client):
    a = post(client, {"record": RECORD, "deal": 0, "event": 4, "objective": "tricks"}).get_json()
    assert (a["deal"], a["event"], a["to_play"], a["team"], a["objective"]) == (0, 4, 0, 0, "tricks")
    values = {c["card"]: c["value"] for c in a["cards"]}
    assert a["value"] == 11 and values["AS"] == 11 and values["2S"] == 10 and values["QS"] == 10
    assert set(values) == {"2S", "3S", "4S", "5S", "6S", "7S", "8S", "TS", "JS", "QS", "AS", "7H"}
    assert a["line"][:2] == [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "KS"}]
    assert len(a["line"]) == 48 and a["result"] is None
    # what each move would cost, as the costly play of it would say (the page shows these words)
    assert {c["card"]: c["cost"] for c in a["cards"]} == {card: None if card == "AS" else "1 trick" for card in values}


def test_score_is_the_outcome_with_the_result_the_deal_would_get(client):
    a = post(client, {"record": RECORD, "deal": 0, "event": 4}).get_json()
    assert a["objective"] == "score"
    assert a["value"] == {"margin": 1, "deal": "won"}  # no tricks term
    assert {c["card"]: c["value"] for c in a["cards"]}["2S"] == {"margin": 1, "deal": "won"}
    assert {c["card"]: c["cost"] for c in a["cards"]}["2S"] is None  # a trick lost, the margin and the deal kept
    assert {c["card"]: c["cost"] for c in a["cards"]}["AS"] is None
    # the line plays the lowest of equal cards, the 2S: a trick less, the same win
    assert a["result"]["winner"] == 0 and a["result"]["courts"] == [1, 0] and a["tricks_won"] == [11, 2]
    assert a["line"][0] == {"seat": 0, "card": "2S"}


def test_a_finished_deal_has_nothing_to_play_and_its_final_outcome(client):
    a = post(client, {"record": RECORD, "deal": 0}).get_json()
    assert a["event"] == 52 and a["to_play"] is None and a["cards"] == [] and a["line"] == []
    assert a["value"] == {"margin": 1, "deal": "won"} and a["team"] == 0
    assert a["result"]["kind"] == "win" and a["tricks_won"] == [11, 2]


def test_no_hands_names_the_hands(client):
    rec = record_with(events=[])
    del rec["deals"][0]["hands"]
    r = post(client, {"record": rec, "deal": 0})
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert r.get_json()["errors"][0]["pointer"] == "/record/deals/0/hands"


@pytest.mark.parametrize("body, pointer", [
    ({"deal": 1}, "/deal"),
    ({"deal": 0, "event": 53}, "/event"),
    ({"deal": True}, "/deal"),
    ({"deal": 0, "event": -1}, "/event"),
    ({"deal": 0, "objective": "courts"}, "/objective"),
    ({}, "/deal"),
])
def test_a_position_the_record_does_not_have(client, body, pointer):
    r = post(client, {"record": RECORD, **body})
    assert r.status_code == 422 and pointer in [e["pointer"] for e in r.get_json()["errors"]]


def test_a_record_that_is_not_one(client):
    r = post(client, {"record": {"deals": "no"}, "deal": 0})
    assert r.status_code == 422 and any(e["pointer"].startswith("/record") for e in r.get_json()["errors"])
    assert client.post("/v1/analysis", data="{", content_type="application/json").status_code == 400


def test_a_deal_impossible_before_the_position_is_explained(client):
    events = copy.deepcopy(RECORD["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "AS"}  # seat 0 holds the AS
    rec = record_with(events=events)
    r = post(client, {"record": rec, "deal": 0, "event": 8})
    problem = r.get_json()
    assert r.status_code == 422 and problem["title"] == "Impossible record"
    assert problem["errors"][0]["pointer"] == "/record/deals/0/events/5"
    assert problem["errors"][0]["code"] == "card_not_in_hand"
    assert post(client, {"record": rec, "deal": 0, "event": 5}).status_code == 200  # before it: fine


def test_an_illegal_play_on_record_is_no_position_to_analyse(client):
    events = copy.deepcopy(RECORD["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "2D"}  # a revoke: seat 1 holds the KS
    r = post(client, {"record": record_with(events=events), "deal": 0, "event": 8})
    problem = r.get_json()
    assert r.status_code == 422 and problem["detail"].startswith("deal 1: the deal has an illegal play on record")
    assert problem["errors"][0]["pointer"] == "/record/deals/0/events"  # deals counted from 1 for people, 0 in JSON


def test_an_impossible_record_is_told_counting_from_1_its_pointer_from_0(client):
    events = copy.deepcopy(RECORD["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "AS"}
    problem = post(client, {"record": record_with(events=events), "deal": 0, "event": 8}).get_json()
    assert problem["detail"] == "deal 1 is impossible before that point (event 6): seat 1 plays A♠, but it was dealt to seat 0"
    assert problem["errors"][0]["pointer"] == "/record/deals/0/events/5" and problem["errors"][0]["event"] == 5


def test_a_position_past_the_search_limit_is_a_problem_naming_the_limit(app, client):
    app.config["ANALYSIS_MAX_NODES"] = 2000
    hands = [sorted(c.text for c in h) for h in deal_hands(random.Random(7))]
    rec = {"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": []}]}
    r = post(client, {"record": rec, "deal": 0, "objective": "tricks"})
    problem = r.get_json()
    assert r.status_code == 422 and problem["title"] == "Analysis limit reached"
    assert problem["limit"] == {"nodes": 2000, "seconds": 10.0} and problem["nodes"] > 2000


def test_a_line_past_the_search_limit_is_left_out_and_the_values_answered(app, client):
    """Issue 42, item 7: this deal's values take 49,748 nodes, with the line 58,447; at a
    limit between the two the answer is the values, the line left out with a note."""
    hands = [sorted(c.text for c in h) for h in deal_hands(random.Random(11))]
    rec = {"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": []}]}
    whole = post(client, {"record": rec, "deal": 0, "objective": "tricks"}).get_json()
    assert whole["nodes"] == 58_447 and len(whole["line"]) == 52 and "line_note" not in whole
    app.config["ANALYSIS_MAX_NODES"] = 55_000
    r = post(client, {"record": rec, "deal": 0, "objective": "tricks"})
    a = r.get_json()
    assert r.status_code == 200 and (a["value"], a["cards"]) == (whole["value"], whole["cards"])
    assert a["line"] == [] and a["result"] is None and a["tricks_won"] == [0, 0]
    assert a["line_note"].startswith("the line of perfect play is left out") and "55000 nodes" in a["line_note"]


# -- stored matches -------------------------------------------------------------------

def auth(key):
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def stored(client):
    def make(public=True, events=None):
        t = client.post("/v1/tournaments", json={"name": "Analysis", "preset": "seven-courts", "public": public}).get_json()
        deal = dict(RECORD["deals"][0])
        if events is not None:
            deal["events"] = deal["events"][:events]
        m = client.post("/v1/matches", json={"tournament": t["id"], "record": {"deals": [deal]}},
                        headers=auth(t["key"])).get_json()
        return t, m["id"]
    return make


def get(client, mid, query, key=None):
    r = client.get(f"/v1/matches/{mid}/analysis?{query}", headers=auth(key) if key else {})
    validate_response(r, "/v1/matches/{match_id}/analysis", "get")
    return r


def test_a_finished_deal_of_a_public_match_is_analysed_for_anyone(client, stored):
    _, mid = stored()
    r = get(client, mid, "deal=0&event=4&objective=tricks")
    assert r.status_code == 200 and r.get_json()["value"] == 11
    assert get(client, mid, "deal=0").get_json()["to_play"] is None


def test_a_deal_in_play_needs_the_key(client, stored):
    t, mid = stored(events=8)
    refused = get(client, mid, "deal=0&event=4")
    assert refused.status_code == 401 and "every hand" in refused.get_json()["detail"]
    for key in (t["key"], t["read_key"]):
        assert get(client, mid, "deal=0&event=4&objective=tricks", key).get_json()["value"] == 11
    assert get(client, mid, "deal=0", "rk_not-the-key").status_code == 403


def test_a_private_tournament_keeps_its_key_rules(client, stored):
    t, mid = stored(public=False)
    assert get(client, mid, "deal=0").status_code == 401
    assert get(client, mid, "deal=0", t["read_key"]).status_code == 200


@pytest.mark.parametrize("query, pointer", [
    ("", "/deal"), ("deal=x", "/deal"), ("deal=1", "/deal"), ("deal=0&event=99", "/event"),
    ("deal=0&event=-1", "/event"), ("deal=0&objective=x", "/objective"),
])
def test_the_query_names_a_position_the_match_has(client, stored, query, pointer):
    _, mid = stored()
    r = get(client, mid, query)
    assert r.status_code == 422 and pointer in [e["pointer"] for e in r.get_json()["errors"]]


def test_an_unknown_match_is_404(client):
    assert get(client, "m_nosuchmatch", "deal=0").status_code == 404


def test_a_stored_deal_without_hands(client):
    t = client.post("/v1/tournaments", json={"name": "x", "preset": "seven-courts"}).get_json()
    m = client.post("/v1/matches", json={"tournament": t["id"], "record": {"deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "events": [{"seat": 1, "play": "AH"}]}]}}, headers=auth(t["key"])).get_json()
    r = get(client, m["id"], "deal=0", t["key"])
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/record/deals/0/hands"


def test_a_reveal_of_the_face_down_trump_is_a_move_with_its_value(client):
    """Band Rang (mendikot, band, auto reveal): at trick 2's last card seat 0 holds no heart
    and may show the face-down trump; the reveal is listed after the cards, with its value."""
    golden = Path(__file__).parents[1] / "engine" / "records" / "band-auto-caller-plays-the-face-down-card.json"
    rec = json.loads(golden.read_text())["record"]
    a = post(client, {"record": rec, "deal": 0, "event": 7, "objective": "tricks"}).get_json()
    assert a["to_play"] == 0 and a["cards"][-1]["card"] == "reveal"
    assert a["value"] == max(c["value"] for c in a["cards"]) and a["value"] == 5


# -- the whole deal -------------------------------------------------------------------

def lines(r) -> list[dict]:
    """A whole deal's JSON Lines, each checked against openapi.yaml's AnalysisLine."""
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson", r.get_data(as_text=True)[:300]
    check = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/AnalysisLine",
                                             "components": spec()["components"]})
    out = [json.loads(text) for text in r.get_data(as_text=True).splitlines()]
    for line in out:
        check.validate(line)
    return out


def whole(client, **body):
    r = post(client, {"record": RECORD, "deal": 0, "whole_deal": True, **body})
    return lines(r)


def test_the_whole_deal_streams_every_position_as_the_one_position_form_answers_it(client):
    start, *found, end = whole(client, objective="tricks", line=False)
    assert start == {"kind": "deal", "deal": 0, "objective": "tricks", "events": list(range(51, -1, -1)),
                     "limit": {"nodes": 20000000, "seconds": 10.0}, "stopped": None}  # ten positions' nodes
    assert [f["event"] for f in found] == start["events"] and {f["kind"] for f in found} == {"position"}
    for f in found[::10] + [found[-5]]:  # event 4 among them: the costly 2S
        one = post(client, {"record": RECORD, "deal": 0, "event": f["event"], "objective": "tricks",
                            "line": False}).get_json()
        assert {**f, "kind": None, "nodes": None} == {**one, "kind": None, "nodes": None}
    at4 = next(f for f in found if f["event"] == 4)
    assert {c["card"]: c["value"] for c in at4["cards"]}["AS"] == 11 and at4["line"] == []
    assert at4["costly"] == {"deal": 0, "event": 4, "trick": 2, "seat": 0, "card": "2S", "value": 10, "best": 11,
                             "cost": "1 trick", "best_cards": ["AS"]}
    assert end == {"kind": "end", "deal": 0, "analysed": list(range(52)), "past_limit": [], "unanalysable": [],
                   "costly": [at4["costly"]], "nodes": sum(f["nodes"] for f in found)}


def test_the_whole_deal_with_its_lines_and_from_an_event_on(client):
    start, *found, end = whole(client, from_event=44)
    assert start["events"] == [51, 50, 49, 48, 47, 46, 45, 44] and start["objective"] == "score"
    assert all(len(f["line"]) == 52 - f["event"] and f["result"]["winner"] == 0 for f in found)
    assert end["analysed"] == list(range(44, 52)) and end["costly"] == []


def test_one_budget_for_the_whole_deal_the_deep_positions_past_it(app, client):
    app.config["ANALYSIS_DEAL_MAX_NODES"] = 3000  # the whole deal's positions together
    hands = [sorted(c.text for c in h) for h in deal_hands(random.Random(7))]
    rec = {"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": []}]}
    start, only, end = lines(post(client, {"record": rec, "deal": 0, "whole_deal": True, "objective": "tricks"}))
    assert start["events"] == [0] and start["limit"] == {"nodes": 3000, "seconds": 10.0}
    assert only["kind"] == "past_limit" and only["nodes"] > 3000  # past it, not guessed
    assert end["past_limit"] == [0] and end["analysed"] == []

    played = random_deal(5, 52)  # random hands played at random: the early positions need many nodes
    start, *found, end = lines(post(client, {"record": played, "deal": 0, "whole_deal": True, "line": False,
                                             "objective": "tricks"}))
    # The whole request spends 3000 nodes at most (and what one search does before it checks):
    # the late positions are answered, then the budget is spent and the rest are past it.
    assert end["nodes"] <= 3000 + REPORT_EVERY and end["analysed"] and end["past_limit"]
    assert max(end["past_limit"]) < min(end["analysed"])
    assert all(f["nodes"] == 0 for f in found if f["kind"] == "past_limit" and f["event"] < max(end["past_limit"]))


def test_the_whole_deal_stops_at_the_record_error_and_says_why_past_an_illegal_play(client):
    events = copy.deepcopy(RECORD["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "AS"}
    start, *found, end = lines(post(client, {"record": record_with(events=events), "deal": 0, "whole_deal": True,
                                             "objective": "tricks"}))
    assert start["events"] == [5, 4, 3, 2, 1, 0]
    assert start["stopped"] == {"event": 5, "code": "card_not_in_hand", "message": "seat 1 plays A♠, but it was dealt to seat 0"}
    assert [c["event"] for c in end["costly"]] == [4]

    events[5] = {"seat": 1, "play": "2D"}  # a revoke: the penalty decides the deal's end
    start, *found, end = lines(post(client, {"record": record_with(events=events), "deal": 0, "whole_deal": True,
                                             "objective": "tricks"}))
    assert end["unanalysable"] == [6, 7, 8] and end["analysed"] == [0, 1, 2, 3, 4, 5]  # event 9 is out of turn
    assert {f["kind"] for f in found if f["event"] > 5} == {"unanalysable"}
    assert all("illegal play on record" in f["detail"] for f in found if f["event"] > 5)


def test_a_revoke_is_no_costly_play_over_http_and_in_the_command_alike(client, tmp_path, capsys):
    """One rule (costs.py): a costly play is a legal play worth less than the best. The revoke
    (seat 1's 2D, holding the KS) is the verdict's; the 2S lead before it, where the AS was
    best, is the one costly play on both surfaces, with what was best."""
    from referee.cli import main

    events = copy.deepcopy(RECORD["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "2D"}
    record = record_with(events=events)
    *_, end = lines(post(client, {"record": record, "deal": 0, "whole_deal": True, "objective": "tricks"}))
    path = tmp_path / "revoke.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["analyse", "--json", "--objective", "tricks", str(path)]) == 0
    command = json.loads(capsys.readouterr().out)["costly"]
    assert end["costly"] == command == [{"deal": 0, "event": 4, "trick": 2, "seat": 0, "card": "2S", "value": 10,
                                         "best": 11, "cost": "1 trick", "best_cards": ["AS"]}]


@pytest.mark.parametrize("body, pointer", [
    ({"event": 4}, "/event"),
    ({"from_event": 53}, "/from_event"),
    ({"whole_deal": 1}, "/whole_deal"),
    ({"whole_deal": False, "from_event": 4}, "/from_event"),
    ({"line": "no"}, "/line"),
])
def test_a_whole_deal_request_that_is_not_one(client, body, pointer):
    r = post(client, {"record": RECORD, "deal": 0, "whole_deal": True, **body})
    assert r.status_code == 422 and pointer in [e["pointer"] for e in r.get_json()["errors"]]


def test_a_client_that_goes_away_stops_the_whole_deal_between_positions(client, monkeypatch):
    from referee.solver import Solver

    solved = []
    real = Solver.solve
    monkeypatch.setattr(Solver, "solve", lambda self, *a, **k: solved.append(1) or real(self, *a, **k))
    r = client.post("/v1/analysis", json={"record": RECORD, "deal": 0, "whole_deal": True}, buffered=False)
    body = iter(r.response)
    assert json.loads(next(body))["kind"] == "deal" and solved == []  # nothing solved before the first line
    assert json.loads(next(body))["event"] == 51 and len(solved) == 1  # each position as it is solved
    r.close()  # the client hangs up
    assert len(solved) == 1


def test_a_whole_deal_whose_client_has_gone_stops_at_its_next_search_and_says_no_end(client):
    import socket

    server_end, client_end = socket.socketpair()
    client_end.close()  # the client sent its request and went away
    r = client.post("/v1/analysis", json={"record": RECORD, "deal": 0, "whole_deal": True},
                    environ_overrides={"werkzeug.socket": server_end})
    kinds = [json.loads(text)["kind"] for text in r.get_data(as_text=True).splitlines()]
    server_end.close()
    assert kinds[0] == "deal" and "end" not in kinds and len(kinds) < 10 and set(kinds[1:]) <= {"position"}


def test_a_stored_matchs_whole_deal(client, stored):
    _, mid = stored()
    r = get(client, mid, "deal=0&whole_deal=true&objective=tricks&line=false&from_event=40")
    start, *found, end = lines(r)
    assert start["events"] == list(range(51, 39, -1)) and end["analysed"] == list(range(40, 52))
    t, mid = stored(events=8)
    assert get(client, mid, "deal=0&whole_deal=true").status_code == 401
    start, *found, end = lines(get(client, mid, "deal=0&whole_deal=true&objective=tricks", t["read_key"]))
    assert start["events"] == list(range(8, -1, -1)) and [c["event"] for c in end["costly"]] == [4]


@pytest.mark.parametrize("query, pointer", [
    ("deal=0&whole_deal=yes", "/whole_deal"), ("deal=0&whole_deal=true&event=3", "/event"),
    ("deal=0&from_event=3", "/from_event"), ("deal=0&line=0", "/line"),
    ("deal=0&whole_deal=true&from_event=x", "/from_event"),
])
def test_the_whole_deal_query_names_what_is_wrong(client, stored, query, pointer):
    _, mid = stored()
    r = get(client, mid, query)
    assert r.status_code == 422 and pointer in [e["pointer"] for e in r.get_json()["errors"]]


def claimed_endgame() -> dict:
    """court-piece, spades trumps: ten tricks of one suit each (seat 1 wins them), then seat 1
    claims all three left with the JS TS 2H against the AS KS QS and seat 2 disputes: the
    referee settles it by perfect play (R-34)."""
    from tests.solver.claim_deals import endgame

    hands, events = endgame(["AS KS QS", "JS TS 2H", "3H 4H 5H", "6H 2D 2C"], [1] * 10)
    events += [{"seat": 1, "claim": 3}, {"seat": 2, "dispute": True}]
    return {"preset": "court-piece", "deals": [{"dealer": 0, "hands": hands, "trump": {"suit": "S"}, "events": events}]}


def test_a_whole_deal_with_a_disputed_claim_settles_it_within_its_own_budget(client, stored):
    """The claim is settled on the way (once, by search for a posted record, from the stored
    verdict for a match), in the one search slot the whole deal holds: no 429."""
    rec = claimed_endgame()
    start, *found, end = lines(post(client, {"record": rec, "deal": 0, "whole_deal": True, "objective": "tricks",
                                             "from_event": 36}))
    assert start["stopped"] is None and end["analysed"] == [36, 37, 38, 39, 40]  # the claim is made at 40
    assert next(f for f in found if f["event"] == 40)["to_play"] == 1
    t = client.post("/v1/tournaments", json={"name": "Claims", "preset": "court-piece"}).get_json()
    m = client.post("/v1/matches", json={"tournament": t["id"], "record": {"deals": rec["deals"]}},
                    headers=auth(t["key"])).get_json()
    start, *found, again = lines(get(client, m["id"], "deal=0&whole_deal=true&objective=tricks&from_event=36"))
    assert [f["event"] for f in found] == start["events"] and again == end
