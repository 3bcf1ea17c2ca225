"""Stored tournaments and matches over HTTP, on SQLite and PostgreSQL."""

import json

from tests.api.spec import validate_response
from tests.helpers import deal, ev, round_robin_hands, won_by

PLAYERS = ["Asad", "Bilal", "Chandni", "Dev"]


def auth(key, etag=None):
    return {"Authorization": f"Bearer {key}", **({"If-Match": etag} if etag else {})}


def make_tournament(client, preset="court-piece", public=True, **options):
    r = client.post("/v1/tournaments", json={"name": "Club night", "preset": preset, "options": options, "public": public})
    validate_response(r, "/v1/tournaments", "post")
    assert r.status_code == 201
    return r.get_json()


def post_match(client, t, deals, key=None, external_id=None, players=PLAYERS):
    body = {"tournament": t["id"], "record": {"players": players, "deals": deals}}
    if external_id:
        body["external_id"] = external_id
    r = client.post("/v1/matches", json=body, headers=auth(key or t["key"]))
    validate_response(r, "/v1/matches", "post")
    return r


def start(client, preset, deals, **options):
    """A tournament of `preset` with `options` and a match of `deals` in it: (tournament, match id, ETag)."""
    t = make_tournament(client, preset, **options)
    r = client.post("/v1/matches", json={"tournament": t["id"], "record": {"players": ["A", "B", "C", "D"],
                                                                           "deals": deals}},
                    headers=auth(t["key"]))
    assert r.status_code == 201, r.get_json()
    return t, r.get_json()["id"], r.headers["ETag"]


def feed(client, t):
    """The tournament's feed read with its key: the response (its first 100 events)."""
    return client.get(f"/v1/tournaments/{t['id']}/feed?limit=100", headers=auth(t["key"]))


def feed_events(client, t):
    """The tournament's feed read with its key: its events (up to 1,000)."""
    return client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000", headers=auth(t["key"])).get_json()["events"]


def write(client, path, key, etag, body=None, method="post", prefer=None):
    headers = auth(key)
    if etag is not None:
        headers["If-Match"] = etag
    if prefer is not None:
        headers["Prefer"] = prefer
    r = getattr(client, method)(path, json=body, headers=headers)
    spec_path = path.rsplit("/", 1)[0].replace(path.split("/")[3], "{match_id}") + "/" + path.rsplit("/", 1)[1]
    validate_response(r, spec_path, method)
    return r


# -- tournaments and keys -------------------------------------------------------------

def test_create_tournament_returns_its_key_once(store_client, store_app):
    t = make_tournament(store_client)
    assert t["key"].startswith("rk_") and t["preset"] == "court-piece"
    r = store_client.get(f"/v1/tournaments/{t['id']}")
    validate_response(r, "/v1/tournaments/{tournament_id}", "get")
    assert r.status_code == 200 and "key" not in r.get_json()
    from referee.store.models import Tournament

    with store_app.extensions["referee.store"].db.transaction() as s:
        stored = s.get(Tournament, t["id"])
        assert stored.key_hash != t["key"] and len(stored.key_hash) == 64


def test_private_tournament_needs_the_key_to_read(store_client):
    t = make_tournament(store_client, public=False)
    path = f"/v1/tournaments/{t['id']}"
    assert store_client.get(path).status_code == 401
    assert store_client.get(path).headers["WWW-Authenticate"].startswith("Bearer")
    assert store_client.get(path, headers=auth("rk_wrong")).status_code == 403
    assert store_client.get(path, headers=auth(t["key"])).status_code == 200


def test_the_key_needs_the_bearer_scheme(store_client):
    """A bare key, or another scheme, opens nothing (403), for reads and writes alike, and
    the answer says what is wrong with the header."""
    t = make_tournament(store_client, public=False)
    path = f"/v1/tournaments/{t['id']}"
    for header, why in ((t["key"], "no Bearer scheme"), (f"Basic {t['key']}", "no Bearer scheme"),
                        (f"Token {t['key']}", "no Bearer scheme"), ("Bearer", "no key after Bearer"),
                        ("Bearer  ", "no key after Bearer")):
        r = store_client.get(path, headers={"Authorization": header})
        assert (r.status_code, why in r.get_json()["detail"]) == (403, True), header
        r = store_client.post("/v1/matches", json={"tournament": t["id"], "record": {"deals": []}},
                              headers={"Authorization": header})
        assert (r.status_code, why in r.get_json()["detail"]) == (403, True), header
    assert store_client.get(path, headers={"Authorization": f"bearer  {t['key']} "}).status_code == 200


