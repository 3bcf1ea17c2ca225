"""The solver's `tricks` value of every legal card equals DDS's (the bridge double-dummy
solver, written by others) on random seven-courts positions with a called trump: 1 to 13
tricks left, 0 to 3 cards in the current trick. A subset sized for the suite; the bench
(bench/bench_solver.py) runs it at full size."""
import random

import pytest

from referee.solver import solve

from .dds import dds_values
from .positions import random_position

pytest.importorskip("endplay")

# tricks left -> positions checked here (deep positions cost the pure-Python solver seconds)
SIZES = {1: 12, 2: 12, 3: 12, 4: 10, 5: 8, 6: 6, 7: 4, 8: 3, 9: 2}


@pytest.mark.parametrize("left", sorted(SIZES))
def test_every_card_is_worth_what_dds_says(left):
    rng = random.Random(1000 + left)
    checked = 0
    while checked < SIZES[left]:
        deal = random_position("seven-courts", rng, left, checked % 4)
        if deal is None:
            continue
        ours = {m.text: v for m, v in solve(deal, "tricks").cards}
        assert ours == dds_values(deal), (left, checked)
        checked += 1
