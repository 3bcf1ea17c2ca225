"""The close of a session through the store (R-32, R-34b, R-36): the close's answer, the
stored match read with and without the key, its revisions and pages, the standings and the
feed."""
import pytest

from tests.api.spec import validate_response
from tests.api.test_hiding import cards_named, delivered, page_steps, public_texts
from tests.api.test_matches import auth, feed, feed_events, make_tournament, post_match, start, write
from tests.engine.test_close import FINAL, W, revoke_in_open_trick
from tests.engine.test_hidden import HANDS
from tests.helpers import ev, untricked
from tests.solver.claim_deals import endgame


def close(client, t, mid, etag):
    r = client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"]) | {"If-Match": etag})
    validate_response(r, "/v1/matches/{match_id}/close", "post")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


# -- a close during a deal, a close before the target ----------------------------------------

def test_r32_closing_during_a_deal_is_allowed_and_the_feed_announces_the_abandoned_deal_once(store_client):
    from tests.helpers import won_by

    t, mid, etag = start(store_client, "court-piece", [won_by(0, [1] * 7), won_by(2, [0] * 3, n=3)], play_on=False)
    r = store_client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"], etag))
    validate_response(r, "/v1/matches/{match_id}/close", "post")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["status"] == "finished" and body["verdict"]["valid"]
    assert body["verdict"]["deals"][1]["status"] == "abandoned" and body["verdict"]["deals"][1]["result"] is None
    assert body["verdict"]["match"]["winner"] == 1
    rows = store_client.get(f"/v1/tournaments/{t['id']}/standings").get_json()["standings"]
    assert rows[0]["team"] == ["B", "D"] and rows[0]["won"] == 1 and rows[0]["courts_for"] == 1
    r = feed(store_client, t)
    validate_response(r, "/v1/tournaments/{tournament_id}/feed", "get")
    events = untricked(r.get_json()["events"])
    assert [e["type"] for e in events] == ["deal.finished", "deal.abandoned", "match.finished", "standings.changed"]
    abandoned = events[1]["payload"]
    assert (abandoned["deal"], abandoned["status"], abandoned["result"], abandoned["tricks_won"]) == (1, "abandoned", None, [3, 0])
    assert events[2]["payload"]["closed"] is True
    # A correction that completes the abandoned deal revises it: it is not announced a second time.
    record = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["record"]
    record["deals"][1] = won_by(2, [0] * 7)
    r = store_client.put(f"/v1/matches/{mid}/record", json={"record": {"deals": record["deals"]}, "reason": "the rest"},
                         headers=auth(t["key"], body["etag"]))
    assert r.status_code == 200 and r.get_json()["verdict"]["deals"][1]["status"] == "complete"
    events = untricked(feed(store_client, t).get_json()["events"])[4:]
    assert [e["type"] for e in events][:2] == ["deal.revised", "match.revised"]
    revised = events[0]["payload"]
    assert revised["previous"]["status"] == "abandoned" and revised["result"]["kind"] == "goon_court"
    assert r.get_json()["verdict"]["match"]["winner"] is None  # a court each (the goon court is 1 here): a draw


@pytest.mark.parametrize("deals,winner", [(1, 1), (0, None)])
def test_r32_closing_a_match_before_its_target_the_team_ahead_wins_or_it_is_a_draw(store_client, deals, winner):
    from tests.helpers import won_by

    t, mid, etag = start(store_client, "rr-single-sir", [won_by(0, [1] * 7)][:deals])
    r = store_client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"], etag))
    assert r.status_code == 200
    match = r.get_json()["verdict"]["match"]
    assert match["target"] == 10 and match["finished"] and match["winner"] == winner
    assert match["rule"] == ["match.closed", "R-26", "R-32"]


def test_r32_the_match_page_shows_the_abandoned_deal(store_client):
    from tests.helpers import won_by

    t, mid, etag = start(store_client, "court-piece", [won_by(0, [1] * 3, n=3)])
    store_client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"], etag))
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "status <strong>abandoned</strong>" in page and "not scored (R-32)" in page


