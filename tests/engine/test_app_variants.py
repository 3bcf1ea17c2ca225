"""The deployed apps' games (docs/rules.md pile.each-win, dealer.rotate, score.deals): concrete deals,
many of them the apps' own tests replayed as records. The apps number seats 1-4 with teams A (1, 3)
and B (2, 4); here seat s-1, so team A is team 0."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import adjudicate, resolve
from referee.engine.simulate import random_record
from tests.helpers import deal, ev, script, verdict, won_by

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


# -- preset bid-double-sir (record.bid, end.bid, score.bid-penalty) -------------------------------

def bid_deal(dealer: int, bidder: int, tricks: int, winners: list[int], trump="S", by=None) -> dict:
    """A bidding deal: the bidder leads trick 1; trick k is won by winners[k] (13 given: all)."""
    full = (winners + [winners[-1]] * 12)[:12]
    last = winners[12] if len(winners) == 13 else None
    events = script(bidder, full, suits=trump + "".join(s for s in "SHDC" if s != trump), last=last)
    d = deal(dealer, events[:4 * len(winners)], {"suit": trump, **({"by": by} if by is not None else {})})
    d["bid"] = {"seat": bidder, "tricks": tricks}
    return d


def bid_verdict(deals, **options):
    v = verdict("bid-double-sir", deals, **options)
    assert v["valid"], v["errors"]
    return v


def test_a_bid_made_ends_the_deal_at_once():
    """aman2225/Double-Sir: earlyBreak.test.ts, "triggers Early Success immediately when bidder
    team reaches declared bid": seat 0 bids 7; its team has collected 6 on a hot streak and the
    next win makes 7: the other team gets 7 penalty points."""
    d = bid_verdict([bid_deal(3, 0, 7, [1, 0, 0, 0, 0, 0, 0])])["deals"][0]
    assert d["bid"] == {"seat": 0, "tricks": 7} and d["caller"] == 0 and d["tricks"][0]["leader"] == 0
    assert d["tricks_won"] == [7, 0] and len(d["tricks"]) == 7 and d["status"] == "complete"
    assert d["result"]["kind"] == "bid_made" and d["result"]["winner"] == 0
    assert d["result"]["points"] == [0, 7] and d["result"]["rule"] == ["end.bid", "score.bid-penalty"]
    shorter = bid_verdict([bid_deal(3, 0, 7, [1, 0, 0, 0, 0, 0])])["deals"][0]
    assert shorter["status"] == "in_progress" and shorter["tricks_won"] == [6, 0]


def test_a_bid_out_of_reach_fails_at_once():
    """aman2225/Double-Sir: earlyBreak.test.ts, "triggers Early Failure when bidder team cannot
    mathematically reach declared bid": seat 0 bids 10; the other team's fourth collected trick
    leaves at most 9: the bidders get 20."""
    d = bid_verdict([bid_deal(3, 0, 10, [0, 0, 1, 1, 1, 1])])["deals"][0]
    assert d["tricks_won"] == [2, 4] and d["status"] == "complete"
    assert d["result"]["kind"] == "bid_failed" and d["result"]["winner"] == 1 and d["result"]["points"] == [20, 0]


def test_the_opponents_break_the_bid():
    """aman2225/Double-Sir: earlyBreak.test.ts, "triggers Opponent Break Condition when opponents
    reach enough hands to defeat the bid": seat 0 bids 8, the other team collects 6 (13 - 6 < 8)."""
    d = bid_verdict([bid_deal(3, 0, 8, [0, 0, 0, 1, 1, 1, 1, 1, 1])])["deals"][0]
    assert d["tricks_won"] == [3, 6] and len(d["tricks"]) == 9
    assert d["result"]["points"] == [16, 0]


