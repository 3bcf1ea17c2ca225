"""Single Sir: end of deal, courts, bavney, streaks (end.*, streak.seven), scoring (score.*), next dealer (dealer.*)."""
import pytest

from tests.helpers import deal, script, verdict, won_by

# Dealer 0: the caller is seat 1, callers are team 1 (seats 1, 3); defenders team 0 (seats 0, 2).
CALLERS_7_4 = [1, 0, 1, 3, 0, 1, 2, 3, 0, 1, 3]  # team 1 reaches 7 at trick 11


def only(v):
    assert v["valid"], v["errors"]
    return v["deals"][-1]


def test_deal_ends_as_soon_as_a_team_has_seven_tricks():
    d = only(verdict("court-piece", [won_by(0, CALLERS_7_4)]))
    assert d["status"] == "complete"
    assert d["tricks_won"] == [4, 7] and len(d["tricks"]) == 11
    assert d["result"] == {"winner": 1, "kind": "win", "courts": [0, 0], "points": [0, 0], "streak_court": False,
                           "rule": ["end.seven", "score.courts"]}


def test_a_play_after_seven_tricks_is_play_after_end():
    events = script(1, CALLERS_7_4 + [1])[:48]
    v = verdict("court-piece", [deal(0, events, {"suit": "S"})])
    assert not v["valid"]
    assert v["errors"] == [{"code": "play_after_end", "deal": 0, "event": 44, "rule": ["record.after-end"],
                            "message": "seat 3 plays 3♣ after the deal ended at trick 11"}]
    assert v["deals"][0]["result"]["kind"] == "win"  # a deal that finished still scores


def test_six_tricks_is_still_in_progress():
    d = only(verdict("court-piece", [won_by(0, [1] * 3 + [0] * 3)]))
    assert d["status"] == "in_progress" and d["result"] is None


def test_callers_first_seven_is_a_court():
    d = only(verdict("court-piece", [won_by(0, [1, 3, 1, 3, 1, 3, 1])]))
    assert d["result"]["kind"] == "court" and d["result"]["courts"] == [0, 1]


def test_dealers_team_first_seven_is_a_goon_court():
    d = only(verdict("court-piece", [won_by(0, [2, 0, 0, 2, 0, 0, 0])]))
    assert d["result"]["kind"] == "goon_court" and d["result"]["winner"] == 0
    assert d["result"]["courts"] == [1, 0]


def test_goon_court_value_follows_the_option():
    d = only(verdict("court-piece", [won_by(0, [0] * 7)], goon_court_courts=3))
    assert d["result"]["courts"] == [3, 0]


def test_seven_tricks_after_losing_one_is_no_court():
    d = only(verdict("court-piece", [won_by(0, [0] + [1] * 7)]))
    assert d["result"]["kind"] == "win" and d["tricks_won"] == [1, 7]


def test_play_on_to_thirteen_is_a_bavney_worth_52():
    d = only(verdict("court-piece", [won_by(0, [1] * 12, n=13)]))
    assert d["result"]["kind"] == "bavney" and d["result"]["courts"] == [0, 52]
    assert d["tricks_won"] == [0, 13] and d["next_dealer"] == 2


def test_failed_play_on_costs_nothing_the_court_stands():
    d = only(verdict("court-piece", [won_by(0, [1] * 9 + [0], n=10)]))
    assert d["status"] == "complete"
    assert d["result"]["kind"] == "court" and d["result"]["courts"] == [0, 1]
    assert d["tricks_won"] == [1, 9]


def test_record_stopping_in_a_play_on_is_in_progress():
    d = only(verdict("court-piece", [won_by(0, [1] * 9)]))
    assert d["status"] == "in_progress" and d["result"] is None


def test_without_play_on_a_record_continuing_after_a_court_is_an_error():
    v = verdict("court-piece", [won_by(0, [1] * 8)], play_on=False)
    assert v["errors"][0]["code"] == "play_after_end" and v["errors"][0]["event"] == 28
    assert v["deals"][0]["result"]["kind"] == "court"


def test_rr_single_sir_has_no_play_on():
    v = verdict("rr-single-sir", [won_by(0, [1] * 8)])
    assert v["errors"][0]["code"] == "play_after_end"


# -- next dealer (§8) ---------------------------------------------------------

def test_dealers_team_wins_the_right_hand_player_deals_next():
    d = only(verdict("court-piece", [won_by(0, [0, 1, 0, 2, 1, 0, 2, 3, 2, 1, 0])]))
    assert d["result"]["winner"] == 0 and d["next_dealer"] == 1


def test_callers_win_without_court_the_same_dealer_deals_again():
    d = only(verdict("court-piece", [won_by(0, CALLERS_7_4)]))
    assert d["next_dealer"] == 0


