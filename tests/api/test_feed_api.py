"""The feed and webhook endpoints over HTTP."""
from tests.api.spec import validate_response
from tests.api.test_matches import auth, make_tournament, post_match
from tests.helpers import won_by
from tests.store.receiver import Receiver


def test_feed_over_http_pages_with_the_cursor(store_client):
    t = make_tournament(store_client)
    for _ in range(3):
        post_match(store_client, t, [won_by(0, [1] * 7)])
    r = store_client.get(f"/v1/tournaments/{t['id']}/feed?limit=2")
    validate_response(r, "/v1/tournaments/{tournament_id}/feed", "get")
    page = r.get_json()
    assert [e["type"] for e in page["events"]] == ["trick.finished", "trick.finished"]
    rest = store_client.get(f"/v1/tournaments/{t['id']}/feed?after={page['next_cursor']}").get_json()
    # three matches of seven tricks: seven trick.finished and a deal.finished each
    assert [e["seq"] for e in rest["events"]] == list(range(3, 25)) and rest["next_cursor"] == "24"
    assert [e["type"] for e in rest["events"]][-1] == "deal.finished"
    assert store_client.get(f"/v1/tournaments/{t['id']}/feed?after=-1").status_code == 422


def test_private_feed_needs_the_key(store_client):
    t = make_tournament(store_client, public=False)
    assert store_client.get(f"/v1/tournaments/{t['id']}/feed").status_code == 401
    assert store_client.get(f"/v1/tournaments/{t['id']}/feed", headers=auth(t["key"])).status_code == 200


def test_webhook_endpoints(store_client, allow_loopback_hooks):
    t = make_tournament(store_client)
    base = f"/v1/tournaments/{t['id']}/webhooks"
    with Receiver() as rx:
        assert store_client.post(base, json={"url": rx.url}).status_code == 401
        assert store_client.post(base, json={"url": rx.url}, headers=auth("rk_x")).status_code == 403
        r = store_client.post(base, json={"url": rx.url}, headers=auth(t["key"]))
        validate_response(r, base.replace(t["id"], "{tournament_id}"), "post")
        assert r.status_code == 201 and r.get_json()["secret"].startswith("whsec_")
        hook = r.get_json()
        listed = store_client.get(base, headers=auth(t["key"]))
        validate_response(listed, "/v1/tournaments/{tournament_id}/webhooks", "get")
        assert [w["id"] for w in listed.get_json()["webhooks"]] == [hook["id"]]
        assert "secret" not in listed.get_json()["webhooks"][0]
        log = store_client.get(f"{base}/{hook['id']}/deliveries", headers=auth(t["key"]))
        validate_response(log, "/v1/tournaments/{tournament_id}/webhooks/{webhook_id}/deliveries", "get")
        assert log.get_json()["deliveries"] == []
        enabled = store_client.post(f"{base}/{hook['id']}/enable", headers=auth(t["key"]))
        validate_response(enabled, "/v1/tournaments/{tournament_id}/webhooks/{webhook_id}/enable", "post")
        assert enabled.get_json()["active"]
        assert store_client.get(f"{base}/nope/deliveries", headers=auth(t["key"])).status_code == 404
    bad = store_client.post(base, json={"url": "http://10.1.2.3/hook"}, headers=auth(t["key"]))
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["pointer"] == "/url"
