"""The restricted search's bounds outside the pile games (core_exact.Exact._exact_span): in
Mendikot the tens a count leaves to one side, and in Court Piece the counts no sequence of
trick winners gives (core_exact._sequences), each on a concrete deal it decides, against a
plain exhaustive search through the engine (test_exact_counts.outcomes_by_count)."""
import random

import pytest

from referee.engine.claims import ClaimEvent
from referee.solver import SearchLimit, Solver, claims, loader
from referee.solver.core_codes import EXACT
from referee.solver.outcome import decode
from referee.solver.position import load, outcome as scoring

from .positions import random_position
from .test_claims_against_minimax import restricted
from .test_exact_counts import outcomes_by_count


def mendikot(seed, left=3):
    """A Mendikot position at a trick's start (random legal play), the search loaded for the
    seat to play's team, as Python (the bounds are asked one by one), and the team."""
    deal = random_position("mendikot", random.Random(seed), left, 0)
    root = deal.copy()
    root.play_all = False
    team = deal.to_play & 1
    search = loader.python_search()(root.rules, EXACT, scoring(root))
    load(search, root, team)
    return root, team, search


@pytest.mark.parametrize("seed", [0, 4, 7, 8, 11, 15])
def test_the_span_of_exactly_k_holds_the_outcome_of_every_line_giving_k(seed):
    """For every count k, the outcomes of every line of play giving the team exactly k more
    lie within the restricted bound's span, the tens the count leaves to one side counted."""
    root, team, search = mendikot(seed)
    lines = outcomes_by_count(root, team)
    for k in range(root.remaining() + 1):
        if search._exact_span(k) >= -1:
            assert min(lines.get(k, {search.span_lo})) >= search.span_lo
            assert max(lines.get(k, {search.span_hi})) <= search.span_hi
        else:
            assert k not in lines


def test_a_team_winning_no_trick_left_takes_no_ten_and_one_winning_every_one_takes_them_all():
    """Mendikot, 3 tricks left, seat 0's team to lead with 6 tricks and 2 tens to 1, the ten of
    hearts still out (seat 2's): a line giving it no more tricks gives the other team that ten
    and seven tricks (two tens each: the deal lost on tricks, -1); one giving it all three gives
    it its third ten (a mendi, won: 5). The span of the sequences alone, the ten to either side,
    is [-1, 5] both times and decides nothing."""
    root, team, search = mendikot(0)
    assert (team, root.tricks_won, root.tens_won) == (0, [6, 4], [2, 1])
    lines = outcomes_by_count(root, team)
    search._span(0)
    assert (search.span_lo, search.span_hi) == (-1, 5)
    assert search._exact_span(0) == -1 and (search.span_lo, search.span_hi) == (-1, -1) and lines[0] == {-1}
    assert search._exact_span(3) == -1 and (search.span_lo, search.span_hi) == (5, 5) and lines[3] == {5}


def test_the_trump_ten_held_with_every_trump_above_it_is_its_side_s_whatever_the_count():
    """Mendikot, 3 tricks left, hearts trumps, seat 1's team to play with 6 tricks and no ten
    to the other team's 3: seat 1 holds the ten of hearts and seat 3 the ace, the trumps above
    the ten still out, so the ten is theirs whatever count they end with, and every line's
    outcome is a mendi for the other team (-5). The sequences alone give [-9, -5] (the
    mendikot, all four tens, at its low end)."""
    root, team, search = mendikot(7)
    assert (team, root.tens_won, search._ten_sure()) == (1, [3, 0], 1)
    lines = outcomes_by_count(root, team)
    for k in (1, 2, 3):
        search._span(k)
        assert (search.span_lo, search.span_hi) == (-9, -5)
        assert search._exact_span(k) == 1 and (search.span_lo, search.span_hi) == (-5, -5) and lines[k] == {-5}


def bench_claim(preset, k, left, n):
    """bench_solver.py's claims part (seed 1): the n-th position of `preset` (its k-th preset)
    at `left` tricks left."""
    rng = random.Random(10000 + k * 100 + left)
    found = []
    while len(found) <= n:
        deal = random_position(preset, rng, left, 0)
        if deal is not None:
            found.append(deal)
    return found[n]


def test_a_count_past_the_court_piece_deal_s_end_is_refused_without_a_search():
    """bench_solver's Court Piece claim at 10 tricks left (its seed 1): seat 0's team, 3 tricks
    to none, claims 6 more and can take 8. Exactly 6 more is only ever a court (4 more in a
    row) played on for 2 and then a trick lost; once the other team wins a trick no court is
    left and the deal ends at the claimers' seventh. The line's first trick, hearts trumps:
    seat 2 leads the three of diamonds, seat 3 plays the four, and seat 0, with no diamonds,
    throws the four of spades (the first card the line tries): seat 1's five and six of
    diamonds both win the trick, so no line gives 6. The exact-count search proved that over
    every line (8,211,465 nodes, past the claim limit) until it asked the sequences of trick
    winners. Settled: 6, along a line the engine replays to exactly 6."""
    deal = bench_claim("court-piece", 1, 10, 3)
    seat = deal.to_play
    assert (seat & 1, deal.tricks_won) == (0, [3, 0])
    deal.push(ClaimEvent(seat, "claim", 6))
    deal.push(ClaimEvent((seat + 1) % 4, "dispute"))
    root = deal.copy()
    root.claimed, root.play_all = None, False
    search = Solver("exact").prepare(root, 0).search
    for move in (27, 28, 2):  # 3D, 4D, 4S
        search.push(move)
    assert search.reaches(1 << 6) == 0 and search.nodes < 1000
    line = claims.settle(deal, SearchLimit(2_000_000))
    assert (line.claim["held"], line.claim["can_take"], line.claim["awarded"]) == (True, 8, 6)
    end = root.copy()
    for e in line.events:
        end.push(e)
        end.finish()
    assert end.is_over and end.tricks_won[0] == 3 + 6


@pytest.mark.parametrize("preset,seed,k", [("mendikot", 27, 2), ("mendikot", 36, 1), ("dehla-pakad", 0, 1),
                                           ("dehla-pakad", 18, 3)])
def test_the_restricted_value_is_what_every_line_says_where_the_span_decides(preset, seed, k, search_class):
    """3 tricks left: the restricted value (R-34a) against the rulebook's, read through the
    engine. Where the span decides, its answer is read before the exact-count search asks for
    a line, which moves the span as it goes (core_exact._decided): read after it, as it was,
    these four came out wrong once the count narrowed the span (Mendikot seed 27, 2 more: a
    mendi lost, -5, for a mendi won, 5)."""
    deal = random_position(preset, random.Random(seed), 3, 0)
    root = deal.copy()
    root.play_all = False
    team = deal.to_play & 1
    found = Solver("exact", search_class).prepare(root, team).value(k)
    assert decode(found) == restricted(root, team, k)
