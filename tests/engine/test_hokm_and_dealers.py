"""The second set of deployed apps' rules (docs/rules.md score.hokm, dealer.caller-stays,
dealer.partner-on-callers-win, dealer.mendikot-partner, dealer.trump-setter, option.no-effect):
concrete deals, and a whole Hokm match as navidAbbasian/kibord's HokmRulesTest plays it.

With dealer d the caller (the Hakem) is seat d+1; in the app's words the Hakem stays while his
team wins and passes to the next seat (ours: the dealer's right) when it loses."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import OptionError, adjudicate, resolve
from referee.engine.options import effective
from referee.engine.simulate import random_record
from tests.helpers import deal, ev, verdict, won_by


def hokm(deals, **options):
    v = verdict("hokm", deals, **options)
    assert v["valid"], v["errors"]
    return v


def test_the_preset_is_court_piece_with_hokm_scoring_caller_stays_and_seven_points():
    o = resolve("hokm")
    assert (o.scoring, o.target, o.dealer_rule, o.play_on, o.end) == ("hokm", 7, "caller_stays", False, "seven")


def test_a_deal_won_scores_one_and_ends_at_seven_tricks():
    """HokmRulesTest, "hand ends as soon as a team reaches seven tricks": 7-3, one point."""
    d = hokm([won_by(3, [0] * 3 + [1] * 3 + [2] * 4)])["deals"][0]
    assert d["tricks_won"] == [7, 3] and len(d["tricks"]) == 10 and d["status"] == "complete"
    assert d["result"] == {"winner": 0, "kind": "win", "courts": [0, 0], "points": [1, 0], "streak_court": False,
                           "rule": ["end.seven", "score.hokm"]}


def test_a_kot_scores_two_and_the_hakem_calls_again():
    """HokmRulesTest, "kot seven to zero scores two points" (the Hakem stays)."""
    d = hokm([won_by(3, [0, 2] * 3 + [0])])["deals"][0]
    assert d["result"]["kind"] == "court" and d["result"]["points"] == [2, 0]
    assert d["result"]["rule"] == ["end.court", "score.hokm"]
    assert d["next_dealer"] == 3 and d["next_dealer_rule"] == ["dealer.caller-stays"]


def test_a_hakem_kot_scores_three_and_the_hakem_passes_to_the_next_seat():
    """HokmRulesTest, "hakem kot scores three points and hakem passes to next seat": seat 0 is the
    Hakem (dealer 3); seats 1 and 3 take the first seven: 3 points; seat 0 deals, seat 1 calls."""
    v = hokm([won_by(3, [1, 3] * 3 + [1])])
    d = v["deals"][0]
    assert d["result"]["kind"] == "goon_court" and d["result"]["points"] == [0, 3]
    assert d["next_dealer"] == 0 and d["next_dealer_rule"] == ["dealer.caller-stays"]
    assert v["next"]["dealer"] == 0 and v["next"]["caller"] == 1


def test_a_revoke_penalty_is_the_offended_teams_kot():
    # Seat 3 shows out of spades at trick 1 and plays a spade at trick 2: the callers are offended.
    d = hokm([deal(3, ev("0:AS 1:KS 2:QS 3:2H 0:3S 1:4S 2:5S 3:6S"), {"suit": "S"})])["deals"][0]
    assert d["status"] == "ended_by_penalty" and d["result"]["kind"] == "penalty_court"
    assert d["result"]["points"] == [2, 0] and d["next_dealer"] == 3
    # Seat 0, the Hakem, revokes: the defenders are offended, a Hakem kot.
    d = hokm([deal(3, ev("0:2H 1:AH 2:3H 3:4H 1:KS 2:2S 3:3S 0:5D 1:QS 2:4S 3:6S 0:7S"), {"suit": "S"})])["deals"][0]
    assert d["status"] == "ended_by_penalty" and d["result"]["points"] == [0, 3] and d["next_dealer"] == 0


def test_a_whole_hokm_match_to_seven_points():
    """Seat 0 is the first Hakem (dealer 3). A kot (2) and the Hakem stays; a win (1), he stays
    again; seats 1 and 3 win (1): seat 1 is Hakem; the Hakem's team shut out, a Hakem kot for
    seats 0 and 2 (3): seat 2 is Hakem and its team's win makes 7 points."""
    deals = [
        won_by(3, [0] * 7),                       # kot by the Hakem's team: 2-0
        won_by(3, [1, 1, 1] + [2] * 7),           # a win 7-3: 3-0
        won_by(3, [0, 0] + [3] * 7),              # seats 1, 3 win 7-2: 3-1; seat 0 deals
        won_by(0, [2, 0] * 3 + [2]),              # Hakem 1 shut out, a Hakem kot: 6-1; seat 1 deals
        won_by(1, [2] * 4 + [1] * 4 + [0] * 3),   # Hakem 2's team wins 7-4: 7-1
    ]
    v = hokm(deals)
    assert all(d["violations"] == [] for d in v["deals"])
    assert [d["caller"] for d in v["deals"]] == [0, 0, 0, 1, 2]
    assert [d["result"]["kind"] for d in v["deals"]] == ["court", "win", "win", "goon_court", "win"]
    assert [d["result"]["points"] for d in v["deals"]] == [[2, 0], [1, 0], [0, 1], [3, 0], [1, 0]]
    assert [d["next_dealer"] for d in v["deals"]] == [3, 3, 0, 1, 1]
    assert v["match"] == {"courts": [0, 0], "points": [7, 1], "streak": [0, 0], "target": 7, "winner": 0,
                          "finished": True, "rule": ["match.target"]}
    assert v["next"] is None
    four = hokm(deals[:4])
    assert four["match"]["winner"] is None and four["next"]["dealer"] == 1 and four["next"]["caller"] == 2


