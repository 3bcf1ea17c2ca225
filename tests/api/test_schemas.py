"""The record's shape (referee.records): plain plays and hands are read exactly as the
general path reads them, errors keep their pointers, and messages speak one voice."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import DECK, resolve
from referee.engine.simulate import random_deal
from referee.records import RecordProblems, _Check, _event, _plain_plays, check_record

SPELL = {"T": ["T", "10", "t"], "S": ["S", "s", "♠"], "H": ["H", "h", "♥"], "D": ["D", "d", "♦"], "C": ["C", "c", "♣"]}


def spelled(card, rng):
    ranks = SPELL["T"] if card.rank == "T" else [card.rank, card.rank.lower()]
    return rng.choice(ranks) + rng.choice(SPELL[card.suit])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_plain_plays_and_hands_read_as_the_general_path_reads_them(seed):
    rng = random.Random(seed)
    rec = random_deal(resolve("court-piece"), 0, rng)
    events = [{"seat": e.seat, "play": spelled(e.card, rng)} for e in rec.events if e.kind == "play"]
    hands = [[spelled(c, rng) for c in hand] for hand in rec.hands]
    check = _Check()
    assert _plain_plays(events) == [_event(check, e, "") for e in events] and check.problems == []
    slow = [[check.card(c, "") for c in hand] for hand in hands]
    assert check_record({"preset": "court-piece", "deals": [{"dealer": 0, "hands": hands}]})["deals"][0]["hands"] == slow


@pytest.mark.parametrize("event", [
    {"seat": True, "play": "AS"}, {"seat": 1.0, "play": "AS"}, {"seat": 4, "play": "AS"}, {"seat": 1, "play": "ZZ"},
    {"seat": 1, "play": "AS", "face_down": True}, {"seat": 1, "reveal": True}, {"seat": 1, "play": ["AS"]}, "1:AS",
])
def test_anything_but_a_plain_play_takes_the_general_path(event):
    assert _plain_plays([{"seat": 1, "play": "2S"}, event]) is None


def test_errors_keep_their_pointers_when_most_items_are_plain():
    hands = [[str(c) for c in DECK[i * 13:(i + 1) * 13]] for i in range(4)]
    hands[2][5] = "1X"
    record = {"preset": "court-piece", "deals": [{"dealer": 0, "hands": hands,
                                                  "events": [{"seat": 1, "play": "2S"}, {"seat": True, "play": "3S"}]}]}
    with pytest.raises(RecordProblems) as info:
        check_record(record)
    assert [p["pointer"] for p in info.value.problems] == ["/deals/0/hands/2/5", "/deals/0/events/1/seat"]


def test_messages_speak_one_voice_and_quote_json_as_json():
    with pytest.raises(RecordProblems) as info:
        check_record({"deals": [{"trump": {"suit": "X", "colour": 1}}], "extra": 1})
    got = {p["pointer"]: p["detail"] for p in info.value.problems}
    assert got == {"/preset": "required", "/extra": "unknown field", "/deals/0/dealer": "required",
                   "/deals/0/trump/colour": "unknown field",
                   "/deals/0/trump/suit": 'not a suit: "X" (expected one of S H D C)'}


def test_a_value_nested_a_thousand_deep_is_a_problem_not_a_crash():
    deep = 1
    for _ in range(990):
        deep = [deep]
    with pytest.raises(RecordProblems) as info:
        check_record({"preset": "court-piece", "options": {"target": deep}, "deals": [{"dealer": 0, "hands": [[deep]]}]})
    assert {p["pointer"] for p in info.value.problems} == {"/options/target", "/deals/0/hands/0/0"}
