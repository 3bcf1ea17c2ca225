"""Hidden trump (trump.hidden.*, R-6, R-7, R-13, R-35; pile.delayed) and the band's face-down
card (trump.band, R-23)."""
import json
from pathlib import Path

import pytest

from referee.engine import adjudicate_dict
from tests.helpers import deal, ev, round_robin_hands, verdict, won_by

# Dealer 0: the caller is seat 1.


def hidden_hands():
    """Round robin, but seat 0 and seat 2 swap hearts for clubs:
    seat 0: 2S 6S TS AS 5H 9H KH 4D 8D QD 3H 7H JH   (no clubs)
    seat 1: 3S 7S JS 2H 6H TH AH 5D 9D KD 4C 8C QC   (caller; first five 3S 7S JS 2H 6H)
    seat 2: 4S 8S QS 3C 7C JC 2D 6D TD AD 5C 9C KC   (no hearts)
    seat 3: 5S 9S KS 4H 8H QH 3D 7D JD 2C 6C TC AC"""
    hands = round_robin_hands()
    s0, s2 = hands[0], hands[2]
    s0[-3:], s2[3:6] = ["3H", "7H", "JH"], ["3C", "7C", "JC"]
    return hands


HANDS = hidden_hands()


def hidden(preset, events, card="7S", hands=None, dealer=0, **options):
    return verdict(preset, [deal(dealer, ev(events), {"hidden": card}, hands)], **options)


def codes(v):
    return [(x["code"], x["trick"], x["event"], x["proof"], x["penalty"]) for x in v["deals"][0]["violations"]]


# -- the worked examples of the hidden trump (trump.hidden) ------------------------------------------------

def test_three_of_diamonds_beats_six_of_diamonds_played_before_the_reveal():
    # Player 1 (seat 0) leads AH, player 2 (seat 1, the caller) 5H, player 3 (seat 2) discards 6D,
    # player 4 (seat 3) asks, diamonds are shown, and plays 3D: the 3D wins.
    v = hidden("rr-hidden-rung", "1:2C 2:3C 3:4C 0:AC  0:AH 1:5H 2:6D 3:? 3:3D", card="9D")
    trick = v["deals"][0]["tricks"][1]
    assert trick["winner"] == 3 and trick["winning_card"] == "3D"
    assert [c.get("trump", False) for c in trick["cards"]] == [False, False, False, True]
    assert trick["reveal"] == {"event": 7, "seat": 3, "after_cards": 3, "how": "asked", "rule": ["trump.hidden.ask"]}
    assert v["deals"][0]["trump"]["revealed"] == {"trick": 2, "event": 7, "seat": 3, "how": "asked", "rule": ["trump.hidden.ask"]}


def test_ace_of_spades_wins_when_spades_are_shown_after_being_led():
    # Player 1 (seat 2) leads AS, player 2 (seat 3) asks, the caller (seat 1) shows 7S;
    # 3D, 5S, 7S are played: the AS wins because the trump suit was led.
    v = hidden("rr-hidden-rung", "1:2C 2:AC 3:3C 0:4C  2:AS 3:? 3:3D 0:5S 1:7S", card="7S")
    trick = v["deals"][0]["tricks"][1]
    assert v["valid"], v["errors"]
    assert trick["winner"] == 2 and trick["winning_card"] == "AS"
    assert codes(v) == []


# -- who may reveal, and what follows ------------------------------------------------

def test_a_player_who_cannot_follow_asks_and_must_then_trump():
    v = hidden("rr-hidden-rung", "1:AH 2:? 2:4S 3:4H 0:5H", hands=HANDS)
    d = v["deals"][0]
    assert v["valid"] and codes(v) == []
    assert d["tricks"][0]["winner"] == 2 and d["tricks"][0]["winning_card"] == "4S"


def test_must_trump_after_ask_proven_by_the_hand():
    v = hidden("rr-hidden-rung", "1:AH 2:? 2:3C 3:4H 0:5H 1:TH", hands=HANDS)
    assert codes(v) == [("must_trump_after_ask", 1, 2, "hand", True)]
    d = v["deals"][0]
    assert d["status"] == "ended_by_penalty" and d["result"]["points"] == [0, 3]


def test_must_trump_after_ask_proven_by_a_later_play():
    v = hidden("rr-hidden-rung", "1:AH 2:? 2:3C 3:4H 0:5H  1:TH 2:4S 3:8H 0:9H")
    assert codes(v) == [("must_trump_after_ask", 1, 2, "later_play", True)]
    assert v["deals"][0]["violations"][0]["proof_event"] == 6


