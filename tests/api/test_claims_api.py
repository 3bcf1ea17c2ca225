"""Claims (R-33, R-34) and the deal at the bell (R-32 perfect_play) over HTTP: a verdict,
live play through the store, the feed."""
import json

import pytest

from tests.api.spec import validate_response
from tests.api.test_matches import auth, feed, start
from tests.helpers import untricked
from tests.solver.claim_deals import endgame

W = [1, 1, 1, 0, 0, 0, 0, 3, 2, 0]
FINAL = ["AS KS QS", "JS AH KH", "TS QH 2D", "JH TH 2C"]


def endgame_deal(hands=True):
    cards, events = endgame(FINAL, W)
    deal = {"dealer": 0, "trump": {"suit": "S"}, "events": events}
    if hands:
        deal["hands"] = cards
    return deal


def test_a_claim_in_a_verdict(client):
    deal = endgame_deal()
    deal["events"] += [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    r = client.post("/v1/verdicts", json={"preset": "seven-courts", "deals": [deal]})
    validate_response(r, "/v1/verdicts", "post")
    d = r.get_json()["deals"][0]
    assert d["status"] == "complete" and d["claim"]["held"] and d["claim"]["awarded"] == 3
    assert d["tricks_won"] == [9, 4]


@pytest.mark.parametrize("event,pointer", [
    ({"seat": 0, "claim": 14}, "/deals/0/events/40/claim"),
    ({"seat": 0, "claim": "all"}, "/deals/0/events/40/claim"),
    ({"seat": 1, "accept": False}, "/deals/0/events/40/accept"),
    ({"seat": 1, "accept": True, "dispute": True}, "/deals/0/events/40"),
])
def test_a_malformed_claim_or_answer_is_a_422_naming_its_pointer(client, event, pointer):
    deal = endgame_deal()
    deal["events"].append(event)
    r = client.post("/v1/verdicts", json={"preset": "seven-courts", "deals": [deal]})
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert pointer in [e["pointer"] for e in r.get_json()["errors"]]


def test_a_claim_in_live_play_waits_for_its_answer_then_the_feed_announces_the_settled_deal(store_client):
    t, mid, etag = start(store_client, "seven-courts", [endgame_deal()])
    r = store_client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 0, "claim": 3}]},
                          headers=auth(t["key"], etag))
    validate_response(r, "/v1/matches/{match_id}/events", "post")
    assert r.status_code == 200, r.get_json()
    nxt = r.get_json()["next"]
    assert nxt["to_play"] is None and nxt["claim"]["answer_from"] == [1, 3]
    # at the claim every hand is faced: a reader without the key sees the hands
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["record"]["deals"][0].get("hands") is not None
    r = store_client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 3, "accept": True}]},
                          headers=auth(t["key"], r.headers["ETag"]))
    assert r.status_code == 200, r.get_json()
    d = r.get_json()["deal"]["verdict"]
    assert d["status"] == "complete" and d["claim"]["answer"] == "accept" and d["claim"]["answered_by"] == 3
    events = feed(store_client, t).get_json()["events"]
    finished = next(e for e in events if e["type"] == "deal.finished")["payload"]
    assert finished["claim"]["awarded"] == 3 and finished["tricks_won"] == [9, 4]
    r = store_client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 0, "play": "QS"}]},
                          headers=auth(t["key"], r.headers["ETag"]))
    assert r.status_code == 409 and r.mimetype == "application/problem+json"  # live play stays possible
    assert "after the claim of seat 0 was answered" in r.get_json()["detail"]


@pytest.mark.parametrize("hands", [True, False])
def test_closing_at_the_bell_with_perfect_play(store_client, hands):
    t, mid, etag = start(store_client, "seven-courts", [endgame_deal(hands)], abandoned_deal="perfect_play")
    r = store_client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"], etag))
    validate_response(r, "/v1/matches/{match_id}/close", "post")
    assert r.status_code == 200, r.get_json()
    d = r.get_json()["verdict"]["deals"][0]
    if hands:
        assert d["status"] == "complete" and d["at_close"]["perfect_play"] and d["result"]["winner"] == 0
        types = [e["type"] for e in untricked(feed(store_client, t).get_json()["events"])]
        assert types[0] == "deal.finished"
    else:
        assert d["status"] == "abandoned" and d["at_close"]["reason"] == "no_hands"


def test_perfect_play_is_an_accepted_option_value(store_client):
    r = store_client.post("/v1/verdicts", json={"preset": "court-piece", "options": {"abandoned_deal": "perfect_play"},
                                                 "deals": []})
    assert r.status_code == 200


