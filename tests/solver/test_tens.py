"""Mendikot's tens in the core search (core.py): where they are tried and what they settle,
on concrete positions, with the values of the exhaustive search through the engine
(tests/solver/minimax.py), on the Python path (`_tens_order` is a C method of the compiled
core: test_paths holds the two paths to the same nodes)."""
import random

from referee.solver import Solver, loader
from referee.solver.core_codes import SCORE
from referee.solver.position import load, outcome

from .positions import random_position
from .test_against_minimax import _same

PySearch = loader.python_search()


class TricksOrder(PySearch):
    """The Python search with the moves in the move generator's order alone (tricks only)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.tens_order = 0


def _hands(deal):
    return [" ".join(sorted(c.text for c in hand)) for hand in deal.hands]


def test_a_ten_goes_first_into_a_trick_the_partner_wins():
    """mendikot, hearts trumps, trick 11: seat 2 led the five of diamonds, seat 3 threw the
    king of spades; seat 0, out of diamonds, discards. The move generator, weighing tricks
    alone, throws the four of spades first; under `score` the ten of spades goes first, into
    its partner's trick (a ten for its side), and the search settles the position in fewer
    nodes, every card's value the exhaustive search's."""
    deal = random_position("mendikot", random.Random(185), 3, 2)
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tens_won) == (11, 0, "H", [0, 2])
    assert _hands(deal) == ["4S KC TS", "5S 6C TC", "2H 8D", "8H JS"]
    search = PySearch(deal.rules, SCORE, outcome(deal))
    load(search, deal, 0)
    base = search.ply * 16
    n = search._gen(search.ply, -1, -1)
    assert [search.mv[base + i] for i in range(n)] == [2, 8, 50]  # the 4 and ten of spades, the king of clubs
    search._tens_order(base, n, 0)
    assert [search.mv[base + i] for i in range(n)] == [8, 2, 50]
    ordered = Solver("score", PySearch).solve(deal)
    plain = Solver("score", TricksOrder).solve(deal)
    assert (ordered.value, ordered.cards) == (plain.value, plain.cards)
    assert ordered.nodes < plain.nodes
    _same(deal, "score", PySearch)


def test_a_ten_that_cannot_win_the_trick_goes_last():
    """mendikot, spades trumps, trick 11: seat 0 led the four of clubs; seat 1, out of clubs
    and with no spade, can only discard into a trick the other side is winning so far. The
    move generator throws the ten of diamonds first (the lowest of its longest suit, its
    partner holding the ten of clubs); under `score` it comes last, after the jack of
    hearts and the king of diamonds."""
    deal = random_position("mendikot", random.Random(16), 3, 1)
    assert (deal.number, deal.to_play, deal.trump.suit) == (11, 1, "S")
    assert _hands(deal) == ["2H 6H", "JH KD TD", "3S 7C JS", "5H 7H TC"]
    search = PySearch(deal.rules, SCORE, outcome(deal))
    load(search, deal, 1)
    base = search.ply * 16
    n = search._gen(search.ply, -1, -1)
    assert [search.mv[base + i] for i in range(n)] == [34, 22, 37]  # the ten of diamonds, the jack of hearts, the king
    search._tens_order(base, n, 1)
    assert [search.mv[base + i] for i in range(n)] == [22, 37, 34]
    _same(deal, "score", PySearch)
