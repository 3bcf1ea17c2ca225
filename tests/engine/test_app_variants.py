"""The deployed apps' games (docs/rules.md pile.each-win, dealer.rotate, score.deals): concrete deals,
many of them the apps' own tests replayed as records. The apps number seats 1-4 with teams A (1, 3)
and B (2, 4); here seat s-1, so team A is team 0."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import adjudicate, resolve
from referee.engine.simulate import random_record
from tests.helpers import deal, ev, verdict, won_by

seeds = st.integers(min_value=0, max_value=2**32 - 1)

EACH_WIN = {"pile_after_collect": "each_win"}


def collections(winners, **options):
    """Who collects how many, trick by trick, when seats win the tricks in turn (dealer 3)."""
    n = len(winners)
    v = verdict("double-sir", [won_by(3, winners, n=n)], **{**EACH_WIN, **options})
    assert v["valid"], v["errors"]
    d = v["deals"][0]
    return [(t["collected_by"], t["collected"]) for t in d["tricks"] if t["collected_by"] is not None], d


@pytest.mark.parametrize("app_winners, expected", [
    ([1, 1], [(0, 2)]),                                     # Example 1
    ([1, 1, 1], [(0, 2), (0, 1)]),                          # Example 2
    ([1, 2], []),                                           # Example 3
    ([1, 2, 2], [(1, 3)]),                                  # Example 4
    ([1, 2, 3, 4, 4], [(1, 5)]),                            # Example 5
    ([1, 2, 1, 1], [(0, 4)]),                               # Example 6
    ([1, 3], []),                                           # Example 7
    ([2, 2, 2, 2, 2], [(1, 2), (1, 1), (1, 1), (1, 1)]),    # Example 8
    ([1, 2, 3, 1, 1], [(0, 5)]),                            # Example 9
])
def test_each_win_the_apps_worked_examples(app_winners, expected):
    """aman2225/Double-Sir: engine/__tests__/streak.test.ts, "Example 1" to "Example 9"."""
    got, _ = collections([s - 1 for s in app_winners])
    assert got == expected


def test_each_win_an_interrupted_hot_streak_needs_a_new_pair():
    """aman2225/Double-Sir: streak.test.ts, "an established hot streak interrupted by another
    player fully resets": P2 P2 P2 collect 2 + 1, P4 then starts over with a pile of one."""
    got, d = collections([1, 1, 1, 3])
    assert got == [(1, 2), (1, 1)]
    assert d["tricks"][3]["collected_by"] is None and d["pile"] == 1
    assert [t["rule"] for t in d["tricks"][1:3]] == [["pile.collect"], ["pile.each-win"]]


def test_new_run_the_default_a_third_win_does_not_collect():
    """The same winners without the option: §6's new run (P2 P2 P2: 2, then nothing)."""
    got, _ = collections([1, 1, 1], pile_after_collect="new_run")
    assert got == [(1, 2)]


def test_each_win_the_thirteenth_trick_takes_the_rest():
    """aman2225/Double-Sir: streak.test.ts, "trick 13 forced collection": P1 wins 11, P2 wins 12,
    P3 wins 13 without a pair and takes everything for team A."""
    winners = [1, 3] * 5 + [0, 1, 2]
    got, d = collections(winners)
    assert got == [(0, 13)] and d["tricks"][12]["rule"] == ["pile.last-trick"]


def test_each_win_a_fresh_pair_on_the_thirteenth_takes_everything():
    """aman2225/Double-Sir: streak.test.ts, "trick 13 that naturally completes a fresh 2-streak
    captures everything, not just 2"."""
    winners = [0, 1, 2, 3] * 2 + [0, 1, 2, 3, 3]
    got, d = collections(winners)
    assert got == [(1, 13)] and d["tricks"][12]["rule"] == ["pile.collect"]


