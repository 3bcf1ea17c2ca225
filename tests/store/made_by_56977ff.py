"""Run by test_revision_migration with the code of main at 56977ff first on the path (its
migrations too): it builds a database the way that code wrote one, through the HTTP API,
and prints what the API then answered to the key holder for every match and revision, so
that the test can compare the same requests after upgrading with today's code.

    python made_by_56977ff.py DATABASE_URL
"""
from __future__ import annotations

import json
import sys

from tests.helpers import ev, won_by


def build(client) -> dict:
    t = client.post("/v1/tournaments", json={"name": "old", "preset": "court-piece", "options": {}, "public": True}).get_json()
    hidden = client.post("/v1/tournaments", json={"name": "hidden", "preset": "rr-hidden-rung", "options": {},
                                                  "public": False}).get_json()
    auth = {"Authorization": f"Bearer {t['key']}"}
    mids = []

    def post(tour, deals, external_id=None):
        body = {"tournament": tour["id"], "record": {"players": ["A", "B", "C", "D"], "deals": deals}}
        if external_id:
            body["external_id"] = external_id
        r = client.post("/v1/matches", json=body, headers={"Authorization": f"Bearer {tour['key']}"})
        assert r.status_code == 201, r.get_json()
        mids.append(r.get_json()["id"])
        return r.get_json()["id"], r.headers["ETag"]

    def write(path, etag, body=None, method="post", headers=auth):
        r = getattr(client, method)(path, json=body, headers={**headers, "If-Match": etag})
        assert r.status_code == 200, r.get_json()
        return r.headers["ETag"]

    # A live match played event by event, corrected, a second deal, then closed.
    full = won_by(0, [1] * 7)
    mid, etag = post(t, [{"dealer": 0, "trump": {"suit": "S"}, "events": []}], external_id="table-1")
    for event in full["events"][:20]:
        etag = write(f"/v1/matches/{mid}/events", etag, {"events": [event]})
    etag = write(f"/v1/matches/{mid}/record", etag, {"record": {"deals": [dict(full, events=full["events"][:18])]},
                                                     "reason": "two cards were entered twice"}, method="put")
    etag = write(f"/v1/matches/{mid}/events", etag, {"events": full["events"][18:]})
    etag = write(f"/v1/matches/{mid}/deals", etag, won_by(1, [2] * 7))
    write(f"/v1/matches/{mid}/close", etag)
    # A finished match uploaded whole, and a hidden trump shown and played face down.
    post(t, [won_by(0, [1] * 7), won_by(1, [2] * 7)])
    mid, etag = post(hidden, [{"dealer": 0, "trump": {"hidden": "4S"}, "events": []}])
    hidden_auth = {"Authorization": f"Bearer {hidden['key']}"}
    for events in ("1:AD 2:2D 3:3D 0:KD", "1:2C 2:AC 3:3C 0:4C", "2:AH 3:2H 0:3H"):
        etag = write(f"/v1/matches/{mid}/events", etag, {"events": ev(events)}, headers=hidden_auth)
    keys = {t["id"]: t["key"], hidden["id"]: hidden["key"]}
    return {"matches": mids, "keys": keys}


def answers(client, made: dict) -> dict[str, str]:
    """Path -> the response body, for every read of the stored matches with the key."""
    out = {}
    for tid, key in made["keys"].items():
        auth = {"Authorization": f"Bearer {key}"}
        for mid in client.get(f"/v1/matches?tournament={tid}", headers=auth).get_json()["items"]:
            mid = mid["id"]
            paths = [f"/v1/matches/{mid}", f"/v1/matches/{mid}/revisions"]
            listed = client.get(paths[1], headers=auth).get_json()
            paths += [f"/v1/matches/{mid}/revisions/{r['number']}" for r in listed["revisions"]]
            for path in paths:
                r = client.get(path, headers=auth)
                assert r.status_code == 200, (path, r.status_code)
                out[path] = r.get_data(as_text=True)
        for path in (f"/v1/matches?tournament={tid}", f"/v1/tournaments/{tid}/standings", f"/v1/tournaments/{tid}/feed"):
            out[path] = client.get(path, headers=auth).get_data(as_text=True)
    return out


def main(url: str) -> None:
    from referee.app import create_app
    from referee.store.db import upgrade

    upgrade(url)
    app = create_app({"TESTING": True, "DATABASE_URL": url})
    client = app.test_client()
    made = build(client)
    print(json.dumps({"made": made, "answers": answers(client, made)}))
    app.extensions["referee.store"].db.dispose()


if __name__ == "__main__":
    main(sys.argv[1])
