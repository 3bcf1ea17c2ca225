"""Every verdict says where it came from and is signed: POST /v1/verdicts, the batch, a stored
match and each of its revisions, the export; GET /v1/keys gives the keys that check them; a
reader without the key sees no digest or signature that would test a guess of a hidden card."""
import hashlib
import json
from pathlib import Path

import pytest

from referee.app import create_app
from referee.provenance import canonical, record_digest
from referee.verdict_signing import message, read_keys
from tests.api.spec import validate_response
from tests.api.test_matches import auth, make_tournament, post_match, write
from tests.helpers import won_by

REVOKE = (Path(__file__).parents[2] / "examples" / "revoke.json").read_text()


def keys_of(client):
    r = client.get("/v1/keys")
    validate_response(r, "/v1/keys", "get")
    return {k.id: k for k in read_keys(r.get_data(as_text=True), "GET /v1/keys")}


def holds(client, verdict) -> bool:
    key = keys_of(client).get(verdict["provenance"]["key"])
    return key is not None and key.holds(message(verdict), verdict["signature"])


@pytest.fixture
def signed_client(db_url, tmp_path, monkeypatch):
    """The app on each backend, signing with a key ring of its own."""
    monkeypatch.setenv("REFEREE_SIGNING_KEYS", str(tmp_path / "keys"))
    app = create_app({"TESTING": True, "DATABASE_URL": db_url})
    yield app.test_client()
    app.extensions["referee.store"].db.dispose()


def test_a_verdict_carries_its_provenance_and_a_signature_that_get_v1_keys_checks(client):
    r = client.post("/v1/verdicts", data=REVOKE, content_type="application/json")
    validate_response(r, "/v1/verdicts", "post")
    v = r.get_json()
    p = v["provenance"]
    assert list(v)[-2:] == ["provenance", "signature"]
    assert p["engine"] == "0.1.0" and p["record"] == record_digest(json.loads(REVOKE))
    assert all(p[k].startswith("sha256:") for k in ("engine_source", "rulebook", "options", "record"))
    assert p["signed_at"].endswith("Z") and len(v["signature"]) == 86
    assert holds(client, v)
    keys = client.get("/v1/keys").get_json()["keys"]
    assert [k["status"] for k in keys] == ["current"] and keys[0]["id"] == p["key"]
    v["deals"][0]["result"]["winner"] = 0
    assert not holds(client, v)


def test_two_servers_judging_one_record_however_spelled_give_the_same_digests(client, tmp_path):
    from referee.store.db import upgrade

    url = f"sqlite:///{tmp_path / 'other.db'}"
    upgrade(url)
    other = create_app({"TESTING": True, "DATABASE_URL": url}).test_client()
    data = json.loads(REVOKE)
    respelled = json.dumps({k: data[k] for k in reversed(list(data))}, indent=3)  # other key order, whitespace
    a = client.post("/v1/verdicts", data=REVOKE, content_type="application/json").get_json()
    b = other.post("/v1/verdicts", data=respelled, content_type="application/json").get_json()
    digests = ("engine", "engine_source", "rulebook", "options", "record")
    assert [a["provenance"][k] for k in digests] == [b["provenance"][k] for k in digests]
    assert a["provenance"]["key"] != b["provenance"]["key"]  # each server its own key
    assert holds(client, a) and holds(other, b) and not holds(client, b)
    strip = lambda v: {k: x for k, x in v.items() if k not in ("provenance", "signature")}  # noqa: E731
    assert strip(a) == strip(b)


def test_the_signed_bytes_are_the_sha_256_of_the_verdict_without_its_signature_in_jcs_form(client):
    v = client.post("/v1/verdicts", data=REVOKE, content_type="application/json").get_json()
    unsigned = {k: x for k, x in v.items() if k != "signature"}
    text = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert text == canonical(unsigned)
    assert message(v) == b"referee-verdict-v1\n" + hashlib.sha256(text).digest()


def test_each_verdict_of_a_batch_is_signed_and_names_its_own_record(client):
    records = [json.loads(REVOKE), {"preset": "court-piece", "deals": [won_by(0, [1] * 7)]}]
    body = "\n".join(json.dumps(r) for r in records) + "\n" + '{"preset": "court-piece", "deals": [{"dealer": 5}]}\n'
    r = client.post("/v1/verdicts/batch", data=body, content_type="application/x-ndjson")
    lines = [json.loads(x) for x in r.get_data(as_text=True).splitlines()]
    assert [x["status"] for x in lines] == [200, 200, 422]
    for line, record in zip(lines, records):
        assert line["verdict"]["provenance"]["record"] == record_digest(record)
        assert holds(client, line["verdict"])
    assert "provenance" not in lines[2]["problem"]


def test_a_server_without_a_key_ring_gives_unsigned_verdicts_and_lists_no_key():
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite:///:memory:"})
    c = app.test_client()
    r = c.post("/v1/verdicts", data=REVOKE, content_type="application/json")
    validate_response(r, "/v1/verdicts", "post")
    v = r.get_json()
    assert v["signature"] is None and v["provenance"]["key"] is None and v["provenance"]["record"]
    assert c.get("/v1/keys").get_json() == {"algorithm": "Ed25519", "keys": []}


