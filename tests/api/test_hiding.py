"""Nothing revealed after the fact: old revisions hide what the current one hides, a
face-down card is a card back to every reader without the key, a violation proven by a
hand waits for the deal's end, and feed payloads hold no unplayed card."""
import re

from tests.api.test_matches import auth, make_tournament, post_match, write
from tests.helpers import ev, round_robin_hands, won_by

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


def test_an_older_revision_of_a_reopened_deal_hides_what_the_current_one_hides(store_client):
    t = make_tournament(store_client, preset="rr-hidden-rung")
    # Deal 0 played to its end (the callers take seven), its hidden 2C never shown.
    done = won_by(0, [1] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    r = post_match(store_client, t, [done])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    old = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert old["record"]["deals"][0]["trump"] == {"hidden": "2C"}  # finished: public
    # A correction cuts deal 0 back to three tricks: it is live again.
    cut = dict(done, events=done["events"][:12])
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag, {"record": {"deals": [cut]}, "reason": "x"},
              method="put")
    assert r.status_code == 200, r.get_json()
    again = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert again["record"]["deals"][0]["trump"] == {"hidden": None}
    assert "2C" not in str(again["verdict"]["deals"][0]["trump"]) and again["verdict"]["deals"][0]["trump"]["revealed"] is None
    keyed = store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()
    assert keyed["record"]["deals"][0]["trump"] == {"hidden": "2C"}  # the key holder sees it all


def test_an_older_revision_hides_the_hands_of_a_deal_live_now(store_client):
    t = make_tournament(store_client)
    rec = won_by(0, [1] * 7, hands=True)
    r = post_match(store_client, t, [rec])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    assert "hands" in store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()["record"]["deals"][0]
    live = dict(rec, events=rec["events"][:8])
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag, {"record": {"deals": [live]}, "reason": "x"},
              method="put")
    assert r.status_code == 200
    for n in (1, 2):
        seen = store_client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
        assert "hands" not in seen["record"]["deals"][0], n
    assert "hands" in store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()["record"]["deals"][0]
    page = store_client.get(f"/matches/{mid}/revisions/1").get_data(as_text=True)
    assert '"hands": null' in page or '"hands":null' in page  # the steps hold no hand either
    assert '"hands": [' not in page and '"hands":[' not in page


def test_a_face_down_card_is_a_card_back_until_the_deal_ends(store_client):
    t = make_tournament(store_client, preset="hidden-rung")
    # Hidden-rung: dealer 0, caller seat 1 lays 7S face down; seat 1 discards KS face down.
    events = ev("1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"hidden": "7S"}, "events": events}])
    mid = r.get_json()["id"]
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["record"]["deals"][0]["events"][7] == {"seat": 1, "play": None, "face_down": True}
    card = public["verdict"]["deals"][0]["tricks"][1]["cards"][3]
    assert card == {"seat": 1, "card": None, "event": 7, "face_down": True}
    assert "KS" not in str(public)
    feed = store_client.get(f"/v1/tournaments/{t['id']}/feed").get_json()["events"]
    assert "KS" not in str(feed)
    full = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    assert full["verdict"]["deals"][0]["tricks"][1]["cards"][3]["card"] == "KS"
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "king of spades" not in page and "a face-down card" in page


def test_a_violation_proven_by_a_hand_is_not_public_until_the_deal_ends(store_client):
    t = make_tournament(store_client)
    hands = round_robin_hands()
    r = post_match(store_client, t, [{"dealer": 0, "hands": hands, "trump": {"suit": "S"},
                                      "events": ev("1:AH 2:2D 3:4H 0:5H 1:TH")}])
    mid = r.get_json()["id"]
    full = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]["deals"][0]
    assert [v["proof"] for v in full["violations"]] == ["hand"] and full["status"] == "ended_by_penalty"
    # The deal is over (a penalty): the violation is public. A live one with a hand-proven breach:
    r2 = post_match(store_client, t, [{"dealer": 0, "hands": hands, "trump": {"suit": "S"},
                                       "events": ev("1:AH 2:2D 3:4H")}])
    live = store_client.get(f"/v1/matches/{r2.get_json()['id']}").get_json()["verdict"]["deals"][0]
    assert live["status"] == "in_progress" and live["violations"] == []
    keyed = store_client.get(f"/v1/matches/{r2.get_json()['id']}", headers=auth(t["key"])).get_json()
    assert [v["code"] for v in keyed["verdict"]["deals"][0]["violations"]] == ["revoke"]
    public_done = store_client.get(f"/v1/matches/{mid}").get_json()["verdict"]["deals"][0]
    assert [v["proof"] for v in public_done["violations"]] == ["hand"]


def test_feed_payloads_hold_no_card_that_was_not_played_and_no_unshown_hidden_trump(store_client):
    t = make_tournament(store_client, preset="rr-hidden-rung")
    hands = round_robin_hands()
    # Deal 0 finished (public), deal 1 live with hands and an unshown hidden card.
    done = won_by(0, [1] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    live = {"dealer": 2, "hands": hands, "trump": {"hidden": "KS"}, "events": ev("3:AC 0:3C 1:4C 2:5C")}
    post_match(store_client, t, [done, live])
    feed = store_client.get(f"/v1/tournaments/{t['id']}/feed").get_json()["events"]
    assert feed, "the finished deal is announced"
    played = {e["play"] for d in (done, live) for e in d["events"] if "play" in e} | {"2C"}
    for event in feed:
        shown = set(CARD.findall(str(event["payload"]).replace("'", '"')))
        assert shown <= played, (event["type"], shown - played)
        assert "KS" not in str(event["payload"])
