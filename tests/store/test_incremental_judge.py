"""A live write judges only its last deal (referee/judge.py), from the standing the earlier
deals left, and signs it from its last deal's row; the whole record's judge stays the
reference: after every write of random sessions of every preset, played card by card
(reveals, take-backs, claims, corrections and closes included), the verdict stored is byte
for byte the whole judge's, its provenance and signature included."""
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlalchemy import select

from referee.engine import PRESETS, resolve
from referee import midstate, verdict_signing
from referee.provenance import place
from referee.settlers import Reusing
from referee.engine.simulate import random_deal
from referee.store import judging, writes
from referee.store.errors import Conflict
from referee.store.models import MatchDeal
from referee.store.views import Head
from tests.helpers import won_by

PLAYERS = ["A", "B", "C", "D"]


@pytest.fixture
def checked(monkeypatch, store):
    """Every live write's judgement (its last deal alone, its provenance and signature hashed
    from its last deal's row) also made whole, from the whole match: the two must be the same
    bytes, signature included (one signing moment). Counts the writes judged by their last
    deal alone (a test that never takes that path proves nothing) and the others."""
    seen = {"last_deal": 0, "whole": 0}
    real_whole, real_tail = writes.judge, writes.judge_tail
    monkeypatch.setattr(verdict_signing, "now", lambda: "2026-12-06T07:00:00Z")

    def judge(*args, **kwargs):
        seen["whole"] += 1
        return real_whole(*args, **kwargs)

    def judge_tail(record, live, resume, settler, signer, match, revision):
        before = whole_of(store, match, live.first, live.head)
        record_ = {**record, "deals": [*before.record["deals"][:live.first], *record["deals"]]}
        try:
            whole = real_whole(record_, Reusing(record_, before.record, before.verdict, settler.searching), signer,
                               place(match, revision, before.verdict))
        except Conflict as refused:
            whole = refused.errors if hasattr(refused, "errors") else str(refused)
        try:
            got = real_tail(record, live, resume, settler, signer, match, revision)
            seen["last_deal"] += 1
        except Conflict as refused:
            assert (refused.errors if hasattr(refused, "errors") else str(refused)) == whole
            raise
        a = orjson.dumps({**got, "deals": [*before.verdict["deals"][:live.first], *got["deals"]]})
        b = orjson.dumps(whole)
        i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), 0)
        assert a == b, (a[i - 120:i + 30], b[i - 120:i + 30])
        return got

    monkeypatch.setattr(writes, "judge", judge)
    monkeypatch.setattr(writes, "judge_tail", judge_tail)
    return seen


def whole_of(store, match: str, first: int, tail: Head) -> Head:
    """A live write's `tail` (its deals from deal `first` on) with the stored deals before it."""
    with store.db.reading() as s:
        rows = s.execute(select(MatchDeal.record, MatchDeal.verdict).where(
            MatchDeal.match_id == match, MatchDeal.deal < first).order_by(MatchDeal.deal)).all()
    return Head({**tail.record, "deals": [r.record for r in rows] + tail.record["deals"]},
                {**tail.verdict, "deals": [r.verdict for r in rows] + tail.verdict["deals"]})


def _event(e) -> dict:
    if e.kind == "play":
        return {"seat": e.seat, "play": str(e.card)}
    return {"seat": e.seat, e.kind: True}


def _deal(rec, hands: bool) -> dict:
    trump = rec.trump
    spec = {"hidden": str(trump.hidden)} if trump.hidden is not None else \
        {"blind": str(trump.blind)} if trump.blind is not None else {"suit": trump.suit} if trump.suit else None
    deal = {"dealer": rec.dealer, "trump": spec}
    if rec.bid is not None:
        deal["bid"] = rec.bid._asdict()
    if hands:
        deal["hands"] = [[str(c) for c in h] for h in rec.hands]
    return deal


