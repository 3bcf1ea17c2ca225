"""An organiser moves a tournament between servers: built through the API (live and imported
matches, a correction, a closed session), exported, imported into an empty database; every
match's record and verdict and the standings come back the same."""
import json

from referee.app import create_app
from referee.cli import main
from tests.helpers import auth, ev, won_by

PLAYERS = ["Asad", "Bilal", "Chandni", "Dev"]


def build(client) -> dict:
    t = client.post("/v1/tournaments", json={"name": "Club night", "preset": "court-piece"}).get_json()
    key = t["key"]
    # A match played live, deal by deal, with a take-back.
    live = client.post("/v1/matches", json={"tournament": t["id"], "external_id": "live", "record": {"players": PLAYERS}},
                       headers=auth(key)).get_json()
    etag = client.post(f"/v1/matches/{live['id']}/deals", json={"dealer": 0, "trump": {"suit": "S"}},
                       headers=auth(key, live["etag"])).get_json()["etag"]
    r = client.post(f"/v1/matches/{live['id']}/events", json={"events": ev("1:AH 2:2D 2:< 2:3H 3:4H 0:5H")},
                    headers=auth(key, etag))
    assert r.status_code == 200, r.get_json()
    # A finished match, then corrected.
    done = client.post("/v1/matches", json={"tournament": t["id"], "external_id": "done",
                                            "record": {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}},
                       headers=auth(key)).get_json()
    fixed = client.put(f"/v1/matches/{done['id']}/record", headers=auth(key, done["etag"]),
                       json={"reason": "wrong trick 3", "record": {"deals": [won_by(0, [1] * 6 + [0, 1])]}})
    assert fixed.status_code == 200, fixed.get_json()
    # A session by time, closed.
    session = client.post("/v1/matches", json={"tournament": t["id"], "external_id": "session",
                                               "record": {"players": ["E", "F", "G", "H"], "deals": [won_by(0, [0] * 7)]}},
                          headers=auth(key)).get_json()
    assert client.post(f"/v1/matches/{session['id']}/close", headers=auth(key, session["etag"])).status_code == 200
    return t


def snapshot(client, tid, key) -> dict:
    matches = client.get(f"/v1/matches?tournament={tid}", headers=auth(key)).get_json()["items"]
    out = {}
    for m in matches:
        full = client.get(f"/v1/matches/{m['id']}", headers=auth(key)).get_json()
        revisions = client.get(f"/v1/matches/{m['id']}/revisions", headers=auth(key)).get_json()["revisions"]
        # judged anew by the server it was restored to, so signed by that server's key: the
        # provenance's digests, match and revision are the same; its key and time are the new
        # server's, and so the digest of the revision before (signature included)
        verdict = {k: v for k, v in full["verdict"].items() if k not in ("provenance", "signature")}
        digests = {k: v for k, v in full["verdict"]["provenance"].items() if k not in ("key", "signed_at", "previous")}
        out[m["external_id"]] = (full["record"], verdict, digests, full["status"], full["closed"],
                                 [(r["kind"], r["reason"]) for r in revisions])
    standings = client.get(f"/v1/tournaments/{tid}/standings", headers=auth(key)).get_json()["standings"]
    return {"matches": out, "standings": standings}


def test_export_then_import_into_an_empty_database_gives_back_the_same_tournament(tmp_path, capsys, request):
    first_url = request.getfixturevalue("sqlite_url")
    second = tmp_path / "second"
    second.mkdir()
    from referee.store.db import upgrade

    second_url = f"sqlite:///{second / 'referee.db'}"
    upgrade(second_url)
    app = create_app({"DATABASE_URL": first_url})
    t = build(app.test_client())
    before = snapshot(app.test_client(), t["id"], t["key"])
    dump = tmp_path / "club.jsonl"
    assert main(["export", "--tournament", t["id"], "--database", first_url, "-o", str(dump)]) == 0
    assert main(["import", str(dump), "--tournament", "new", "--database", second_url]) == 0
    said = capsys.readouterr().out
    assert "3 new, 0 already present, 0 rejected" in said
    new_id = said.split("created tournament ")[1].split()[0]
    new_key = said.split("write key ")[1].split(";")[0]
    moved = create_app({"DATABASE_URL": second_url})
    after = snapshot(moved.test_client(), new_id, new_key)
    assert after == before
    settings = moved.test_client().get(f"/v1/tournaments/{new_id}", headers=auth(new_key)).get_json()
    assert (settings["name"], settings["preset"], settings["options"]) == ("Club night", "court-piece", {})
    # Importing the same file into that tournament again adds nothing.
    assert main(["import", str(dump), "--tournament", new_id, "--database", second_url]) == 0
    assert "0 new, 3 already present" in capsys.readouterr().out
    for a in (app, moved):
        a.extensions["referee.store"].db.dispose()
    assert json.loads(dump.read_text().splitlines()[0])["kind"] == "tournament"