def test_the_closest_settings_before_hokm_flagged_the_kots_next_deal():
    """The issue's report: court-piece with scoring deals sends the deal after a kot to the dealer's
    partner, so the Hakem calling again is dealt by the wrong seat."""
    deals = [won_by(3, [0] * 7), won_by(3, [0] * 7)]
    old = verdict("court-piece", deals, scoring="deals", target=7, play_on=False)
    assert [x["code"] for x in old["deals"][1]["violations"]] == ["wrong_dealer"]
    assert hokm(deals)["match"]["points"] == [4, 0]


@pytest.mark.parametrize("winners, kind, nxt", [
    ([1] * 4 + [0] * 3 + [3] * 3, "win", 2),     # the callers (seats 1, 3) win 7-3: the partner deals
    ([1] * 7, "court", 2),                        # a court: the partner too
    ([0] * 7, "goon_court", 1),                   # the dealer's team wins: to the right
])
def test_partner_on_callers_win(winners, kind, nxt):
    """pratik97179/court_piece: dealer 0, seat 1 calls."""
    d = verdict("court-piece", [won_by(0, winners)], dealer_rule="partner_on_callers_win", play_on=False)["deals"][0]
    assert d["result"]["kind"] == kind and d["next_dealer"] == nxt
    assert d["next_dealer_rule"] == ["dealer.partner-on-callers-win"]
    by_result = verdict("court-piece", [won_by(0, winners)], play_on=False)["deals"][0]
    assert by_result["next_dealer"] == (0 if kind == "win" else nxt)


def first_void(dealer: int, winners: list[int]) -> dict:
    """won_by's deal with no trump recorded: single-suit tricks, tens in tricks 2, 5, 8 and 11;
    trick 13's four twos, where the seat after the leader shows out first and sets the trump."""
    d = won_by(dealer, winners, n=13)
    del d["trump"]
    return d


def test_mendikot_loser_deals_partner():
    """52-Patta: dealer 0, seats 1 and 3 (the callers) take three tens (a mendi): the dealer's
    partner deals next, not the same dealer."""
    winners = [1] * 10 + [0, 0]  # seat 0 takes trick 11's ten, seat 1 sets the trump and wins trick 13
    d = verdict("mendikot", [first_void(0, winners)], mendikot_loser_deals="partner")["deals"][0]
    assert d["result"]["kind"] == "mendi" and d["result"]["winner"] == 1 and d["result"]["tens"] == [1, 3]
    assert d["next_dealer"] == 2 and d["next_dealer_rule"] == ["dealer.mendikot", "R-18", "dealer.mendikot-partner"]
    same = verdict("mendikot", [first_void(0, winners)])["deals"][0]
    assert same["next_dealer"] == 0 and same["next_dealer_rule"][-1] == "dealer.callers-win"
    won = verdict("mendikot", [first_void(0, [0] * 12)], mendikot_loser_deals="partner")["deals"][0]
    assert won["result"]["winner"] == 0 and won["next_dealer"] == 1  # the dealer's team won: to the right