@pytest.mark.parametrize("bidder, tricks, winners, won, points", [
    (1, 9, [1, 3] * 4 + [1, 1], [0, 10], [9, 0]),         # B bids 9, takes 10: A +9, no bonus
    (0, 7, [0] * 6 + [1] * 7, [6, 7], [14, 0]),           # A bids 7, takes 6: A +14
    (0, 10, [0] * 8 + [1] * 4, [8, 4], [20, 0]),          # A bids 10, takes 8: A +20
])
def test_the_apps_scoring_examples(bidder, tricks, winners, won, points):
    """aman2225/Double-Sir: scoring.test.ts, the "spec example" tests, as whole deals (a bid
    of 9 made with 10: the pile collected the tenth with the ninth)."""
    d = bid_verdict([bid_deal(3, bidder, tricks, winners)])["deals"][0]
    assert d["tricks_won"] == won and d["result"]["points"] == points


def test_the_team_that_reaches_53_loses_the_match():
    """aman2225/Double-Sir: match.test.ts, "match continues below the threshold" (52-52) and
    "match ends the instant a team reaches 53+ penalty; the OTHER team wins". Bids of 13 broken
    at once cost 26 each; the dealer moves right every deal and any seat may bid."""
    failed = [bid_deal(d, b, 13, [1 - b % 2] * 2) for d, b in [(0, 0), (1, 1), (2, 2), (3, 3)]]
    v = bid_verdict(failed)
    assert v["match"]["points"] == [52, 52] and v["match"]["winner"] is None
    assert [d["next_dealer"] for d in v["deals"]] == [1, 2, 3, 0]
    assert v["next"] == {"deal": 4, "dealer": 0, "caller": None, "trick": None, "to_play": None, "legal": None}
    v = bid_verdict(failed + [bid_deal(0, 0, 7, [0] * 7)])
    assert v["match"]["points"] == [52, 59] and v["match"]["winner"] == 0 and v["match"]["finished"]
    assert v["match"]["rule"] == ["match.target", "score.bid-penalty"] and v["next"] is None


def test_a_custom_target():
    """aman2225/Double-Sir: match.test.ts, "supports custom target points limit (e.g., 101 points)"."""
    v = verdict("bid-double-sir", [bid_deal(d % 4, 0, 13, [1, 1]) for d in range(4)], target=101)
    assert v["match"]["points"] == [104, 0] and v["match"]["winner"] == 1
    v = verdict("bid-double-sir", [bid_deal(d % 4, 0, 13, [1, 1]) for d in range(3)], target=101)
    assert v["match"]["points"] == [78, 0] and v["match"]["winner"] is None


def test_trump_called_by_anyone_but_the_bidder_is_wrong_caller():
    d = bid_verdict([bid_deal(3, 0, 7, [0] * 7, by=2)])["deals"][0]
    assert [(x["code"], x["seat"], x["rule"]) for x in d["violations"]] == [
        ("wrong_caller", 2, ["trump.pass", "R-22", "record.bid"])]
    assert bid_verdict([bid_deal(3, 0, 7, [0] * 7, by=0)])["deals"][0]["violations"] == []


def test_a_revoke_penalty_makes_or_breaks_the_bid_for_the_offended_team():
    # Seat 0 bids 7 and leads AS; seat 1 shows out, later plays a spade: the bidders are offended.
    d = bid_verdict([deal(3, ev("0:AS 1:QH 2:KS 3:2S 0:3S 1:4S 2:5S 3:6S"), {"suit": "S"})
                     | {"bid": {"seat": 0, "tricks": 7}}])["deals"][0]
    assert d["status"] == "ended_by_penalty"
    assert d["result"]["kind"] == "penalty_court" and d["result"]["points"] == [0, 7]


def test_a_bid_where_there_is_no_bidding_and_a_bidding_deal_without_one_are_record_errors():
    # The engine alone (no validator in front): the record error bad_bid.
    v = verdict("court-piece", [won_by(0, [1] * 7) | {"bid": {"seat": 1, "tricks": 7}}])
    assert [(e["code"], e["deal"], e["rule"]) for e in v["errors"]] == [("bad_bid", 0, ["record.bid"])]
    v = verdict("bid-double-sir", [won_by(0, [1] * 7)])
    assert [e["code"] for e in v["errors"]] == ["bad_bid"]


# -- preset band-rang (end.deciding-pair, end.deciding-pair-ace, trump.hidden.opponent) ---------------
# Dealer 0 in every deal: seat 1 calls, so team 1 are the callers and seats 0, 2 the defenders.