def test_a_public_reader_sees_the_hidden_trump_and_the_hands_once_claimed():
    """R-33: at a claim every hand is faced and the face-down trump shown (visibility.PublicView)."""
    from referee.engine import adjudicate_dict
    from referee.visibility import PublicView

    hands, events = endgame(["AH KH QH", "2S JH TH", "AS KS QS", "JS 2D 2C"], [1, 1, 1, 0, 0, 0, 0, 3, 3, 2])
    deal = {"dealer": 0, "hands": hands, "trump": {"hidden": "2S"}, "events": events}
    before = {"preset": "rr-hidden-rung", "deals": [deal]}
    hidden = PublicView(before, adjudicate_dict(before))
    assert hidden.verdict()["deals"][0]["trump"]["suit"] is None and "hands" not in hidden.record()["deals"][0]
    claimed = {"preset": "rr-hidden-rung", "deals": [dict(deal, events=events + [{"seat": 2, "claim": 2}])]}
    view = PublicView(claimed, adjudicate_dict(claimed))
    trump = view.verdict()["deals"][0]["trump"]
    assert (trump["suit"], trump["card"], trump["revealed"]["how"]) == ("S", "2S", "claim")
    assert view.record()["deals"][0]["hands"] == hands and view.verdict()["next"]["claim"]["answer_from"] == [1, 3]


def test_a_claim_a_correction_removes_retracts_the_cards_it_faced_from_the_feed(store_client):
    """R-31 on the feed: the claim faced every hand and its deal.finished carried the line;
    a correction that removes the claim makes the deal live again, so the twelve cards still
    to play are held again: no feed event names them (the deal.finished as read now, and
    the correction's deal.revised, which says the claim was removed)."""
    cards, events = endgame(FINAL, W)
    t, mid, etag = start(store_client, "seven-courts", [endgame_deal()])
    r = store_client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": 0, "claim": 3}, {"seat": 1, "accept": True}]},
                          headers=auth(t["key"], etag))
    assert r.status_code == 200, r.get_json()
    unplayed = {c for hand in cards for c in hand} - {e["play"] for e in events}
    assert len(unplayed) == 12
    said = feed(store_client, t).get_json()["events"]
    finished = next(e for e in said if e["type"] == "deal.finished")["payload"]
    assert {step["card"] for step in finished["claim"]["line"]} == unplayed  # faced by the claim: public then
    r = store_client.put(f"/v1/matches/{mid}/record", headers=auth(t["key"], r.headers["ETag"]),
                         json={"reason": "the claim was never made", "record": {
                             "players": ["A", "B", "C", "D"], "deals": [endgame_deal()]}})
    assert r.status_code == 200, r.get_json()
    assert store_client.get(f"/v1/matches/{mid}").get_json()["record"]["deals"][0].get("hands") is None
    said = feed(store_client, t).get_json()["events"]
    assert not {c for c in unplayed if c in str(said)}  # no card code of the twelve anywhere in the feed
    finished = next(e for e in said if e["type"] == "deal.finished")["payload"]
    assert {step["card"] for step in finished["claim"]["line"]} == {None}
    assert finished["claim"]["awarded"] == 3  # what names no card stays as it was said
    revised = next(e for e in said if e["type"] == "deal.revised")["payload"]
    assert (revised["why"], revised["claim_removed"], revised["now"]) == ("correction", True, None)
    assert {step["card"] for step in revised["previous"]["claim"]["line"]} == {None}


def test_webhooks_deliver_the_claim_a_correction_removed_without_its_faced_cards(store_client, store_app, monkeypatch):
    """The same correction with a subscription whose deliveries wait (its worker runs only
    after the correction): the deal.finished it gets names none of the twelve cards."""
    from tests.api.test_hiding import delivered

    cards, events = endgame(FINAL, W)
    unplayed = {c for hand in cards for c in hand} - {e["play"] for e in events}
    t, mid, etag = start(store_client, "seven-courts", [endgame_deal()])

    def claim_then_correct():
        r = store_client.post(f"/v1/matches/{mid}/events", headers=auth(t["key"], etag),
                              json={"events": [{"seat": 0, "claim": 3}, {"seat": 1, "accept": True}]})
        r = store_client.put(f"/v1/matches/{mid}/record", headers=auth(t["key"], r.headers["ETag"]),
                             json={"reason": "no claim", "record": {"players": ["A", "B", "C", "D"], "deals": [endgame_deal()]}})
        assert r.status_code == 200, r.get_json()

    bodies = delivered(store_app, t, monkeypatch, claim_then_correct)
    types = [json.loads(b)["type"] for b in bodies]
    assert "deal.finished" in types and "deal.revised" in types
    assert not {c for c in unplayed if any(c in b for b in bodies)}