def test_every_write_checks_its_key_before_its_body(store_client):
    """A bad body with no key is 401, with a wrong key, the read key or a bare key 403 (the
    body is never validated for them); only the write key gets the body's 422."""
    t = make_tournament(store_client)
    m = post_match(store_client, t, []).get_json()
    hook = f"/v1/tournaments/{t['id']}/webhooks"
    writes = [("post", "/v1/matches", {"tournament": t["id"], "record": 5}),
              ("post", f"/v1/matches/{m['id']}/events", {"events": "x"}),
              ("post", f"/v1/matches/{m['id']}/deals", {"dealer": 9}),
              ("put", f"/v1/matches/{m['id']}/record", {"record": 1}),
              ("post", f"/v1/tournaments/{t['id']}/keys/rotate", {"key": "nope"}),
              ("post", hook, {"url": 5})]
    for method, path, body in writes:
        send = getattr(store_client, method)
        assert send(path, json=body).status_code == 401, path
        for header in ("Bearer rk_wrong", f"Bearer {t['read_key']}", t["key"]):
            assert send(path, json=body, headers={"Authorization": header}).status_code == 403, (path, header)
        assert send(path, json=body, headers={**auth(t["key"]), "If-Match": m["etag"]}).status_code == 422, path


def test_creating_a_match_checks_the_key_before_anything_of_its_body(store_client):
    """The tournament is named in the body, yet a wrong key is 403 whatever is wrong with the
    body (its media type 415, its JSON 400, its schema 422), as for every other write; the
    write key still gets those answers."""
    t = make_tournament(store_client)
    other = make_tournament(store_client)
    named = json.dumps({"tournament": t["id"], "record": 5})
    bodies = [(named, "text/plain", 415, other["key"]),  # the tournament is read all the same
              (named, "application/json", 422, other["key"]),
              # naming none, or no JSON to read it from: a key that writes no tournament at all
              ('{"tournament": 7, "record": {}}', "application/json", 422, None),
              ('{"tournament": "' + t["id"] + '", ', "application/json", 400, None),
              ("[1, 2]", "application/json", 422, None)]
    for data, media, status, another in bodies:
        for key in ("rk_wrong", t["read_key"], another):
            if key is not None:
                r = store_client.post("/v1/matches", data=data, content_type=media, headers=auth(key))
                assert r.status_code == 403, (data, media, key)
                validate_response(r, "/v1/matches", "post")
        writers = [t["key"]] + ([other["key"]] if another is None else [])  # naming none: any write key
        for key in writers:
            r = store_client.post("/v1/matches", data=data, content_type=media, headers=auth(key))
            assert r.status_code == status, (data, media)


def test_with_an_operator_key_set_creating_a_tournament_needs_it(store_client, monkeypatch):
    body = {"name": "Club night", "preset": "court-piece"}
    assert store_client.post("/v1/tournaments", json=body).status_code == 201  # unset: open to anyone
    monkeypatch.setenv("REFEREE_OPERATOR_KEY", "op_the-operators-own")
    r = store_client.post("/v1/tournaments", json=body)
    validate_response(r, "/v1/tournaments", "post")
    assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Bearer")
    for wrong in ("Bearer op_guess", "op_the-operators-own"):
        r = store_client.post("/v1/tournaments", json=body, headers={"Authorization": wrong})
        validate_response(r, "/v1/tournaments", "post")
        assert r.status_code == 403
    r = store_client.post("/v1/tournaments", json=body, headers=auth("op_the-operators-own"))
    validate_response(r, "/v1/tournaments", "post")
    assert r.status_code == 201


