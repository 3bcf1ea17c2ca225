"""A revision stores what its write changed, and reads back exactly as it was; a match and
a tournament are bounded; on SQLite a slow read holds up nobody."""
import random
import threading

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from referee.store import standings
from referee.store.errors import TooLarge
from referee.store.models import Revision
from referee.store.patches import apply, diff
from tests.helpers import done_while_held, ev, won_by

PLAYERS = ["A", "B", "C", "D"]


def session(store, deals):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": deals}, None)
    return t, key, view


def stored_patches(store, mid, number):
    with store.db.transaction() as s:
        return s.execute(select(Revision.record_patch, Revision.verdict_patch)
                         .where(Revision.match_id == mid, Revision.number == number)).one()


# -- what a revision stores -------------------------------------------------------------

def test_an_appended_event_stores_that_event_not_the_match(store):
    deals = [won_by(d % 4, [1] * 7) for d in range(6)] + [{"dealer": 2, "trump": {"suit": "S"}, "events": ev("3:AH")}]
    _, key, view = session(store, deals)
    after = store.append_events(view.match.id, key, view.etag, ev("0:KH"))
    record_patch, verdict_patch = stored_patches(store, view.match.id, 2)
    assert record_patch == {"d": {"deals": {"l": [6, {"d": {"events": {"l": [1, None, [{"seat": 0, "play": "KH"}]]}}}, []]}}}
    # all the verdict changed: whose turn, the card now on the table, and (signed anew) the
    # record's digest, the revision and the digest of the one before (its place in the
    # match's chain), the time of signing and the signature
    provenance = verdict_patch["d"].pop("provenance")
    assert set(provenance["d"]) <= {"record", "revision", "previous", "signed_at"} and "record" in provenance["d"]
    assert provenance["d"]["revision"] == {"=": 2}
    signature = verdict_patch["d"].pop("signature", None)  # unsigned on a server without a key ring
    assert signature is None or len(signature["="]) == 86
    assert verdict_patch == {"d": {"next": {"d": {"to_play": {"=": 1}, "table": {"l": [1, None, [
        {"seat": 0, "card": "KH", "face_down": False, "event": 1}]]}}}}}
    assert after.revision.verdict["next"]["to_play"] == 1


def test_the_first_revision_holds_the_record_and_the_head_is_kept_once(store):
    _, key, view = session(store, [won_by(0, [1] * 7)])
    record_patch, _ = stored_patches(store, view.match.id, 1)
    assert record_patch == {"=": view.revision.record}
    closed = store.close(view.match.id, key, view.etag)
    assert stored_patches(store, view.match.id, 2)[0] == {"d": {"closed": {"=": True}}}
    assert store.get_match(view.match.id, key).revision.record == closed.revision.record


def test_every_revision_reads_back_byte_for_byte_after_random_writes(store):
    """Random live play with corrections, then a second deal and a close: each revision,
    read afterwards, is exactly what its write answered (and what export says)."""
    rng = random.Random(20)
    t, key, view = session(store, [{"dealer": 0, "trump": {"suit": "S"}, "events": []}])
    answered = {1: _bytes(view.revision)}
    full = won_by(0, [1, 3, 0, 2, 1, 1, 3] * 2)["events"]
    write = view
    while write.revision.verdict["deals"][0]["status"] == "in_progress":
        deal = write.revision.record["deals"][0]
        n = len(deal["events"])
        if n and rng.random() < 0.15:
            write = store.revise(view.match.id, key, write.etag, {"deals": [dict(deal, events=deal["events"][:n - 1])]}, "typo")
        else:
            write = store.append_events(view.match.id, key, write.etag, full[n:n + 1])
        answered[write.match.revision] = _bytes(write.revision)
    dealer = write.revision.verdict["next"]["dealer"]
    write = store.add_deal(view.match.id, key, write.etag, won_by(dealer, [(dealer + 1) % 4] * 7))
    answered[write.match.revision] = _bytes(write.revision)
    answered[write.match.revision + 1] = _bytes(store.close(view.match.id, key, write.etag).revision)
    for number, expected in answered.items():
        assert _bytes(store.revision(view.match.id, number, key)) == expected, number
    exported = next(line for line in store.export(t.id) if line["kind"] == "match")
    assert [orjson.dumps(r["record"]) for r in exported["revisions"]] == [orjson.dumps(orjson.loads(b)[0]) for b in answered.values()]
    assert len(answered) > 40


