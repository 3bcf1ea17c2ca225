"""What caches may keep: nothing shown with a key (private, no-store), and a keyed view's
ETag is never the public one's; every API answer says explicitly what a cache may do."""
from tests.api.test_matches import auth, make_tournament, post_match
from tests.helpers import won_by


def _live_match(client, public=True):
    t = make_tournament(client, public=public)
    m = post_match(client, t, [won_by(0, [1, 1, 1], hands=True)]).get_json()  # a deal in play: hands hidden
    return t, m


def test_a_match_read_with_a_key_is_private_and_not_stored(store_client):
    t, m = _live_match(store_client)
    path = f"/v1/matches/{m['id']}"
    for key in (t["key"], t["read_key"]):
        r = store_client.get(path, headers=auth(key))
        assert r.headers["Cache-Control"] == "private, no-store"
        assert "Authorization" in r.headers["Vary"]
    public = store_client.get(path)
    assert public.headers["Cache-Control"] == "no-cache" and "Authorization" in public.headers["Vary"]


def test_the_keyed_and_the_public_view_have_distinct_etags(store_client):
    """The public view hides the hands of the deal in play; a cache revalidating one with the
    other's ETag would serve the hands to the public (or hide them from the key holder)."""
    t, m = _live_match(store_client)
    path = f"/v1/matches/{m['id']}"
    keyed, public = store_client.get(path, headers=auth(t["key"])), store_client.get(path)
    assert keyed.get_json()["record"]["deals"][0].get("hands") and not public.get_json()["record"]["deals"][0].get("hands")
    assert keyed.headers["ETag"] != public.headers["ETag"]
    assert (keyed.get_json()["etag"], public.get_json()["etag"]) == (keyed.headers["ETag"], public.headers["ETag"])
    assert store_client.get(path, headers={"If-None-Match": keyed.headers["ETag"]}).status_code == 200
    assert store_client.get(path, headers={**auth(t["key"]), "If-None-Match": public.headers["ETag"]}).status_code == 200
    assert store_client.get(path, headers={"If-None-Match": public.headers["ETag"]}).status_code == 304
    assert store_client.get(path, headers={**auth(t["key"]), "If-None-Match": keyed.headers["ETag"]}).status_code == 304


def test_either_etag_of_the_current_revision_is_the_write_precondition(store_client):
    """A client that read the public view writes with its ETag, as one that read with the key."""
    for with_key in (False, True):
        t, m = _live_match(store_client)
        path = f"/v1/matches/{m['id']}"
        etag = store_client.get(path, headers=auth(t["key"]) if with_key else {}).headers["ETag"]
        r = store_client.post(f"{path}/close", headers={**auth(t["key"]), "If-Match": etag})
        assert r.status_code == 200, (with_key, r.get_json())
        r = store_client.post(f"{path}/close", headers={**auth(t["key"]), "If-Match": etag})
        assert r.status_code == 412, with_key  # the ETag of the revision before


def test_private_pages_shown_with_a_key_are_not_stored(store_client):
    t, m = _live_match(store_client, public=False)
    for path in (f"/matches/{m['id']}", f"/tournaments/{t['id']}", f"/matches/{m['id']}/deals/0"):
        r = store_client.get(path, headers=auth(t["read_key"]))
        assert r.status_code == 200, path
        assert r.headers["Cache-Control"] == "private, no-store" and "Authorization" in r.headers["Vary"], path
    keyed = store_client.get(f"/tournaments/{t['id']}", headers=auth(t["key"])).headers["ETag"]
    public_t = make_tournament(store_client)
    assert keyed.endswith('.full"') and not store_client.get(f"/tournaments/{public_t['id']}").headers["ETag"].endswith('.full"')


def test_every_api_answer_says_what_a_cache_may_do(client):
    for r in (client.get("/v1/presets"), client.get("/v1/rules"), client.get("/healthz"),
              client.post("/v1/verdicts", json={"preset": "court-piece", "deals": [{"dealer": 5}]}),
              client.get("/v1/matches/nope")):
        assert r.headers.get("Cache-Control") == "no-cache", r.request.path
        assert "Authorization" in r.headers["Vary"]


def test_an_answer_that_varies_already_also_varies_with_authorization(app):
    """A view's own Vary is kept, Authorization added to it (once); a response without one
    gets exactly `Vary: Authorization`."""
    from flask import Response

    app.add_url_rule("/by-language", "by_language", lambda: Response("{}", headers={"Vary": "Accept-Language"}))
    app.add_url_rule("/already", "already", lambda: Response("{}", headers={"Vary": "Authorization"}))
    client = app.test_client()
    assert client.get("/by-language").headers.getlist("Vary") == ["Accept-Language, Authorization"]
    assert client.get("/already").headers.getlist("Vary") == ["Authorization"]
    assert client.get("/v1/presets").headers.getlist("Vary") == ["Authorization"]
    assert client.get("/v1/presets", headers={"Authorization": "Bearer x"}).headers["Cache-Control"] == "private, no-store"