class Table:
    """One match played through the store, a write at a time; a refused write changes nothing."""

    def __init__(self, store, preset, rng):
        self.store, self.rng = store, rng
        self.t, self.key, _ = store.create_tournament("t", preset, {}, True)
        self.view, _ = store.create_match(self.t.id, self.key, {"players": PLAYERS}, None)

    def write(self, method, *args) -> bool:
        try:
            self.view = getattr(self.store, method)(self.view.match.id, self.key, self.view.etag, *args)
            return True
        except Conflict:
            return False

    def play_deal(self, rec, hands: bool) -> None:
        if not self.write("add_deal", _deal(rec, hands)):
            return
        events, k = [_event(e) for e in rec.events], 0
        while k < len(events):
            event = events[k]
            if hands and k >= 40 and k % 4 == 0 and self.rng.random() < 0.3:  # a claim, answered
                answer = "accept" if self.rng.random() < 0.5 else "dispute"
                claim = [{"seat": event["seat"], "claim": self.rng.randint(0, 13 - k // 4)},
                         {"seat": (event["seat"] + 1) % 4, answer: True}]
                if self.write("append_events", claim):
                    return
            if not self.write("append_events", [event]):
                return
            k += 1
            if self.rng.random() < 0.08 and self.write("append_events", [{"seat": event["seat"], "take_back": True}]):
                k -= 1
            if self.rng.random() < 0.04:
                k -= self.correct()

    def correct(self) -> int:
        """A correction cutting the last deal's last few events (played again after)."""
        record = self.view.revision.record
        last = record["deals"][-1]
        plays = last.get("events", [])
        cut = min(len(plays), self.rng.randint(1, 5))
        if any("take_back" in e or "claim" in e for e in plays[len(plays) - cut:]):
            return 0
        fixed = {"deals": [*record["deals"][:-1], {**last, "events": plays[:len(plays) - cut]}]}
        return cut if self.write("revise", fixed, "typo") else 0


def random_session(store, preset: str, seed: int, deals: tuple[int, int] = (1, 3)) -> Table:
    """A match of `preset` played card by card: a few random deals, maybe closed."""
    rng = random.Random(seed)
    options = resolve(preset)
    table = Table(store, preset, rng)
    dealer = rng.randrange(4)
    for _ in range(rng.randint(*deals)):
        table.play_deal(random_deal(options, dealer, rng, illegal_rate=0.05), hands=rng.random() < 0.7)
        nxt = table.view.revision.verdict["next"]
        if nxt is None or nxt["dealer"] is None:
            break
        dealer = nxt["dealer"]
    if rng.random() < 0.5:
        table.write("close")
    return table


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1))
def test_every_write_s_verdict_is_the_whole_judge_s(store, checked, preset, seed):
    random_session(store, preset, seed)
    # the first deal added is judged alone (without libcrypto the store judges whole matches)
    assert checked["whole"] > 0 and (checked["last_deal"] > 0 or not midstate.available())


@pytest.mark.skipif(not midstate.available(), reason="no libcrypto here: the store judges whole matches")
def test_a_card_at_the_fifth_deal_replays_the_fifth_deal_alone_and_a_correction_all_five(store, monkeypatch):
    from referee.engine import match as engine

    replayed = []
    replay = engine.replay_deal
    monkeypatch.setattr(engine, "replay_deal", lambda options, rec, *a, **k: replayed.append(rec.dealer) or
                        replay(options, rec, *a, **k))
    table = Table(store, "court-piece", random.Random(1))
    dealers = []
    for _ in range(5):
        dealers.append(table.view.revision.verdict["next"]["dealer"] or 0)
        assert table.write("add_deal", won_by(dealers[-1], [(dealers[-1] + 1) % 4] * 7) | {"events": []})
        if len(dealers) < 5:
            assert table.write("append_events", won_by(dealers[-1], [(dealers[-1] + 1) % 4] * 7)["events"])
    events = won_by(dealers[-1], [(dealers[-1] + 1) % 4] * 7)["events"]
    replayed.clear()
    for event in events[:8]:
        assert table.write("append_events", [event])
    assert replayed == [dealers[-1]] * 8  # one deal per card, not five
    verdict = table.view.revision.verdict
    assert verdict["deals"][4]["tricks"][1]["winner"] == (dealers[-1] + 1) % 4 and len(verdict["deals"]) == 5
    assert verdict["match"]["courts"] == [sum(d["result"]["courts"][team] for d in verdict["deals"][:4]) for team in (0, 1)]
    replayed.clear()
    fixed = {"deals": [*table.view.revision.record["deals"][:-1], {**table.view.revision.record["deals"][-1], "events": events[:7]}]}
    assert table.write("revise", fixed, "typo")
    assert replayed == dealers  # a correction: the whole record