def test_asking_while_able_to_follow_is_illegal():
    v = hidden("rr-hidden-rung", "1:TH 2:? 2:4S 3:4H 0:5H 1:AH", hands=round_robin_hands())
    assert codes(v) == [("ask_while_able_to_follow", 1, 1, "hand", True), ("revoke", 1, 2, "hand", False)]
    d = v["deals"][0]
    assert d["result"]["kind"] == "penalty_court" and d["result"]["winner"] == 1


def test_an_illegal_ask_cannot_be_corrected_though_the_revoke_after_it_is():
    # Seat 2 holds 3H: it asks, discards 4S, takes it back and follows with 3H.
    v = hidden("rr-hidden-rung", "1:TH 2:? 2:4S 2:< 2:3H 3:4H 0:5H", hands=round_robin_hands())
    found = [(x["code"], x["corrected"], x["penalty"]) for x in v["deals"][0]["violations"]]
    assert found == [("ask_while_able_to_follow", False, True), ("revoke", True, False)]
    d = v["deals"][0]
    assert d["status"] == "ended_by_penalty" and d["result"]["winner"] == 1 and len(d["tricks"]) == 1


def test_ask_while_able_to_follow_proven_later_without_hands():
    v = hidden("rr-hidden-rung", "1:TH 2:? 2:4S 3:4H 0:5H  2:3H 3:8H 0:9H 1:AH")
    assert [c[0] for c in codes(v)] == ["ask_while_able_to_follow", "revoke"]
    assert all(x["proof"] == "later_play" and x["proof_event"] == 5 for x in v["deals"][0]["violations"])


def test_the_caller_shows_on_lead_and_must_lead_a_trump():
    v = hidden("rr-hidden-rung", "1:? 1:3S 2:4S 3:5S 0:6S", hands=HANDS)
    assert v["valid"] and codes(v) == []
    assert v["deals"][0]["trump"]["revealed"]["how"] == "on_lead"
    v = hidden("rr-hidden-rung", "1:? 1:AH 2:4S 3:4H 0:5H", hands=HANDS)
    assert codes(v)[0][:2] == ("must_lead_trump_after_reveal", 1)
    # Without hands too: the shown card itself went back to the caller's hand.
    v = hidden("rr-hidden-rung", "1:? 1:AH 2:4S 3:4H 0:5H")
    assert codes(v)[0][:4] == ("must_lead_trump_after_reveal", 1, 1, "hand")


def test_only_the_caller_may_reveal_on_lead():
    v = hidden("rr-hidden-rung", "1:2H 2:AH 3:3H 0:4H 2:?")
    assert v["errors"][0]["code"] == "bad_reveal" and v["errors"][0]["event"] == 4


def test_no_reveal_in_a_called_game_and_no_second_reveal():
    v = verdict("court-piece", [deal(0, ev("1:AH 2:?"), {"suit": "S"})])
    assert v["errors"][0]["code"] == "bad_reveal"
    v = hidden("rr-hidden-rung", "1:AH 2:? 2:4S 3:?")
    assert v["errors"][0]["code"] == "bad_reveal" and "already" in v["errors"][0]["message"]


def test_the_hidden_card_cannot_be_played_while_face_down():
    v = hidden("rr-hidden-rung", "1:7S 2:4S 3:5S 0:6S", hands=HANDS)
    assert codes(v) == [("hidden_card_played", 1, 0, "hand", True)]
    assert v["deals"][0]["trump"]["revealed"]["how"] == "played"


def test_hidden_card_must_be_among_the_callers_first_five():
    v = hidden("rr-hidden-rung", "", card="AH", hands=HANDS)
    assert v["errors"][0]["code"] == "bad_trump"


def test_in_progress_hidden_game_says_whether_reveal_is_allowed_and_what_is_legal():
    v = hidden("rr-hidden-rung", "1:AH", hands=HANDS)
    nxt = v["next"]
    assert nxt["trump_hidden"] and nxt["to_play"] == 2 and nxt["reveal"]
    assert nxt["legal"] == ["4S", "8S", "QS", "2D", "6D", "TD", "AD", "3C", "5C", "7C", "9C", "JC", "KC"]
    assert nxt["legal_after_reveal"] == ["4S", "8S", "QS"]  # asking obliges a trump
    v = hidden("rr-hidden-rung", "1:AH 2:?", hands=HANDS)
    assert v["next"]["legal"] == ["4S", "8S", "QS"] and not v["next"]["trump_hidden"]
    v = hidden("rr-hidden-rung", "", hands=HANDS)  # the caller on lead may show it and lead a trump
    assert v["next"]["reveal"] and v["next"]["legal_after_reveal"] == ["3S", "7S", "JS"]
    assert "7S" not in v["next"]["legal"]
    v = hidden("rr-hidden-rung", "1:AH 2:4S", hands=HANDS)
    assert not v["next"]["reveal"]  # seat 3 holds hearts


