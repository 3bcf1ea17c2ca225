"""A match stored by deal (store/deals.py): after random sessions of every preset, played card
by card (reveals, take-backs, claims, corrections and closes included), each deal's row holds
the standing the whole judge gives the deals before it; and a live write's feed events are
the ledger's diff of the deal it changed, not of the whole match (publishing.window_start),
after every write the events the diff of the whole match gives, byte for byte."""
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlalchemy import select

from referee import judge
from referee.engine import PRESETS
from referee.store import feed as ledger
from referee.store import publishing
from referee.settlers import Recorded
from referee.store.models import MatchDeal
from tests.helpers import won_by
from tests.store.test_incremental_judge import Table, random_session, whole_of


@pytest.fixture
def checked(monkeypatch, store):
    """Every write's events also made from the whole match: the two must be the same. Counts
    the writes whose diff saw the changed deal alone (a test that never does proves nothing)."""
    seen = {"window": 0, "whole": 0}
    real, start = publishing._ledger_events, publishing.window_start

    def events(s, m, before, after, kind, why, first=None):
        got = real(s, m, before, after, kind, why, first)
        if first is not None:  # a live write's: its deals from `first` on, the others stored
            before, after = (whole_of(store, m.id, first, head) for head in (before, after))
        window = first if first is not None else start(before, after, kind)
        monkeypatch.setattr(publishing, "window_start", lambda *a: 0)
        try:
            whole = real(s, m, before, after, kind, why)
        finally:
            monkeypatch.setattr(publishing, "window_start", start)
        assert orjson.dumps(got) == orjson.dumps(whole)
        seen["window" if window else "whole"] += 1
        return got

    monkeypatch.setattr(publishing, "_ledger_events", events)
    return seen


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1))
def test_a_live_write_s_events_are_the_whole_match_s(store, checked, preset, seed):
    table = random_session(store, preset, seed, deals=(2, 3))
    # live writes after the first deal by their deal, the others whole
    assert checked["whole"] > 0 and (checked["window"] > 0 or len(table.view.revision.record["deals"]) < 2)
    record, verdict = table.view.revision
    with store.db.reading() as s:
        rows = s.execute(select(MatchDeal.deal, MatchDeal.record, MatchDeal.start)
                         .where(MatchDeal.match_id == table.view.match.id).order_by(MatchDeal.deal)).all()
    assert [(r.deal, r.record) for r in rows] == list(enumerate(record["deals"]))
    unclosed = {k: v for k, v in record.items() if k != "closed"}
    for i, row in enumerate(rows):
        assert row.start == judge.judge({**unclosed, "deals": record["deals"][:i]}, Recorded(verdict))["match"]


def test_a_card_at_the_fifth_deal_is_diffed_on_the_fifth_deal_alone(store, monkeypatch):
    compared = []
    diff = ledger.diff
    monkeypatch.setattr(ledger, "diff", lambda old, new, *a, **k: compared.append(len(new.full_record["deals"]))
                        or diff(old, new, *a, **k))
    table = Table(store, "court-piece", random.Random(1))
    for _ in range(4):
        dealer = table.view.revision.verdict["next"]["dealer"] or 0
        assert table.write("add_deal", won_by(dealer, [(dealer + 1) % 4] * 7))
    dealer = table.view.revision.verdict["next"]["dealer"]
    assert table.write("add_deal", {"dealer": dealer, "trump": {"suit": "S"}, "events": []})
    compared.clear()
    for event in won_by(dealer, [(dealer + 1) % 4] * 7)["events"][:8]:
        assert table.write("append_events", [event])
    assert compared == [1] * 8  # the fifth deal, not five
    feed = store.feed(table.t.id, table.key, 0, 1000)["events"]
    assert [(e["type"], e["payload"]["deal"], e["payload"]["trick"]) for e in feed[-2:]] == \
        [("trick.finished", 4, 1), ("trick.finished", 4, 2)]  # numbered as the match's deals are
    assert feed[-1]["payload"]["winner"] == (dealer + 1) % 4


def starts(store, mid) -> list[list[int]]:
    with store.db.reading() as s:
        return [start["courts"] for start in s.scalars(select(MatchDeal.start).where(MatchDeal.match_id == mid)
                                                       .order_by(MatchDeal.deal))]


def test_a_correction_of_the_first_deal_moves_the_standing_every_later_deal_begins_from(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    deals = [won_by(0, [1] * 7), won_by(1, [2] * 7), won_by(1, [2] * 7)]  # courts: team 1, team 0, team 0
    view, _ = store.create_match(t.id, key, {"players": ["A", "B", "C", "D"], "deals": deals}, None)
    assert starts(store, view.match.id) == [[0, 0], [0, 1], [1, 1]]
    fixed = [won_by(0, [2] * 7), won_by(0, [1] * 7), won_by(1, [2] * 7)]  # now team 0, team 1, team 0
    view = store.revise(view.match.id, key, view.etag, {"deals": fixed}, "the first deal went the other way")
    assert starts(store, view.match.id) == [[0, 0], [1, 0], [1, 1]]
    view = store.revise(view.match.id, key, view.etag, {"deals": fixed[:1]}, "one deal only")
    assert starts(store, view.match.id) == [[0, 0]] and view.revision.verdict["match"]["courts"] == [1, 0]
