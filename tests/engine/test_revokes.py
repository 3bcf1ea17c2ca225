"""Revokes (revoke.*), R-1 penalty, R-2 proof, R-11 ignored events, R-12 take-backs, R-27 a
hand played out, R-28 pending in an open trick, R-3 and R-21 a rejected play."""
from referee.engine import adjudicate_dict
from tests.helpers import deal, ev, round_robin_hands, verdict

HANDS = round_robin_hands()
TRUMP = {"suit": "S"}


def with_hands(events, preset="court-piece", dealer=0, **options):
    return verdict(preset, [deal(dealer, ev(events), TRUMP, HANDS)], **options)


def test_uncorrected_revoke_ends_the_deal_and_the_other_team_scores_a_court():
    # Seat 2 holds 3H 7H JH but discards 2D on the heart lead.
    v = with_hands("1:AH 2:2D 3:4H 0:5H 1:TH 2:3H 3:8H 0:9H")
    d = v["deals"][0]
    assert v["valid"]
    assert d["status"] == "ended_by_penalty"
    revoke = d["violations"][0]
    assert revoke["code"] == "revoke" and revoke["trick"] == 1 and revoke["event"] == 1
    assert revoke["seat"] == 2 and revoke["card"] == "2D" and revoke["led"] == "H"
    assert revoke["proof"] == "hand" and revoke["penalty"] and not revoke["corrected"]
    assert "holding J♥" in revoke["message"]
    assert d["result"]["kind"] == "penalty_court" and d["result"]["winner"] == 1
    assert d["result"]["courts"] == [0, 1]
    assert len(d["tricks"]) == 1 and d["ignored_events"] == [4, 5, 6, 7]
    assert d["next_dealer"] == 2  # callers (team 1) won with a court


def test_penalty_points_are_3_for_offended_callers_and_4_for_offended_defenders():
    v = with_hands("1:AH 2:2D 3:4H 0:5H", preset="rr-single-sir")
    assert v["deals"][0]["result"]["points"] == [0, 3]
    # Seat 1 (a caller) leads AH; seat 3 (caller) revokes with 2C while holding hearts.
    v = with_hands("1:AH 2:3H 3:2C 0:5H", preset="rr-single-sir")
    result = v["deals"][0]["result"]
    assert result["winner"] == 0 and result["points"] == [4, 0]
    assert v["deals"][0]["next_dealer"] == 1


def test_revoke_corrected_before_the_trick_is_complete_has_no_penalty():
    v = with_hands("1:AH 2:2D 2:< 2:3H 3:4H 0:5H 1:TH")
    d = v["deals"][0]
    assert v["valid"] and d["status"] == "in_progress"
    assert d["violations"][0]["code"] == "revoke" and d["violations"][0]["corrected"]
    assert not d["violations"][0]["penalty"]
    assert [c["card"] for c in d["tricks"][0]["cards"]] == ["AH", "3H", "4H", "5H"]


def test_after_a_correction_later_players_may_take_back_their_cards():
    # Seat 2 revokes; seats 3 and 0 play; seat 2 corrects; seat 3 changes its card.
    v = with_hands("1:AH 2:2D 3:4H 0:5H 2:< 3:< 2:JH 3:QH 1:2H")
    d = v["deals"][0]
    assert v["valid"], v["errors"]
    assert [c["card"] for c in d["tricks"][0]["cards"]] == ["AH", "JH", "QH", "5H"]
    assert d["tricks"][0]["winner"] == 1


def test_a_player_before_the_revoke_may_not_take_back():
    v = with_hands("1:AH 2:2D 3:4H 2:< 1:<")
    assert v["errors"][0]["code"] == "bad_take_back" and v["errors"][0]["event"] == 4


def test_a_legal_card_cannot_be_taken_back_first():
    v = with_hands("1:AH 2:3H 2:<")
    assert v["errors"][0]["code"] == "bad_take_back"
    assert "legal play" in v["errors"][0]["message"]


