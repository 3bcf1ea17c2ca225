"""Impossible records: valid false, the error code, the exact deal and event; a deal over
before its error still scores (R-29)."""
import pytest

from referee.engine import OptionError, Record, RecordFormatError, adjudicate, adjudicate_dict
from tests.helpers import deal, ev, round_robin_hands, verdict, won_by

HANDS = round_robin_hands()


def errors(v):
    return [(e["code"], e["deal"], e["event"]) for e in v["errors"]]


def test_bad_hands_not_four_times_thirteen_distinct_cards():
    hands = [h[:] for h in HANDS]
    hands[0][0] = hands[1][0]
    v = verdict("court-piece", [deal(0, [], {"suit": "S"}, hands)])
    assert errors(v) == [("bad_hands", 0, None)] and "3♠" in v["errors"][0]["message"]
    v = verdict("court-piece", [deal(0, [], {"suit": "S"}, HANDS[:3])])
    assert errors(v) == [("bad_hands", 0, None)]


def test_card_not_in_hand_names_the_owner():
    v = verdict("court-piece", [deal(0, ev("1:AS"), {"suit": "S"}, HANDS)])
    assert errors(v) == [("card_not_in_hand", 0, 0)]
    assert "dealt to seat 0" in v["errors"][0]["message"]


def test_card_played_twice():
    v = verdict("court-piece", [deal(0, ev("1:AH 2:3H 3:4H 0:5H 1:AH"), {"suit": "S"})])
    assert errors(v) == [("card_played_twice", 0, 4)]


def test_what_precedes_an_error_is_still_reported():
    v = verdict("court-piece", [deal(0, ev("1:AH 2:3H 3:4H 0:5H 1:KH 3:2H"), {"suit": "S"})])
    assert errors(v) == [("out_of_turn", 0, 5)]
    assert len(v["deals"][0]["tricks"]) == 1 and v["deals"][0]["status"] == "invalid"


@pytest.mark.parametrize("trump, why", [
    (None, "missing"),
    ({"hidden": "AS"}, "hidden"),
    ({"blind": "2S"}, "cards 6-13"),  # 2S is seat 0's (not the caller's)
    ({"blind": "3S"}, "cards 6-13"),  # 3S is the caller's first card
])
def test_bad_trump(trump, why):
    v = verdict("court-piece", [deal(0, [], trump, HANDS)])
    assert errors(v) == [("bad_trump", 0, None)]
    assert why in v["errors"][0]["message"]


def test_blind_card_among_the_callers_later_cards_sets_trump():
    v = verdict("court-piece", [deal(0, ev("1:AH"), {"blind": "KD"}, HANDS)])
    assert v["valid"]
    assert v["deals"][0]["trump"] == {"mode": "blind", "suit": "D", "card": "KD", "rule": ["trump.blind"]}


def test_blind_mode_needs_the_turned_up_card():
    v = verdict("court-piece", [deal(0, [], {"suit": "S"})], trump="blind")
    assert errors(v) == [("bad_trump", 0, None)]


def test_unfinished_deal_followed_by_another():
    v = verdict("court-piece", [won_by(0, [1] * 3), won_by(0, [1] * 7)])
    assert errors(v) == [("unfinished_deal_not_last", 0, None)]
    assert v["deals"][1]["result"]["kind"] == "court"


def test_later_deals_are_still_checked_after_an_invalid_one():
    v = verdict("court-piece", [deal(0, ev("0:AH"), {"suit": "S"}), won_by(0, [1] * 7)])
    assert errors(v) == [("out_of_turn", 0, 0)]
    assert v["deals"][1]["result"]["kind"] == "court" and v["deals"][1]["violations"] == []


