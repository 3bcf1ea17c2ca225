"""The order the core tries a seat's cards in (core_moves.py), where it follows DDS's weights
for a seat out of the suit led (Moves.cpp): a concrete seven-courts position each, its cards
in the order tried, and the values still DDS's, on both paths."""
import random

import pytest

from referee.solver import Solver

from .dds import dds_values
from .positions import random_position

pytest.importorskip("endplay")


def _tried(deal, search_class):
    """The cards the seat to play tries, in order (one per run of touching cards)."""
    search = Solver("tricks", search_class).prepare(deal, 0).search
    return ["23456789TJQKA"[m % 13] + "SHDC"[m // 13] for m, twin in search.legal() if m == twin]


def _position(seed, in_trick, hands, table):
    deal = random_position("seven-courts", random.Random(seed), 5, in_trick)
    assert [" ".join(sorted(c.text for c in hand)) for hand in deal.hands] == hands
    assert [p.card.text for p in deal.on_table] == table
    return deal


def _same_as_dds(deal, search_class):
    ours = {m.text: v for m, v in Solver("tricks", search_class).solve(deal, line=False).cards}
    assert ours == dds_values(deal)


def test_the_second_hand_discards_where_its_partner_holds_the_winner(search_class):
    """Trick 9, hearts trumps: seat 0 led the queen of spades, seat 1 (second) is out of
    spades and its partner, seat 3, holds the ace: the trick is its side's without a ruff,
    so it tries a discard (the three of clubs) before its trumps."""
    deal = _position(8, 1, ["6H 6S AC TH", "3C 5H 6C 9H JH", "2C 2S 7D 9C TC", "3H AH AS KH TS"], ["QS"])
    assert (deal.number, deal.to_play, deal.trump.suit) == (9, 1, "H")
    assert _tried(deal, search_class) == ["3C", "5H", "9H", "JH"]
    _same_as_dds(deal, search_class)


def test_the_third_hand_ruffs_its_partners_card_that_the_fourth_beats(search_class):
    """Trick 9, hearts trumps: seat 1 led the queen of spades, seat 2 played the jack, seat 3
    (third) is out of spades and the fourth hand, seat 0, holds the ace: its partner's queen
    would lose, so it ruffs low (the two of hearts) before it discards."""
    deal = _position(0, 2, ["2S 6S 7S 9D AS", "2C 9H JD TD", "5S 6C TC TS", "2H 6D 7D 8D JH"], ["QS", "JS"])
    assert (deal.number, deal.to_play, deal.trump.suit) == (9, 3, "H")
    assert _tried(deal, search_class) == ["2H", "JH", "6D"]
    _same_as_dds(deal, search_class)


def test_the_third_hand_that_cannot_win_forces_out_the_fourths_ace(search_class):
    """Trick 9, spades trumps: seat 3 led the three of hearts, seat 0 played the eight, and
    seat 1 (third) holds the king, queen and five; the fourth hand, seat 2, holds the ace,
    jack, seven and two. The third hand cannot win the trick, but the queen (and king) above
    the jack makes the fourth play its ace for it, where the five lets the eight stand: it
    tries the queen first, as DDS's RankForcesAce does."""
    deal = _position(126, 2, ["3C 7C KC TH", "2C 5H 8C KH QH", "2H 3S 7H AH JH", "4H 6C AC KS"], ["3H", "8H"])
    assert (deal.number, deal.to_play, deal.trump.suit) == (9, 1, "S")
    assert _tried(deal, search_class) == ["QH", "5H"]
    _same_as_dds(deal, search_class)