def test_a_stored_match_and_each_revision_carry_the_verdict_signed_when_it_was_given(signed_client):
    c = signed_client
    t = make_tournament(c)
    r = post_match(c, t, [won_by(0, [1] * 7)])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    first = r.get_json()["verdict"]
    assert holds(c, first) and first["provenance"]["record"] == record_digest(r.get_json()["record"])
    r = write(c, f"/v1/matches/{mid}/deals", t["key"], etag, {"dealer": 2, "trump": {"suit": "H"}},
              prefer="return=representation")  # a live write's answer with the whole match, signed
    head = r.get_json()
    assert holds(c, head["verdict"]) and head["verdict"]["provenance"]["record"] == record_digest(head["record"])
    for n, verdict in ((1, first), (2, head["verdict"])):
        rev = c.get(f"/v1/matches/{mid}/revisions/{n}", headers=auth(t["key"]))
        validate_response(rev, "/v1/matches/{match_id}/revisions/{number}", "get")
        assert rev.get_json()["verdict"] == verdict  # as signed then, byte for byte
    got = c.get(f"/v1/matches/{mid}", headers=auth(t["key"]))
    validate_response(got, "/v1/matches/{match_id}", "get")
    assert got.get_json()["verdict"] == head["verdict"]


def test_the_export_carries_each_revision_s_signed_verdict(signed_client):
    c = signed_client
    t = make_tournament(c)
    r = post_match(c, t, [won_by(0, [1] * 7)])
    write(c, f"/v1/matches/{r.get_json()['id']}/deals", t["key"], r.headers["ETag"], {"dealer": 2, "trump": {"suit": "H"}})
    store = c.application.extensions["referee.store"]
    match = [x for x in store.export(t["id"]) if x["kind"] == "match"][0]
    assert [rev["number"] for rev in match["revisions"]] == [1, 2]
    for rev in match["revisions"]:
        assert holds(c, rev["verdict"]) and rev["verdict"]["provenance"]["record"] == record_digest(rev["record"])
    assert match["revisions"][-1]["verdict"] == match["verdict"]


def test_a_reader_without_the_key_gets_no_digest_or_signature_of_a_live_deal(signed_client):
    """A live deal's hands are hidden; the record's digest (hash a guessed record) or the
    signature (check it against a guessed verdict) would test a guess, so both are withheld
    until the deal is over; the engine, rulebook and options digests are public."""
    c = signed_client
    t = make_tournament(c)
    done = won_by(0, [1] * 7, hands=True)
    live = dict(done, events=done["events"][:26])
    r = post_match(c, t, [live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    public = c.get(f"/v1/matches/{mid}")
    validate_response(public, "/v1/matches/{match_id}", "get")
    seen = public.get_json()["verdict"]
    assert seen["signature"] is None and seen["provenance"]["record"] is None
    assert "deal 1 is live" in seen["provenance"]["withheld"]
    full = c.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]
    assert holds(c, full)
    assert {k: seen["provenance"][k] for k in ("engine", "rulebook", "options")} == \
        {k: full["provenance"][k] for k in ("engine", "rulebook", "options")}
    assert full["provenance"]["record"] not in public.get_data(as_text=True)
    assert full["signature"] not in c.get(f"/v1/matches/{mid}/revisions/1").get_data(as_text=True)
    r = write(c, f"/v1/matches/{mid}/events", t["key"], etag, {"events": done["events"][26:]})
    assert r.status_code == 200
    over = c.get(f"/v1/matches/{mid}").get_json()["verdict"]  # the deal is over: public, signed
    assert holds(c, over) and "withheld" not in over["provenance"]
    assert holds(c, c.get(f"/v1/matches/{mid}/revisions/1").get_json()["verdict"])


def test_docs_records_md_s_verification_without_this_code_checks_a_verdict(client):
    """The Python of docs/records.md, "Provenance and signatures", run as written."""
    import re

    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    code = re.search(r"Without this code.*?```python\n(.*?)```", text, re.S).group(1)
    scope: dict = {}
    exec(code, scope)  # noqa: S102 - our own documentation
    v = client.post("/v1/verdicts", data=REVOKE, content_type="application/json").get_json()
    keys = client.get("/v1/keys").get_json()
    assert scope["holds"](v, keys)
    assert scope["record_digest"](json.loads(REVOKE)) == v["provenance"]["record"]
    for change in ({"valid": False}, {"provenance": {**v["provenance"], "engine": "9"}}):
        assert not scope["holds"]({**v, **change}, keys)


def test_a_key_ring_that_cannot_be_read_signs_nothing_and_fails_no_request(tmp_path, monkeypatch, caplog):
    ring = tmp_path / "keys"
    ring.write_text("{not json")
    monkeypatch.setenv("REFEREE_SIGNING_KEYS", str(ring))
    c = create_app({"TESTING": True, "DATABASE_URL": "sqlite:///:memory:"}).test_client()
    r = c.post("/v1/verdicts", data=REVOKE, content_type="application/json")
    assert r.status_code == 200 and r.get_json()["signature"] is None
    assert c.get("/v1/keys").get_json()["keys"] == []
    assert "cannot be read" in caplog.text and str(ring) in caplog.text


def test_referee_verify_checks_every_revision_of_an_export_with_the_saved_keys(signed_client, tmp_path, capsys):
    from referee.cli import main
    from referee.verify import OK

    c = signed_client
    t = make_tournament(c)
    r = post_match(c, t, [won_by(0, [1] * 7)])
    write(c, f"/v1/matches/{r.get_json()['id']}/deals", t["key"], r.headers["ETag"], {"dealer": 2, "trump": {"suit": "H"}})
    store = c.application.extensions["referee.store"]
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(line) + "\n" for line in store.export(t["id"])))
    (tmp_path / "keys.json").write_text(c.get("/v1/keys").get_data(as_text=True))
    assert main(["verify", str(export), "--key", str(tmp_path / "keys.json")]) == OK
    said = capsys.readouterr().out
    assert said.count("the signature holds") == 2 and said.count(": the same verdict") == 2


