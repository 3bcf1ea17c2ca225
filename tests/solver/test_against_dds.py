"""The solver's `tricks` value of every legal card equals DDS's (the bridge double-dummy
solver, written by others) on random seven-courts positions with a called trump: 1 to 13
tricks left, 0 to 3 cards in the current trick, positions chosen by nothing but the seed,
on both paths of the search (compiled and Python). The bench (bench/bench_solver.py --full)
runs it at full size."""
import random

import pytest

from referee.solver import Solver

from .dds import dds_values
from .positions import random_position

pytest.importorskip("endplay")

# tricks left -> positions checked (the Python path: fewer of the deep ones)
COMPILED = {1: 12, 2: 12, 3: 12, 4: 10, 5: 8, 6: 6, 7: 6, 8: 4, 9: 4, 10: 3, 11: 3, 12: 3, 13: 3}
PYTHON = {1: 6, 2: 6, 3: 6, 4: 5, 5: 4, 6: 3, 7: 3, 8: 2, 9: 2, 10: 1, 11: 1, 12: 1, 13: 1}


def _check(deal, search_class, context):
    ours = {m.text: v for m, v in Solver("tricks", search_class).solve(deal, line=False).cards}
    assert ours == dds_values(deal), context


@pytest.mark.parametrize("left", sorted(COMPILED))
def test_every_card_is_worth_what_dds_says(left, search_class):
    sizes = PYTHON if search_class.__module__.endswith(".core") else COMPILED
    rng = random.Random(1000 + left)
    checked = 0
    while checked < sizes[left]:
        deal = random_position("seven-courts", rng, left, checked % 4)
        if deal is not None:
            _check(deal, search_class, (left, checked))
            checked += 1
