"""Trump by the first void (trump.first-void), Mendikot's tens (score.tens), band and random trump."""
import pytest

from tests.engine.test_hidden import HANDS
from tests.helpers import deal, ev, verdict, won_by

# Dealer 0: seat 1 leads; team 1 (seats 1, 3) are the callers.


def be_ranga(events, preset="rr-be-ranga", **options):
    v = verdict(preset, [deal(0, ev(events))], **options)
    assert v["valid"], v["errors"]
    return v


def test_first_show_out_sets_trump_and_wins_that_very_trick():
    v = be_ranga("1:AH 2:3H 3:2D 0:4H")
    d = v["deals"][0]
    assert d["tricks"][0]["winner"] == 3 and d["tricks"][0]["winning_card"] == "2D"
    assert d["trump"] == {"mode": "first_void", "suit": "D", "set": {"trick": 1, "event": 2, "seat": 3, "rule": ["trump.first-void", "R-15"]}}
    assert d["tricks"][0]["trump_set"] == {"trick": 1, "event": 2, "seat": 3, "rule": ["trump.first-void", "R-15"]}


def test_a_later_player_trumps_higher_in_the_same_trick():
    d = be_ranga("1:AH 2:2D 3:5D 0:4H")["deals"][0]
    assert d["tricks"][0]["winner"] == 3 and d["tricks"][0]["winning_card"] == "5D"


def test_a_second_void_suit_in_the_trick_is_not_trump():
    d = be_ranga("1:AH 2:2D 3:AC 0:4H")["deals"][0]
    assert d["tricks"][0]["winner"] == 2 and d["trump"]["suit"] == "D"


def test_trump_stays_for_the_rest_of_the_deal():
    d = be_ranga("1:AH 2:2D 3:4H 0:5H  2:AS 3:3S 0:4S 1:3D")["deals"][0]
    assert d["tricks"][1]["winner"] == 1 and d["tricks"][1]["winning_card"] == "3D"


def test_taking_back_the_trump_setting_card_unsets_it():
    # seat 2's 2D is taken back; seat 3's 5C is now the earliest off-suit card.
    d = be_ranga("1:AH 2:2D 3:5C 2:< 2:3H 0:4H")["deals"][0]
    assert d["trump"]["suit"] == "C" and d["trump"]["set"]["seat"] == 3
    assert d["tricks"][0]["winner"] == 3


def test_no_trump_before_the_first_void_highest_of_suit_led_wins():
    v = be_ranga("1:2S 2:AS 3:3S 0:4S")
    assert v["deals"][0]["trump"]["suit"] is None and v["deals"][0]["tricks"][0]["winner"] == 2


def test_a_called_trump_in_a_first_void_game_is_bad_trump():
    v = verdict("rr-be-ranga", [deal(0, [], {"suit": "S"})])
    assert v["errors"][0]["code"] == "bad_trump"


BERANGA_PILE = "1:AH 2:2H 3:3H 0:4H  1:KH 2:5H 3:6H 0:7H  1:QH 2:8H 3:9H 0:2D  0:AD 1:3D 2:4D 3:5D"


def test_be_ranga_double_sar_trump_setting_trick_may_start_a_pair_earlier_pairs_do_not():
    d = be_ranga(BERANGA_PILE, preset="be-ranga-double-sar")["deals"][0]
    assert [t["winner"] for t in d["tricks"]] == [1, 1, 0, 0]
    assert [t["collected"] for t in d["tricks"]] == [0, 0, 0, 4]
    # The same tricks with a called trump: tricks 1 and 2 collect at once.
    called = verdict("double-sir", [deal(0, ev(BERANGA_PILE.replace("0:2D", "0:TH")), {"suit": "C"})])
    assert called["deals"][0]["tricks"][1]["collected"] == 2


# -- Mendikot ------------------------------------------------------------------------------
# In these deals tricks 2, 5, 8 and 11 hold the four tens, each taken by that trick's winner.
# Trump is `random` (2S shown before the deal), so the 13th trick goes to its leader.


def mendikot(winners, dealer=0, **options):
    d = won_by(dealer, winners, n=13) | {"trump": {"blind": "2S"}}
    return verdict("mendikot", [d], trump="random", **options)


def tens_result(winners, **options):
    v = mendikot(winners, **options)
    assert v["valid"], v["errors"]
    return v["deals"][0]


def test_three_tens_is_a_mendi_for_one_point():
    d = tens_result([1, 1, 0, 0, 3, 2, 2, 3, 0, 0, 2, 0])  # tens to 1, 3, 3, 2
    assert d["result"]["tens"] == [1, 3] and d["result"]["kind"] == "mendi"
    assert d["result"]["winner"] == 1 and d["result"]["points"] == [0, 1]
    assert d["tricks_won"] == [9, 4]  # fewer tricks, still the winners
    assert d["next_dealer"] == 0  # the dealer's team lost: the same dealer deals


