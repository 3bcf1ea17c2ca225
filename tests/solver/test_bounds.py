"""The search's bounds (core_bounds.py) on positions where each one decides: the bound answers
at the trick's start, and the search's values stay those of the exhaustive search through the
engine (tests/solver/minimax.py), on both paths."""
import random

import pytest

from referee.solver import loader
from referee.solver.core_codes import FALSE, RES, SCORE, TRUE, UNDECIDED
from referee.solver.position import load, outcome

from .positions import random_position
from .test_against_minimax import _same


def _hands(deal):
    return [" ".join(sorted(c.text for c in hand)) for hand in deal.hands]


def _root(deal):
    """The Python search loaded with `deal`'s position, values for the side to play."""
    return _root_for(deal, deal.to_play & 1)


def _root_for(deal, team):
    """The Python search loaded with `deal`'s position, values for `team`."""
    search = loader.python_search()(deal.rules, SCORE, outcome(deal))
    load(search, deal, team)
    return search


def _searched(preset, seed, left, hands):
    """The Python search at `preset`'s random position (seed, tricks left), its hands checked."""
    deal = random_position(preset, random.Random(seed), left, 0)
    assert _hands(deal) == hands
    return deal, _root(deal)


def _decided_by_the_cash(search, t):
    """_pile_bound's answer for `value >= t`, where the span of every sequence of trick winners
    alone (no cash) leaves it open."""
    search._pile_span(0, 0, 0)
    assert search.span_lo < t <= search.span_hi
    return search._pile_bound(t) >> RES


def test_a_pair_the_other_side_cannot_stop_decides_band_rang():
    """band-rang (open trump, spades), trick 10: seat 2, a defender on lead from trick 3,
    cashes three top cards the callers must follow to; its second trick in a row is a
    defenders' pair that decides the deal, whatever follows: the defenders win (+1)."""
    deal = random_position("band-rang", random.Random(5), 4, 0)
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 2, "S")
    assert _hands(deal) == ["3C 3D JC KC", "2D 3H 4S 7D", "8S JD KH TS", "2C 5S JH TC"]
    search = _root(deal)
    assert search._cash(2, 0) == 3
    assert _decided_by_the_cash(search, 5) == TRUE  # the deal won: margin 1, won (5 encoded)


def test_which_cashed_tricks_are_won_by_aces_is_known():
    """band-rang (end.deciding-pair-ace: a pair completed by an ace waits for the next trick;
    an ace again starts the run anew), trick 10, clubs trumps: seat 0, a defender, won trick
    9 and has two quick tricks, the ace of diamonds and the top trump (the queen). Whatever
    order it cashes them in, a card that is not an ace completes a pair that decides the
    deal; two aces would not (the run would start again), so counting each cashed trick as
    an ace or not, as the span does for tricks no one can foresee, would decide nothing."""
    deal = random_position("band-rang", random.Random(165), 4, 0)
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 0, "C")
    assert _hands(deal) == ["4D 9C AD QC", "5H 8D 8H TD", "9D QD TC TS", "6D 6S JC KS"]
    search = _root(deal)
    assert (search._cash(0, 0), search._cash_aces()) == (2, 1)
    assert _decided_by_the_cash(search, 5) == TRUE
    for order in (1, 1 | 16):  # the ace first, the ace last
        search._pile_span(1, 2, order)
        assert search.span_lo == 5
    search._pile_span(1, 2, 2)  # two aces
    assert search.span_lo < 5


def _decided_by_the_trump_ten(search, t):
    """_envelope's answer for `value >= t`, where the tricks and tens alone leave it open."""
    left = 14 - search.number
    assert search._sim(1 - search.team, left, -1, 0) < t <= search._sim(search.team, left, -1, 0)
    return search._envelope(t) >> RES


def test_the_trump_ten_with_every_trump_above_it_cannot_be_lost():
    """mendikot, spades trumps, trick 11: seat 2 holds the ten of spades and no spade above it
    is still out, so whoever plays it, a spade of seat 2's side wins its trick. Its side has
    two tens: with that one, three, a mendi (margin 1 and the deal, 5 encoded) at the least,
    for seat 2 on lead; and at most that for the other side, to play at trick 11 of another
    deal (seed 8: diamonds trumps, the ten of diamonds seat 2's)."""
    deal = random_position("mendikot", random.Random(4), 3, 0)
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tens_won) == (11, 2, "S", [2, 0])
    assert _hands(deal) == ["6C AC TH", "3D 7C JC", "7D QH TS", "6S 8S AH"]
    search = _root(deal)
    assert search._ten_sure() == 0
    assert _decided_by_the_trump_ten(search, 5) == TRUE
    deal = random_position("mendikot", random.Random(8), 3, 0)
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tens_won) == (11, 3, "D", [2, 0])
    assert _hands(deal) == ["6S 8S AC", "3C 3D 5H", "2S TC TD", "4S AH KH"]
    search = _root(deal)
    assert search._ten_sure() == 0
    assert _decided_by_the_trump_ten(search, -4) == FALSE


