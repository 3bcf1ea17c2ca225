"""Double Sir (pile.*): the pile and who collects it."""
import pytest

from tests.helpers import verdict, won_by

# Dealer 0, caller 1. Partnerships: A=0, C=2 (team 0); B=1, D=3 (team 1).
A, B, C, D = 0, 1, 2, 3


def pile_deal(winners, preset="double-sir", n=None, **options):
    v = verdict(preset, [won_by(0, winners, n=n, **{k: options.pop(k) for k in ("suits", "by_rank") if k in options})],
                **options)
    assert v["valid"], v["errors"]
    return v["deals"][0], v


def collections(deal):
    return [(t["number"], t["collected_by"], t["collected"], t["pile_after"]) for t in deal["tricks"]]


def test_partners_do_not_collect_the_same_player_twice_in_a_row_does():
    # 4 tricks in the centre; A wins, then C wins: 6 in the centre; C wins again: C takes all 7 for AC.
    d, _ = pile_deal([B, D, B, D, A, C, C], n=7)
    assert [t["pile_after"] for t in d["tricks"]] == [1, 2, 3, 4, 5, 6, 0]
    assert d["tricks"][6]["collected_by"] == 0 and d["tricks"][6]["collected"] == 7
    assert d["tricks_won"] == [7, 0] and d["status"] == "in_progress"


def test_a_third_win_in_a_row_does_not_collect_two_more_are_needed():
    d, _ = pile_deal([B, D, C, C, C, C], n=6)
    assert collections(d)[3:] == [(4, 0, 4, 0), (5, None, 0, 1), (6, 0, 2, 0)]


def test_the_thirteenth_trick_takes_the_rest_without_winning_the_twelfth():
    d, _ = pile_deal([B, D] * 6, n=13)  # nobody ever wins twice in a row
    assert [t["collected_by"] for t in d["tricks"][:12]] == [None] * 12
    last = d["tricks"][12]
    assert last["winner"] == D and last["collected_by"] == 1 and last["collected"] == 13
    assert d["tricks_won"] == [0, 13] and d["pile"] == 0


def test_seven_collected_but_none_for_the_other_team_play_goes_on():
    d, _ = pile_deal([B] * 8 + [A, A], n=10)
    assert d["tricks_won"] == [2, 8]
    assert d["status"] == "complete" and len(d["tricks"]) == 10
    d, _ = pile_deal([B] * 8, n=8)
    assert d["tricks_won"] == [0, 8] and d["status"] == "in_progress"


def test_all_thirteen_collected_by_the_callers_is_a_court():
    d, _ = pile_deal([B] * 12, n=13)
    assert d["result"]["kind"] == "court" and d["result"]["courts"] == [0, 1] and d["next_dealer"] == 2


@pytest.mark.parametrize("goon, courts", [(None, 3), (10, 10)])
def test_goon_court_of_thirteen_is_worth_three_or_the_option(goon, courts):
    options = {} if goon is None else {"goon_court_courts": goon}
    d, _ = pile_deal([A] * 12, n=13, **options)
    assert d["result"]["kind"] == "goon_court" and d["result"]["courts"] == [courts, 0]


def test_rr_double_sir_scores_points():
    d, v = pile_deal([B, B, A, A, B, B, B, B, B, B], preset="rr-double-sir")
    assert d["tricks_won"] == [2, 8] and d["result"]["points"] == [0, 1]


def test_first_pair_option_tricks_one_and_two_do_not_collect_but_the_run_goes_on():
    d, _ = pile_deal([B, B, B, D], n=4)
    assert collections(d)[:2] == [(1, None, 0, 1), (2, 1, 2, 0)]
    d, _ = pile_deal([B, B, B, D], n=4, pile_first_pair_collects=False)
    assert collections(d)[:3] == [(1, None, 0, 1), (2, None, 0, 2), (3, 1, 3, 0)]


def test_no_collection_after_listed_tricks():
    winners = [B, D] * 5 + [A, A]  # A wins 11 and 12
    d, _ = pile_deal(winners, n=12)
    assert d["tricks"][11]["collected"] == 12
    d, _ = pile_deal(winners, n=13, pile_no_collect_after=[11, 12])
    assert d["tricks"][11]["collected_by"] is None and d["tricks"][11]["pile_after"] == 12
    assert d["tricks"][12]["collected"] == 13 and d["tricks"][12]["winner"] == A


def test_ace_on_ace_does_not_collect_and_the_run_is_not_broken():
    # by_rank: tricks 1-4 are won by the four aces, trick 5 by a ten.
    d, _ = pile_deal([B] * 5, n=5, by_rank=True, suits="SHDC")
    assert collections(d) == [(1, None, 0, 1), (2, 1, 2, 0), (3, None, 0, 1), (4, 1, 2, 0), (5, None, 0, 1)]
    d, _ = pile_deal([B] * 5, n=5, by_rank=True, suits="SHDC", pile_ace_on_ace=True)
    assert collections(d) == [(1, None, 0, 1), (2, None, 0, 2), (3, None, 0, 3), (4, None, 0, 4), (5, 1, 5, 0)]


def test_trump_ace_cannot_seal_a_pair():
    # Trump S. Trick 1 won by AH, trick 2 by AS (the trump ace), trick 3 by AD.
    d, _ = pile_deal([B] * 3, n=3, by_rank=True, suits="HSDC")
    assert collections(d)[1] == (2, 1, 2, 0)
    d, _ = pile_deal([B] * 3, n=3, by_rank=True, suits="HSDC", pile_trump_ace_no_seal=True)
    assert collections(d) == [(1, None, 0, 1), (2, None, 0, 2), (3, 1, 3, 0)]


def test_next_shows_the_pile_and_who_would_collect():
    _, v = pile_deal([B, D, C], n=3)
    assert v["next"]["pile"] == 3 and v["next"]["collector"] == C and v["next"]["to_play"] == C
    _, v = pile_deal([B, D, C, C], n=4)
    assert v["next"]["pile"] == 0 and v["next"]["collector"] is None


def test_a_revoke_in_a_pile_game_is_a_penalty_court():
    from tests.helpers import deal, ev

    events = ev("1:AH 2:2D 3:4H 0:5H 1:TH 2:7H 3:8H 0:9H")
    v = verdict("double-sir", [deal(0, events, {"suit": "S"})])
    d = v["deals"][0]
    assert d["status"] == "ended_by_penalty" and d["result"]["kind"] == "penalty_court"
    assert d["result"]["courts"] == [0, 1]