@pytest.mark.parametrize("winners, setter, winner, nxt", [
    ([1] * 11 + [0], 1, 1, 2),   # seat 1 sets the trump, its team wins: seat 3 leads next, seat 2 deals
    ([0] * 12, 1, 0, 1),         # seat 1 sets it, seats 0 and 2 win: seat 2 leads next, seat 1 deals
])
def test_next_deal_from_the_trump_setter(winners, setter, winner, nxt):
    """rashid2538/dehla-pakad: the next leader is the setter's partner when the setter's team won,
    else the seat after the setter; the dealer is the seat before that leader."""
    v = verdict("mendikot", [first_void(0, winners)], next_deal_from="trump_setter")
    d = v["deals"][0]
    assert d["trump"]["set"]["seat"] == setter and d["result"]["winner"] == winner
    assert d["next_dealer"] == nxt and d["next_dealer_rule"] == ["dealer.trump-setter"]
    assert v["next"]["caller"] == (nxt + 1) % 4


@pytest.mark.parametrize("preset, overrides, name", [
    ("court-piece", {"scoring": "deals", "kot": True}, "kot"),
    ("court-piece", {"scoring": "deals", "defenders_double": True}, "defenders_double"),
    ("hokm", {"goon_court_courts": 3}, "goon_court_courts"),
    ("court-piece", {"streak_points": 3}, "streak_points"),
    ("seven-courts", {"play_on": True}, "play_on"),
    ("court-piece", {"hidden_caller_face_down": True}, "hidden_caller_face_down"),
    ("mendikot", {"band_reveal": "ask"}, "band_reveal"),
    ("court-piece", {"pile_no_collect_after": [11, 12]}, "pile_no_collect_after"),
    ("court-piece", {"pile_trump_ace_no_seal": True}, "pile_trump_ace_no_seal"),
    ("court-piece", {"deciding_pair_ace_rule": True}, "deciding_pair_ace_rule"),
    ("court-piece", {"mendikot_loser_deals": "partner"}, "mendikot_loser_deals"),
    ("mendikot", {"dealer_rule": "rotate", "mendikot_loser_deals": "partner"}, "mendikot_loser_deals"),
    ("court-piece", {"next_deal_from": "trump_setter"}, "next_deal_from"),
    ("court-piece", {"tens_end": "settled"}, "tens_end"),
    ("mendikot", {"band_caller_reveals": False}, "band_caller_reveals"),
    ("mendikot", {"trump": "hidden", "band_caller_reveals": False}, "band_caller_reveals"),
])
def test_an_option_that_decides_nothing_is_refused_naming_it(preset, overrides, name):
    with pytest.raises(OptionError) as info:
        effective(preset, overrides)
    assert info.value.option == name and "has no effect here" in str(info.value)
    assert "option.no-effect" in str(info.value)
    assert resolve(preset, overrides)  # a record accepted before is still judged


@pytest.mark.parametrize("preset, overrides", [
    ("seven-courts", {"kot": True, "defenders_double": True}),
    ("court-piece", {"scoring": "deals", "kot": False}),          # the default: nothing to ignore
    ("hidden-rung", {"trump": "first_void"}),                     # the preset's face-down rule, not the record's
    ("mendikot", {"trump": "band", "band_reveal": "ask"}),
    ("double-sir", {"pile_trump_ace_no_seal": True}),
    ("mendikot", {"mendikot_loser_deals": "partner", "next_deal_from": "trump_setter"}),
    ("court-piece", {"scoring": "points", "goon_court_courts": 3, "streak_points": 3}),
    ("hokm", {"play_on": True}),
    ("dehla-pakad", {"tens_end": "settled"}),
    ("mendikot", {"trump": "band", "band_caller_reveals": False}),
])
def test_an_option_that_decides_something_is_accepted(preset, overrides):
    assert effective(preset, overrides) == resolve(preset, overrides)


# -- perfect play scores under hokm: the bell and a claim (R-32, R-34) ---------------------------------

def six_straight() -> dict:
    """Dealer 3: seat 0, the Hakem, has taken the first six tricks and leads AD to the seventh
    (every seat still holds three diamonds): whatever anyone plays, a kot."""
    return won_by(3, [0] * 6, hands=True)