def test_bad_tournament_options_are_422(store_client):
    r = store_client.post("/v1/tournaments", json={"name": "x", "preset": "court-piece", "options": {"trumps": 1}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/options/trumps"


# -- storing matches -------------------------------------------------------------------

def test_store_a_match_and_read_it_back(store_client):
    t = make_tournament(store_client)
    r = post_match(store_client, t, [won_by(0, [1] * 7)])
    assert r.status_code == 201
    m = r.get_json()
    assert r.headers["Location"] == f"/v1/matches/{m['id']}"
    assert r.headers["ETag"] == f'"{m["id"]}.1.full"'  # shown with the key
    assert m["record"]["preset"] == "court-piece" and m["verdict"]["deals"][0]["result"]["kind"] == "court"
    got = store_client.get(f"/v1/matches/{m['id']}")
    validate_response(got, "/v1/matches/{match_id}", "get")
    assert got.get_json()["verdict"] == m["verdict"] and got.headers["ETag"] == f'"{m["id"]}.1"'  # the public view's
    unchanged = store_client.get(f"/v1/matches/{m['id']}", headers={"If-None-Match": got.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.data == b""


def test_a_match_is_created_empty_without_a_record_and_live_play_fills_it(store_client):
    """As the README says: a match is created empty or with a record."""
    t = make_tournament(store_client)
    r = store_client.post("/v1/matches", json={"tournament": t["id"], "external_id": "table-9"}, headers=auth(t["key"]))
    validate_response(r, "/v1/matches", "post")
    assert r.status_code == 201
    m = r.get_json()
    assert m["record"]["deals"] == [] and m["record"]["players"] == [f"table-9 seat {s}" for s in range(4)]
    assert m["verdict"]["valid"] and m["status"] == "in_progress" and m["deals"] == 0
    started = write(store_client, f"/v1/matches/{m['id']}/deals", t["key"], r.headers["ETag"],
                    {"dealer": 0, "trump": {"suit": "S"}})
    assert started.status_code == 200 and started.get_json()["next"]["to_play"] == 1
    again = store_client.post("/v1/matches", json={"tournament": t["id"], "external_id": "table-9"}, headers=auth(t["key"]))
    assert again.status_code == 200 and again.get_json()["id"] == m["id"]  # a retried create: the same match


def test_writes_need_the_tournaments_own_key(store_client):
    t = make_tournament(store_client)
    other = make_tournament(store_client)
    body = {"tournament": t["id"], "record": {"players": PLAYERS, "deals": []}}
    assert store_client.post("/v1/matches", json=body).status_code == 401
    assert store_client.post("/v1/matches", json=body, headers=auth("rk_nope")).status_code == 403
    assert store_client.post("/v1/matches", json=body, headers=auth(other["key"])).status_code == 403
    assert store_client.post("/v1/matches", json=body, headers=auth(t["key"])).status_code == 201


def test_a_retried_upload_with_the_same_external_id_makes_no_second_match(store_client):
    t = make_tournament(store_client)
    first = post_match(store_client, t, [won_by(0, [1] * 7)], external_id="table-3-round-1")
    again = post_match(store_client, t, [won_by(0, [1] * 7)], external_id="table-3-round-1")
    assert first.status_code == 201 and again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"]
    different = post_match(store_client, t, [won_by(0, [3] * 7)], external_id="table-3-round-1")
    assert different.status_code == 409
    listing = store_client.get(f"/v1/matches?tournament={t['id']}").get_json()
    assert len(listing["items"]) == 1


def test_an_impossible_record_is_refused_with_the_verdicts_error_and_nothing_is_stored(store_client):
    t = make_tournament(store_client)
    r = post_match(store_client, t, [deal(0, ev("0:AH"), {"suit": "S"})])
    assert r.status_code == 409 and r.mimetype == "application/problem+json"
    assert r.get_json()["errors"][0]["code"] == "out_of_turn"
    assert store_client.get(f"/v1/matches?tournament={t['id']}").get_json()["items"] == []


def test_a_match_inherits_the_tournaments_preset(store_client):
    t = make_tournament(store_client, preset="double-sir")
    body = {"tournament": t["id"], "record": {"preset": "court-piece", "players": PLAYERS, "deals": []}}
    r = store_client.post("/v1/matches", json=body, headers=auth(t["key"]))
    assert r.status_code == 409 and r.get_json()["errors"][0]["pointer"] == "/record/preset"
    body["record"].pop("preset")
    assert store_client.post("/v1/matches", json=body, headers=auth(t["key"])).get_json()["record"]["preset"] == "double-sir"


def test_schema_problems_are_422_with_pointers(store_client):
    t = make_tournament(store_client)
    r = store_client.post("/v1/matches", json={"tournament": t["id"], "record": {"players": PLAYERS, "deals": [{"dealer": 9}]}},
                          headers=auth(t["key"]))
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/record/deals/0/dealer"


def test_unknown_match_and_tournament_are_404(store_client):
    assert store_client.get("/v1/matches/nope").status_code == 404
    assert store_client.get("/v1/tournaments/nope/standings").status_code == 404


# -- live play ---------------------------------------------------------------------------

def live_match(client, hands=True):
    t = make_tournament(client)
    r = post_match(client, t, [])
    m = r.get_json()
    d = {"dealer": 0, "trump": {"suit": "S"}, **({"hands": round_robin_hands()} if hands else {})}
    r = write(client, f"/v1/matches/{m['id']}/deals", t["key"], r.headers["ETag"], d)
    assert r.status_code == 200, r.get_json()
    return t, m["id"], r.headers["ETag"]


def test_live_play_appends_events_and_moves_the_etag(store_client):
    t, mid, etag = live_match(store_client)
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": ev("1:AH 2:3H")})
    assert r.status_code == 200 and r.headers["ETag"] != etag
    nxt = r.get_json()["next"]
    assert nxt["to_play"] == 3 and nxt["legal"] == ["4H", "8H", "QH"]
    assert r.get_json()["revision"] == 3


def test_a_live_write_answers_with_what_it_changed_and_the_whole_match_when_asked(store_client):
    """Prefer return=minimal (the default): the summary, next and the changed deal's verdict,
    the same at the fifth deal as at the first; return=representation: the whole match, as GET."""
    t, mid, etag = live_match(store_client, hands=False)
    sizes, dealer, courts = [], 0, [0, 0]
    for n in range(5):
        events = won_by(dealer, [(dealer + 1) % 4] * 7)["events"]  # the caller's team's court
        r = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": events})
        body, etag = r.get_json(), r.headers["ETag"]
        assert r.headers["Preference-Applied"] == "return=minimal" and body["etag"] == etag
        assert "record" not in body and "verdict" not in body and body["deals"] == n + 1
        result = body["deal"]["verdict"]["result"]
        courts = [courts[0] + result["courts"][0], courts[1] + result["courts"][1]]
        assert body["deal"]["index"] == n and sum(result["courts"]) == 1 and body["match"]["courts"] == courts
        assert body["next"]["deal"] == n + 1
        sizes.append(len(r.get_data()))
        dealer = body["next"]["dealer"]
        etag = write(store_client, f"/v1/matches/{mid}/deals", t["key"], etag,
                     {"dealer": dealer, "trump": {"suit": "S"}}).headers["ETag"]
    assert max(sizes) - min(sizes) < 40  # the revision's digits, not the match
    r = store_client.post(f"/v1/matches/{mid}/events", json={"events": [{"seat": (dealer + 1) % 4, "play": "AH"}]},
                          headers={**auth(t["key"]), "If-Match": etag, "Prefer": 'wait=5, return="representation"'})
    validate_response(r, "/v1/matches/{match_id}/events", "post")
    assert r.status_code == 200 and r.headers["Preference-Applied"] == "return=representation"
    whole = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    assert r.get_json() == whole and "signature" in whole["verdict"]  # the verdict of the whole match, as signed
    assert len(whole["verdict"]["deals"]) == 6


def test_stale_etag_is_412_and_missing_is_428(store_client):
    t, mid, etag = live_match(store_client)
    ok = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": ev("1:AH")})
    assert ok.status_code == 200
    stale = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": ev("2:3H")})
    assert stale.status_code == 412 and stale.headers["ETag"] == ok.headers["ETag"]
    missing = write(store_client, f"/v1/matches/{mid}/events", t["key"], None, {"events": ev("2:3H")})
    assert missing.status_code == 428


def test_an_append_that_makes_the_record_impossible_is_409_and_stores_nothing(store_client):
    t, mid, etag = live_match(store_client)
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": ev("1:AS")})  # AS is seat 0's
    assert r.status_code == 409 and r.get_json()["errors"][0]["code"] == "card_not_in_hand"
    after = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"]))
    assert after.headers["ETag"] == etag and after.get_json()["record"]["deals"][0]["events"] == []


def test_a_revoke_is_accepted_and_shows_in_the_verdict(store_client):
    t, mid, etag = live_match(store_client)
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": ev("1:AH 2:2D 3:4H 0:5H 1:TH")})
    assert r.status_code == 200
    d = r.get_json()["deal"]["verdict"]
    assert d["status"] == "ended_by_penalty" and d["violations"][0]["code"] == "revoke"


def test_append_without_a_deal_is_409(store_client):
    t = make_tournament(store_client)
    r = post_match(store_client, t, [])
    m = r.get_json()
    r = write(store_client, f"/v1/matches/{m['id']}/events", t["key"], r.headers["ETag"], {"events": ev("1:AH")})
    assert r.status_code == 409


# -- information hiding --------------------------------------------------------------------

def test_a_public_read_of_a_live_deal_shows_no_unplayed_cards_nor_hidden_trump(store_client):
    t = make_tournament(store_client, preset="rr-hidden-rung")
    hands = round_robin_hands()
    r = post_match(store_client, t, [won_by(0, [1] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}},
                                     {"dealer": 2, "hands": hands, "trump": {"hidden": "KS"}, "events": ev("3:AC")}])
    assert r.status_code == 201, r.get_json()
    mid = r.get_json()["id"]
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    live = public["record"]["deals"][1]
    assert "hands" not in live and live["trump"] == {"hidden": None}
    assert "card" not in public["verdict"]["deals"][1]["trump"]
    assert public["verdict"]["next"]["legal"] is None
    assert "KS" not in str(public)
    done = public["verdict"]["deals"][0]
    assert done["trump"]["card"] == "2C"  # a finished deal is public
    full = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    assert full["record"]["deals"][1]["hands"] == hands and full["verdict"]["next"]["legal"]


# -- revisions -------------------------------------------------------------------------------

def test_a_correction_is_a_new_revision_and_every_revision_stays_readable(store_client):
    t, mid, etag = live_match(store_client, hands=False)
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": ev("1:AH 2:3H")})
    fixed = {"players": PLAYERS, "deals": [deal(0, ev("1:AH 2:4H"), {"suit": "S"})]}
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], r.headers["ETag"],
              {"record": fixed, "reason": "seat 2 played 4H, not 3H"}, method="put")
    assert r.status_code == 200 and r.get_json()["revision"] == 4
    revs = store_client.get(f"/v1/matches/{mid}/revisions")
    validate_response(revs, "/v1/matches/{match_id}/revisions", "get")
    listed = revs.get_json()["revisions"]
    assert [x["kind"] for x in listed] == ["create", "deal", "append", "revise"]
    assert listed[3]["reason"] == "seat 2 played 4H, not 3H" and listed[0]["created_at"].endswith("Z")
    old = store_client.get(f"/v1/matches/{mid}/revisions/3", headers=auth(t["key"]))
    validate_response(old, "/v1/matches/{match_id}/revisions/{number}", "get")
    assert old.get_json()["record"]["deals"][0]["events"][1]["play"] == "3H"
    assert store_client.get(f"/v1/matches/{mid}/revisions/9").status_code == 404


# -- listing ----------------------------------------------------------------------------------

def test_listing_filters_by_status_and_pages_with_a_cursor(store_client):
    t = make_tournament(store_client, preset="rr-single-sir")
    finished = [won_by(0, [1] * 7), won_by(2, [3] * 7), won_by(0, [1] * 7), won_by(2, [3] * 7)]
    ids = [post_match(store_client, t, finished if i % 2 else []).get_json()["id"] for i in range(5)]
    page = store_client.get(f"/v1/matches?tournament={t['id']}&limit=2")
    validate_response(page, "/v1/matches", "get")
    seen, body = [], page.get_json()
    while True:
        seen += [m["id"] for m in body["items"]]
        if body["next_cursor"] is None:
            break
        body = store_client.get(f"/v1/matches?tournament={t['id']}&limit=2&cursor={body['next_cursor']}").get_json()
    assert seen == ids
    done = store_client.get(f"/v1/matches?tournament={t['id']}&status=finished").get_json()["items"]
    assert [m["id"] for m in done] == [ids[1], ids[3]]
    assert store_client.get(f"/v1/matches?tournament={t['id']}&cursor=garbage").status_code == 422
    assert store_client.get("/v1/matches").status_code == 422


# -- standings ---------------------------------------------------------------------------------

def test_standings_of_a_small_tournament_worked_by_hand(store_client):
    # rr-single-sir to 10 points. Callers' court = 3 points.
    t = make_tournament(store_client, preset="rr-single-sir")
    ab, cd = ["A", "B", "C", "D"], ["C", "A", "D", "B"]  # teams: A+C vs B+D; then C+D vs A+B
    # Match 1: team 1 (B, D) wins 4 courts as callers: 12-0 points.
    m1 = [won_by(0, [1] * 7), won_by(2, [3] * 7), won_by(0, [1] * 7), won_by(2, [3] * 7)]
    post_match(store_client, t, m1, players=ab)
    # Match 2: players C A D B -> team 0 = (C, D), team 1 = (A, B); team 1 wins 12-0 again.
    post_match(store_client, t, m1, players=cd)
    # Match 3 is unfinished: it does not count.
    post_match(store_client, t, [won_by(0, [1] * 7)], players=ab)
    r = store_client.get(f"/v1/tournaments/{t['id']}/standings")
    validate_response(r, "/v1/tournaments/{tournament_id}/standings", "get")
    rows = {tuple(row["team"]): row for row in r.get_json()["standings"]}
    assert rows[("B", "D")] | {} == {"team": ["B", "D"], "played": 1, "won": 1, "lost": 0, "drawn": 0, "courts_for": 4,
                                     "courts_against": 0, "points_for": 12, "points_against": 0, "rank": 1}
    assert rows[("A", "B")]["won"] == 1 and rows[("A", "C")]["lost"] == 1 and rows[("C", "D")]["lost"] == 1
    # Equal rows share a rank and are listed by name (issue: ranks 2 and 3 for identical rows).
    ranked = [(tuple(row["team"]), row["rank"]) for row in r.get_json()["standings"]]
    assert ranked == [(("A", "B"), 1), (("B", "D"), 1), (("A", "C"), 3), (("C", "D"), 3)]
    assert r.get_json()["tie_break"] == ["won", "court_difference", "points_difference"]


def test_closing_a_session_by_time_counts_it_in_the_standings(store_client):
    t = make_tournament(store_client)  # court-piece: no target
    r = post_match(store_client, t, [won_by(0, [1] * 7)])
    mid = r.get_json()["id"]
    assert store_client.get(f"/v1/tournaments/{t['id']}/standings").get_json()["standings"] == []
    closed = write(store_client, f"/v1/matches/{mid}/close", t["key"], r.headers["ETag"])
    assert closed.status_code == 200 and closed.get_json()["status"] == "finished"
    rows = store_client.get(f"/v1/tournaments/{t['id']}/standings").get_json()["standings"]
    assert rows[0]["team"] == ["Bilal", "Dev"] and rows[0]["won"] == 1 and rows[0]["courts_for"] == 1
    again = write(store_client, f"/v1/matches/{mid}/events", t["key"], closed.headers["ETag"], {"events": ev("1:AH")})
    assert again.status_code == 409


def test_store_endpoints_answer_malformed_json_400_and_oversized_413(store_client):
    t = make_tournament(store_client)
    r = store_client.post("/v1/matches", data="{nope", content_type="application/json", headers=auth(t["key"]))
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    big = '{"tournament": "' + "x" * (1024 * 1024) + '"}'
    r = store_client.post("/v1/matches", data=big, content_type="application/json", headers=auth(t["key"]))
    assert r.status_code == 413
    r = store_client.post("/v1/tournaments", data="name=x", content_type="text/plain")
    assert r.status_code == 415


def test_a_private_tournaments_match_page_is_the_key_form_for_a_browser_and_401_for_others(store_client):
    """A browser gets the not-found page with the key form (kept in the tab, sent as a
    header); an API client keeps its 401/403 problem; the read key opens the page."""
    t = make_tournament(store_client, public=False)
    mid = post_match(store_client, t, []).get_json()["id"]
    html = {"Accept": "text/html"}
    for path in (f"/matches/{mid}", f"/matches/{mid}/revisions/1"):
        for headers in (html, {**html, **auth("rr_not-the-key")}):
            r = store_client.get(path, headers=headers)
            page = r.get_data(as_text=True)
            assert r.status_code == 404 and r.mimetype == "text/html", path
            assert 'id="key-form"' in page and "referee.js" in page and 'id="verdict"' not in page, path
        assert store_client.get(path, headers={"Accept": "application/json"}).status_code == 401
        assert store_client.get(path).mimetype == "application/problem+json"
        r = store_client.get(path, headers={**html, **auth(t["read_key"])})
        assert r.status_code == 200 and 'id="verdict"' in r.get_data(as_text=True), path
