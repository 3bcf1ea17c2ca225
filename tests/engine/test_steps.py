"""The replay's state at every event, as readers step through it (`judge(..., steps=True)`),
is the position the judging replay holds there (`position`): the same Deal a solver goes on
from. Checked over every golden record and random games, with and without hands."""
import json
import random

import pytest
from hypothesis import given

from referee.engine import Deal, Record, judge, position, resolve
from referee.engine.cards import in_hand_order
from referee.engine.playrecord import TAKE_BACK
from referee.engine.simulate import random_record
from tests.engine.test_golden import RECORDS
from tests.engine.test_properties import SETTINGS, presets, seeds, without_hands


def state_of(deal: Deal) -> dict:
    """What a step shows, read from the Deal itself."""
    return {"to_play": deal.to_play, "tricks_won": tuple(deal.tricks_won), "pile": deal.collection.pile,
            "trump": deal.trump.suit, "trump_hidden": deal.trump.is_hidden,
            "legal": None if deal.legal_plays() is None else in_hand_order(deal.legal_plays()),
            "hands": None if deal.hands is None else tuple(in_hand_order(h) for h in deal.hands),
            "open": tuple(p[:4] for p in deal.slots if p is not None)}


def state_of_step(step) -> dict:
    return {"to_play": step.to_play, "tricks_won": step.tricks_won, "pile": step.pile, "trump": step.trump,
            "trump_hidden": step.trump_hidden, "legal": step.legal, "hands": step.hands,
            "open": () if step.won is not None else tuple(tuple(p)[:4] for p in step.table)}


def assert_steps_are_positions(record: Record) -> int:
    verdict = judge(record, steps=True)
    checked = 0
    for i, deal_verdict in enumerate(verdict.deals):
        if deal_verdict.steps is None:
            continue
        events = record.deals[i].events
        ignored = [] if deal_verdict.deal is None else deal_verdict.deal.ignored_events(deal_verdict.penalty)
        for step in deal_verdict.steps:
            if step.error is not None:  # the replay stopped: no position there
                assert step is deal_verdict.steps[-1] and step.event == step.error.event
                continue
            if step.referee:  # the referee's plays (a settled claim's line, the bell): past the record's events
                assert step.event >= len(events)
                continue
            assert step.ignored == (step.event in ignored), (i, step.event)
            if step.ignored:  # listed, not played; the deal stays as the penalty trick left it
                at = state_of(position(record, i, ignored[0]))
                assert step.table == () and step.won is None and step.to_play is None
                assert (step.tricks_won, step.pile, step.hands) == (at["tricks_won"], at["pile"], at["hands"])
                continue
            deal = position(record, i, step.event + 1)
            if step.won is not None:
                assert deal.tricks[-1] == step.won and tuple(step.table) == step.won.cards
            assert state_of_step(step) == state_of(deal), (i, step.event)
            assert step.event + 1 == len(events) or step.won is None or events[step.event + 1].kind != TAKE_BACK
            checked += 1
    return checked


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_each_golden_step_is_the_replays_position(path):
    record = Record.from_dict(json.loads(path.read_text())["record"])
    assert assert_steps_are_positions(record) > 0


@SETTINGS
@given(presets, seeds)
def test_each_step_of_a_random_game_is_the_replays_position(preset, seed):
    record = random_record(preset, resolve(preset), 2, random.Random(seed))
    assert_steps_are_positions(record)
    assert_steps_are_positions(without_hands(record))
    # Keeping the steps (the full rules, event by event) judges exactly as the fast path.
    assert judge(record, steps=True).as_dict() == judge(record).as_dict()


def test_the_fourth_card_of_a_trick_shows_it_won_and_collected():
    """examples/revoke.json's trick 1: at its fourth card (event 3) seat 1's ace has won it."""
    record = Record.from_dict(json.loads((RECORDS[0].parents[3] / "examples" / "revoke.json").read_text()))
    step = judge(record, steps=True).deals[0].steps[4]
    assert step.event == 3 and step.won.winner == 1 and step.won.winning_card.text == "AH"
    assert step.tricks_won == (0, 1) and step.to_play == 1 and len(step.table) == 4


def test_the_last_step_counts_the_last_trick():
    record = Record.from_dict(json.loads((RECORDS[0].parent / "double-sir-seed-example.json").read_text())["record"])
    verdict = judge(record, steps=True)
    last = verdict.deals[0].steps[-1]
    assert list(last.tricks_won) == verdict.as_dict()["deals"][0]["tricks_won"]


def test_after_the_penalty_the_events_are_ignored_and_the_table_stays_clear():
    """examples/revoke.json: the revoke of trick 1 is proven at event 5; events 4-11 are ignored (R-11)."""
    record = Record.from_dict(json.loads((RECORDS[0].parents[3] / "examples" / "revoke.json").read_text()))
    steps = judge(record, steps=True).deals[0].steps
    assert [s.event for s in steps if s.ignored] == list(range(4, 12))
    assert all(s.table == () and s.tricks_won == (0, 1) and s.trick == 1 for s in steps[5:])
    assert steps[-1].as_dict()["rule"] == ["R-11"] and steps[-1].note.startswith("ignored after the penalty")


def test_a_hand_is_sorted_by_suit_then_rank_as_people_hold_it():
    record = Record.from_dict(json.loads((RECORDS[0].parent / "revoke-with-hands.json").read_text())["record"])
    hand = judge(record, steps=True).deals[0].steps[0].as_dict()["hands"][0]
    suits = [c[1] for c in hand]
    assert suits == sorted(suits, key="SHCD".index)
    for suit in set(suits):
        ranks = [c[0] for c in hand if c[1] == suit]
        assert ranks == sorted(ranks, key="AKQJT98765432".index)


def test_steps_are_kept_only_when_asked():
    record = Record.from_dict(json.loads((RECORDS[0].parent / "seven-deals-in-a-row.json").read_text())["record"])
    assert all(d.steps is None for d in judge(record).deals)
    assert [d.steps is not None for d in judge(record, steps={1, 3}).deals][:5] == [False, True, False, True, False]


def test_position_refuses_events_the_deal_does_not_have():
    record = Record.from_dict(json.loads((RECORDS[0].parent / "revoke-proven-later.json").read_text())["record"])
    with pytest.raises(IndexError):
        position(record, 0, len(record.deals[0].events) + 1)
    assert position(record, 0, 0).to_play == position(record, 0, 0).caller
