"""Rulings R-34b, R-35 and R-36 (issue 28) through the store: the stored match read with and
without the key, its revisions and pages, and the feed."""
from tests.api.test_hiding import cards_named, page_steps, public_texts
from tests.api.test_matches import auth, make_tournament, post_match, write
from tests.helpers import ev, untricked


def feed(client, t):
    return client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000", headers=auth(t["key"])).get_json()["events"]


# -- R-35 --------------------------------------------------------------------------------------------

# Hidden Rung, dealer 0: the caller, seat 1, lays 7S face down. Seat 0 wins trick 1 with AH and
# leads 2D; the caller plays its hidden 7S marked face down: played face up, shown, a trump.
MARKED = "1:2H 2:3H 3:4H 0:AH  0:2D 1:7S_"


def test_r35_the_marked_hidden_card_is_seen_face_up_by_every_reader_of_a_live_deal(store_client):
    t = make_tournament(store_client, preset="hidden-rung")
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"hidden": "7S"}, "events": ev(MARKED)}])
    mid = r.get_json()["id"]
    keyed = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    for seen in (keyed, public):
        d = seen["verdict"]["deals"][0]
        assert d["status"] == "in_progress" and d["trump"]["suit"] == "S"
        assert d["trump"]["revealed"]["how"] == "played" and d["trump"]["revealed"]["rule"][-1] == "R-35"
        assert seen["verdict"]["next"]["table"] == [{"seat": 0, "card": "2D", "face_down": False, "event": 4},
                                                    {"seat": 1, "card": "7S", "face_down": False, "event": 5}]
        assert seen["record"]["deals"][0]["events"][5] == {"seat": 1, "play": "7S", "face_down": True}  # as recorded
    assert public["record"]["deals"][0]["trump"] == {"hidden": "7S"}  # shown by the play
    # The page: the event list names the card and the ruling, the step note says it was played face up.
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "7S" in cards_named(page) and "(marked face down: the hidden card is played face up)" in page
    notes = [s["note"] for s in page_steps(page)]
    assert "seat 1 plays 7♠, the hidden trump card: marked face down, it is played face up (R-35)" in notes
    # The trick closes: the 7S trumps the diamonds and the deal ends by the penalty.
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], r.headers["ETag"], {"events": ev("2:3D 3:4D")})
    d = r.get_json()["verdict"]["deals"][0]
    assert (d["tricks"][1]["winner"], d["tricks"][1]["winning_card"]) == (1, "7S")
    assert (d["status"], d["result"]["kind"], d["result"]["winner"]) == ("ended_by_penalty", "penalty_court", 0)
    events = feed(store_client, t)
    assert [(e["payload"]["trick"], e["payload"]["winner"]) for e in events if e["type"] == "trick.finished"] == [(1, 0), (2, 1)]
    [found] = [e["payload"]["violation"] for e in events if e["type"] == "violation.found"]
    assert (found["code"], found["card"], found["rule"][-3:]) == ("hidden_card_played", "7S", ["R-35", "revoke.penalty", "R-1"])
    texts = public_texts(store_client, t, mid)
    assert all("7S" in cards_named(text) for where, text in texts.items() if where != "revisions"), texts.keys()
