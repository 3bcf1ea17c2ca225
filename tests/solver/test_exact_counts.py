"""The exact-count search (referee/solver/core_exact.py): "does some line give the claimers
exactly k more tricks?" and R-38's f (the fewest any line gives them), all four seats
choosing together, against a plain exhaustive search through the engine itself (every
line, a court team stopping or playing on: test_claims_against_minimax.every_line), on
positions of every option group, on both paths of the search; and claims settled by it,
a concession at trick 2 of Double Sir and claims far below and above what the claimers hold;
and the restricted search's bound in the pile games, the outcomes of the sequences of trick
winners that give the claimers exactly k."""
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.engine import resolve
from referee.engine.claims import ClaimEvent
from referee.engine.playrecord import PLAY, Event
from referee.solver import Outcome, SearchLimit, Solver, claims, loader
from referee.solver.core_codes import EXACT
from referee.solver.outcome import decode
from referee.solver.position import load, outcome as scoring

from .minimax import child, outcome
from .positions import random_position
from .test_against_minimax import GROUPS
from .test_claims_against_minimax import claim_at, every_line, expected_award
from .test_r38 import court_piece


def claimed_root(preset, seed, left, in_trick, n=0, options=None, reveal_rate=0.3):
    """A random position of `preset` with a disputed claim of n at it (the claim shows a face-down
    trump), and the position the settling searches from: (deal, root, team), or None."""
    options = options or resolve(preset)
    deal = random_position(preset, random.Random(seed), left, in_trick, options, reveal_rate)
    if deal is None or any(v.is_illegal_play for v in deal.violations):
        return None
    team = claim_at(deal, min(n, deal.remaining()), "dispute")
    root = deal.copy()
    root.claimed, root.play_all = None, False
    return deal, root, team


def counts_of(root, team, search_class):
    """Every count k (0 to the tricks left and the pile) the exact-count search says some line
    gives, and f from objective fewest."""
    search = Solver("exact", search_class).prepare(root, team).search
    found = {k for k in range(root.remaining() + 1) if search.reaches(1 << k)}
    fewest = Solver("fewest", search_class).prepare(root, team).value()
    return found, fewest, search


# concrete positions: (preset, seed, tricks left, cards in the trick); the exhaustive counts
# are printed by the assertion when they differ
POSITIONS = [("seven-courts", 3, 3, 0), ("seven-courts", 8, 3, 2), ("court-piece", 6, 3, 1),
             ("double-sir", 3, 2, 0), ("double-sir", 11, 2, 3), ("mendikot", 4, 3, 0), ("dehla-pakad", 6, 2, 1),
             ("hidden-rung", 8, 2, 0), ("band-rang", 9, 2, 2)]


@pytest.mark.parametrize("preset,seed,left,in_trick", POSITIONS)
def test_the_counts_some_line_gives_and_f_are_what_every_line_says(preset, seed, left, in_trick, search_class):
    found = claimed_root(preset, seed, left, in_trick)
    assert found is not None
    _, root, team = found
    _, reach = every_line(root, team)
    counts, fewest, search = counts_of(root, team, search_class)
    assert counts == set(reach)
    assert fewest == min(reach)
    for t in range(root.remaining() + 2):  # f >= t exactly when no line gives fewer than t
        assert search.reaches((1 << t) - 1) == (min(reach) < t)


@pytest.mark.parametrize("preset,overrides,reveal_rate", GROUPS[::2], ids=[f"{p}{o or ''}" for p, o, _ in GROUPS[::2]])
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), left=st.integers(1, 3), in_trick=st.integers(0, 3), other=st.booleans())
def test_every_option_group_s_counts_are_what_every_line_says(preset, overrides, reveal_rate, seed, left, in_trick,
                                                                other, search_class):
    options = resolve(preset, overrides)
    if options.trump in ("hidden", "band") or options.collection == "pile":
        left = min(left, 2)  # the exhaustive tree grows fast
    found = claimed_root(preset, seed, left, in_trick, 0, options, reveal_rate)
    assume(found is not None)
    _, root, team = found
    team ^= other  # either team's counts
    _, reach = every_line(root, team)
    counts, fewest, _ = counts_of(root, team, search_class)
    assert (counts, fewest) == (set(reach), min(reach))