def test_a_trump_above_the_ten_with_the_other_side_leaves_it_open():
    """The same position, the queen of spades (out) moved to the other side's seat 3: the ten
    can now be beaten, and nothing is sure."""
    search = _root(random_position("mendikot", random.Random(4), 3, 0))
    search.h[3 * 4 + 0] |= 1 << 10  # the queen of spades, as if seat 3 still held it
    search.alive[0] |= 1 << 10
    assert search._ten_sure() == -1


def test_the_tens_that_fall_in_the_leaders_quick_tricks_are_its_sides():
    """mendikot, trick 11, the tens 2-1: seat 2's quick trick is its own ten of hearts, the
    highest heart out (no one holds a spade, the trump); leading it makes the third ten of
    its side, a mendi (5) at the least. Another deal (seed 38, spades trumps, no spade out):
    seat 1 cashes the ace and king of clubs and seat 0 must follow with its one club, the
    ten: the third ten of seat 1's side."""
    deal = random_position("mendikot", random.Random(0), 3, 0)
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tens_won) == (11, 2, "S", [2, 1])
    assert _hands(deal) == ["4C 9D QD", "5C 7C JD", "3C 6C TH", "2D 5H 8D"]
    search = _root(deal)
    assert (search._cash(2, 0), search._fallen(2, -1)) == (1, 1)
    assert search._sim(0, 1, -1, 0) < 5 <= search._sim(0, 1, -1, 1)  # the ten counted or not
    assert search._envelope(5) >> RES == TRUE
    deal = random_position("mendikot", random.Random(38), 3, 0)
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tens_won) == (11, 1, "S", [1, 2])
    assert _hands(deal) == ["3H 7H TC", "2H AC KC", "5H 8H 9H", "3C 9C AD"]
    search = _root(deal)
    assert (search._cash(1, 0), search._fallen(1, -1)) == (2, 1)
    assert search._sim(1, 2, -1, 0) < 5 <= search._sim(1, 2, -1, 1)
    assert search._envelope(5) >> RES == TRUE
    search.h[0 * 4 + 3] |= 1 << 0 | 1 << 2  # seat 0 with the 2 and 4 of clubs too: it may keep the ten
    search.alive[3] |= 1 << 0 | 1 << 2
    assert (search._cash(1, 0), search._fallen(1, -1)) == (2, 0)


def _without_the_ten_trick(deal, team):
    """The Python search at `deal`'s position, values for `team`, with no ten trick
    (_ten_trick): what the other bounds answer alone."""
    class Without(loader.python_search()):
        def _ten_trick(self, sure):
            return 0
    search = Without(deal.rules, SCORE, outcome(deal))
    load(search, deal, team)
    return search


@pytest.mark.parametrize("seed,left,hands,t", [
    # the partner's ten under the leader's low diamond (seat 0 leads the 6; the queen and ten
    # of diamonds, seat 2's, are the highest out; seat 3 follows, seat 1 has a diamond too)
    (29, 4, ["2S 6D 9H KS", "5D 5H 7C KH", "6C 9D QD TD", "2D 7S 8D AH"], 1),
    # diamonds trumps: seat 0 leads its ten, the jack (seat 1's) above it, and the partner's
    # king takes the trick: the ten is not sure (_ten_sure), this trick is
    (228, 3, ["2C 2S TD", "8D 8S JD", "6D KD TS", "5C 5D JC"], 5),
    # the opponents' ten, seat 1's last spade, under the partner's ace (seat 3, out of
    # spades, holds no heart, the trump)
    (33, 4, ["7S 8S AH AS", "AD KD QC TS", "3S 7H 8H 9H", "6D 8C 8D 9D"], 1),
    # no trump yet (first void): everyone holds a spade, so no show-out sets one; seat 3
    # leads the 4, the partner's ace takes seat 2's last spade, the ten: the fourth ten of
    # seat 3's side, a mendikot (9: margin 2, the deal)
    (250, 4, ["7C 8D AC JS", "4D 9S AS KC", "5D KD QD TS", "4S 8C JC KH"], 9),
])
def test_a_ten_the_leaders_side_surely_wins_in_the_next_trick(seed, left, hands, t):
    """mendikot: the leader's side wins the trick about to be led with a ten in it, whatever
    the others play: its value is at least that trick's (a ten more) and then every trick
    lost; and the other side's at most the same, seen from there. The bound decides where the
    others do not."""
    deal, search = _searched("mendikot", seed, left, hands)
    us = deal.leader & 1
    assert search.team == us and search._ten_trick(search._ten_sure())
    assert search._sim(us, 1, -1, 0) < t <= search._sim(us, 1, -1, 1)
    assert search._envelope(t) >> RES == TRUE
    assert _without_the_ten_trick(deal, us)._envelope(t) >> RES == UNDECIDED
    them = _without_the_ten_trick(deal, 1 - us)
    assert them._envelope(1 - t) >> RES == UNDECIDED
    them = _root_for(deal, 1 - us)
    assert them._envelope(1 - t) >> RES == FALSE  # zero-sum: below -t + 1 is at most -t


