"""Rulings R-34b, R-35 and R-36 (issue 28) through the store: the stored match read with and
without the key, its revisions and pages, and the feed."""
from tests.api.spec import validate_response
from tests.api.test_hiding import cards_named, delivered, page_steps, public_texts
from tests.api.test_matches import auth, make_tournament, post_match, write
from tests.engine.test_hidden import HANDS
from tests.engine.test_rulings_r34b_r36 import FINAL, W, revoke_in_open_trick
from tests.helpers import ev
from tests.solver.claim_deals import endgame


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


# -- R-36 --------------------------------------------------------------------------------------------

def close(client, t, mid, etag):
    r = client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"]) | {"If-Match": etag})
    validate_response(r, "/v1/matches/{match_id}/close", "post")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_r36_a_revoke_in_the_open_trick_at_the_close_is_announced_as_a_finished_deal(store_client):
    # Dealer 2, hands known: seat 0 takes tricks 1-3 and leads a heart; seat 1, holding hearts,
    # plays a club; the organiser closes the session then.
    t = make_tournament(store_client)
    r = post_match(store_client, t, [revoke_in_open_trick()])
    mid = r.get_json()["id"]
    assert store_client.get(f"/v1/matches/{mid}").get_json()["verdict"]["deals"][0]["violations"] == []  # proven by a hand: not public yet
    before = len(feed(store_client, t))
    body = close(store_client, t, mid, r.headers["ETag"])
    d = body["verdict"]["deals"][0]
    assert body["status"] == "finished" and d["status"] == "ended_by_penalty"
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (0, "penalty_court", [1, 0])
    [revoke] = d["violations"]
    assert (revoke["pending"], revoke["penalty"], revoke["rule"]) == (False, True, ["trick.follow", "R-36", "revoke.penalty", "R-1"])
    assert body["verdict"]["match"]["winner"] == 0
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["verdict"] == body["verdict"] and public["record"]["deals"][0]["hands"]  # over: public whole
    events = feed(store_client, t)[before:]
    assert [e["type"] for e in events] == ["deal.finished", "violation.found", "match.finished", "standings.changed"]
    finished = events[0]["payload"]
    assert (finished["status"], finished["result"]["kind"], finished["tricks_won"]) == ("ended_by_penalty", "penalty_court", [3, 0])
    assert events[1]["payload"]["violation"]["code"] == "revoke" and events[2]["payload"]["closed"] is True
    rows = store_client.get(f"/v1/tournaments/{t['id']}/standings").get_json()["standings"]
    assert rows[0]["won"] == 1 and rows[0]["courts_for"] == 1
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "In the open trick, over when the session was closed" in page and "— decides the deal" in page



def test_r36_a_correction_after_the_close_that_takes_the_revoke_away_revises_the_announced_deal(store_client):
    # The ledger: the close announced the penalty court; a correction (the club was a heart, its
    # trick is then still open) leaves the deal abandoned: deal.revised, violation.withdrawn and
    # match.revised, never a second deal.finished or a deal.abandoned.
    t = make_tournament(store_client)
    deal = revoke_in_open_trick()
    r = post_match(store_client, t, [deal])
    mid = r.get_json()["id"]
    body = close(store_client, t, mid, r.headers["ETag"])
    heart = next(c for c in deal["hands"][1][3:] if c[1] == "H")
    fixed = dict(deal, events=deal["events"][:-1] + [{"seat": 1, "play": heart}])
    before = len(feed(store_client, t))
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], body["etag"],
              {"record": {"deals": [fixed]}, "reason": "the card was a heart"}, method="put")
    assert r.status_code == 200, r.get_json()
    d = r.get_json()["verdict"]["deals"][0]
    assert (d["status"], d["result"], d["violations"]) == ("abandoned", None, [])
    events = feed(store_client, t)[before:]
    assert [e["type"] for e in events] == ["deal.revised", "violation.withdrawn", "match.revised", "standings.changed"]
    revised = events[0]["payload"]
    assert (revised["previous"]["status"], revised["now"]["status"], revised["result"]) == ("ended_by_penalty", "abandoned", None)
    assert events[2]["payload"]["match"]["winner"] is None and events[2]["payload"]["finished"] is True