def test_at_the_bell_perfect_play_makes_the_kot_and_scores_it_two():
    from tests.helpers import searching

    v = verdict_closed([six_straight()], searching(), abandoned_deal="perfect_play")
    d = v["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [7, 0]
    assert d["result"]["kind"] == "court" and d["result"]["points"] == [2, 0]
    assert v["match"]["points"] == [2, 0] and v["match"]["winner"] == 0


def test_a_claim_of_the_kot_is_settled_and_scored_two():
    from tests.helpers import searching

    d = six_straight()
    d["events"] += [{"seat": 0, "claim": 1}, {"seat": 1, "dispute": True}]
    v = verdict_closed([d], searching(), closed=False)
    deal0 = v["deals"][0]
    assert deal0["claim"]["held"] and deal0["claim"]["awarded"] == 1
    assert deal0["result"]["kind"] == "court" and deal0["result"]["points"] == [2, 0]


def verdict_closed(deals, settler, closed=True, **options):
    from referee.engine import adjudicate_dict

    record = {"preset": "hokm", "options": options, "deals": deals, **({"closed": True} if closed else {})}
    return adjudicate_dict(record, settler)


# -- tens_end: settled (end.tens-settled) --------------------------------------------------------------
# won_by's single-suit tricks put the tens in tricks 2, 5, 8 and 11, each to that trick's winner.

def tens_deal(winners: list[int]) -> dict:
    d = won_by(0, winners)
    del d["trump"]  # first_void: no one shows out before trick 13 here
    return d


def test_settled_a_sweep_ends_at_the_fourth_ten_as_a_whitewash():
    """The worked example: seat 1 wins tricks 1-11, the fourth ten in trick 11."""
    v = verdict("mendikot", [tens_deal([1] * 11)], tens_end="settled")
    assert v["valid"], v["errors"]
    d = v["deals"][0]
    assert d["status"] == "complete" and len(d["tricks"]) == 11 and d["tricks_won"] == [0, 11]
    assert d["tricks"][10]["rule"] == ["end.tens-settled"]
    assert d["result"]["kind"] == "whitewash" and d["result"]["points"] == [0, 3]
    assert d["result"]["rule"] == ["mendikot.tens", "end.tens-settled", "score.tens"]
    assert verdict("mendikot", [tens_deal([1] * 11)])["deals"][0]["status"] == "in_progress"  # all_tricks


def test_settled_three_one_ends_at_the_fourth_ten_and_nothing_after_is_played():
    d = verdict("mendikot", [tens_deal([1, 0] + [1] * 9)], tens_end="settled")["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [1, 10] and d["result"]["tens"] == [1, 3]
    assert d["result"]["kind"] == "mendi" and d["result"]["points"] == [0, 1]
    more = verdict("mendikot", [tens_deal([1, 0] + [1] * 10)], tens_end="settled")
    assert [(e["code"], e["event"]) for e in more["errors"]] == [("play_after_end", 44)]


def test_settled_two_two_ends_when_a_team_has_seven_tricks():
    # Seats 0 and 2 take tricks 1-6 (the tens of tricks 2 and 5), seat 1 tricks 7-12 (8 and 11):
    # all four tens are in at trick 11, 2-2, but 6-5: play goes on; trick 12 makes 6-6, trick 13 7-6.
    d = verdict("mendikot", [tens_deal([0] * 6 + [1] * 6)], tens_end="settled")["deals"][0]
    assert d["status"] == "in_progress" and d["result"] is None
    # Seat 0 takes tricks 1-7 (tens 2, 5), seat 1 tricks 8-11 (tens 8, 11): 2-2 with 7 tricks: the end.
    d = verdict("mendikot", [tens_deal([0] * 7 + [1] * 4)], tens_end="settled")["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [7, 4]
    assert d["result"]["kind"] == "win" and d["result"]["winner"] == 0 and d["result"]["tens"] == [2, 2]


def test_settled_in_a_pile_game_counts_only_the_tens_collected():
    """dehla-pakad: with no trump set yet no pair collects (pile.delayed, R-15), so the four tens
    won by seat 1 lie in the pile: nothing is settled and play goes on."""
    d = verdict("dehla-pakad", [tens_deal([1] * 11)], tens_end="settled")["deals"][0]
    assert d["status"] == "in_progress" and d["tricks_won"] == [0, 0] and d["pile"] == 11


# -- band_caller_reveals: false (trump.band.caller-reveals) ---------------------------------------------
# Dealer 0: seat 1 calls and lays the band trump (2S).

BAND_ASK = {"trump": "band", "band_reveal": "ask"}


def test_the_caller_may_not_show_the_band_trump_on_lead():
    v = verdict("mendikot", [deal(0, ev("1:? 1:AS"), {"hidden": "2S"})], **BAND_ASK, band_caller_reveals=False)
    assert [(e["code"], e["event"], e["rule"]) for e in v["errors"]] == [("bad_reveal", 0, ["trump.hidden.lead", "R-13"])]
    assert "trump.band.caller-reveals" in v["errors"][0]["message"]
    assert verdict("mendikot", [deal(0, ev("1:? 1:AS"), {"hidden": "2S"})], **BAND_ASK)["valid"]  # the default
    start = verdict("mendikot", [deal(0, [], {"hidden": "2S"})], **BAND_ASK, band_caller_reveals=False)
    assert start["next"]["to_play"] == 1 and start["next"]["reveal"] is False


def test_the_caller_may_not_ask_but_another_seat_may():
    # Seat 1 leads AH; seat 2 cannot follow and asks: shown. Seat 1 unable to follow later may not ask.
    v = verdict("mendikot", [deal(0, ev("1:AH 2:? 2:3S 3:KH 0:QH"), {"hidden": "2S"})], **BAND_ASK,
                band_caller_reveals=False)
    assert v["valid"] and v["deals"][0]["trump"]["revealed"]["seat"] == 2
    v = verdict("mendikot", [deal(0, ev("1:2H 2:AH 3:3H 0:4H 2:AD 3:5D 0:6D 1:?"), {"hidden": "2S"})], **BAND_ASK,
                band_caller_reveals=False)
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("bad_reveal", 7)]


def test_settled_at_the_bell_perfect_play_ends_at_the_fourth_ten():
    """Seat 1 has won tricks 1-10 (three tens) and leads trick 11 holding TC over everyone's
    lower clubs: perfect play brings in the fourth ten and the deal ends there, a whitewash."""
    from referee.engine import adjudicate_dict
    from tests.helpers import searching

    d = won_by(0, [1] * 10, hands=True)
    del d["trump"]
    v = adjudicate_dict({"preset": "mendikot", "options": {"tens_end": "settled", "abandoned_deal": "perfect_play"},
                         "closed": True, "deals": [d]}, searching())
    deal0 = v["deals"][0]
    assert deal0["status"] == "complete" and len(deal0["tricks"]) == 11 and deal0["tricks"][10]["winning_card"] == "TC"
    assert deal0["result"]["kind"] == "whitewash" and deal0["result"]["points"] == [0, 3]


def test_settled_a_claim_counts_only_the_tricks_before_the_end():
    """R-34c: the deal ends at trick 11, so seat 1's claim of the three tricks left gets one."""
    from referee.engine import adjudicate_dict
    from tests.helpers import searching

    d = won_by(0, [1] * 10, hands=True)
    del d["trump"]
    d["events"] += [{"seat": 1, "claim": 3}, {"seat": 2, "dispute": True}]
    v = adjudicate_dict({"preset": "mendikot", "options": {"tens_end": "settled"}, "deals": [d]}, searching())
    deal0 = v["deals"][0]
    assert (deal0["claim"]["can_take"], deal0["claim"]["held"], deal0["claim"]["awarded"]) == (1, False, 1)
    assert len(deal0["tricks"]) == 11 and deal0["result"]["kind"] == "whitewash"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_settled_random_mendikot_deals_end_at_the_first_trick_that_settles_them(seed):
    """Counted here from the tricks' cards, not by the engine's rule: the tens each team took
    and its tricks, trick by trick; the deal ends at the first trick where the four tens are in
    and split 4-0 or 3-1, or 2-2 with a team at seven tricks; else all 13 are played."""
    options = {"tens_end": "settled"}
    v = adjudicate(random_record("mendikot", resolve("mendikot", options), 3, random.Random(seed), options))
    assert v["valid"], v["errors"]
    for d in v["deals"]:
        tens, won, end = [0, 0], [0, 0], 13
        for n, t in enumerate(d["tricks"], start=1):
            team = t["winner"] % 2
            won[team] += 1
            tens[team] += sum(c["card"][0] == "T" for c in t["cards"])
            if sum(tens) == 4 and (max(tens) >= 3 or max(won) >= 7):
                end = n
                break
        assert len(d["tricks"]) == end and d["result"]["tens"] == tens
        assert (d["result"]["kind"] == "whitewash") == (min(won) == 0)
