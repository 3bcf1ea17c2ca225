"""The pile's tens in the bounds (core_spans._pile_span_of, core_bounds._pile_bound): in Dehla
Pakad every trick is played and a pile goes, with the tens in it, to whoever collects it, so
along each sequence of trick winners the tens on the pile go to the pile's collector, the tens
that fall in the leader's cashed tricks to the leader where the last of them collects, and
every ten still out to the one team that collects from here, where only one does. Concrete
positions where that decides and the spans without it do not; the values stay those of the
exhaustive search, on both paths."""
import random

from referee.solver import loader
from referee.solver.core_codes import RES, SCORE, TRUE, UNDECIDED
from referee.solver.position import load, outcome

from .positions import random_position
from .test_against_minimax import _same
from .test_bounds import _hands


class _NotFollowed(loader.python_search()):
    """The spans as they were: every ten not yet collected goes to either side."""

    def __init__(self, *args):
        super().__init__(*args)
        self.follow = 0


class _NoneFell(loader.python_search()):
    def _fallen(self, seat, sure):
        return 0


def _searched(seed, left, hands, core=None):
    """The Python search at dehla-pakad's random position (seed, `left` tricks left), its
    hands checked, values for the side to play."""
    deal = random_position("dehla-pakad", random.Random(seed), left, 0)
    assert _hands(deal) == hands
    search = (core or loader.python_search())(deal.rules, SCORE, outcome(deal))
    load(search, deal, deal.to_play & 1)
    assert search.follow == (0 if core is _NotFollowed else 1)
    return deal, search


def _bound(seed, left, hands, t, core=None):
    return _searched(seed, left, hands, core)[1]._pile_bound(t) >> RES


def test_the_piles_ten_goes_with_the_pile_to_its_collector(search_class):
    """Trick 11, spades the trump and none left: seat 1 won trick 10, and two tricks lie on
    the pile with a ten in them; team 0 has collected the two others. Seat 1 leads the jack
    and then the six of clubs, the top clubs (seat 0 has none, and no trump): it wins trick
    11, two in a row, and collects the pile with its ten. So team 0 never has all four tens:
    team 1, on lead, loses at worst a mendi (-5), never a mendikot (-9); every sequence of
    trick winners gives the pile's ten to either side, and leaves -9 open."""
    hands = ["2D 5D QD", "6C JC KH", "2C 4C AH", "3C KD TD"]
    deal, search = _searched(3, 3, hands)
    assert (search.number, search.leader, search.team, search.trump, search.pw) == (11, 1, 1, 0, 1)
    assert (search.pile, search.pile_tens, search.tens[0], search.tens[1]) == (2, 1, 2, 0)
    assert search._cash(1, 0) == 2
    assert _bound(3, 3, hands, -8, _NotFollowed) == UNDECIDED
    assert _bound(3, 3, hands, -8) == TRUE
    _same(deal, "score", search_class)


def test_the_ten_that_falls_in_a_cash_goes_to_the_collector():
    """Trick 11, spades the trump and none left: seat 2 won trick 10, one trick on the pile
    without a ten, team 0 three tens. Seat 2 leads the ten of hearts, the top heart (seat 3's
    five its only other), wins trick 11, two in a row, and collects the pile with that ten:
    team 0, on lead, makes a mendikot (9, at least 6). Without the ten that falls in the cash,
    the fourth ten is either side's."""
    hands = ["4C 9D QD", "5C 7C JD", "3C 6C TH", "2D 5H 8D"]
    deal, search = _searched(0, 3, hands)
    assert (search.number, search.leader, search.team, search.pw, search.pile, search.pile_tens) == (11, 2, 0, 2, 1, 0)
    assert (search.tens[0], search.tens[1], search._cash(2, 0), search._fallen(2, -1)) == (3, 0, 1, 1)
    assert _bound(0, 3, hands, 6, _NoneFell) == UNDECIDED
    assert _bound(0, 3, hands, 6) == TRUE


def test_the_tens_out_go_to_the_one_team_that_collects_from_here(search_class):
    """Trick 12, diamonds the trump: seat 2 collected trick 11 and holds the only trump
    left, the five, which it keeps to trick 13 and wins it (core_bounds._sure_last); trick 12
    starts a new run, so it collects nothing whoever wins it, and trick 13 collects both.
    Team 0 alone collects from here, and the ten of clubs, wherever it falls, is its fourth
    ten: a mendikot (9, at least 6). Every ten out given to either side leaves it open."""
    hands = ["2C TC", "6C JC", "4C 5D", "7S 9C"]
    deal, search = _searched(24, 2, hands)
    assert (search.number, search.leader, search.team, search.trump, search.pw, search.pile) == (12, 2, 0, 2, 2, 0)
    assert (search.tens[0], search.tens[1], search._sure_last()) == (3, 0, 1)
    assert _bound(24, 2, hands, 6, _NotFollowed) == UNDECIDED
    assert _bound(24, 2, hands, 6) == TRUE
    _same(deal, "score", search_class)
