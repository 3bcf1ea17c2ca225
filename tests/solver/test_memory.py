"""A search stopped at its limit leaves nothing behind (issue 42, item 6): no stop exception
kept in a cycle with the search's frames, no table held, on both paths of the search. A
server worker runs one refused search after another; what it held after them must be what
it held before."""
import gc
import random
import tracemalloc

from referee.solver import SearchLimit, SearchLimitExceeded, Solver

from .positions import random_position

MARGIN = 1 << 20  # bytes: a table of the smallest size is 0.75 MiB, so one kept table fails


def stopped_search(deal, search_class, nodes: int) -> None:
    """One request's search, refused: its own Solver, stopped at its node limit."""
    try:
        Solver("score", search_class).solve(deal, SearchLimit(nodes=nodes))
    except SearchLimitExceeded as exc:
        assert exc.reason == "nodes"
    else:
        raise AssertionError("the search should have stopped at its limit")


def test_fifty_stopped_searches_leave_the_memory_as_it_was(search_class):
    # a full Mendikot deal under score: far past a few thousand nodes
    deal = random_position("mendikot", random.Random(5), 13, 0)
    nodes = 1_000 if search_class.__module__.startswith("referee.solver.python_core") else 50_000
    gc.collect()
    gc.disable()  # a cycle would be freed only by a collection: none runs here, as none may in a worker
    tracemalloc.start()
    try:
        stopped_search(deal, search_class, nodes)  # the first: the caches that stay (the outcome's scoring)
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(50):
            stopped_search(deal, search_class, nodes)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        gc.enable()
    assert held < MARGIN, f"{held / 2**20:.1f} MiB held after 50 stopped searches"


def test_a_stopped_search_starts_its_table_again_small(search_class):
    """The Solver that stopped keeps its search for the next position: its table is already
    the smallest again, and the next question is answered as if asked first."""
    deal = random_position("mendikot", random.Random(5), 13, 0)
    solver = Solver("score", search_class)
    try:
        solver.solve(deal, SearchLimit(nodes=20_000))
    except SearchLimitExceeded:
        pass
    search = solver._search
    assert search.room == 1 << 14 and search.error is None
    late = random_position("mendikot", random.Random(5), 2, 0)
    assert solver.solve(late).value == Solver("score", search_class).solve(late).value