def test_callers_court_the_dealers_partner_deals_next():
    v = verdict("court-piece", [won_by(0, [1] * 7)])
    assert v["deals"][0]["next_dealer"] == 2
    assert v["next"] == {"deal": 1, "dealer": 2, "caller": 3, "trick": None, "to_play": None, "legal": None}


def test_a_later_deal_by_the_wrong_dealer_is_a_violation_and_play_goes_on():
    v = verdict("court-piece", [won_by(0, CALLERS_7_4), won_by(1, [2] * 7)])
    assert v["valid"]
    wrong = v["deals"][1]["violations"][0]
    assert wrong["code"] == "wrong_dealer" and wrong["seat"] == 1
    assert "seat 0" in wrong["message"]
    assert v["deals"][1]["caller"] == 2 and v["deals"][1]["result"]["kind"] == "court"


# -- seven in a row -------------------------------------------------------------

def test_six_deals_in_a_row_then_a_7_4_win_is_one_court():
    # Team 1 wins seven deals as callers from the same dealer (seat 0): no courts in tricks.
    deals = [won_by(0, CALLERS_7_4) for _ in range(7)]
    v = verdict("court-piece", deals)
    assert [d["result"]["streak_court"] for d in v["deals"]] == [False] * 6 + [True]
    assert v["deals"][6]["result"]["courts"] == [0, 1]
    assert v["match"]["courts"] == [0, 1] and v["match"]["streak"] == [0, 0]
    assert v["deals"][5]["result"]["courts"] == [0, 0]


def test_losing_a_deal_resets_your_count():
    deals = [won_by(0, CALLERS_7_4) for _ in range(3)] + [won_by(0, [0] * 6 + [1] * 4 + [0])]
    v = verdict("court-piece", deals)
    assert v["match"]["streak"] == [1, 0]


def test_a_court_resets_both_counts_and_is_not_also_a_streak_court():
    deals = [won_by(0, CALLERS_7_4) for _ in range(6)] + [won_by(0, [1] * 7)]
    v = verdict("court-piece", deals)
    last = v["deals"][-1]["result"]
    assert last["kind"] == "court" and last["courts"] == [0, 1] and not last["streak_court"]
    assert v["match"]["streak"] == [0, 0]


# -- points (§7) --------------------------------------------------------------------

@pytest.mark.parametrize("winners, kind, points", [
    (CALLERS_7_4, "win", [0, 1]),
    ([0, 1, 0, 2, 1, 0, 2, 3, 2, 1, 0], "win", [2, 0]),
    ([1] * 7, "court", [0, 3]),
    ([0] * 7, "goon_court", [4, 0]),
])
def test_points_callers_1_defenders_2_court_3_goon_4(winners, kind, points):
    d = only(verdict("rr-single-sir", [won_by(0, winners)]))
    assert d["result"]["kind"] == kind and d["result"]["points"] == points


def test_points_seventh_deal_in_a_row_adds_two():
    v = verdict("court-piece", [won_by(0, CALLERS_7_4) for _ in range(7)], scoring="points")
    assert v["deals"][6]["result"]["points"] == [0, 3] and v["deals"][6]["result"]["streak_court"]
    assert v["match"]["points"] == [0, 9] and v["match"]["courts"] == [0, 0]


def test_points_match_ends_at_the_target_and_further_deals_are_errors():
    deals = [won_by(0, [1] * 7), won_by(2, [3] * 7), won_by(0, [1] * 7), won_by(2, [3] * 7)]
    v = verdict("rr-single-sir", deals)
    assert v["match"]["points"] == [0, 12] and v["match"]["winner"] == 1 and v["match"]["finished"]
    assert v["next"] is None
    assert [e["code"] for e in v["errors"]] == []
    v = verdict("rr-single-sir", deals + [won_by(0, [1] * 7)])
    assert v["errors"] == [{"code": "play_after_end", "deal": 4, "event": None,
                            "rule": ["record.after-end", "match.target", "R-20"],
                            "message": "the match was won by team 1 before deal 5"}]


def test_rr_preset_scored_in_courts_plays_to_three():
    v = verdict("rr-single-sir", [won_by(0, [1] * 7)], scoring="rr-courts")
    assert v["match"]["target"] == 3
    assert v["deals"][0]["result"]["courts"] == [0, 1] and v["deals"][0]["result"]["points"] == [0, 0]


def test_null_target_never_finishes():
    v = verdict("court-piece", [won_by(0, [1] * 12, n=13)])
    assert v["match"]["courts"] == [0, 52] and v["match"]["winner"] is None and not v["match"]["finished"]
