"""Issue 19's rulings and `pile_ace_no_seal` over HTTP: presets, 422 pointers, stored matches."""
import pytest

from tests.api.spec import validate_response
from tests.api.test_matches import make_tournament
from tests.helpers import untricked


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


# -- R-32 through the store: a close during a deal, a close before the target -----------------------

def auth(key, etag=None):
    return {"Authorization": f"Bearer {key}", **({"If-Match": etag} if etag else {})}


def start(client, preset, deals, **options):
    t = make_tournament(client, preset, **options)
    r = client.post("/v1/matches", json={"tournament": t["id"], "record": {"players": ["A", "B", "C", "D"],
                                                                           "deals": deals}},
                    headers=auth(t["key"]))
    assert r.status_code == 201, r.get_json()
    return t, r.get_json()["id"], r.headers["ETag"]


def feed(client, t):
    return client.get(f"/v1/tournaments/{t['id']}/feed?limit=100", headers=auth(t["key"]))


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
