"""Claims settled within a small node limit that they passed before a bound of their own
searches (issue 42, claims): each a concrete position (preset, seed of
tests/solver/positions.random_position, tricks left, the claim), its award and g checked
against the engine's exhaustive search of every line (test_claims_against_minimax), on both
paths of the search (the same nodes on both, test_paths)."""
import pytest

from referee.solver import SearchLimit, claims

from .test_claims_against_minimax import every_line, expected_award
from .test_exact_counts import claimed_root


def settled_at(preset, seed, left, n, nodes, search_class):
    """The claim's verdict fields under a limit of `nodes`, and what every line says: (g, award)."""
    deal, root, team = claimed_root(preset, seed, left, 0, n)
    g, reach = every_line(root, team)
    claims._cache.clear()
    fields = claims.settle(deal, SearchLimit(nodes), search_class).claim
    return (fields["can_take"], fields["awarded"]), (g, expected_award(n, "dispute", g, reach))


@pytest.mark.parametrize("preset,seed,left,n,nodes", [("hidden-rung", 26, 4, 1, 400), ("double-sir", 12, 4, 1, 290)])
def test_g_in_the_pile_games_is_bounded_by_the_sequences_of_trick_winners(preset, seed, left, n, nodes, search_class):
    """g (deal_tricks) in the pile games had no bound but the tricks left: it now asks the
    pile's bound of every sequence of trick winners (core_bounds._pile_bound, the leader's
    quick tricks and a pair no one can stop), its outcome the team's count. The whole claim
    searches 473 and 341 nodes without that bound (past these limits: claim_unsettled), 225
    and 239 with it (counted with the restricted line's bound within a trick, which took
    them from 232 and 488)."""
    found, expected = settled_at(preset, seed, left, n, nodes, search_class)
    assert found == expected


@pytest.mark.parametrize("seed,n,nodes", [(16, 1, 500), (43, 0, 400)])
def test_exactly_k_gives_tricks_away_first_where_k_is_low(seed, n, nodes, search_class):
    """Seven Courts, 4 tricks left, claims of 1 and 0 awarded f (3 and 2): the exact-count
    search tries the claimers' worst cards first where the counts asked are at most half of
    what is left, and counts the top trumps of a team split between its hands
    (core_exact._few, _runs). The whole claim searched 962 and 526 nodes before, 189 and 254
    now."""
    found, expected = settled_at("seven-courts", seed, 4, n, nodes, search_class)
    assert found == expected


def test_the_restricted_line_asks_its_bound_within_a_trick_in_the_pile_games(search_class):
    """Dehla Pakad, 4 left, a claim of 1 (g 4, awarded 1): the line restricted to the award
    asks at each card whether the value stays; within a trick the pile games asked no bound,
    so each question went on to every card of the trick and then asked, at the next trick's
    start, whether some line gives the count, for each card apart. The bound of the sequences
    of trick winners from the card asked (core_exact._exact_within) decides the value and
    leaves one such question. The whole claim searched 647 nodes before, 139 now."""
    found, expected = settled_at("dehla-pakad", 44, 4, 1, 250, search_class)
    assert found == expected == (4, 1)