def _corrected_match(c):
    """A match stored, given a deal, then corrected (PUT /record): three revisions."""
    t = make_tournament(c)
    r = post_match(c, t, [won_by(0, [1] * 7)])
    mid = r.get_json()["id"]
    r = write(c, f"/v1/matches/{mid}/deals", t["key"], r.headers["ETag"], {"dealer": 2, "trump": {"suit": "H"}})
    fixed = {"players": ["A", "B", "C", "D"], "deals": [won_by(0, [1] * 7)]}
    r = write(c, f"/v1/matches/{mid}/record", t["key"], r.headers["ETag"], {"record": fixed, "reason": "one deal"},
              method="put")
    assert r.status_code == 200 and r.get_json()["revision"] == 3
    return t, mid


def test_each_revision_s_signature_names_its_match_its_number_and_the_digest_of_the_one_before(signed_client):
    from referee.provenance import verdict_digest

    c = signed_client
    t, mid = _corrected_match(c)
    revisions = [c.get(f"/v1/matches/{mid}/revisions/{n}", headers=auth(t["key"])).get_json()["verdict"]
                 for n in (1, 2, 3)]
    assert [(v["provenance"]["match"], v["provenance"]["revision"]) for v in revisions] == [(mid, 1), (mid, 2), (mid, 3)]
    assert [v["provenance"]["previous"] for v in revisions] == [None] + [verdict_digest(v) for v in revisions[:2]]
    assert all(holds(c, v) for v in revisions)
    moved = {**revisions[2], "provenance": {**revisions[2]["provenance"], "match": "another"}}
    assert not holds(c, moved)  # the place is signed
    head = c.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]
    assert head == revisions[2]
    post = c.post("/v1/verdicts", data=REVOKE, content_type="application/json").get_json()
    assert not {"match", "revision", "previous"} & set(post["provenance"])  # no match: as before


def test_an_export_with_its_correcting_revision_dropped_does_not_verify_and_says_where(signed_client, tmp_path, capsys):
    from referee.cli import main
    from referee.verify import OK, REFUSED

    c = signed_client
    t, mid = _corrected_match(c)
    store = c.application.extensions["referee.store"]
    lines = list(store.export(t["id"]))
    (tmp_path / "keys.json").write_text(c.get("/v1/keys").get_data(as_text=True))
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["verify", str(export), "--key", str(tmp_path / "keys.json")]) == OK, capsys.readouterr().out
    match = lines[1]
    dropped = {**match, "revisions": match["revisions"][:1] + match["revisions"][2:]}
    export.write_text("".join(json.dumps(line) + "\n" for line in (lines[0], dropped)))
    capsys.readouterr()
    assert main(["verify", str(export), "--key", str(tmp_path / "keys.json")]) == REFUSED
    assert "revision 3: the chain breaks between revision 1 and revision 3" in capsys.readouterr().out
    other = post_match(c, t, [won_by(0, [1] * 7)]).get_json()["id"]
    moved = {**match, "id": other}
    export.write_text("".join(json.dumps(line) + "\n" for line in (lines[0], moved)))
    assert main(["verify", str(export), "--key", str(tmp_path / "keys.json")]) == REFUSED
    assert f"signed as revision 1 of match {mid}, shown here as revision 1 of match {other}: moved" in \
        capsys.readouterr().out


def test_a_public_view_of_a_live_deal_withholds_the_digest_of_the_revision_before(signed_client):
    c = signed_client
    t = make_tournament(c)
    done = won_by(0, [1] * 7, hands=True)
    r = post_match(c, t, [dict(done, events=done["events"][:20])])
    mid = r.get_json()["id"]
    write(c, f"/v1/matches/{mid}/events", t["key"], r.headers["ETag"], {"events": done["events"][20:26]})
    full = c.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]["provenance"]
    seen = c.get(f"/v1/matches/{mid}").get_json()["verdict"]["provenance"]
    assert full["previous"].startswith("sha256:") and seen["previous"] is None
    assert (seen["match"], seen["revision"]) == (mid, 2)