def test_f_of_a_concession_at_the_first_lead_is_the_top_trumps_court(search_class):
    """test_r38's deal: seat 1's spades win every trick it leads or trumps, so every line
    gives its team at least the court's 7 tricks, and some line exactly 7."""
    search = Solver("exact", search_class).prepare(court_piece(), 1).search
    assert search.reaches((1 << 7) - 1) == 0  # no line gives fewer than 7
    assert search.reaches(1 << 7) == 1


@pytest.mark.parametrize("preset,seed,left,in_trick,n", [
    ("seven-courts", 3, 3, 0, 0), ("seven-courts", 3, 3, 0, 3), ("court-piece", 6, 3, 1, 0),
    ("double-sir", 3, 2, 0, 13), ("mendikot", 4, 3, 0, 0), ("dehla-pakad", 6, 2, 1, 13), ("hidden-rung", 8, 2, 0, 0)])
def test_claims_far_below_and_above_what_the_claimers_hold_get_what_every_line_says(preset, seed, left, in_trick, n,
                                                                                     search_class):
    deal, root, team = claimed_root(preset, seed, left, in_trick, n)
    g, reach = every_line(root, team)
    fields = claims.settle(deal, SearchLimit(2_000_000), search_class).claim
    assert (fields["can_take"], fields["awarded"]) == (g, expected_award(deal.claimed.tricks, "dispute", g, reach))


@pytest.mark.parametrize("seed", [0, 5, 6, 8, 11])
def test_a_concession_at_trick_2_of_double_sir_is_settled_within_the_claim_limit(seed):
    """Issue 42: a plain concession at trick 2 of Double Sir came back claim_unsettled. Settled
    now under the API's limit, at f (a concession is awarded f: a count a line gives), and the
    line, replayed by the engine, gives the claimers exactly that. Seeds 0 and 5 (claimers with
    nothing collected) searched the restricted line past 5,000,000 nodes before its bound
    knew the count: every line giving them nothing more ends in the other team's goon court."""
    deal = random_position("double-sir", random.Random(seed), 12, 0)
    seat = deal.to_play
    deal.push(ClaimEvent(seat, "claim", 0))
    deal.push(ClaimEvent((seat + 1) % 4, "dispute"))
    line = claims.settle(deal, SearchLimit(2_000_000))  # the compiled search where built (Python: minutes)
    root = deal.copy()
    root.claimed, root.play_all = None, False
    assert line.claim["awarded"] == Solver("fewest").prepare(root, seat & 1).value()
    end = root.copy()
    for e in line.events:
        end.push(e)
        end.finish()
    assert end.is_over and end.tricks_won[seat & 1] - root.tricks_won[seat & 1] == line.claim["awarded"]
    if seed in (0, 5):
        assert root.tricks_won[seat & 1] == 0 and end.tricks_won[1 - (seat & 1)] == 13  # the goon court


@pytest.mark.parametrize("seed,left,in_trick", [(6, 2, 1), (4, 2, 0)])
def test_a_pile_with_the_tens_and_ace_on_ace_keys_its_table_in_one_word(seed, left, in_trick, search_class):
    """Dehla Pakad with pile.ace-on-ace under the exact count: the rule state of the table's key
    (the pile, the tally, the tens, the count asked) and the owners of the tens and aces came to
    67 bits, past the key's 64: Python refused it (OverflowError) and the compiled core cut it.
    Now a wide state is kept as an id, and the counts are what every line says."""
    options = resolve("dehla-pakad", {"pile_ace_on_ace": True})
    found = claimed_root("dehla-pakad", seed, left, in_trick, 0, options)
    assert found is not None
    _, root, team = found
    _, reach = every_line(root, team)
    counts, fewest, _ = counts_of(root, team, search_class)
    assert (counts, fewest) == (set(reach), min(reach))


