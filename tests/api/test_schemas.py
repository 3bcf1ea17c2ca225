"""The record's shape (referee.record_shape): plain plays and hands are read exactly as the
general path reads them, errors keep their pointers, and messages speak one voice."""
import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import DECK, PRESETS, Record, RecordFormatError, resolve
from referee.engine.simulate import random_deal
from referee.record_shape import RecordProblems, check_record, read_record
from referee.record_shape.plain import plain_record
from referee.record_shape.walk import _Check, _event, _plain_plays
from tests.engine.test_fuzz import _as_json

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


# -- one walk: read_record gives what check_record then Record.from_dict give -------------------

def _record_json(preset, rng):
    """A random game of the preset as its record's JSON (hands, its bid, its trump spec)."""
    deals = []
    for _ in range(rng.randint(1, 3)):
        rec = random_deal(resolve(preset), rng.randrange(4), rng)
        events, trump = _as_json(rec)
        deal = {"dealer": rec.dealer, "hands": [[str(c) for c in h] for h in rec.hands], "trump": trump,
                "events": events}
        if rec.bid is not None:
            deal["bid"] = rec.bid._asdict()
        deals.append(deal)
    return {"preset": preset, "deals": deals}


def _set(where, key, value):
    def change(record):
        target = record if where == "record" else record["deals"][0] if where == "deal" else \
            record["deals"][0]["events"][0]
        if value is _DROP:
            target.pop(key, None)
        else:
            target[key] = copy.deepcopy(value)
    change.__name__ = f"{where}.{key}={value!r}"[:60]
    return change


def _put(where, value):
    """The first deal's first event, or its first hand's first card, replaced by `value`."""
    def change(record):
        deal = record["deals"][0]
        (deal["events"] if where == "events" else deal["hands"][0])[0] = copy.deepcopy(value)
    change.__name__ = f"{where}[0]={value!r}"[:60]
    return change


class _Drop:
    """The field left out (a stable repr: test ids must be the same in every xdist worker)."""

    def __repr__(self) -> str:
        return "DROP"


_DROP = _Drop()
_EVENTS = [{"seat": 1, "claim": 3}, {"seat": 2, "accept": True}, {"seat": 2, "dispute": True}, {"seat": 1, "reveal": True},
           {"seat": 1, "take_back": True}, {"seat": 1, "play": "AS", "face_down": False}, {"seat": 1, "reveal": False},
           "1:AS", None, {"seat": 1}]
# Every change a plain record's reader must leave to the two steps (a problem, or a value the
# shape check cleans up: another spelling, a float seat...), and some it must read itself.
CHANGES = [
    *(_set("record", k, v) for k, v in [
        ("colour", "red"), ("players", ["A", "B", "C", "D"]), ("players", ["A", "B", "C"]), ("players", ["A", "", "C", "D"]),
        ("players", ["A", "B\x00", "C", "D"]), ("players", ["A", 1, "C", "D"]), ("players", None), ("players", "ABCD"),
        ("players", ["x" * 201] * 4), ("players", ["x" * 200] * 4), ("closed", True), ("closed", False), ("closed", "yes"),
        ("closed", 1), ("closed", None), ("options", {}), ("options", {"target": 3}), ("options", {"target": "3"}),
        ("options", {"trump": "nope"}), ("options", {"nope": 1}), ("options", []), ("options", None),
        ("options", {"pile_trump_ace_no_seal": True}), ("options", {"target": 2.0}), ("preset", "court piece"),
        ("preset", None), ("preset", 1), ("preset", "bid-double-sir"), ("preset", _DROP), ("deals", _DROP),
        ("options", _DROP), ("deals", None), ("deals", {}), ("deals", [None]), ("deals", [[]]), ("deals", [])]),
    *(_set("deal", k, v) for k, v in [
        ("colour", "red"), ("dealer", 2.0), ("dealer", True), ("dealer", 4), ("dealer", "0"), ("dealer", None),
        ("dealer", _DROP), ("trump", {"suit": "♠"}), ("trump", {"suit": "s"}), ("trump", {"suit": "S", "by": 1}),
        ("trump", {"suit": "X"}), ("trump", "S"), ("trump", []), ("trump", {"hidden": "AS"}), ("trump", {"redeal": True}),
        ("trump", {}), ("trump", None), ("trump", _DROP), ("hands", None), ("hands", "AS"), ("hands", [["AS"], "KS"]),
        ("hands", [[["AS"]]]), ("hands", _DROP), ("events", None), ("events", {}), ("events", "1:AS"), ("events", _DROP),
        ("events", []), ("bid", {"seat": 1, "tricks": 9}), ("bid", {"seat": 1, "tricks": 9.0}),
        ("bid", {"seat": 1.0, "tricks": 9}), ("bid", {"seat": 1, "tricks": 6}), ("bid", {"seat": 1, "tricks": 14}),
        ("bid", {"seat": 4, "tricks": 9}), ("bid", {"seat": 1}), ("bid", {"seat": 1, "tricks": 9, "x": 1}),
        ("bid", None), ("bid", 9), ("bid", _DROP)]),
    *(_set("event", k, v) for k, v in [
        ("colour", "red"), ("seat", 1.0), ("seat", True), ("seat", 4), ("seat", -1), ("seat", "1"), ("seat", None),
        ("play", "10H"), ("play", "a♠"), ("play", "1X"), ("play", 7), ("play", None), ("play", ["AS"]),
        ("face_down", True)]),
    *(_put("events", e) for e in _EVENTS),
    *(_put("hands", c) for c in ["10H", "a♠", "1X", 5, None, "AS"]),
]