# -- face-down discards (traditional) -------------------------------------------------

def test_caller_may_discard_face_down():
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    trick = v["deals"][0]["tricks"][1]
    assert v["valid"], v["errors"] and v["deals"][0]["violations"] == []
    assert trick["winner"] == 0 and trick["cards"][3] == {"seat": 1, "card": "KS", "event": 7, "face_down": True}


def test_a_face_down_card_never_wins_even_the_highest_of_the_suit_led():
    # The caller's AD face down on a diamond lead would win face up; face down it is a
    # revoke and the 4D wins. Taken back and played face up, the AD wins.
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:AD_")
    trick = v["deals"][0]["tricks"][1]
    assert trick["winner"] == 0 and trick["winning_card"] == "4D"
    assert [x["code"] for x in v["deals"][0]["violations"]] == ["revoke"]
    fixed = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:AD_ 1:< 1:AD 2:5S")
    assert fixed["deals"][0]["tricks"][1]["winner"] == 1


def test_face_down_by_another_player_or_without_the_option_is_bad_face_down():
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4C_")
    assert v["errors"][0]["code"] == "bad_face_down"
    v = hidden("rr-hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    assert v["errors"][0]["code"] == "bad_face_down"


def test_a_face_down_card_of_the_suit_led_is_a_revoke():
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KD_")
    assert codes(v)[0][:4] == ("revoke", 2, 7, "hand")


# -- timing across the deal -------------------------------------------------------------

def test_reveal_in_trick_twelve_and_the_thirteenth_takes_the_pile():
    # Nobody is void until trick 13; the caller wins trick 11, shows clubs on lead in trick 12.
    events = won_by(0, [2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 1, 2], trump="S", n=13)["events"]
    events.insert(44, {"seat": 1, "reveal": True})
    v = verdict("hidden-rung", [deal(0, events, {"hidden": "2C"})])
    d = v["deals"][0]
    assert v["valid"], v["errors"]
    assert d["trump"]["revealed"] == {"trick": 12, "event": 44, "seat": 1, "how": "on_lead", "rule": ["trump.hidden.lead"]}
    assert [t["collected_by"] for t in d["tricks"][:12]] == [None] * 12  # no collection after trick 12
    assert d["tricks"][12]["collected"] == 13


def test_never_revealed_until_the_callers_thirteenth_card():
    # the caller's last card is the hidden 2C; shown and played, it trumps the spade lead.
    events = won_by(0, [1, 3] * 5 + [0, 2], n=13)["events"]
    v = verdict("hidden-rung", [deal(0, events, {"hidden": "2C"})])
    d = v["deals"][0]
    assert v["valid"] and d["violations"] == []
    assert d["trump"]["revealed"]["how"] == "last_card" and d["trump"]["revealed"]["trick"] == 13
    last = d["tricks"][12]
    assert last["winner"] == 1 and last["winning_card"] == "2C"
    assert d["result"]["kind"] == "court" and d["tricks_won"] == [0, 13]


def test_a_trump_never_shown_is_turned_up_at_the_end():
    v = verdict("rr-hidden-rung", [won_by(0, [1] * 7) | {"trump": {"hidden": "2C"}}])
    trump = v["deals"][0]["trump"]
    assert trump["revealed"] is None and trump["turned_up_at_end"] and trump["suit"] == "C"
    v = verdict("rr-hidden-rung", [won_by(0, [1] * 6) | {"trump": {"hidden": "2C"}}])
    trump = v["deals"][0]["trump"]
    assert trump["turned_up_at_end"] is False and trump["suit"] is None and trump["revealed"] is None


def test_only_the_caller_can_play_the_hidden_card():
    v = hidden("rr-hidden-rung", "1:AS 2:7S", card="7S")
    assert v["errors"][0]["code"] == "card_not_in_hand" and v["errors"][0]["event"] == 1


# -- traditional pile timing ------------------------------------------------------------

PILE_BEFORE = "1:AH 2:2H 3:3H 0:4H  1:KH 2:5H 3:6H 0:7H  "


def test_a_pair_after_the_reveal_collects():
    v = hidden("hidden-rung", PILE_BEFORE + "1:? 1:AS 2:2S 3:3S 0:4S  1:KS 2:5S 3:6S 0:8S", card="9S")
    tricks = v["deals"][0]["tricks"]
    assert [t["collected"] for t in tricks] == [0, 0, 0, 4]


def test_a_pair_whose_first_trick_was_won_before_the_reveal_does_not_collect():
    events = PILE_BEFORE + "1:AD 2:2D 3:3D 0:4D  1:? 1:AS 2:2S 3:3S 0:4S  1:KS 2:5S 3:6S 0:8S"
    tricks = hidden("hidden-rung", events, card="9S")["deals"][0]["tricks"]
    assert [t["collected"] for t in tricks] == [0, 0, 0, 0, 5]


def test_no_collection_after_tricks_one_and_two_in_hidden_rung():
    v = hidden("hidden-rung", "1:? 1:AS 2:2S 3:3S 0:4S  1:KS 2:5S 3:6S 0:8S  1:QS 2:TS 3:JS 0:9D", card="7S")
    assert [t["collected"] for t in v["deals"][0]["tricks"]] == [0, 0, 3]


def test_the_lead_taken_back_after_the_next_card_then_led_again():
    # The caller shows on lead and leads AH while holding spades (trumps): a possible
    # breach. Seat 2 follows, then the caller takes back the lead and leads a
    # trump; seat 2 may then take back too and play again. The table has a hole at
    # the lead while seat 2's card lies: the replay must read that state.
    v = hidden("rr-hidden-rung", "1:? 1:AH 2:4S 1:< 2:< 1:3S 2:4S 3:5S 0:6S", hands=HANDS)
    assert v["valid"], v["errors"]
    assert [c[:2] for c in codes(v)] == [("must_lead_trump_after_reveal", 1)]
    assert v["deals"][0]["violations"][0]["corrected"] is True
    trick = v["deals"][0]["tricks"][0]
    assert [c["card"] for c in trick["cards"]] == ["3S", "4S", "5S", "6S"] and trick["winner"] == 0
    # Without hands the same record is read the same way.
    v = hidden("rr-hidden-rung", "1:? 1:AH 2:4S 1:< 2:< 1:3S 2:4S 3:5S 0:6S")
    assert v["valid"], v["errors"]


# -- the band's face-down card, and one failure one breach -----------------------------------

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


@pytest.mark.parametrize("reveal", ["auto_must_trump", "auto", "ask"])
def test_the_band_caller_who_may_show_on_lead_is_told_the_trumps_it_must_then_lead(reveal):
    # seat 0 (the caller) may show its face-down 2C on its lead; then it must lead a club
    # under band auto too, where no ask obliges: legal_after_reveal says so
    clubs = ["2C", "JC", "QC", "KC"]
    assert band("", BAND_HANDS, reveal=reveal)["next"]["legal_after_reveal"] == clubs
    assert band("0:?", BAND_HANDS, reveal=reveal)["next"]["legal"] == clubs


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


# -- the hidden card is never played face down -----------------------------------------------

GOLDEN = Path(__file__).parent / "records"


def last_card_deal(face_down: bool) -> dict:
    """Hidden Rung, dealer 0, caller seat 1 lays 2C face down. Seats 1 and 3 win tricks 1-10 in
    turn, seat 0 trick 11 and seat 2 trick 12 (no collection after 1, 2 and 12: the pile holds
    all twelve); trick 13 is 2S (seat 2) 2H 2D and the caller's last card, the hidden 2C."""
    events = won_by(0, [1, 3] * 5 + [0, 2], n=13)["events"]
    assert events[-1] == {"seat": 1, "play": "2C"}
    if face_down:
        events[-1] = dict(events[-1], face_down=True)
    return deal(0, events, {"hidden": "2C"})


def test_r35_the_hidden_card_marked_face_down_as_the_13th_card_is_a_trump_and_wins():
    face_up = verdict("hidden-rung", [last_card_deal(False)])
    v = verdict("hidden-rung", [last_card_deal(True)])
    d = v["deals"][0]
    assert v["valid"] and d["violations"] == []
    last = d["tricks"][12]
    assert last["cards"][3] == {"seat": 1, "card": "2C", "event": 51, "trump": True}  # not face down
    assert (last["winner"], last["winning_card"], last["collected_by"], last["collected"]) == (1, "2C", 1, 13)
    # Face down it would have lost to 2S and given the defenders a goon court (3) and the deal.
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (1, "court", [0, 1])
    assert d["tricks_won"] == [0, 13] and d["next_dealer"] == 2  # the callers' court: the dealer's partner
    assert d["trump"]["revealed"] == {"trick": 13, "event": 51, "seat": 1, "how": "last_card",
                                      "rule": ["trump.hidden.card", "R-6", "R-35"]}
    assert last["reveal"]["rule"] == ["trump.hidden.card", "R-6", "R-35"]
    # Everything else is the face-up play's verdict.
    for key in ("result", "tricks_won", "next_dealer", "next_dealer_rule", "status"):
        assert d[key] == face_up["deals"][0][key], key
    assert v["next"] == face_up["next"] and v["match"] == face_up["match"]


def test_r35_without_face_down_discards_the_marked_hidden_card_is_no_bad_face_down():
    # Rung Royal's Hidden Rung has no face-down discards: a face-down play is bad_face_down,
    # but the hidden card is never played face down, so its play is the legal 13th card.
    v = verdict("rr-hidden-rung", [last_card_deal(True)], collection="pile")
    assert v["valid"], v["errors"]
    assert v["deals"][0]["tricks"][12]["winner"] == 1 and v["deals"][0]["result"]["winner"] == 1
    discard = hidden("rr-hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    assert discard["errors"][0]["code"] == "bad_face_down"  # any other card: as ever


def test_r35_the_hidden_card_marked_face_down_earlier_is_hidden_card_played_and_a_trump():
    # Hidden Rung, caller seat 1's hidden 7S. Trick 2: seat 2 leads 2D, 3D, 4D, and the caller
    # plays the 7S marked face down: it is shown by the play and trumps the diamonds.
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:7S_")
    d = v["deals"][0]
    assert v["valid"]
    trick = d["tricks"][1]
    assert trick["cards"][3] == {"seat": 1, "card": "7S", "event": 7, "trump": True}
    assert (trick["winner"], trick["winning_card"]) == (1, "7S")
    assert codes(v) == [("hidden_card_played", 2, 7, "hand", True)]
    assert d["violations"][0]["rule"] == ["trump.hidden.card", "R-13", "R-35", "revoke.penalty", "R-1"]
    assert d["trump"]["revealed"]["how"] == "played" and d["trump"]["revealed"]["rule"][-1] == "R-35"
    # The penalty: the defenders score the court, the trick stays as played.
    assert (d["status"], d["result"]["winner"], d["result"]["kind"]) == ("ended_by_penalty", 0, "penalty_court")


def test_r35_a_face_down_discard_of_another_card_still_never_wins():
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    trick = v["deals"][0]["tricks"][1]
    assert v["valid"] and trick["winner"] == 0 and trick["cards"][3]["face_down"] is True
    assert v["deals"][0]["trump"]["revealed"] is None


def test_r35_band_the_callers_show_out_with_the_marked_hidden_card_is_the_face_up_play():
    # The golden band record: seat 0 (the caller) shows out of hearts with its face-down 2C,
    # turned up just before the play. Marked face down it plays exactly the same (it
    # was a bad_face_down before R-35: band has no face-down discards).
    case = json.loads((GOLDEN / "band-auto-caller-plays-the-face-down-card.json").read_text())
    record = case["record"]
    events = record["deals"][0]["events"]
    assert events[7] == {"seat": 0, "play": "2C"}
    events[7] = dict(events[7], face_down=True)
    v = verdict(record["preset"], record["deals"], **record["options"])
    assert v["valid"], v["errors"]
    golden = case["verdict"]["deals"][0]
    reveal = golden["tricks"][1]["reveal"]
    assert reveal["event"] == 7 and reveal["how"] == "void"
    for shown in (golden["trump"]["revealed"], reveal):
        shown["rule"] = shown["rule"] + ["R-35"]
    assert v["deals"][0] == golden and v["next"] == case["verdict"]["next"]


def test_r35_with_hands_the_callers_marked_hidden_card_on_lead_is_hidden_card_played():
    # Seat 1 leads its hidden 7S marked face down: a face-down lead would be bad_face_down;
    # the hidden card is led face up, shown, and is hidden_card_played (proof: the hand).
    v = hidden("hidden-rung", "1:7S_ 2:4S 3:5S 0:6S", hands=HANDS)
    d = v["deals"][0]
    assert v["valid"] and codes(v) == [("hidden_card_played", 1, 0, "hand", True)]
    assert d["tricks"][0]["cards"][0] == {"seat": 1, "card": "7S", "event": 0, "trump": True}
    assert d["tricks"][0]["winner"] == 1