def band(deals, **options):
    v = verdict("band-rang", deals, **options)
    assert v["valid"], v["errors"]
    return v["deals"][0]


def test_open_a_defenders_pair_ending_on_trick_three_decides():
    """asifjanjua88/rung-court-piece: WinCondition.test.ts, Scenario B "wins with pair ending at
    trick 3" (tricks 2 and 3 by the same defender)."""
    d = band([won_by(0, [1, 0, 0])])
    assert d["status"] == "complete" and len(d["tricks"]) == 3
    assert d["result"]["kind"] == "deciding_pair" and d["result"]["winner"] == 0 and d["result"]["pair"] == [2, 3]
    assert d["result"]["points"] == [1, 0] and d["tricks"][2]["rule"] == ["end.deciding-pair"]
    assert d["next_dealer"] == 1  # the defenders won: the deal passes to the right


def test_open_a_pair_of_tricks_one_and_two_does_not_decide_but_a_run_goes_on():
    """WinCondition.test.ts, Scenario B "does NOT win with pair ending at trick 2": a run of three
    from trick 1 decides at trick 3 (the pair 2-3)."""
    assert band([won_by(0, [0, 0])])["status"] == "in_progress"
    assert band([won_by(0, [0, 0, 1])])["status"] == "in_progress"
    assert band([won_by(0, [0, 0, 0])])["result"]["pair"] == [2, 3]


def test_open_a_later_pair_decides_and_partners_do_not_make_a_pair():
    """WinCondition.test.ts, Scenario B "wins later in the game (trick 8)" and "does NOT win with
    only 1 consecutive"; the app's same-player rule: seats 0 and 2 in turn are no pair."""
    d = band([won_by(0, [1, 3, 1, 3, 0, 2, 0, 2])])
    assert d["status"] == "in_progress" and d["result"] is None
    d = band([won_by(0, [1, 3, 1, 3, 0, 2, 2, 2])])
    assert d["result"]["pair"] == [7, 8] and d["result"]["winner"] == 0


def test_open_the_callers_win_when_no_defenders_pair_counts():
    """WinCondition.test.ts, Scenario B "calling team wins at trick 13 when non-calling never got 2
    consecutive"; the callers' own pairs never count in the open form."""
    d = band([won_by(0, [1, 1, 1, 0, 1, 2, 3, 3, 0, 3, 2, 3, 2])])
    assert len(d["tricks"]) == 13 and d["result"]["kind"] == "no_pair" and d["result"]["winner"] == 1
    assert d["result"]["rule"] == ["end.deciding-pair", "score.deals"] and "pair" not in d["result"]
    assert d["next_dealer"] == 0  # the callers won: the same dealer


def test_open_a_defenders_pair_on_trick_thirteen_takes_priority():
    """WinCondition.test.ts, Scenario B "non-calling win takes priority over trick 13"."""
    d = band([won_by(0, [1, 3] * 5 + [1, 2, 2])])
    assert d["result"]["kind"] == "deciding_pair" and d["result"]["pair"] == [12, 13] and d["result"]["winner"] == 0


def test_the_ace_rule_defers_a_pair_completed_by_an_ace():
    """asifjanjua88/rung-court-piece: AceException.test.ts, "game ends when same team wins next trick
    with non-Ace": seat 0 wins tricks 3 and 4, the 4th with an ace; the 5th, with a ten, decides."""
    d = band([won_by(0, [1, 3, 0, 0, 0])])  # tricks 1, 4, 7, 10 are won by aces here
    assert d["tricks"][3]["winning_card"] == "AH" and d["tricks"][3]["rule"] == ["end.deciding-pair-ace"]
    assert d["result"]["pair"] == [4, 5] and d["tricks"][4]["rule"] == ["end.deciding-pair", "end.deciding-pair-ace"]
    assert band([won_by(0, [1, 3, 0, 0])])["status"] == "in_progress"
    plain = band([won_by(0, [1, 3, 0, 0])], deciding_pair_ace_rule=False)
    assert plain["result"]["pair"] == [3, 4]


def test_the_ace_rule_anyone_else_breaks_the_run():
    """AceException.test.ts, "does NOT end game when different team wins the next trick"."""
    d = band([won_by(0, [1, 3, 0, 0, 1, 0])])
    assert d["status"] == "in_progress"


