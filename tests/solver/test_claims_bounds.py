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


@pytest.mark.parametrize("preset,seed,left,n,nodes", [("hidden-rung", 26, 4, 1, 400), ("double-sir", 12, 4, 1, 450)])
def test_g_in_the_pile_games_is_bounded_by_the_sequences_of_trick_winners(preset, seed, left, n, nodes, search_class):
    """g (deal_tricks) in the pile games had no bound but the tricks left: it now asks the
    pile's bound of every sequence of trick winners (core_bounds._pile_bound, the leader's
    quick tricks and a pair no one can stop), its outcome the team's count. The whole claim
    searched 472 and 532 nodes before (past these limits: claim_unsettled), 248 and 374 now."""
    found, expected = settled_at(preset, seed, left, n, nodes, search_class)
    assert found == expected
