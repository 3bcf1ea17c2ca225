"""What an organiser needs on the day: tournament lists, read keys and rotation, webhook
removal, forgiving If-Match, and error messages in one voice."""
from tests.api.spec import validate_response
from tests.api.test_matches import auth, make_tournament, post_match, write
from tests.helpers import ev, won_by


def test_tournaments_are_listed_public_to_anyone_private_to_their_key_with_pages(store_client):
    public = [make_tournament(store_client) for _ in range(3)]
    private = make_tournament(store_client, public=False)
    r = store_client.get("/v1/tournaments?limit=2")
    validate_response(r, "/v1/tournaments", "get")
    page = r.get_json()
    assert [t["id"] for t in page["items"]] == [t["id"] for t in public[:2]] and page["next_cursor"]
    rest = store_client.get(f"/v1/tournaments?limit=2&cursor={page['next_cursor']}").get_json()
    assert [t["id"] for t in rest["items"]] == [public[2]["id"]] and rest["next_cursor"] is None
    mine = store_client.get("/v1/tournaments", headers=auth(private["read_key"])).get_json()
    assert private["id"] in [t["id"] for t in mine["items"]] and len(mine["items"]) == 4
    assert "key" not in mine["items"][0]
    bad = store_client.get("/v1/tournaments?cursor=MDAwMS0wMS0wMVQwMDowMDowMCswMTowMHxh")
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"


def test_a_read_key_reads_a_private_tournament_and_writes_nothing(store_client):
    t = make_tournament(store_client, public=False)
    r = post_match(store_client, t, [won_by(0, [1] * 7)])
    mid = r.get_json()["id"]
    assert store_client.get(f"/v1/matches/{mid}").status_code == 401
    seen = store_client.get(f"/v1/matches/{mid}", headers=auth(t["read_key"]))
    assert seen.status_code == 200 and seen.get_json()["record"]["deals"]
    refused = write(store_client, f"/v1/matches/{mid}/close", t["read_key"], r.headers["ETag"])
    assert refused.status_code == 403 and "read-only key cannot write" in refused.get_json()["detail"]


def test_rotating_a_key_stops_the_old_one_at_once(store_client):
    t = make_tournament(store_client, public=False)
    r = store_client.post(f"/v1/tournaments/{t['id']}/keys/rotate", json={"key": "write"}, headers=auth(t["key"]))
    validate_response(r, "/v1/tournaments/{tournament_id}/keys/rotate", "post")
    new = r.get_json()["new_key"]
    assert store_client.get(f"/v1/tournaments/{t['id']}", headers=auth(t["key"])).status_code == 403
    assert store_client.get(f"/v1/tournaments/{t['id']}", headers=auth(new)).status_code == 200
    r = store_client.post(f"/v1/tournaments/{t['id']}/keys/rotate", json={"key": "read"}, headers=auth(new))
    assert store_client.get(f"/v1/tournaments/{t['id']}", headers=auth(t["read_key"])).status_code == 403
    assert store_client.get(f"/v1/tournaments/{t['id']}", headers=auth(r.get_json()["new_key"])).status_code == 200
    read_rotates = store_client.post(f"/v1/tournaments/{t['id']}/keys/rotate", json={"key": "read"},
                                     headers=auth(r.get_json()["new_key"]))
    assert read_rotates.status_code == 403  # only the write key rotates keys


def test_a_webhook_can_be_deleted(store_client, allow_loopback_hooks):
    t = make_tournament(store_client)
    hook = store_client.post(f"/v1/tournaments/{t['id']}/webhooks", json={"url": "http://127.0.0.1:9/x"},
                             headers=auth(t["key"])).get_json()
    path = f"/v1/tournaments/{t['id']}/webhooks/{hook['id']}"
    r = store_client.delete(path, headers=auth(t["key"]))
    validate_response(r, "/v1/tournaments/{tournament_id}/webhooks/{webhook_id}", "delete")
    assert r.status_code == 204
    assert store_client.delete(path, headers=auth(t["key"])).status_code == 404
    assert store_client.get(f"/v1/tournaments/{t['id']}/webhooks", headers=auth(t["key"])).get_json()["webhooks"] == []


def test_an_etag_copied_without_its_quotes_is_accepted_and_a_wrong_one_names_the_current(store_client):
    t = make_tournament(store_client)
    r = post_match(store_client, t, [])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    ok = write(store_client, f"/v1/matches/{mid}/deals", t["key"], etag.strip('"'), {"dealer": 0, "trump": {"suit": "S"}})
    assert ok.status_code == 200
    stale = write(store_client, f"/v1/matches/{mid}/events", t["key"], etag.strip('"'), {"events": ev("1:AH")})
    assert stale.status_code == 412 and ok.headers["ETag"] in stale.get_json()["detail"]


def test_error_messages_speak_one_voice(store_client):
    r = store_client.post("/v1/tournaments", json={"preset": "court-piece", "colour": "red"})
    assert {(e["pointer"], e["detail"]) for e in r.get_json()["errors"]} == {("/name", "required"),
                                                                             ("/colour", "unknown field")}
    r = store_client.post("/v1/tournaments", json={"name": "x", "preset": "court-piece", "options": {"trump": {"suit": "S"}}})
    (e,) = r.get_json()["errors"]
    assert e == {"pointer": "/options/trump", "detail":
                 'option "trump" must be one of called, blind, hidden, first_void, random, band; got {"suit": "S"}'}
    t = make_tournament(store_client)
    r = store_client.post("/v1/matches", json={"tournament": t["id"], "record": {"deals": [{}]}}, headers=auth(t["key"]))
    assert r.get_json()["errors"] == [{"pointer": "/record/deals/0/dealer", "detail": "required"}]