def test_r32_a_match_uploaded_closed_is_stored_closed_as_one_closed_by_the_referee(store_client):
    """A record that says the session was closed (`closed: true`, e.g. from another program's
    export) is stored as a match closed here: its status, its closed flag, the feed's
    match.finished, whoever reads it."""
    from tests.helpers import won_by

    t = make_tournament(store_client, "court-piece")
    body = {"tournament": t["id"], "record": {"players": ["A", "B", "C", "D"], "closed": True,
                                                "deals": [won_by(0, [1] * 7), won_by(2, [0] * 3, n=3)]}}
    r = store_client.post("/v1/matches", json=body, headers=auth(t["key"]))
    validate_response(r, "/v1/matches", "post")
    assert r.status_code == 201, r.get_json()
    created = r.get_json()
    assert (created["closed"], created["status"]) == (True, "finished")
    assert created["verdict"]["deals"][1]["status"] == "abandoned" and created["verdict"]["match"]["finished"]
    read = store_client.get(f"/v1/matches/{created['id']}").get_json()
    assert (read["closed"], read["status"]) == (True, "finished")
    types = [e["type"] for e in untricked(feed(store_client, t).get_json()["events"])]
    assert "match.finished" in types


# -- the close ends the open trick -----------------------------------------------------------

def test_r36_a_revoke_in_the_open_trick_at_the_close_is_announced_as_a_finished_deal(store_client):
    # Dealer 2, hands known: seat 0 takes tricks 1-3 and leads a heart; seat 1, holding hearts,
    # plays a club; the organiser closes the session then.
    t = make_tournament(store_client)
    r = post_match(store_client, t, [revoke_in_open_trick()])
    mid = r.get_json()["id"]
    assert store_client.get(f"/v1/matches/{mid}").get_json()["verdict"]["deals"][0]["violations"] == []  # proven by a hand: not public yet
    before = len(feed_events(store_client, t))
    body = close(store_client, t, mid, r.headers["ETag"])
    d = body["verdict"]["deals"][0]
    assert body["status"] == "finished" and d["status"] == "ended_by_penalty"
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (0, "penalty_court", [1, 0])
    [revoke] = d["violations"]
    assert (revoke["pending"], revoke["penalty"], revoke["rule"]) == (False, True, ["trick.follow", "R-36", "revoke.penalty", "R-1"])
    assert body["verdict"]["match"]["winner"] == 0
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["verdict"] == body["verdict"] and public["record"]["deals"][0]["hands"]  # over: public whole
    events = feed_events(store_client, t)[before:]
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
    before = len(feed_events(store_client, t))
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], body["etag"],
              {"record": {"deals": [fixed]}, "reason": "the card was a heart"}, method="put")
    assert r.status_code == 200, r.get_json()
    d = r.get_json()["verdict"]["deals"][0]
    assert (d["status"], d["result"], d["violations"]) == ("abandoned", None, [])
    events = feed_events(store_client, t)[before:]
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
    events = feed_events(store_client, t)
    abandoned = next(e["payload"] for e in events if e["type"] == "deal.abandoned")
    assert (abandoned["status"], abandoned["result"]) == ("abandoned", None)
    assert any('"deal.abandoned"' in b for b in bodies)


# -- R-34b: a claim unanswered at the close --------------------------------------------------------

def test_r34b_a_claim_unanswered_at_the_close_is_settled_and_announced_once(store_client):
    # Seven courts, hands known: ten filler tricks, then seat 0 (AS KS QH under spades) claims
    # all three; seat 1's AH takes the QH, so the claim settled as disputed gets two.
    hands, events = endgame(FINAL, W)
    t = make_tournament(store_client, preset="seven-courts")
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events}])
    mid = r.get_json()["id"]
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], r.headers["ETag"], {"events": [{"seat": 0, "claim": 3}]})
    assert r.get_json()["next"]["claim"]["answer_from"] == [1, 3]
    before = len(feed_events(store_client, t))
    body = close(store_client, t, mid, r.headers["ETag"])
    d = body["verdict"]["deals"][0]
    c = d["claim"]
    assert (c["answer"], c["answered_by"], c["at_close"], c["held"], c["awarded"]) == ("dispute", None, True, False, 2)
    assert c["rule"][0] == "R-34b" and d["status"] == "complete" and d["tricks_won"] == [8, 5]
    assert body["verdict"]["match"]["winner"] == 0
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["verdict"] == body["verdict"] and public["record"]["deals"][0]["hands"] == hands
    events = feed_events(store_client, t)[before:]
    assert [e["type"] for e in events] == ["trick.finished"] * 3 + ["deal.finished", "match.finished", "standings.changed"]
    finished = events[3]["payload"]
    assert (finished["status"], finished["claim"]["at_close"], finished["claim"]["awarded"]) == ("complete", True, 2)
    assert "at_close" not in finished  # the claim says how the close finished the deal
    assert [e["payload"]["winner"] for e in events[:3]] == [1, 0, 0]
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "unanswered when the session was closed, it is settled as disputed" in page
    assert 'href="/rules#R-34b"' in page and "played by the referee" in page