def test_four_tens_is_a_mendikot_for_two():
    d = tens_result([0, 1, 0, 0, 3, 0, 0, 1, 0, 0, 3, 0])
    assert d["result"]["tens"] == [0, 4] and d["result"]["kind"] == "mendikot"
    assert d["result"]["points"] == [0, 2]


def test_a_whitewash_holding_all_four_tens_scores_three_not_five():
    d = tens_result([1, 3] * 6)
    assert d["tricks_won"] == [0, 13] and d["result"]["tens"] == [0, 4]
    assert d["result"]["kind"] == "whitewash" and d["result"]["points"] == [0, 3]
    assert d["next_dealer"] == 2  # the dealer's team lost a whitewash: the partner deals


def test_two_tens_each_is_decided_by_seven_tricks_for_no_points():
    d = tens_result([0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 2, 0])  # tens: 0, 1, 1, 0
    assert d["result"]["tens"] == [2, 2] and d["tricks_won"][0] >= 7
    assert d["result"] == {"winner": 0, "kind": "win", "courts": [0, 0], "points": [0, 0],
                           "streak_court": False, "tens": [2, 2], "rule": ["R-18", "score.tens"]}
    assert d["next_dealer"] == 1  # the dealer's team won: the next player deals


def test_all_thirteen_tricks_are_played_in_mendikot():
    v = verdict("mendikot", [won_by(0, [1] * 7) | {"trump": {"blind": "2S"}}], trump="random")
    assert v["deals"][0]["status"] == "in_progress"


def test_first_to_five_points_wins():
    deals = [won_by(0, [1, 3] * 6, n=13) | {"trump": {"blind": "2S"}},
             won_by(2, [3, 1] * 6, n=13) | {"trump": {"blind": "2S"}}]
    v = verdict("mendikot", deals, trump="random")
    assert v["match"]["points"] == [0, 6] and v["match"]["winner"] == 1 and v["next"] is None


def test_mendikot_first_void_deal_with_tens():
    v = verdict("mendikot", [deal(0, ev("1:AH 2:TH 3:2D 0:4H"))])
    d = v["deals"][0]
    assert d["tricks"][0]["winner"] == 3 and d["trump"]["suit"] == "D"


def test_mendikot_revoke_penalty_counts_as_a_whitewash():
    # Seat 2 shows out of hearts (setting diamonds as trump), then leads a heart.
    v = verdict("mendikot", [deal(0, ev("1:AH 2:2D 3:4H 0:5H  2:3H 3:6H 0:7H 1:8H"))])
    d = v["deals"][0]
    assert d["result"]["kind"] == "penalty_court" and d["result"]["points"] == [0, 3]
    assert d["next_dealer"] == 2


# -- band (closed trump): the three reveal rules on one deal --------------------------------

BAND_EVENTS = "1:AH 2:2D 3:4H 0:5H"  # seat 2 has no hearts but holds spades; the band card is 7S


@pytest.mark.parametrize("variant, revealed, violations, winner", [
    ("auto_must_trump", True, ["must_trump_after_ask"], 1),
    ("auto", True, [], 1),
    ("ask", False, [], 1),
])
def test_band_reveal_variants(variant, revealed, violations, winner):
    v = verdict("mendikot", [deal(0, ev(BAND_EVENTS), {"hidden": "7S"}, HANDS)], trump="band", band_reveal=variant)
    d = v["deals"][0]
    assert v["valid"], v["errors"]
    assert (d["trump"]["revealed"] is not None) == revealed
    assert [x["code"] for x in d["violations"]] == violations
    assert d["tricks"][0]["winner"] == winner
    if revealed:
        assert d["trump"]["revealed"] == {"trick": 1, "event": 1, "seat": 2, "how": "void", "rule": ["trump.band", "R-14", "R-23"]}


def test_band_auto_must_trump_tells_the_void_player_to_trump():
    v = verdict("mendikot", [deal(0, ev("1:AH"), {"hidden": "7S"}, HANDS)], trump="band")
    assert v["next"]["to_play"] == 2 and v["next"]["legal"] == ["4S", "8S", "QS"]


def test_band_auto_a_void_trump_wins():
    v = verdict("mendikot", [deal(0, ev("1:AH 2:4S 3:4H 0:5H"), {"hidden": "7S"}, HANDS)], trump="band")
    assert v["deals"][0]["tricks"][0]["winner"] == 2


def test_dehla_pakad_is_mendikot_with_the_pile():
    d = won_by(0, [1, 3] * 6, n=13) | {"trump": {"blind": "2S"}}
    v = verdict("dehla-pakad", [d], trump="random")
    deal0 = v["deals"][0]
    assert [t["collected"] for t in deal0["tricks"]] == [0] * 12 + [13]
    assert deal0["result"]["kind"] == "whitewash"
