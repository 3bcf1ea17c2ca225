"""The transposition table's key under `score` is the question's goal (core_table._goal): the
sequences of trick winners from here that reach the threshold asked, so that positions whose
tallies differ, asked different thresholds, meet where the same sequences answer them. On the
Python path (the key is a C method of the compiled core: test_paths holds the two paths to
the same nodes)."""
import random

from referee.solver import Solver, loader
from referee.solver.core_codes import SCORE
from referee.solver.outcome import encode
from referee.solver.position import load, outcome

from .positions import random_position
from .test_bounds import _fate

PySearch = loader.python_search()


class FateKey(PySearch):
    """The Python search keyed as before the goal: the tally's future and the threshold as asked."""

    def _fate_key(self, state):
        return self._owners_key(state << 32 | self._fate())


def _deal():
    """mendikot, spades trumps, trick 7 (6 tricks left after it), seat 3 to lead."""
    deal = random_position("mendikot", random.Random(1), 7, 0)
    assert (deal.number, deal.to_play, deal.trump.suit, deal.tens_won) == (7, 3, "S", [1, 0])
    return deal


def test_won_after_eight_tricks_to_none_and_after_seven_to_one_is_one_question():
    """After 8 tricks, a ten each, two tens out: with 8 tricks to none the team can still take
    all 13 (a whitewash, a larger margin), with 7 to 1 it cannot, so the futures differ; but
    "is the deal won?" is the same question for both (a ten more wins it: three tens, or two
    each and 7 tricks already), and so is "is it lost?"; "won by a margin of 1 or more?" is not."""
    search = PySearch(_deal().rules, SCORE, outcome(_deal()))
    load(search, _deal(), 0)
    search.number = 9  # after 8 tricks
    whitewash, plain = _fate(search, (8, 0), (1, 1)), _fate(search, (7, 1), (1, 1))
    assert whitewash != plain
    for t in (encode(0, 1), encode(-1, -1)):
        assert search._goal(whitewash, t) == search._goal(plain, t)
    assert search._goal(whitewash, encode(1, 1)) != search._goal(plain, encode(1, 1))


def test_positions_asked_alike_meet_in_the_table():
    """The same position keyed by the goal searches 9,109 nodes where keyed by the tally's
    future it searched 11,349; every card's value the same (test_against_minimax holds them to
    the exhaustive search's)."""
    deal = _deal()
    goal = Solver("score", PySearch).solve(deal, line=False)
    fate = Solver("score", FateKey).solve(deal, line=False)
    assert (goal.value, goal.cards) == (fate.value, fate.cards)
    assert (goal.nodes, fate.nodes) == (9_109, 11_349)
