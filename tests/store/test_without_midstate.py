"""Where no hash can be resumed (no libcrypto: midstate.available() False) the store reads,
judges and hashes whole matches (store/deals.py: tail, prefixes), and gives the very verdicts
the one-deal path gives where it can: the same live session, played through a store of each
kind on both databases (same match ids, signing key and signing moment), leaves after every
write the same verdict, byte for byte, its provenance and signature included."""
import itertools
import types
import uuid

import orjson
import pytest

from referee import midstate, verdict_signing
from referee.store import deals, ids, writes
from referee.store.db import Database
from referee.store.service import Store
from tests.conftest import BACKENDS, _fresh_database
from tests.helpers import won_by

pytestmark = pytest.mark.skipif(not midstate.available(),
                                reason="no libcrypto here: both runs would take the fallback, comparing nothing")


@pytest.fixture(params=BACKENDS)
def two_urls(request, tmp_path):
    """Two fresh, migrated databases on the same backend."""
    urls = []
    for name in ("one_deal", "whole"):
        (tmp_path / name).mkdir()
        urls.append(_fresh_database(request.param, request, tmp_path / name))
    return urls


def session(url: str, keys, monkeypatch) -> tuple[list[bytes], int]:
    """A short live session, each write's verdict (JSON) kept: a deal added, its first cards
    one at a time, the rest at once; a second deal, three cards, a correction that takes back
    the last two, one played again. Also how many writes were judged by their last deal."""
    counter = itertools.count(1)
    monkeypatch.setattr(ids, "uuid", types.SimpleNamespace(uuid4=lambda: uuid.UUID(int=next(counter))))
    tail_judged, real_tail = [], writes.judge_tail
    monkeypatch.setattr(writes, "judge_tail", lambda *a: tail_judged.append(1) or real_tail(*a))
    store = Store(Database(url), signing_keys=keys)
    try:
        t, key, _ = store.create_tournament("t", "court-piece", {}, True)
        view, _ = store.create_match(t.id, key, {"players": ["A", "B", "C", "D"]}, None)
        verdicts = [view.revision.verdict]

        def write(method, *args):
            nonlocal view
            view = getattr(store, method)(view.match.id, key, view.etag, *args)
            verdicts.append(view.revision.verdict)

        first = won_by(0, [1, 0, 3, 2, 1, 0, 3, 1, 3, 1], hands=True)  # 7 tricks to 3 for seats 1 and 3
        write("add_deal", {**first, "events": []})
        for event in first["events"][:6]:
            write("append_events", [event])
        write("append_events", first["events"][6:])
        dealer = view.revision.verdict["next"]["dealer"]
        second = won_by(dealer, [(dealer + 1) % 4] * 7, hands=True)
        write("add_deal", {**second, "events": []})
        for event in second["events"][:3]:
            write("append_events", [event])
        record = view.revision.record
        write("revise", {"deals": [*record["deals"][:-1], {**record["deals"][-1], "events": second["events"][:1]}]},
              "typo")
        write("append_events", second["events"][1:2])
    finally:
        store.db.dispose()
    assert all(v["valid"] and v["signature"] for v in verdicts[1:]), "every write judged valid and signed"
    return [orjson.dumps(v) for v in verdicts], len(tail_judged)


def test_without_a_resumable_hash_the_store_gives_the_one_deal_path_s_verdicts(two_urls, tmp_path, monkeypatch):
    monkeypatch.setattr(verdict_signing, "now", lambda: "2026-12-06T07:00:00Z")
    keys = tmp_path / "keys"
    one_deal, alone = session(two_urls[0], keys, monkeypatch)
    for module in (midstate, deals):
        monkeypatch.setattr(module, "available", lambda: False)
    whole, alone_without = session(two_urls[1], keys, monkeypatch)
    assert alone > 0 and alone_without == 0  # the first run took the one-deal path, the second never
    assert len(one_deal) == len(whole) == 15
    for i, (a, b) in enumerate(zip(one_deal, whole)):
        assert a == b, f"write {i}: {a[:200]} != {b[:200]}"
    last = orjson.loads(whole[-1])
    assert last["deals"][0]["result"]["kind"] == "win" and last["deals"][1]["status"] == "in_progress"
