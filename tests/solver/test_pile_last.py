"""The last trick's bound (core_bounds._sure_last) on Hidden Rung positions where it decides,
the trump still face down: the seat holding the highest trump, with more trumps than the
other three seats together, keeps it to trick 13, wins that trick and so collects the pile
(pile.last-trick); the values stay those of the exhaustive search, on both paths."""
import random

import pytest

from referee.solver import loader
from referee.solver.core_codes import FALSE, RES, SCORE, TRUE, UNDECIDED
from referee.solver.position import load, outcome

from .positions import random_position
from .test_against_minimax import _same


def _hands(deal):
    return [" ".join(sorted(c.text for c in hand)) for hand in deal.hands]


class _WithoutIt(loader.python_search()):
    def _sure_last(self):
        return 0


def _searched(seed, hands, core=None):
    """The Python search at hidden-rung's random position (seed, 4 tricks left), its hands
    (the face-down card among its caller's) checked, values for the side to play."""
    deal = random_position("hidden-rung", random.Random(seed), 4, 0)
    assert _hands(deal) == hands
    search = (core or loader.python_search())(deal.rules, SCORE, outcome(deal))
    load(search, deal, deal.to_play & 1)
    assert (search.number, search.hidden, search.pile, search.won[0], search.won[1]) == (10, 1, 9, 0, 0)
    return deal, search


def _decided_by_the_last_trick(seed, hands, t):
    """_pile_bound's answer for `value >= t`, where every sequence of trick winners, the
    leader's quick tricks and a sure pair leave it open (the same search without this bound
    answers UNDECIDED)."""
    _, search = _searched(seed, hands)
    search._pile_span(0, 0, 0)
    assert search.span_lo < t <= search.span_hi
    assert search._sure_pair() == 0
    _, without = _searched(seed, hands, _WithoutIt)
    assert without._pile_bound(t) >> RES == UNDECIDED
    return search._pile_bound(t) >> RES


def test_the_face_down_highest_trump_wins_the_last_trick():
    """Trick 10, nothing collected yet (no trick was won after a reveal), nine tricks on the
    pile: seat 1, the caller, laid the queen of hearts face down, and holds the 4 and 7 of
    hearts; the jack is seat 2's, the only other heart. However the hearts are led, seat 1
    follows low, and its 13th card is the queen, shown and played (R-6): the highest trump,
    it wins trick 13 and seat 1's side collects the pile. So seat 0's side, on lead, cannot
    collect all 13 (2 encoded: more than the deal won)."""
    hands = ["6S 9S QD TD", "2S 4H 7H QH", "2C 3S 5C JH", "4S 5S 7S AS"]
    deal, search = _searched(83, hands)
    assert (deal.leader, search.r.caller, search.secret, search.hsuit, search.hrank) == (0, 1, 1, 1, 10)
    assert search._sure_last() == 2  # team 1's
    assert _decided_by_the_last_trick(83, hands, 2) == FALSE


def test_the_highest_trump_in_hand_wins_the_last_trick():
    """Trick 10, the six of spades face down (seat 1 the caller): seat 2 holds the ace, jack,
    8 and 7 of spades, every spade but that one. It plays them last, the ace at trick 13: if
    a spade is led it is the highest of the suit led; if not, seat 2 cannot follow, asks, and
    plays it as a trump. Its side, on lead with seat 0, is never courted (-4: better than the
    goon court against it, -13)."""
    hands = ["4D 6D 7D TH", "3D 6S 9D TD", "7S 8S AS JS", "2D JD KD QC"]
    deal, search = _searched(171, hands)
    assert (deal.leader, search.r.caller, search.secret, search.hsuit, search.hrank) == (0, 1, 0, 0, 4)
    assert search._sure_last() == 1  # team 0's, the side searched
    assert _decided_by_the_last_trick(171, hands, -4) == TRUE


def test_no_last_trick_where_the_highest_trump_may_fall_before():
    """The same position, the 8 and 7 of spades moved from seat 2 to seat 3: the ace and jack
    against three spades, and two spades led by the others draw the ace before trick 13; and
    the caller holding the highest trump in hand while another lies face down: its 13th card
    is that one."""
    _, search = _searched(171, ["4D 6D 7D TH", "3D 6S 9D TD", "7S 8S AS JS", "2D JD KD QC"])
    search.h[2 * 4 + 0] ^= 1 << 5 | 1 << 6
    search.h[3 * 4 + 0] |= 1 << 5 | 1 << 6
    assert search._sure_last() == 0
    _, search = _searched(171, ["4D 6D 7D TH", "3D 6S 9D TD", "7S 8S AS JS", "2D JD KD QC"])
    search.h[2 * 4 + 0] ^= 1 << 12  # the ace of spades to seat 1, the caller
    search.h[1 * 4 + 0] |= 1 << 12
    assert search._sure_last() == 0


@pytest.mark.parametrize("seed", [83, 171])
def test_the_values_where_the_last_trick_decides_are_the_exhaustive_searchs(seed, search_class):
    _same(random_position("hidden-rung", random.Random(seed), 4, 0), "score", search_class)