def test_a_ten_trick_needs_every_opponent_unable_to_ruff():
    """The same positions with an opponent who may win the trick by a trump: seat 3 (out of
    spades) given a heart, the trump; with no trump yet, seat 0 without its spade, whose
    show-out would set one."""
    search = _searched("mendikot", 33, 4, ["7S 8S AH AS", "AD KD QC TS", "3S 7H 8H 9H", "6D 8C 8D 9D"])[1]
    search.h[3 * 4 + 1] |= 1 << 0  # the two of hearts
    search.alive[1] |= 1 << 0
    assert not search._ten_trick(-1)
    search = _searched("mendikot", 250, 4, ["7C 8D AC JS", "4D 9S AS KC", "5D KD QD TS", "4S 8C JC KH"])[1]
    search.h[0 * 4 + 0] = 0  # seat 0's jack of spades gone
    search.alive[0] &= ~(1 << 9)
    assert not search._ten_trick(-1)


def _decided_by_the_pair(search, t):
    """_pile_bound's answer for `value >= t`, where every sequence of trick winners leaves it open."""
    search._pile_span(0, 0, 0)
    assert search.span_lo < t <= search.span_hi
    return search._pile_bound(t) >> RES


def test_a_seat_with_the_two_top_trumps_makes_a_pair_when_it_likes():
    """double-sir (pile.collect), trick 10, clubs trumps, nothing collected by seats 1 and 3:
    seat 3 holds the ace and king of clubs. Whenever it plays one it wins that trick, leads
    the other and wins again: a pair, its side collects, and seat 2's side (on lead, and sure
    of the deal whoever wins what is left) cannot collect all 13, a court (5 encoded).
    Seen from the other side (seed 53, spades trumps, seat 2 with the 9 and 8, the top two
    left): no goon court against it (-5: the deal lost, no more)."""
    deal, search = _searched("double-sir", 10, 4, ["3C 3S 9C AH", "7S 8C JC TS", "2C 6C 9H KS", "2S 7D AC KC"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 2, "C")
    assert search._sure_pair() == 2  # team 1's
    assert _decided_by_the_pair(search, 5) == FALSE
    deal, search = _searched("double-sir", 53, 4, ["2S 4H 5C TH", "2D 3C 9H KH", "3H 8S 9S JH", "4S 8C QC QH"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 2, "S")
    assert search._sure_pair() == 1  # team 0's, the side searched
    assert _decided_by_the_pair(search, -1) == TRUE


def test_the_sure_pair_is_two_more_tricks_collected():
    """double-sir, trick 10, spades trumps: seat 0's side has collected 6 tricks, the other
    3, nothing on the pile, and seat 0 holds the 9 and 7 of spades, the two highest left:
    their pair is two more collected, eight, and the deal won (1), where some sequences of
    trick winners (seat 1's side collecting the four tricks left) would lose it."""
    deal, search = _searched("double-sir", 402, 4, ["2H 7S 9S TH", "4D 6C QC TD", "2C 2S 6D 8C", "5D 7D 9C JD"])
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tricks_won) == (10, 0, "S", [6, 3])
    assert search._sure_pair() == 1
    assert _decided_by_the_pair(search, 1) == TRUE


def test_a_run_whose_pairs_an_option_blocks_is_no_sure_pair():
    """hidden-rung (pile.no-collect-after: no pair collects on trick 12), trick 10, spades
    shown: seat 0 holds the ace, king and queen of spades, a run of three that collects
    wherever it starts (a run started on trick 11 pairs on 12, blocked, then on 13). With
    the queen elsewhere, a run of two started on trick 11 only pairs on trick 12: nothing
    is sure."""
    deal, search = _searched("hidden-rung", 29, 4, ["5C AS KS QS", "5D 7C 9C TS", "4D 7D 9D TD", "2D 4S AD JD"])
    assert (deal.number, deal.trump.suit) == (10, "S")
    assert search._sure_pair() == 1
    search.h[0 * 4 + 0] ^= 1 << 10  # the queen of spades to seat 2
    search.h[2 * 4 + 0] |= 1 << 10
    assert search._sure_pair() == 0


@pytest.mark.parametrize("preset,seed,left", [("band-rang", 5, 4), ("band-rang", 165, 4), ("mendikot", 4, 3),
                                              ("mendikot", 8, 3), ("mendikot", 0, 3), ("mendikot", 38, 3),
                                              ("double-sir", 10, 4), ("double-sir", 53, 4), ("double-sir", 402, 4),
                                              ("hidden-rung", 29, 4), ("dehla-pakad", 13, 4),
                                              ("mendikot", 29, 4), ("mendikot", 228, 3), ("mendikot", 33, 4),
                                              ("mendikot", 250, 4)])
def test_the_values_where_a_bound_cuts_are_the_exhaustive_searchs(preset, seed, left, search_class):
    _same(random_position(preset, random.Random(seed), left, 0), "score", search_class)


def _fate(search, won, tens):
    search.won[0], search.won[1] = won
    search.tens[0], search.tens[1] = tens
    return search._fate()


def test_the_tables_key_keeps_of_the_tally_only_what_can_still_matter():
    """mendikot, trick 11 (3 tricks left, 10 played): with three tens to one side the winner
    is known, and with a trick each no side can take all 13, so 6-4 and 4-6 in tricks play on
    alike (one key: the table's answers for one hold for the other); with the tens 2-1 the
    tricks may yet decide a 2-2 (R-18), so 6-4 and 4-6 differ, as do 3 tens and 2."""
    search = _root(random_position("mendikot", random.Random(4), 3, 0))
    assert search.number == 11
    assert _fate(search, (6, 4), (3, 0)) == _fate(search, (4, 6), (3, 0)) == _fate(search, (9, 1), (3, 0))
    assert _fate(search, (10, 0), (3, 0)) != _fate(search, (9, 1), (3, 0))  # a whitewash is still open
    assert _fate(search, (6, 4), (2, 1)) != _fate(search, (4, 6), (2, 1))
    assert _fate(search, (6, 4), (3, 0)) != _fate(search, (6, 4), (2, 1))
    assert _fate(search, (6, 4), (0, 3)) == _fate(search, (4, 6), (0, 3)) != _fate(search, (6, 4), (3, 0))


def _pile_fate(search, won, pile, last_winner):
    search.won[0], search.won[1] = won
    search.pile, search.pw, search.pest, search.pcoll, search.pace, search.hot = pile, last_winner, 1, 0, 0, 0
    return search._fate()


def test_the_pile_and_the_tally_share_a_key_where_every_way_on_ends_alike():
    """double-sir, trick 11 (3 tricks left, 10 on the piles or collected): 1-1 collected with
    8 on the pile and 2-4 with 4 on it, seat 0 having won the last trick, end alike however
    the tricks left are won (the engine's scoring gives each sequence of trick winners the
    same outcome from both), so they share the table's key; seat 1 having won the last
    trick pairs differently, and a side with nothing collected may still collect seven
    first (R-30): keys of their own."""
    search = _root(random_position("double-sir", random.Random(1), 3, 0))
    assert search.number == 11
    assert _pile_fate(search, (1, 1), 8, 0) == _pile_fate(search, (2, 4), 4, 0) == _pile_fate(search, (1, 4), 5, 0)
    assert _pile_fate(search, (1, 1), 8, 0) != _pile_fate(search, (1, 1), 8, 1)
    assert _pile_fate(search, (1, 1), 8, 0) != _pile_fate(search, (0, 1), 9, 0)  # a side with none: a kot is open


def test_under_a_deciding_pair_the_tricks_won_are_no_part_of_the_key():
    """band-rang (score.deals: a deal won is a point, however): at trick 10, 5-4 and 2-7 in
    tricks play on alike, the deal decided by a pair or by none (one key); who won the last
    trick, a defender or a caller, is not (a defender's next trick makes a pair)."""
    search = _root(random_position("band-rang", random.Random(5), 4, 0))
    assert search.number == 10 and search.run_by == 2
    assert _fate(search, (5, 4), (0, 0)) == _fate(search, (2, 7), (0, 0))
    one = _fate(search, (5, 4), (0, 0))
    search.run_by = 1
    assert _fate(search, (5, 4), (0, 0)) != one
