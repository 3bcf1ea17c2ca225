"""Double Sir (pile.*): the pile and who collects it, courts in pile games (R-30), the aces
that do not seal (pile_ace_no_seal, R-8)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PRESETS, Record, adjudicate, resolve
from referee.engine.simulate import random_deal, random_record
from tests.engine.test_properties import seeds
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


# -- pile games under deal-courts ------------------------------------------------------------

def tricks(text: str) -> list[dict]:
    """'0: AH 2H 3H 4H / 0: 5H ...': each trick's leader and its cards in play order."""
    events = []
    for trick in text.split("/"):
        leader, cards = trick.split(":")
        events += [{"seat": (int(leader) + j) % 4, "play": c} for j, c in enumerate(cards.split())]
    return events


def spades(dealer: int, events: list[dict], **options) -> dict:
    """Double Sir, spades called: the verdict on one deal."""
    return verdict("double-sir", [{"dealer": dealer, "trump": {"suit": "S"}, "events": events}], **options)


DOUBLE_SIR_7_6 = tricks("0: AH 2H 3H 4H / 0: 5H 6H KH 7H / 2: 8H 9H QH TH / 0: 2D 3D AD 4D / 2: 5D 6D KD 7D / "
                        "0: 8D 9D QD TD / 2: AC 2C 3C 4C / 2: 5C 6C 7C KC / 1: QC 8C 9C TC / 1: AS 2S 3S 4S / "
                        "1: KS 5S 6S 7S / 1: QS 8S 9S TS / 1: JS JH JD JC")


def test_r30_a_7_6_collection_under_deal_courts_is_a_win_not_a_court():
    v = spades(3, DOUBLE_SIR_7_6, scoring="deal-courts")
    d = v["deals"][0]
    assert v["valid"] and d["status"] == "complete" and d["tricks_won"] == [7, 6]
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (0, "win", [1, 0])
    assert "R-30" in d["result"]["rule"]
    assert d["next_dealer"] == 3 and d["next_dealer_rule"][-1] == "dealer.callers-win"


def test_r30_with_kot_seven_collected_before_the_defenders_collect_any_is_a_kot():
    # Dealer 3, callers team 0. Seat 0 collects 2 at trick 2, seat 2 collects 2 at trick 4; seat 1
    # wins trick 6 (no pair); seat 2 collects tricks 5-8 at trick 8: the callers have 8, the
    # defenders none. At trick 7 they had 4 collected, so "the first seven straight" never happened.
    kot = won_by(3, [0, 0, 2, 2, 0, 1, 2, 2, 1], n=13)
    v = verdict("double-sir", [kot], scoring="deal-courts", kot=True)
    d = v["deals"][0]
    assert [t["collected"] for t in d["tricks"][:8]] == [0, 2, 0, 2, 0, 0, 0, 4]
    assert d["tricks_won"] == [8, 5]
    assert (d["result"]["kind"], d["result"]["courts"]) == ("kot", [2, 0])
    assert "R-30" in d["result"]["rule"] and d["next_dealer"] == 1
    # The defenders collect once (trick 6 and 7 by seat 1) before the callers reach seven: a win.
    late = won_by(3, [0, 0, 2, 2, 0, 1, 1, 2, 2, 0, 0, 2], n=13)
    d = verdict("double-sir", [late], scoring="deal-courts", kot=True)["deals"][0]
    assert d["tricks_won"][1] > 0 and (d["result"]["kind"], d["result"]["courts"]) == ("win", [1, 0])


# -- pile_ace_no_seal: none | trump | any (pile.trump-ace, pile.any-ace, R-8) ----------------------

def ace_deal(winners, n, **options):
    """Dealer 0, trump S; by rank: tricks 1-4 are won by AS, AH, AD, AC, tricks 5-8 by tens."""
    v = verdict("double-sir", [won_by(0, winners, n=n, by_rank=True, suits="SHDC")], **options)
    assert v["valid"], v["errors"]
    return [(t["number"], t["collected_by"], t["collected"]) for t in v["deals"][0]["tricks"]], v["deals"][0]


def test_any_ace_cannot_complete_a_pair_and_the_run_goes_on_to_the_ten():
    # Seat 1 wins tricks 1-5: the four aces, then TS.
    plain, _ = ace_deal([1] * 5, 5)
    assert plain[1] == (2, 1, 2)  # AH completes the pair of AS and AH
    trump, _ = ace_deal([1] * 5, 5, pile_ace_no_seal="trump")
    assert trump[1] == (2, 1, 2)  # AH is no trump ace: it seals
    collected, deal = ace_deal([1] * 5, 5, pile_ace_no_seal="any")
    assert collected == [(1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0), (5, 1, 5)]
    assert [t["rule"] for t in deal["tricks"][1:4]] == [["pile.any-ace", "R-8"]] * 3
    assert deal["tricks"][4]["rule"] == ["pile.collect"]