def _bytes(revision) -> bytes:
    if isinstance(revision, dict):
        return orjson.dumps([revision["record"], revision["verdict"]])
    return orjson.dumps([revision.record, revision.verdict])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_a_patch_rebuilds_its_target_byte_for_byte(a, b):
    patch = diff(a, b)
    assert orjson.dumps(apply(a, patch)) == orjson.dumps(b)
    assert orjson.loads(orjson.dumps(patch)) == patch  # storable as JSON


def test_a_patch_is_exact_where_python_equality_is_not():
    assert orjson.dumps(apply([1, {"x": 0}], diff([1, {"x": 0}], [True, {"x": False}]))) == b'[true,{"x":false}]'
    a, b = {"x": 1, "y": 2}, {"y": 2, "x": 1}  # equal dicts, other key order
    assert list(apply(a, diff(a, b))) == ["y", "x"]


# -- limits ---------------------------------------------------------------------------

@pytest.mark.parametrize("setting, write", [
    ("REFEREE_MAX_DEALS", lambda store, key, view: store.add_deal(view.match.id, key, view.etag, won_by(1, [1] * 7))),
    ("REFEREE_MAX_EVENTS", lambda store, key, view: store.append_events(view.match.id, key, view.etag, ev("1:AH"))),
    ("REFEREE_MAX_REVISIONS", lambda store, key, view: store.append_events(view.match.id, key, view.etag, ev("1:AH"))),
])
def test_a_match_past_its_limit_is_refused_naming_the_limit(store, monkeypatch, setting, write):
    _, key, view = session(store, [{"dealer": 0, "trump": {"suit": "S"}, "events": []}])
    monkeypatch.setenv(setting, "1" if setting != "REFEREE_MAX_EVENTS" else "0")
    with pytest.raises(TooLarge) as refused:
        write(store, key, view)
    assert refused.value.status == 413 and refused.value.extra["limit_name"] == setting
    assert setting in refused.value.detail
    assert store.get_match(view.match.id, key).match.revision == 1  # nothing stored


def test_a_tournament_past_its_match_limit_is_refused(store, monkeypatch):
    t, key, _ = session(store, [])
    monkeypatch.setenv("REFEREE_MAX_MATCHES", "1")
    with pytest.raises(TooLarge) as refused:
        store.create_match(t.id, key, {"deals": []}, None)
    assert refused.value.extra == {"limit": 1, "limit_name": "REFEREE_MAX_MATCHES"}


def test_a_limit_is_a_413_problem_over_http(store_client, monkeypatch):
    from tests.api.test_matches import make_tournament, post_match

    t = make_tournament(store_client)
    monkeypatch.setenv("REFEREE_MAX_DEALS", "1")
    r = post_match(store_client, t, [won_by(0, [1] * 7), won_by(1, [1] * 7)])
    assert r.status_code == 413 and r.mimetype == "application/problem+json"
    assert r.get_json()["limit_name"] == "REFEREE_MAX_DEALS" and r.get_json()["limit"] == 1


# -- reads and the write lock ----------------------------------------------------------

def test_a_long_read_does_not_block_another_tournaments_read_or_write(store, monkeypatch):
    """Tournament one's standings are read slowly (held open inside the read); tournament
    two is written and read meanwhile. Both finish while the slow read is still open."""
    t1, _, _ = session(store, [won_by(0, [1] * 7)])
    t2, key2, view2 = session(store, [{"dealer": 0, "trump": {"suit": "S"}, "events": []}])
    inside, release = threading.Event(), threading.Event()
    ranked = standings.ranked

    def slow_table(rows):
        if threading.current_thread().name == "slow":
            inside.set()
            release.wait(60)
        return ranked(rows)

    monkeypatch.setattr(standings, "ranked", slow_table)
    slow = threading.Thread(target=store.standings, args=(t1.id, None), name="slow")
    slow.start()
    assert inside.wait(30)
    done = []
    finished_while_open = done_while_held(slow, release, lambda: done.extend(
        [store.append_events(view2.match.id, key2, view2.etag, ev("1:AH")), store.standings(t2.id, None)]))
    assert finished_while_open, "the other tournament waited for the slow read"
    assert len(done) == 2


def test_each_limit_is_documented_with_its_default():
    from pathlib import Path

    from referee.store.limits import LIMITS

    root = Path(__file__).resolve().parents[2]
    readme, spec = (root / "README.md").read_text(), (root / "openapi.yaml").read_text()
    for name, (default, _) in LIMITS.items():
        assert f"| `{name}` | {default} |" in readme, name
        assert f"`{name}` (default {default} " in spec, name