def test_r36_an_abandoned_deal_is_public_on_every_surface(store_client, store_app, monkeypatch):
    # Rung Royal's Hidden Rung, hands known, the caller's 3S face down; AH, 4S, 4H played, closed.
    t = make_tournament(store_client, preset="rr-hidden-rung")
    live = {"dealer": 0, "hands": HANDS, "trump": {"hidden": "3S"}, "events": ev("1:AH 2:4S 3:4H")}
    r = post_match(store_client, t, [live])
    mid = r.get_json()["id"]
    hidden = store_client.get(f"/v1/matches/{mid}").get_json()
    assert "hands" not in hidden["record"]["deals"][0] and hidden["record"]["deals"][0]["trump"] == {"hidden": None}
    unplayed = {c for hand in HANDS for c in hand} - {"AH", "4S", "4H"}
    assert not unplayed & cards_named(public_texts(store_client, t, mid)["match"])
    bodies = delivered(store_app, t, monkeypatch, lambda: close(store_client, t, mid, r.headers["ETag"]))
    keyed = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    d = keyed["verdict"]["deals"][0]
    assert d["status"] == "abandoned" and d["result"] is None
    assert (d["trump"]["suit"], d["trump"]["turned_up_at_end"]) == ("S", True)
    texts = public_texts(store_client, t, mid)
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["record"] == keyed["record"] and public["verdict"] == keyed["verdict"]
    for n in (1, 2):  # the live revision too: the deal is over now
        old = store_client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
        assert old["record"]["deals"][0]["hands"] == HANDS and old["record"]["deals"][0]["trump"] == {"hidden": "3S"}, n
        assert page_steps(texts[f"revision page {n}"])[0]["hands"] is not None, n
    assert page_steps(texts["page"])[-1]["hands"][0] is not None and "2S" in cards_named(texts["page"])
    assert "hidden until the deal ends" not in texts["page"]
    events = feed(store_client, t)
    abandoned = next(e["payload"] for e in events if e["type"] == "deal.abandoned")
    assert (abandoned["status"], abandoned["result"]) == ("abandoned", None)
    assert any('"deal.abandoned"' in b for b in bodies)


# -- R-34b -------------------------------------------------------------------------------------------

def test_r34b_a_claim_unanswered_at_the_close_is_settled_and_announced_once(store_client):
    # Seven courts, hands known: ten filler tricks, then seat 0 (AS KS QH under spades) claims
    # all three; seat 1's AH takes the QH, so the claim settled as disputed gets two.
    hands, events = endgame(FINAL, W)
    t = make_tournament(store_client, preset="seven-courts")
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events}])
    mid = r.get_json()["id"]
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], r.headers["ETag"], {"events": [{"seat": 0, "claim": 3}]})
    assert r.get_json()["verdict"]["next"]["claim"]["answer_from"] == [1, 3]
    before = len(feed(store_client, t))
    body = close(store_client, t, mid, r.headers["ETag"])
    d = body["verdict"]["deals"][0]
    c = d["claim"]
    assert (c["answer"], c["answered_by"], c["at_close"], c["held"], c["awarded"]) == ("dispute", None, True, False, 2)
    assert c["rule"][0] == "R-34b" and d["status"] == "complete" and d["tricks_won"] == [8, 5]
    assert body["verdict"]["match"]["winner"] == 0
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["verdict"] == body["verdict"] and public["record"]["deals"][0]["hands"] == hands
    events = feed(store_client, t)[before:]
    assert [e["type"] for e in events] == ["trick.finished"] * 3 + ["deal.finished", "match.finished", "standings.changed"]
    finished = events[3]["payload"]
    assert (finished["status"], finished["claim"]["at_close"], finished["claim"]["awarded"]) == ("complete", True, 2)
    assert "at_close" not in finished  # the claim says how the close finished the deal
    assert [e["payload"]["winner"] for e in events[:3]] == [1, 0, 0]
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "unanswered when the session was closed, it is settled as disputed" in page
    assert 'href="/rules#R-34b"' in page and "played by the referee" in page
