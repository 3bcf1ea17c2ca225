"""Rulings R-34b, R-35 and R-36 (issue 28), each from a concrete deal."""
import json
from pathlib import Path

from tests.engine.test_hidden import HANDS, codes, hidden
from tests.helpers import deal, ev, verdict, won_by

GOLDEN = Path(__file__).parent / "records"


# -- the hidden card is never played face down ------------------------------------------------

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