def _two_steps(data):
    try:
        return Record.from_dict(check_record(data))
    except (RecordProblems, RecordFormatError) as exc:
        return type(exc), getattr(exc, "problems", str(exc))


def _one_walk(data):
    try:
        return read_record(data)
    except (RecordProblems, RecordFormatError) as exc:
        return type(exc), getattr(exc, "problems", str(exc))


@pytest.mark.parametrize("preset", ["court-piece", "bid-double-sir"])
@pytest.mark.parametrize("change", CHANGES, ids=lambda c: getattr(c, "__name__", "change"))
def test_one_walk_reads_each_changed_record_as_the_shape_check_and_the_engine_read_it(change, preset):
    record = _record_json(preset, random.Random(5))
    change(record)
    assert _one_walk(copy.deepcopy(record)) == _two_steps(copy.deepcopy(record))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1), st.lists(st.sampled_from(CHANGES), max_size=3))
def test_one_walk_reads_every_record_as_the_shape_check_and_the_engine_read_it(preset, seed, changes):
    record = _record_json(preset, random.Random(seed))
    if not changes:  # a valid record: one walk when every deal is written plainly
        assert (plain_record(copy.deepcopy(record)) is not None) == all(
            set(d["trump"] or {}) <= {"suit"} and all(set(e) == {"seat", "play"} for e in d["events"])
            for d in record["deals"])
    for change in changes:
        try:
            change(record)
        except (KeyError, IndexError, TypeError, AttributeError):  # an earlier change took away what it changes
            pass
    assert _one_walk(copy.deepcopy(record)) == _two_steps(copy.deepcopy(record))


def test_a_plain_record_with_other_spellings_or_a_float_seat_is_read_the_same_way_by_the_two_steps():
    hands = [[str(c) for c in DECK[i::4]] for i in range(4)]
    plain = {"preset": "court-piece", "deals": [{"dealer": 0, "hands": hands, "trump": {"suit": "S"},
                                                 "events": [{"seat": 1, "play": "3H"}]}]}
    spelled_out = copy.deepcopy(plain)
    spelled_out["deals"][0]["trump"] = {"suit": "♠"}
    spelled_out["deals"][0]["events"][0] = {"seat": 1.0, "play": "3♥"}
    spelled_out["deals"][0]["hands"][0][0] = "2s"
    assert plain_record(spelled_out) is None
    assert read_record(spelled_out) == read_record(plain) == Record.from_dict(check_record(plain))


def test_a_mistyped_preset_option_or_field_is_told_what_it_likely_meant():
    with pytest.raises(RecordProblems) as info:
        check_record({"preset": "double_sir", "deals": [{"dealr": 0}]})
    got = {p["pointer"]: p["detail"] for p in info.value.problems}
    assert got["/preset"].endswith('got "double_sir"; did you mean "double-sir"?')
    assert got["/deals/0/dealr"] == 'unknown field; did you mean "dealer"?'
    with pytest.raises(RecordProblems) as info:
        check_record({"preset": "court-piece", "options": {"colection": "pile"}, "deals": []})
    assert info.value.problems == [{"pointer": "/options/colection",
                                    "detail": 'unknown option "colection"; did you mean "collection"?'}]
    with pytest.raises(RecordProblems) as info:  # nothing near: no guess
        check_record({"preset": "court-piece", "deals": [], "zzz": 1})
    assert info.value.problems == [{"pointer": "/zzz", "detail": "unknown field"}]