def test_the_ace_rule_an_ace_again_restarts_the_run():
    """AceException.test.ts, "consecutive resets when same team plays Ace again": tricks 1-4 are won
    by aces; seat 0's pair 2-3 waits, the ace of trick 4 restarts the run, trick 5 (a ten) makes
    the pair 4-5."""
    d = band([won_by(0, [1, 0, 0, 0, 0], by_rank=True)])
    assert [t["winning_card"][0] for t in d["tricks"]] == ["A", "A", "A", "A", "T"]
    assert [t.get("rule") for t in d["tricks"]][2:4] == [["end.deciding-pair-ace"]] * 2
    assert d["result"]["pair"] == [4, 5]


HIDDEN = {"trump": "hidden"}


def hidden_deal(events: str) -> dict:
    return deal(0, ev(events), {"hidden": "2S"})


def hidden_won_by(winners: list[int], suits: str) -> dict:
    """won_by's deal with the caller's 2S face down (played, if at all, as its 13th card)."""
    return deal(0, won_by(0, winners, suits=suits)["events"], {"hidden": "2S"})


def test_hidden_the_callers_pair_counts_from_trick_nine():
    """WinCondition.test.ts, Scenario A "wins with tricks 8+9" and "does NOT win when pair ends on
    trick 8"; "does NOT win if rung not yet revealed" (the defenders' pairs before)."""
    d = band([hidden_won_by([0, 0, 0, 0, 2, 2, 2, 1, 1], "HDCS")], **HIDDEN)
    assert d["result"]["kind"] == "deciding_pair" and d["result"]["winner"] == 1 and d["result"]["pair"] == [8, 9]
    assert d["trump"]["revealed"] is None and d["trump"]["turned_up_at_end"]
    assert band([hidden_won_by([0, 0, 0, 0, 2, 2, 2, 1], "HDCS")], **HIDDEN)["status"] == "in_progress"


def test_hidden_the_winner_of_trick_thirteen_takes_a_deal_without_a_pair():
    """WinCondition.test.ts, Scenario A "whoever wins trick 13 wins — rung not revealed" (until the
    last trick): no pair in 12 tricks; the caller's 2S, a trump, takes trick 13 and the deal."""
    d = band([hidden_won_by([0, 1, 2, 3] * 3 + [1], "SHDC")], **HIDDEN)
    assert d["trump"]["revealed"]["trick"] == 13  # shown only at the last trick's show-out
    assert len(d["tricks"]) == 13 and d["tricks"][12]["winner"] == 1
    assert d["result"]["kind"] == "last_trick" and d["result"]["winner"] == 1


def test_hidden_an_opponents_show_out_shows_the_trump_and_their_pair_counts_from_trick_four():
    """WinCondition.test.ts, Scenario A "minimum trick 3 rule: reveal on trick 1, opponent needs pair
    3+4" and "does NOT win before trick 4 (pair 2+3)". Seat 2, a defender, cannot follow hearts at
    trick 1: the trump is shown and seat 2 trumps, then wins tricks 2-4."""
    events = "1:AH 2:3S 3:KH 0:QH  2:AD 3:4D 0:5D 1:6D  2:KD 3:7D 0:8D 1:9D  2:QD 3:TD 0:JD 1:2D"
    d = band([hidden_deal(events)], **HIDDEN)
    assert d["trump"]["revealed"] == {"trick": 1, "event": 1, "seat": 2, "how": "opponent_void",
                                      "rule": ["trump.hidden.opponent"]}
    assert d["tricks"][0]["cards"][1] == {"seat": 2, "card": "3S", "event": 1, "trump": True}
    assert d["result"]["pair"] == [3, 4] and d["result"]["winner"] == 0 and len(d["tricks"]) == 4
    assert band([hidden_deal(events.rsplit("  ", 1)[0])], **HIDDEN)["status"] == "in_progress"


