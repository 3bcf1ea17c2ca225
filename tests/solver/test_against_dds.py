"""The solver's `tricks` value of every legal card equals DDS's (the bridge double-dummy
solver, written by others) on random seven-courts positions with a called trump: 1 to 13
tricks left, 0 to 3 cards in the current trick. A subset sized for the suite; the bench
(bench/bench_solver.py --full) runs it at full size, on positions chosen by nothing but
the seed."""
import random

import pytest

from referee.solver import solve

from .dds import dds_values
from .positions import random_position

pytest.importorskip("endplay")

# tricks left -> positions checked here (deep positions cost the pure-Python solver seconds)
SIZES = {1: 12, 2: 12, 3: 12, 4: 10, 5: 8, 6: 6, 7: 4, 8: 3, 9: 2}
# 10 to 13 tricks left: seeds whose position the solver answers in under 40,000 nodes (many
# take it hundreds of thousands to millions: too long for the suite); (seed, cards down)
DEEP = {10: [(8, 0), (7, 3)], 11: [(0, 0), (5, 1)], 12: [(5, 1), (39, 3)], 13: [(5, 1), (29, 1)]}


def _check(deal, context):
    ours = {m.text: v for m, v in solve(deal, "tricks", line=False).cards}
    assert ours == dds_values(deal), context


@pytest.mark.parametrize("left", sorted(SIZES))
def test_every_card_is_worth_what_dds_says(left):
    rng = random.Random(1000 + left)
    checked = 0
    while checked < SIZES[left]:
        deal = random_position("seven-courts", rng, left, checked % 4)
        if deal is not None:
            _check(deal, (left, checked))
            checked += 1


@pytest.mark.parametrize("left,seed,down", [(n, s, d) for n in DEEP for s, d in DEEP[n]])
def test_every_card_of_a_deep_position_is_worth_what_dds_says(left, seed, down):
    deal = random_position("seven-courts", random.Random(seed), left, down)
    assert deal is not None and len(deal.tricks) == 13 - left and deal.position == down
    _check(deal, (left, seed))
