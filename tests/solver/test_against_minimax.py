"""The solver against a plain exhaustive minimax through the engine (tests/solver/minimax.py)
on random endgames of every preset and option group: every move's value and the best one."""
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.engine import resolve
from referee.solver import REVEAL_MOVE, Solver

from .minimax import card_values
from .positions import random_position

# (preset, option overrides, chance of a reveal at each chance): every trump mode, every
# collection and pile option, every scoring; hidden and band with the trump still face down.
GROUPS = [
    ("seven-courts", {}, 0.3),
    ("seven-courts", {"kot": True, "defenders_double": True}, 0.3),
    ("court-piece", {}, 0.3),
    ("court-piece", {"trump": "blind"}, 0.3),
    ("rr-single-sir", {}, 0.3),
    ("double-sir", {}, 0.3),
    ("double-sir", {"pile_ace_on_ace": True, "pile_trump_ace_no_seal": True}, 0.3),
    ("double-sir", {"pile_ace_no_seal": "any"}, 0.3),
    ("seven-courts", {"collection": "pile", "kot": True}, 0.3),
    ("double-sir", {"pile_first_pair_collects": False, "pile_no_collect_after": [10, 11, 12]}, 0.3),
    ("rr-double-sir", {}, 0.3),
    ("hidden-rung", {}, 0.0),
    ("hidden-rung", {}, 0.15),
    ("rr-hidden-rung", {}, 0.0),
    ("be-ranga-double-sar", {}, 0.3),
    ("rr-be-ranga", {}, 0.3),
    ("mendikot", {}, 0.3),
    ("mendikot", {"trump": "random"}, 0.3),
    ("mendikot", {"trump": "band"}, 0.0),
    ("mendikot", {"trump": "band", "band_reveal": "auto"}, 0.0),
    ("mendikot", {"trump": "band", "band_reveal": "ask"}, 0.1),
    ("dehla-pakad", {}, 0.3),
    ("dehla-pakad", {"trump": "band", "band_reveal": "ask"}, 0.1),
    ("court-piece", {"scoring": "deals"}, 0.3),
    ("double-sir", {"pile_after_collect": "each_win"}, 0.3),
    ("double-sir", {"scoring": "bid-penalty"}, 0.3),
    ("bid-double-sir", {}, 0.3),
    ("band-rang", {}, 0.3),
    ("band-rang", {"trump": "hidden"}, 0.0),
    ("band-rang", {"trump": "hidden"}, 0.15),
    ("hokm", {}, 0.3),  # GROUPS[30]: among the paths' groups (test_paths takes every third)
    ("double-sir", {"scoring": "hokm"}, 0.3),
    ("dehla-pakad", {"tens_end": "settled"}, 0.3),
    ("mendikot", {"tens_end": "settled"}, 0.3),  # GROUPS[33], a paths' group
    ("mendikot", {"trump": "band", "band_caller_reveals": False}, 0.0),
    ("mendikot", {"trump": "band", "band_reveal": "auto", "band_caller_reveals": False, "tens_end": "settled"}, 0.0),
    ("mendikot", {"trump": "band", "band_reveal": "ask", "band_caller_reveals": False}, 0.1),  # GROUPS[36]
]
SETTINGS = settings(max_examples=8, deadline=None, derandomize=True)


def _same(deal, objective, search_class):
    expected = card_values(deal, objective)
    analysis = Solver(objective, search_class).solve(deal)
    ours = {m: (tuple(v) if objective == "score" else v) for m, v in analysis.cards}
    # face-down plays are not moves of the solver: each is worth its card played face up
    for key, v in expected.items():
        if isinstance(key, tuple):
            assert v == expected[key[1]], key
    assert ours == {k: v for k, v in expected.items() if not isinstance(k, tuple)}
    best = max(expected.values())
    assert (tuple(analysis.value) if objective == "score" else analysis.value) == best
    first = analysis.line[0][1]
    assert ours[first] == best  # and no lower card is as good (a reveal only when strictly better)
    lower = [m for m in ours if m is not REVEAL_MOVE and (
        first is REVEAL_MOVE or (m.strength, m.index) < (first.strength, first.index))]
    assert all(ours[m] < best for m in lower)


@pytest.mark.parametrize("preset,overrides,reveal_rate", GROUPS, ids=[f"{p}{o or ''}-{r}" for p, o, r in GROUPS])
@pytest.mark.parametrize("objective", ["score", "tricks"])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), left=st.integers(1, 3), in_trick=st.integers(0, 3))
def test_every_move_is_worth_what_exhaustive_search_says(preset, overrides, reveal_rate, objective, seed, left, in_trick,
                                                         search_class):
    options = resolve(preset, overrides)
    if options.trump == "hidden" or options.band_reveal == "ask" and options.trump == "band":
        left = min(left, 2)  # asks and face-down plays: the exhaustive tree grows fast
    rng = random.Random(seed)
    deal = random_position(preset, rng, left, in_trick, options, reveal_rate)
    assume(deal is not None)  # a deal that ended before the position is no example: another is drawn
    _same(deal, objective, search_class)


@pytest.mark.parametrize("preset,overrides", [("hidden-rung", {}), ("mendikot", {"trump": "band", "band_reveal": "ask"})])
def test_positions_with_the_trump_still_face_down_are_searched(preset, overrides, search_class):
    """The groups above reach positions where the hidden trump is still face down and
    a reveal is a move; here at least ten of them, each equal to the exhaustive search."""
    rng, found = random.Random(7), 0
    while found < 10:
        deal = random_position(preset, rng, 2, rng.randrange(4), resolve(preset, overrides), 0.0)
        if deal is None or not deal.trump.is_hidden:
            continue
        found += 1
        _same(deal, "score", search_class)
        _same(deal, "tricks", search_class)