def test_hidden_after_a_reveal_on_trick_five_the_defenders_need_a_pair_ending_on_six():
    """WinCondition.test.ts, Scenario A "wins when opponent gets 2 consecutive after reveal on trick 5
    (pair 5+6)" and "does NOT win when pair ends before minSecondTrick (pair 4+5)". Seat 3, the
    caller's partner, showing out at trick 4 shows nothing; seat 2 showing out at trick 5 does."""
    tricks = ["1:AC 2:3C 3:4C 0:5C", "1:KC 2:6C 3:7C 0:8C", "1:9C 2:TC 3:JC 0:QC", "0:AD 1:2D 2:3D 3:5H",
              "0:KD 1:5D 2:2C 3:6H", "0:QD 1:7D 2:8H 3:7H"]
    d = band([hidden_deal(" ".join(tricks))], **HIDDEN)
    assert d["trump"]["revealed"]["trick"] == 5 and d["trump"]["revealed"]["seat"] == 2
    assert d["result"]["pair"] == [5, 6] and d["result"]["winner"] == 0
    assert band([hidden_deal(" ".join(tricks[:5]))], **HIDDEN)["status"] == "in_progress"


def test_hidden_an_opponent_who_shows_out_must_trump():
    # With the hands: seat 2 holds spades, shows out of hearts with a club: must_trump_after_ask.
    hands = [["QH", "5D", "8D", "JD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
             ["AH", "6D", "9D", "2D", "2S", "3D", "4D", "7S", "8S", "9S", "TS", "JS", "QS"],
             ["3S", "AD", "KD", "QD", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
             ["KH", "4S", "7D", "TD", "5S", "6S", "JC", "QC", "KC", "AC", "KS", "AS", "JH"]]
    d = verdict("band-rang", [deal(0, ev("1:AH 2:2C 3:KH 0:QH"), {"hidden": "2S"}, hands)], **HIDDEN)["deals"][0]
    assert [(v["code"], v["seat"]) for v in d["violations"]] == [("must_trump_after_ask", 2)]
    assert d["status"] == "ended_by_penalty" and d["result"]["winner"] == 1


def test_a_band_rang_deal_without_the_option_is_unchanged():
    """The same winners in court-piece: no deciding pair, a plain seven-trick deal."""
    assert verdict("court-piece", [won_by(0, [1, 0, 0])])["deals"][0]["status"] == "in_progress"


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([{}, HIDDEN, {"deciding_pair_ace_rule": False}, HIDDEN | {"deciding_pair_ace_rule": False}]),
       seeds)
def test_band_rang_random_games_have_exactly_one_winner(overrides, seed):
    """Every finished deal goes to exactly one team, for one point, decided by a pair at its last
    trick or at trick 13; no deal ends at a trick where no rule decides it."""
    record = random_record("band-rang", resolve("band-rang", overrides), 3, random.Random(seed), overrides)
    v = adjudicate(record)
    assert v["valid"], v["errors"]
    for d in v["deals"]:
        r, n = d["result"], len(d["tricks"])
        assert r["winner"] in (0, 1) and sorted(r["points"]) == [0, 1] and r["points"][r["winner"]] == 1
        if r["kind"] == "deciding_pair":
            first, last = (d["tricks"][k - 1] for k in r["pair"])
            assert r["pair"][1] == n and first["winner"] == last["winner"] and last["winning_team"] == r["winner"]
        else:
            assert n == 13 and r["kind"] == ("last_trick" if overrides.get("trump") else "no_pair")
            assert r["winner"] == (d["tricks"][12]["winning_team"] if overrides.get("trump") else d["caller"] % 2)
    assert sum(v["match"]["points"]) == len(v["deals"])


def test_hidden_the_callers_cannot_show_the_trump():
    """Only an opponent's show-out shows it: the caller on lead, or the partner, revealing is bad_reveal."""
    v = verdict("band-rang", [hidden_deal("1:? 1:AS")], **HIDDEN)
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("bad_reveal", 0)]
    v = verdict("band-rang", [hidden_deal("1:AH 2:KH 3:?")], **HIDDEN)
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("bad_reveal", 2)]
    assert verdict("band-rang", [hidden_deal("1:AH")], **HIDDEN)["next"]["reveal"] is True  # seat 2, an opponent
    assert verdict("band-rang", [hidden_deal("1:AH 2:KH")], **HIDDEN)["next"]["reveal"] is False  # seat 3, a caller