def test_a_take_back_after_the_trick_is_closed_is_refused():
    v = with_hands("1:AH 2:2D 3:4H 0:5H 1:TH 2:<")
    assert v["errors"][0]["code"] == "bad_take_back"


def test_the_trick_stays_open_after_four_cards_until_a_non_take_back_event():
    v = with_hands("1:AH 2:2D 3:4H 0:5H 2:< 2:3H 1:TH")
    d = v["deals"][0]
    assert v["valid"] and d["status"] == "in_progress"
    assert d["violations"][0]["corrected"]


def test_without_hands_a_revoke_is_proven_when_the_player_later_plays_the_suit():
    # Seat 2 shows out of hearts in trick 1, then plays 7H in trick 2.
    events = "1:AH 2:2D 3:4H 0:5H 1:TH 2:7H 3:8H 0:9H 1:KS 2:3S 3:4S 0:6S"
    v = verdict("court-piece", [deal(0, ev(events), TRUMP)])
    d = v["deals"][0]
    revoke = d["violations"][0]
    assert revoke["code"] == "revoke" and revoke["proof"] == "later_play"
    assert revoke["trick"] == 1 and revoke["event"] == 1 and revoke["proof_event"] == 5
    assert d["status"] == "ended_by_penalty" and len(d["tricks"]) == 1  # retroactive
    assert d["ignored_events"] == list(range(4, 12))
    assert d["result"]["kind"] == "penalty_court" and d["result"]["winner"] == 1


def test_without_hands_a_show_out_never_contradicted_is_listed_as_unproven():
    v = verdict("court-piece", [deal(0, ev("1:AH 2:2D 3:4H 0:5H"), TRUMP)])
    d = v["deals"][0]
    assert d["violations"] == []
    assert d["unproven"] == [{"code": "revoke", "trick": 1, "event": 1, "seat": 2, "card": "2D", "void": "H",
                              "message": d["unproven"][0]["message"]}]


def test_reject_makes_an_illegal_play_a_record_error_even_if_corrected():
    v = with_hands("1:AH 2:2D 2:< 2:3H", illegal_play="reject")
    assert not v["valid"]
    assert v["errors"][0]["code"] == "illegal_play" and v["errors"][0]["event"] == 1


def test_reject_without_hands_points_at_the_revoking_play():
    events = "1:AH 2:2D 3:4H 0:5H 1:TH 2:7H"
    v = verdict("court-piece", [deal(0, ev(events), TRUMP)], illegal_play="reject")
    assert v["errors"][0]["code"] == "illegal_play" and v["errors"][0]["event"] == 1


def test_events_after_a_penalty_are_still_checked_for_record_errors():
    v = with_hands("1:AH 2:2D 3:4H 0:5H 1:TH 2:3H 3:8H 0:AH")
    assert v["errors"][0]["code"] == "card_played_twice" and v["errors"][0]["event"] == 7
    assert v["deals"][0]["status"] == "ended_by_penalty"


def test_a_revoke_in_an_unfinished_trick_decides_nothing_yet():
    v = with_hands("1:AH 2:2D")
    d = v["deals"][0]
    assert d["status"] == "in_progress" and not d["violations"][0]["penalty"]
    assert v["next"]["to_play"] == 3 and v["next"]["legal"] == ["4H", "8H", "QH"]


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


# -- a violation in an open trick is pending -------------------------------------------------

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


# -- a rejected play scores nothing --------------------------------------------------

def test_a_rejected_play_proven_later_stops_the_deal_unscored():
    v = adjudicate_dict({"preset": "court-piece", "options": {"illegal_play": "reject"}, "deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "events": ev("1:AH 2:2D 3:4H 0:5H 1:TH 2:7H")}]})
    assert not v["valid"]
    assert [(e["code"], e["deal"], e["event"]) for e in v["errors"]] == [("illegal_play", 0, 1)]
    d = v["deals"][0]
    assert d["status"] == "invalid" and d["result"] is None and d["violations"] == []
    assert d["unproven"] == [] and v["match"]["courts"] == [0, 0] and v["next"] is None