def test_each_win_a_hot_streak_on_the_thirteenth_takes_one():
    """aman2225/Double-Sir: streak.test.ts, "trick 13 continuing an already-established hot streak
    still captures just that one trick"."""
    got, d = collections([0, 2] * 5 + [1, 1, 1])
    assert got == [(1, 12), (1, 1)] and d["pile"] == 0


@pytest.mark.parametrize("app_winners", [
    [1, 2, 3, 4, 2, 2, 1, 3, 3, 4, 1, 1, 2],
    [1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
])
def test_each_win_all_thirteen_are_collected(app_winners):
    """aman2225/Double-Sir: streak.test.ts, "invariant: teamAHands + teamBHands always equals 13"
    and "invariant holds even when the same player runs a hot streak through to trick 13"."""
    _, d = collections([s - 1 for s in app_winners])
    assert len(d["tricks"]) == 13 and sum(d["tricks_won"]) == 13 and d["status"] == "complete"


def test_each_win_an_option_blocking_a_hot_trick_keeps_the_run():
    """R-8 with each_win: no collection after trick 3, so P2's third win stays in the pile and
    the fourth collects both."""
    got, d = collections([1, 1, 1, 1], pile_no_collect_after=[3])
    assert got == [(1, 2), (1, 2)]
    assert d["tricks"][2]["rule"] == ["pile.no-collect-after", "R-8"]


def test_next_names_the_hot_player_as_collector():
    v = verdict("double-sir", [won_by(3, [1, 1], n=2)], **EACH_WIN)
    assert v["next"]["collector"] == 1
    v = verdict("double-sir", [won_by(3, [1, 1], n=2)])
    assert v["next"]["collector"] is None


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["double-sir", "hidden-rung", "be-ranga-double-sar", "rr-double-sir"]), seeds)
def test_each_win_random_games_collect_every_trick_played(preset, seed):
    """Every finished deal has collected all of its tricks and ended by end.pile, not a trick later."""
    record = random_record(preset, resolve(preset, EACH_WIN), 3, random.Random(seed), EACH_WIN)
    v = adjudicate(record)
    assert v["valid"], v["errors"]
    for d in v["deals"]:
        won, n = d["tricks_won"], len(d["tricks"])
        assert sum(won) == n and d["pile"] == 0
        assert n == 13 or (max(won) >= 7 and min(won) >= 1)
        before = [0, 0]
        for t in d["tricks"][:-1]:
            if t["collected_by"] is not None:
                before[t["collected_by"]] += t["collected"]
            assert not (max(before) >= 7 and min(before) >= 1)


# -- dealer_rule: rotate ----------------------------------------------------------------------

def test_rotate_passes_the_deal_to_the_right_whatever_the_result():
    # By the result, a callers' court (deal 0) sends the deal to the dealer's partner, the
    # defenders winning (deal 1) to the right, a callers' plain win (deal 2) to the same dealer.
    deals = [won_by(0, [1] * 7), won_by(1, [1] * 7), won_by(2, [0] * 3 + [1] * 7)]
    v = verdict("court-piece", deals, dealer_rule="rotate", play_on=False)
    assert v["valid"] and [d["violations"] for d in v["deals"]] == [[], [], []]
    assert [d["next_dealer"] for d in v["deals"]] == [1, 2, 3]
    assert [d["next_dealer_rule"] for d in v["deals"]] == [["dealer.rotate"]] * 3
    assert v["next"]["dealer"] == 3 and v["next"]["caller"] == 0
    plain = verdict("court-piece", deals[:1], play_on=False)
    assert plain["deals"][0]["next_dealer"] == 2  # by the result: a callers' court


def test_rotate_a_dealer_out_of_turn_is_wrong_dealer():
    v = verdict("court-piece", [won_by(0, [1] * 7), won_by(2, [1] * 7)], dealer_rule="rotate", play_on=False)
    assert [x["code"] for x in v["deals"][1]["violations"]] == ["wrong_dealer"]


