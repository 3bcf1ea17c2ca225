"""The record schema reads plain plays and hands directly; it must read them exactly
as the general path (EventSchema, CardField) does, and leave everything else to it."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields

from referee.api.schemas import CardField, EventSchema, RecordSchema, _plain_hands, _plain_plays
from referee.engine import DECK, resolve
from referee.engine.simulate import random_deal

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
    assert _plain_plays(events) == [EventSchema().load(e) for e in events]
    assert _plain_hands(hands) == fields.List(fields.List(CardField())).deserialize(hands)


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
    with pytest.raises(ValidationError) as info:
        RecordSchema().load(record)
    deal = info.value.messages["deals"][0]
    assert set(deal["hands"][2]) == {5} and set(deal["events"]) == {1}
