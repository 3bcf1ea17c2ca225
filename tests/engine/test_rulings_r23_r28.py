"""Rulings R-23 to R-28, each from a concrete deal (the repros of the issue that added them)."""
import random
from dataclasses import replace

import pytest

from referee.engine import adjudicate, adjudicate_dict, resolve
from referee.engine.simulate import random_record
from tests.helpers import ev

# R-23 repro 1: seat 0 (the caller, dealer 3) laid 2C face down and is void in hearts.
BAND_HANDS = [["2C", "3S", "KC", "QC", "JC", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"],
              ["AS", "AH", "2S", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "2H"],
              ["4S", "3H", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D"],
              ["5S", "4H", "3D", "2D", "AC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]]
BAND_EVENTS = "0:3S 1:AS 2:4S 3:5S 1:AH 2:3H 3:4H 0:2C"

# The hidden 2S is seat 0's only spade; spades are led in trick 2.
ONLY_SPADE = [["2S", "3H", "KC", "QC", "JC", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"],
              ["AS", "AH", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "2H", "AC"],
              ["4H", "3S", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D"],
              ["5H", "4S", "3D", "2D", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"]]
# The same, but seat 0 also holds 6S (and seat 1 the 6H).
ANOTHER_SPADE = [[("6S" if c == "6H" else c) for c in ONLY_SPADE[0]],
                 [("6H" if c == "6S" else c) for c in ONLY_SPADE[1]], ONLY_SPADE[2], ONLY_SPADE[3]]
TO_TRICK_TWO = "0:3H 1:AH 2:4H 3:5H 1:AS 2:3S 3:4S"


def band(events: str, hands=None, hidden="2C", reveal="auto_must_trump") -> dict:
    deal = {"dealer": 3, "trump": {"hidden": hidden}, "events": ev(events)}
    if hands is not None:
        deal["hands"] = hands
    return adjudicate_dict({"preset": "mendikot", "options": {"trump": "band", "band_reveal": reveal},
                            "deals": [deal]})


@pytest.mark.parametrize("reveal", ["auto_must_trump", "auto"])
@pytest.mark.parametrize("with_hands", [True, False])
def test_r23_a_void_caller_may_play_the_face_down_card_of_another_suit(reveal, with_hands):
    v = band(BAND_EVENTS, BAND_HANDS if with_hands else None, reveal=reveal)
    d = v["deals"][0]
    assert v["valid"] and d["violations"] == [] and d["status"] == "in_progress"
    assert d["trump"]["revealed"]["how"] == "void" and d["trump"]["revealed"]["event"] == 7
    assert d["trump"]["revealed"]["rule"] == ["trump.band", "R-14", "R-23"]
    assert v["next"]["to_play"] == 0  # nobody took the trick back: seat 0's 2C is a trump and wins


@pytest.mark.parametrize("reveal", ["auto_must_trump", "auto"])
def test_r23_the_face_down_card_as_the_only_card_of_the_suit_led_is_legal(reveal):
    before = band(TO_TRICK_TWO, ONLY_SPADE, hidden="2S", reveal=reveal)
    assert before["next"]["to_play"] == 0 and before["next"]["legal"] == ["2S"]
    after = band(TO_TRICK_TWO + " 0:2S", ONLY_SPADE, hidden="2S", reveal=reveal)
    d = after["deals"][0]
    assert d["violations"] == [] and d["trump"]["revealed"]["how"] == "followed"
    blind = band(TO_TRICK_TWO + " 0:2S", None, hidden="2S", reveal=reveal)["deals"][0]
    assert blind["violations"] == [] and blind["unproven"][0]["code"] == "hidden_card_played"


def test_r23_the_face_down_card_played_to_follow_while_holding_another_is_hidden_card_played():
    d = band(TO_TRICK_TWO + " 0:2S", ANOTHER_SPADE, hidden="2S")["deals"][0]
    (v,) = d["violations"]
    assert (v["code"], v["event"], v["proof"], v["seat"]) == ("hidden_card_played", 7, "hand", 0)
    assert "trump.band" in v["rule"] and "R-23" in v["rule"]


def test_r23_without_hands_the_face_down_follow_is_unproven_until_a_later_play_of_the_suit():
    open_ = band(TO_TRICK_TWO + " 0:2S", None, hidden="2S")["deals"][0]
    assert open_["violations"] == []
    assert [(u["code"], u["event"], u["void"]) for u in open_["unproven"]] == [("hidden_card_played", 7, "S")]
    # Spades are both led and trump: AS wins trick 2; in trick 3 seat 0 plays 6S.
    proven = band(TO_TRICK_TWO + " 0:2S 1:KS 2:AD 3:TC 0:6S", None, hidden="2S")["deals"][0]
    (v,) = proven["violations"]
    assert (v["code"], v["event"], v["proof"], v["proof_event"]) == ("hidden_card_played", 7, "later_play", 11)
    assert v["message"] == ("seat 0 followed a spade lead with the face-down trump card 2♠ "
                            "and later played 6♠ (event 12), so held another spade")


def test_r23_a_show_out_by_any_seat_turns_the_card_up_first():
    d = band("0:3S 1:AS 2:4S 3:5S 1:AH 2:3H 3:4H 0:KC", BAND_HANDS)["deals"][0]
    assert d["trump"]["revealed"] == {"trick": 2, "event": 7, "seat": 0, "how": "void",
                                      "rule": ["trump.band", "R-14", "R-23"]}
    assert d["violations"] == []  # KC is a club: the trump seat 0 had to play


def test_r23_one_failure_one_breach_band_with_hands():
    hands = [["2C", "AS", "KC", "QC", "JC", "KS", "JS", "TS", "9S", "8S", "7S", "6S", "3S"],
             ["3H", "QS", "3C", "2S", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"],
             ["4S", "5H", "4H", "2H", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"],
             ["5S", "5D", "4D", "3D", "2D", "AC", "TC", "9C", "8C", "7C", "6C", "5C", "4C"]]
    d = band("0:AS 1:3H", hands)["deals"][0]
    assert [(v["code"], v["event"]) for v in d["violations"]] == [("revoke", 1)]


def test_r23_one_failure_one_breach_hidden_play_only_with_trump_led():
    v = adjudicate_dict({"preset": "rr-hidden-rung", "deals": [{"dealer": 3, "trump": {"hidden": "2D"}, "events": ev(
        "0:AD 1:? 1:TS 2:3D 3:4D 0:AC 1:5D 2:3C 3:4C")}]})
    found = [(x["code"], x["event"], x["proof"]) for x in v["deals"][0]["violations"]]
    assert found == [("ask_while_able_to_follow", 1, "later_play"), ("revoke", 2, "later_play")]


def test_r23_without_hands_must_trump_is_withdrawn_when_a_revoke_on_the_same_play_is_proven():
    # Hidden trump D shown on seat 2's ask (hearts led); seat 2 discards a spade: both a possible
    # revoke and a possible failure to trump. A later diamond proves the failure to trump; a later
    # heart then proves the revoke (and the illegal ask), which replace it.
    base = "1:AH 2:? 2:5S 3:2H 0:3H 1:KC 2:AD 3:2C 0:3C"
    deals = lambda events: [{"dealer": 0, "trump": {"hidden": "7D"}, "events": ev(events)}]
    first = adjudicate_dict({"preset": "rr-hidden-rung", "deals": deals(base)})["deals"][0]
    assert [(x["code"], x["event"], x["proof_event"]) for x in first["violations"]] == [("must_trump_after_ask", 2, 6)]
    later = adjudicate_dict({"preset": "rr-hidden-rung", "deals": deals(base + " 2:KH")})["deals"][0]
    assert [(x["code"], x["event"]) for x in later["violations"]] == [("ask_while_able_to_follow", 1), ("revoke", 2)]


# -- closing a session names the winner ------------------------------------------------------

@pytest.mark.parametrize("preset,scoring", [("court-piece", "courts"), ("rr-single-sir", "rr-courts"),
                                            ("rr-single-sir", "points"), ("seven-courts", "deal-courts"),
                                            ("mendikot", "tens")])
def test_r26_closing_a_session_names_the_team_ahead(preset, scoring):
    options = {"scoring": scoring, "target": None}
    for seed in range(40):
        rec = random_record(preset, resolve(preset, options), 2, random.Random(seed))
        rec = replace(rec, options=options, closed=True)
        v = adjudicate(rec)
        totals = [0, 0]
        key = "points" if scoring in ("points", "tens") else "courts"
        for d in v["deals"]:  # summed here from each deal's result, not from the match totals
            totals[0] += d["result"][key][0]
            totals[1] += d["result"][key][1]
        if totals[0] != totals[1]:
            break
    assert v["valid"] and totals[0] != totals[1]
    m = v["match"]
    assert m["finished"] is True and m["closed"] is True and m["winner"] == (0 if totals[0] > totals[1] else 1)
    assert m["rule"] == ["match.closed", "R-26"] and v["next"] is None


def test_r26_a_closed_session_with_equal_totals_is_a_draw():
    v = adjudicate_dict({"preset": "court-piece", "closed": True, "deals": []})
    assert v["match"]["finished"] is True and v["match"]["winner"] is None and v["next"] is None


# -- show-outs of a fully played hand are decided --------------------------------------------

def test_r27_a_seat_that_played_all_thirteen_cards_has_nothing_unproven():
    import json
    from pathlib import Path

    record = json.loads((Path(__file__).parents[2] / "examples" / "double-sir.json").read_text())
    d = adjudicate_dict(record)["deals"][0]
    assert len(d["tricks"]) == 13 and d["unproven"] == []
    # A seat that still holds cards keeps its show-out open.
    open_ = adjudicate_dict({"preset": "court-piece", "deals": [{"dealer": 0, "trump": {"suit": "S"},
                                                                 "events": ev("1:AH 2:2D")}]})
    assert [u["event"] for u in open_["deals"][0]["unproven"]] == [1]


# -- a violation in an open trick is pending ---------------------------------------------------

def test_r28_a_revoke_in_an_open_trick_is_pending_until_the_trick_closes():
    hands = [["AH", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
             ["KH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
             ["QH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "AC", "AD"],
             ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]]
    record = lambda events: {"preset": "court-piece", "deals": [
        {"dealer": 3, "hands": hands, "trump": {"suit": "S"}, "events": ev(events)}]}
    open_ = adjudicate_dict(record("0:AH 1:KH 2:AC"))["deals"][0]
    (v,) = open_["violations"]
    assert v["code"] == "revoke" and v["pending"] is True and "R-28" in v["rule"]
    closed = adjudicate_dict(record("0:AH 1:KH 2:AC 3:2S"))["deals"][0]
    (v,) = closed["violations"]
    assert v["pending"] is False and v["penalty"] is True and closed["status"] == "ended_by_penalty"


# -- a rejected play scores nothing ------------------------------------------------------

def test_a_rejected_play_proven_later_stops_the_deal_unscored():
    v = adjudicate_dict({"preset": "court-piece", "options": {"illegal_play": "reject"}, "deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "events": ev("1:AH 2:2D 3:4H 0:5H 1:TH 2:7H")}]})
    assert not v["valid"]
    assert [(e["code"], e["deal"], e["event"]) for e in v["errors"]] == [("illegal_play", 0, 1)]
    d = v["deals"][0]
    assert d["status"] == "invalid" and d["result"] is None and d["violations"] == []
    assert d["unproven"] == [] and v["match"]["courts"] == [0, 0] and v["next"] is None