def test_partner_calling_without_pass_once_is_wrong_caller():
    v = verdict("court-piece", [deal(0, [], {"suit": "S", "by": 3})])
    assert v["valid"] and v["deals"][0]["violations"][0]["code"] == "wrong_caller"
    v = verdict("rr-single-sir", [deal(0, [], {"suit": "S", "by": 3})])
    assert v["deals"][0]["violations"] == [] and v["deals"][0]["trump"]["by"] == 3


def test_a_defender_calling_is_wrong_caller():
    v = verdict("rr-single-sir", [deal(0, [], {"suit": "S", "by": 2})])
    assert v["deals"][0]["violations"][0]["code"] == "wrong_caller"


def test_weak_hand_redeal_is_checked_against_the_five():
    weak = [h[:] for h in HANDS]  # caller seat 1: first five 3S 7S JS 2H 6H hold a Jack
    v = verdict("court-piece", [deal(0, [], {"redeal": True}, weak)], weak_hand_redeal=True)
    d = v["deals"][0]
    assert d["status"] == "redeal" and d["next_dealer"] == 0
    assert d["violations"][0]["code"] == "bad_redeal" and "J♠" in d["violations"][0]["message"]
    weak[1][2], weak[1][5] = weak[1][5], weak[1][2]  # now 3S 7S TH 2H 6H: all below a Jack
    v = verdict("court-piece", [deal(0, [], {"redeal": True}, weak)], weak_hand_redeal=True)
    assert v["deals"][0]["violations"] == [], v["deals"][0]["violations"]
    assert v["next"]["dealer"] == 0


def test_redeal_without_the_option_is_bad_redeal():
    v = verdict("court-piece", [deal(0, [], {"redeal": True})])
    assert v["deals"][0]["violations"][0]["code"] == "bad_redeal"
    assert v["deals"][0]["result"] is None


def test_a_redeal_has_no_play():
    v = verdict("court-piece", [deal(0, ev("1:AS"), {"redeal": True})], weak_hand_redeal=True)
    assert errors(v) == [("play_after_end", 0, 0)]


def test_unknown_preset_and_options_raise_option_errors():
    with pytest.raises(OptionError):
        adjudicate(Record(preset="whist"))
    with pytest.raises(OptionError) as info:
        adjudicate(Record(preset="court-piece", options={"trumps": "called"}))
    assert info.value.option == "trumps"
    with pytest.raises(OptionError):
        adjudicate(Record(preset="court-piece", options={"target": 0}))


def test_options_once_resolved_are_kept_without_taking_1_for_true():
    from referee.engine import resolve

    once = resolve("court-piece", {"target": 5, "pile_no_collect_after": [3, 1]})
    assert resolve("court-piece", {"target": 5, "pile_no_collect_after": [3, 1]}) is once  # kept
    assert once.target == 5 and once.pile_no_collect_after == (1, 3)
    assert resolve("court-piece", {"target": 5.0}).target == 5
    assert resolve("court-piece", {"kot": True}).kot is True
    with pytest.raises(OptionError) as info:  # equal to True in Python, kept apart here
        resolve("court-piece", {"kot": 1})
    assert info.value.option == "kot"
    with pytest.raises(OptionError):  # a refusal is never kept as an answer
        resolve("court-piece", {"target": True})
    assert resolve("court-piece", {"target": 1}).target == 1


def test_malformed_record_raises_format_error_with_pointer():
    with pytest.raises(RecordFormatError) as info:
        adjudicate_dict({"preset": "court-piece", "deals": [{"dealer": 0, "events": [{"seat": 5, "play": "AS"}]}]})
    assert info.value.pointer == "/deals/0/events/0/seat"


