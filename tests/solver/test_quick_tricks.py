"""The bridge bounds of core_quick.py that DDS's QuickTricks.cpp and LaterTricks.cpp taught
(every trick played, the trump known): each settles a concrete seven-courts position before any
card is tried, where the bounds before it searched, and the value stays DDS's, on both paths."""
import random

import pytest

from referee.solver import Solver
from referee.solver.core_codes import FALSE, TRUE

from .dds import dds_values
from .positions import random_position

pytest.importorskip("endplay")


def _position(seed, in_trick, hands):
    deal = random_position("seven-courts", random.Random(seed), 4, in_trick)
    assert [" ".join(sorted(c.text for c in hand)) for hand in deal.hands] == hands
    return deal


def _asked(deal, team, t, search_class):
    """`value >= t` for `team`, and the nodes it took (0: settled at the trick's start)."""
    search = Solver("tricks", search_class).prepare(deal, team).search
    return search.test(t), search.nodes


def _same_as_dds(deal, search_class):
    ours = {m.text: v for m, v in Solver("tricks", search_class).solve(deal, line=False).cards}
    assert ours == dds_values(deal)


def test_the_trumps_above_the_other_teams_take_a_trick_each_whoever_leads(search_class):
    """Trick 10, diamonds trumps: seat 3 (leading) holds four trumps, its partner the nine, the
    other team none. Each of seat 3's trumps wins the trick it falls in: four tricks, though
    only the ace is a top trump in a run (the nine lies with the partner), so the leader's
    quick tricks alone counted one."""
    deal = _position(81, 0, ["4C 7C 8C AC", "2C 9D KC TC", "2H 5H 9H JH", "4D 5D 8D AD"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 3, "D")
    assert _asked(deal, 1, 4, search_class) == (TRUE, 0)
    _same_as_dds(deal, search_class)


def test_a_leader_whose_every_suit_an_opponent_tops_loses_the_trick(search_class):
    """Trick 10, hearts trumps, none left: seat 2 leads spades or diamonds, whose tops (the
    king of spades, the ace of diamonds) the opponents hold, and its partner follows both:
    the leader's team cannot take all four tricks."""
    deal = _position(82, 0, ["2D 5D 5S TD", "3C 9D AD JD", "7S 8S KD TS", "6D 7D 8D KS"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 2, "H")
    assert _asked(deal, 0, 4, search_class) == (FALSE, 0)
    _same_as_dds(deal, search_class)


def test_the_second_hands_team_wins_a_trick_it_surely_wins(search_class):
    """Trick 10, hearts trumps, seat 0 led the two of spades: seat 1 (second) is out of spades
    and holds a trump, seat 2 must follow spades, so seat 1's team takes this trick at least
    (and seat 0's team not all four): settled at the second hand's first node, before it
    tries a card."""
    deal = _position(0, 1, ["6S 7S 9D", "2C 9H JD TD", "5S 6C TC TS", "2H 7D 8D JH"])
    assert (deal.number, deal.leader, deal.trump.suit, deal.to_play) == (10, 0, "H", 1)
    assert _asked(deal, 1, 1, search_class) == (TRUE, 1)
    assert _asked(deal, 0, 4, search_class) == (FALSE, 1)
    _same_as_dds(deal, search_class)


def test_trumps_below_a_higher_one_of_the_other_team_still_take_tricks(search_class):
    """Trick 10, hearts trumps: seat 0 holds the nine, six and four, seat 1 the ten, the only
    trump above them. Each of seat 0's trumps falls in a trick of its own, and the ten can
    beat one of them at most: seat 0's team takes two tricks whatever is led, though it
    holds no trump above the other team's and no top card."""
    deal = _position(28, 0, ["4H 6H 9H KD", "2S 6S 7S TH", "3S 4S JS KC", "2D AD QC TS"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 0, "H")
    assert _asked(deal, 0, 2, search_class) == (TRUE, 0)
    assert _asked(deal, 1, 3, search_class) == (FALSE, 0)
    _same_as_dds(deal, search_class)


def test_the_leaders_top_trumps_draw_the_opponents_and_its_side_suits_then_cash(search_class):
    """Trick 10, spades trumps: seat 2 (leading) holds the ten and eight, the two top spades,
    each opponent one spade. Two rounds of trumps leave the opponents none, and then the
    king of hearts and the jack of diamonds (the tops of their suits) win too: all four
    tricks, though seat 1 is out of hearts after one round and seat 3 out of diamonds, so
    the cashes before the trumps are drawn counted the king alone."""
    deal = _position(5, 0, ["3C 3D JC KC", "2D 3H 4S 7D", "8S JD KH TS", "2C 5S JH TC"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 2, "S")
    assert _asked(deal, 0, 4, search_class) == (TRUE, 0)
    assert _asked(deal, 1, 1, search_class) == (FALSE, 0)
    _same_as_dds(deal, search_class)


def test_after_the_draw_every_trump_of_the_leader_wins(search_class):
    """Trick 10, clubs trumps: seat 0 (leading) holds the king and ten, its partner the
    queen, seat 3 the seven. The king draws the queen and the seven, and no one else holds
    a club after it: the ten wins too, and so does the lone ace of diamonds (no one else
    holds a diamond): three tricks."""
    deal = _position(27, 0, ["4S AD KC TC", "2S 3H 8S TS", "AH KH KS QC", "5H 7C 7H QH"])
    assert (deal.number, deal.leader, deal.trump.suit) == (10, 0, "C")
    assert _asked(deal, 0, 3, search_class) == (TRUE, 0)
    _same_as_dds(deal, search_class)


def test_a_quick_trick_answer_keeps_only_the_cards_it_needs(search_class):
    """Trick 8, spades trumps, seat 0 to lead: every card's value takes 592 nodes (600 when a
    settled quick-trick answer kept every card it counted as mattering, not only the top
    cards of the fewest tricks that reach the target, as DDS's QuickTricks does): the table's
    entries above it then hold for more positions and are met again. The values stay DDS's."""
    deal = random_position("seven-courts", random.Random(56), 6, 0)
    assert [" ".join(sorted(c.text for c in hand)) for hand in deal.hands] == [
        "4H 4S 7D 9H AH JH", "5D 6C 6H 7H 7S KH", "2H 3C 3S 5H 5S TH", "2D 6D 8H 8S JD QH"]
    assert (deal.number, deal.leader, deal.trump.suit) == (8, 0, "S")
    assert Solver("tricks", search_class).solve(deal, line=False).nodes == 592
    _same_as_dds(deal, search_class)