def test_any_ace_an_ace_may_still_start_a_pair_and_another_seat_breaks_the_run():
    # Seat 1 wins AS and AH (blocked), seat 3 wins AD and AC (blocked: seat 3's run starts at AD),
    # seat 3 wins TS: the pair AC-TS collects all five.
    collected, _ = ace_deal([1, 1, 3, 3, 3], 5, pile_ace_no_seal="any")
    assert collected == [(1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0), (5, 1, 5)]
    # Seat 1 wins AD and AC (a blocked pair), then seat 3 wins TS: the run is broken, nothing collects.
    collected, _ = ace_deal([1, 3, 1, 1, 3], 5, pile_ace_no_seal="any")
    assert collected == [(1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0), (5, None, 0)]


# Dealer 0, trump S: seats 1 and 3 win tricks 1-12 in turn (no pair), and seat 3 wins trick 13 with AS.
ACE_LAST = tricks("1: KS QS JS TS / 1: 8S 7S 9S 6S / 3: 4S 3S 5S 2S / 1: QH JH KH TH / 3: 8H 7H 9H 6H / "
                  "1: 4H 3H 5H 2H / 3: QD JD KD TD / 1: 8D 7D 9D 6D / 3: 4D 3D 5D 2D / 1: QC JC KC TC / "
                  "3: 8C 7C 9C 6C / 1: 4C 3C 5C 2C / 3: AS AH AD AC")


def test_any_ace_the_thirteenth_trick_won_by_an_ace_still_takes_the_rest():
    v = spades(0, ACE_LAST, pile_ace_no_seal="any")
    d = v["deals"][0]
    assert v["valid"] and [t["winner"] for t in d["tricks"]] == [1, 3] * 6 + [3]
    last = d["tricks"][12]
    assert (last["collected_by"], last["collected"], last["rule"]) == (1, 13, ["pile.last-trick"])
    assert d["tricks_won"] == [0, 13] and d["status"] == "complete"


def test_trump_ace_cannot_seal_only_the_trump_ace():
    # Trump H: seat 1 wins AS then AH (the trump ace: blocked), then AD: AD completes the run of three.
    v = verdict("double-sir", [won_by(0, [1] * 3, n=3, by_rank=True, suits="SHDC", trump="H")],
                pile_ace_no_seal="trump")
    assert [(t["collected"], t.get("rule")) for t in v["deals"][0]["tricks"]] == [
        (0, None), (0, ["pile.trump-ace", "R-8"]), (3, ["pile.collect"])]


@pytest.mark.parametrize("alias,value", [(True, "trump"), (False, "none")])
def test_the_older_spelling_plays_exactly_as_the_option(alias, value):
    assert resolve("double-sir", {"pile_trump_ace_no_seal": alias}) == resolve("double-sir", {"pile_ace_no_seal": value})
    for seed in range(20):
        record = random_record("double-sir", resolve("double-sir", {"pile_ace_no_seal": value}), 3, random.Random(seed))
        old = adjudicate(Record(preset="double-sir", options={"pile_trump_ace_no_seal": alias}, deals=record.deals))
        new = adjudicate(Record(preset="double-sir", options={"pile_ace_no_seal": value}, deals=record.deals))
        assert old == new
    both = {"pile_trump_ace_no_seal": alias, "pile_ace_no_seal": value}
    assert resolve("double-sir", both) == resolve("double-sir", {"pile_ace_no_seal": value})


@pytest.mark.parametrize("options,pointer", [
    ({"pile_ace_no_seal": "all"}, "pile_ace_no_seal"),
    ({"pile_ace_no_seal": True}, "pile_ace_no_seal"),
    ({"pile_trump_ace_no_seal": "trump"}, "pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": True, "pile_ace_no_seal": "any"}, "pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": False, "pile_ace_no_seal": "trump"}, "pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": True, "pile_ace_no_seal": "some"}, "pile_ace_no_seal"),
])
def test_bad_or_contradicting_ace_options_are_refused_naming_the_option(options, pointer):
    from referee.engine import OptionError

    with pytest.raises(OptionError) as exc:
        resolve("double-sir", options)
    assert exc.value.option == pointer


# Pile games ending by the pile rule or at 13 (a bid deal ends by its bid: tested with the bid games).
PILE_PRESETS = sorted(name for name in PRESETS if resolve(name).end in ("pile", "thirteen") and resolve(name).collection == "pile")


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PILE_PRESETS), seeds)
def test_random_pile_games_under_any_ace_collect_all_tricks_and_no_ace_seals(preset, seed):
    options = {"pile_ace_no_seal": "any"}
    deal = random_deal(resolve(preset, options), seed % 4, random.Random(seed))
    v = adjudicate(Record(preset=preset, options=options, deals=(deal,)))
    assert v["valid"], v["errors"]
    for d in v["deals"]:
        assert d["status"] == "complete" and d["pile"] == 0
        assert sum(d["tricks_won"]) == len(d["tricks"])
        if len(d["tricks"]) < 13:  # the pile game's own end: seven collected against at least one
            assert max(d["tricks_won"]) >= 7 and min(d["tricks_won"]) >= 1
        for t in d["tricks"][:12]:
            if t["collected"]:
                assert t["winning_card"][0] != "A", t  # an ace never completes a collecting pair