@pytest.mark.parametrize("event, pointer", [
    ({"seat": True, "play": "AS"}, "/deals/0/events/1/seat"),     # true is not seat 1
    ({"seat": 1, "play": "AS", "reveal": True}, "/deals/0/events/1"),  # two kinds in one event
    ({"seat": 1, "play": ["AS"]}, "/deals/0/events/1/play"),
    ({"seat": 1.5, "play": "AS"}, "/deals/0/events/1/seat"),
    ({"seat": -1, "play": "AS"}, "/deals/0/events/1/seat"),   # not seat 3 counted from the end
    ("1:AS", "/deals/0/events/1"),
])
def test_a_bad_event_among_plain_plays_is_found_and_pointed_at(event, pointer):
    events = [{"seat": 1, "play": "2S"}, event, {"seat": 3, "play": "4S"}]
    with pytest.raises(RecordFormatError) as info:
        Record.from_dict({"preset": "court-piece", "deals": [{"dealer": 0, "events": events}]})
    assert info.value.pointer == pointer


def test_extra_fields_of_a_play_are_read_not_dropped():
    events = [{"seat": 1, "play": "2S"}, {"seat": 2, "play": "3S", "face_down": False}, {"seat": 3.0, "play": "10s"}]
    record = Record.from_dict({"preset": "court-piece", "deals": [{"dealer": 0, "events": events}]})
    assert [(e.seat, str(e.card), e.face_down) for e in record.deals[0].events] == [(1, "2S", False), (2, "3S", False), (3, "TS", False)]
    events[1]["face_down"] = True
    record = Record.from_dict({"preset": "court-piece", "deals": [{"dealer": 0, "events": events}]})
    assert record.deals[0].events[1].face_down is True


def test_an_option_too_large_to_be_exact_is_refused():
    with pytest.raises(OptionError) as info:
        adjudicate(Record(preset="court-piece", options={"streak_points": 2.0 ** 60}))
    assert info.value.option == "streak_points"
    assert adjudicate(Record(preset="court-piece", options={"streak_points": 3.0}))["valid"]


@pytest.mark.parametrize("preset, options, trump", [
    ("court-piece", {}, None), ("court-piece", {"trump": "blind"}, {"suit": "S"}),
    ("court-piece", {"trump": "random"}, None), ("hidden-rung", {}, None),
])
def test_a_missing_trumps_message_shows_the_field_as_json_to_copy(preset, options, trump):
    """`{"suit": "S"}`, not `{"suit": S}`: the example in the message is JSON a person can paste."""
    import json
    import re

    v = adjudicate_dict({"preset": preset, "options": options, "deals": [{"dealer": 0, "trump": trump, "events": []}]})
    message = v["errors"][0]["message"]
    [example] = re.findall(r"\{.*?\}", message)
    field, value = next(iter(json.loads(example).items()))
    assert field in ("suit", "blind", "hidden") and value in ("S", "QC")


# -- a deal over before its error still scores and names the next deal -----------------------

def test_r29_an_eighth_trick_after_a_court_is_an_error_but_next_names_the_next_deal():
    # rr-single-sir, dealer 0: seat 1 (callers, team 1) takes the first seven, then an 8th trick is recorded.
    v = verdict("rr-single-sir", [won_by(0, [1] * 8, n=8)])
    assert not v["valid"]
    assert [(e["code"], e["deal"], e["event"]) for e in v["errors"]] == [("play_after_end", 0, 28)]
    d = v["deals"][0]
    assert d["status"] == "complete" and len(d["tricks"]) == 7
    assert (d["result"]["kind"], d["result"]["points"]) == ("court", [0, 3])
    assert v["match"]["points"] == [0, 3]
    assert v["next"] == {"deal": 1, "dealer": 2, "caller": 3, "trick": None, "to_play": None, "legal": None}
    assert d["next_dealer"] == 2 and d["next_dealer_rule"][-2:] == ["dealer.callers-court", "R-29"]


def test_r29_a_deal_stopped_by_its_error_still_has_no_next():
    broken = won_by(0, [1] * 3, n=3)
    broken["events"].append({"seat": 3, "play": "2C"})  # seat 1 won trick 3 and leads trick 4
    v = verdict("rr-single-sir", [broken])
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("out_of_turn", 12)]
    assert v["deals"][0]["status"] == "invalid" and v["next"] is None