def outcomes_by_count(deal, team) -> dict:
    """Every line from `deal`, through the engine: for each count k of further tricks some
    line gives `team`, the outcomes (R-38, encoded as the search's) of those lines."""
    if deal.is_over:
        margin, sign = outcome(deal, team)
        found = {0: {4 * margin + sign}}
        if deal.court_made:
            on = deal.copy()
            on.begin_play_on()
            for k, ends in outcomes_by_count(on, team).items():
                found.setdefault(k, set()).update(ends)
        return found
    found = {}
    for card in deal.legal_plays():
        after = child(deal, Event(deal.to_play, PLAY, card))
        gain = after.tricks_won[team] - deal.tricks_won[team]
        for k, ends in outcomes_by_count(after, team).items():
            found.setdefault(k + gain, set()).update(ends)
    return found


@pytest.mark.parametrize("preset,seed,left,in_trick", [("double-sir", 3, 2, 0), ("double-sir", 1, 3, 0),
                                                       ("hidden-rung", 8, 2, 0), ("hidden-rung", 2, 3, 0)])
def test_the_pile_bound_of_exactly_k_holds_the_outcome_of_every_line_giving_k(preset, seed, left, in_trick):
    """The restricted search's bound in the pile games (core_spans._pile_span with k): the
    outcomes of the sequences of trick winners that give the claimers exactly k more hold
    those of every line of play that does; where no sequence gives k, no line does."""
    found = claimed_root(preset, seed, left, in_trick)
    assert found is not None
    _, root, team = found
    lines = outcomes_by_count(root, team)
    search = loader.python_search()(root.rules, EXACT, scoring(root))
    load(search, root, team)
    for k in range(root.remaining() + search.pile + 1):
        if search._pile_span(0, 0, 0, k):
            assert min(lines.get(k, {search.span_lo})) >= search.span_lo
            assert max(lines.get(k, {search.span_hi})) <= search.span_hi
        else:
            assert k not in lines


def test_a_concession_with_nothing_collected_is_bounded_to_the_goon_court():
    """Double Sir, trick 2, the claimers (seat 3's team) have collected nothing and concede:
    every sequence of trick winners that gives them nothing more gives the other team all 13
    collected, a goon court (3 courts, the deal lost), and no other outcome; without the count
    the sequences reach the claimers' own court."""
    deal = random_position("double-sir", random.Random(0), 12, 0)
    root = deal.copy()
    root.play_all = False
    team = deal.to_play & 1
    assert root.tricks_won[team] == 0
    search = loader.python_search()(root.rules, EXACT, scoring(root))
    load(search, root, team)
    assert search._pile_span(0, 0, 0, 0)
    assert decode(search.span_lo) == decode(search.span_hi) == Outcome(-3, -1)
    search._pile_span(0, 0, 0)
    assert search.span_lo < search.span_hi


def test_a_count_no_sequence_of_trick_winners_gives_is_refused_without_a_search():
    """bench_solver's Double Sir claim at 8 tricks left (its seed 1): the claimers (4 tricks
    collected, the other team none, a pile of one on the table) claim 1 and can take 4. One
    more trick alone is only ever the 13th trick's pile, and every sequence of trick winners
    that leaves the claimers at 5 ends the deal before it (the other team collects its 7th):
    no sequence gives exactly 1, so no line does. The exact-count search proved that over
    every line (5,400,000 nodes, past the claim limit) until it asked the sequences first.
    Settled: the nearest count below, 0, along a line the engine replays to exactly that."""
    rng = random.Random(10208)
    deal = None
    while deal is None:
        deal = random_position("double-sir", rng, 8, 0)
    seat = deal.to_play
    deal.push(ClaimEvent(seat, "claim", 1))
    deal.push(ClaimEvent((seat + 1) % 4, "dispute"))
    root = deal.copy()
    root.claimed, root.play_all = None, False
    search = Solver("exact").prepare(root, seat & 1).search
    assert search.reaches(1 << 1) == 0 and search.nodes < 1000
    line = claims.settle(deal, SearchLimit(2_000_000))
    assert (line.claim["held"], line.claim["can_take"], line.claim["awarded"]) == (True, 4, 0)
    end = root.copy()
    for e in line.events:
        end.push(e)
        end.finish()
    assert end.is_over and end.tricks_won[seat & 1] == root.tricks_won[seat & 1]