def test_rotate_a_redeal_is_dealt_again_by_the_same_dealer():
    v = verdict("court-piece", [deal(0, [], {"redeal": True})], dealer_rule="rotate", weak_hand_redeal=True)
    assert v["deals"][0]["next_dealer"] == 0 and v["deals"][0]["next_dealer_rule"] == ["dealer.redeal", "R-9"]


# -- scoring: deals -----------------------------------------------------------------------------

# SaeedBolhasani/CourtPiece's RoomTest: each row is the cards of player1..player4 and the index
# of the trick's winner; trump hearts; the hand ends when a team has 7 tricks.
ROOM_TEST = [
    ("AH 4H 2H 3H", 0), ("9S QS TS 2S", 1), ("KS AS 5S JS", 1), ("KD 3D 2D JD", 0),
    ("AD QD 6D 7D", 0), ("JC 7C 4C AC", 3), ("2C 8S 3C KC", 3), ("5C JH 8C 6C", 1),
    ("7H KH 5H TC", 1), ("9H QH TH 3S", 1),
]


def room_test_deal(dealer: int) -> dict:
    """The test's hand as a record: each trick is led by the previous trick's winner."""
    leader, plays = (dealer + 1) % 4, []
    for cards, winner in ROOM_TEST:
        by_seat = cards.split()
        plays += [f"{(leader + j) % 4}:{by_seat[(leader + j) % 4]}" for j in range(4)]
        leader = winner
    return deal(dealer, ev(" ".join(plays)), {"suit": "H"})


def test_deals_scoring_seven_deals_won_win_the_match():
    """SaeedBolhasani/CourtPiece: RoomTest.Join4PlayerToOneRandomRoom_Play7Hands_WinnerIsTeam2.
    Player1 calls the first hand (dealer seat 3); team 2 (seats 1, 3) wins every hand 7-3, so
    player2 calls from then on (seat 0 deals again: the callers won); after 7 hands won, team 2
    wins the match."""
    deals = [room_test_deal(3)] + [room_test_deal(0) for _ in range(6)]
    v = verdict("court-piece", deals, scoring="deals", target=7)
    assert v["valid"], v["errors"]
    assert [d["tricks_won"] for d in v["deals"]] == [[3, 7]] * 7
    assert all(d["violations"] == [] for d in v["deals"])
    assert [d["result"]["points"] for d in v["deals"]] == [[0, 1]] * 7
    assert v["deals"][0]["result"]["rule"] == ["end.seven", "score.deals"]
    assert v["match"]["points"] == [0, 7] and v["match"]["courts"] == [0, 0]
    assert v["match"]["winner"] == 1 and v["match"]["finished"] and v["next"] is None
    six = verdict("court-piece", deals[:6], scoring="deals", target=7)
    assert six["match"]["winner"] is None and six["next"]["dealer"] == 0


def test_deals_scoring_a_court_is_one_deal_no_streaks():
    deals = [won_by(0, [1] * 7)] + [won_by(2, [3] * 7)] * 7
    v = verdict("court-piece", deals, scoring="deals", play_on=False)
    assert v["deals"][0]["result"]["kind"] == "court" and v["deals"][0]["result"]["points"] == [0, 1]
    assert v["match"]["points"] == [0, 8] and v["match"]["courts"] == [0, 0]
    assert not any(d["result"]["streak_court"] for d in v["deals"])


def test_deals_scoring_a_revoke_penalty_is_a_deal_won():
    # Seat 3 shows out of spades at trick 1 and plays a spade at trick 2: a revoke.
    d = verdict("court-piece", [deal(0, ev("1:AS 2:KS 3:QH 0:2S 1:3S 2:4S 3:5S 0:6S"), {"suit": "S"})],
                scoring="deals")["deals"][0]
    assert d["status"] == "ended_by_penalty" and d["result"]["points"] == [1, 0]
