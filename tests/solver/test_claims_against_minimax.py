"""Settled claims (R-34, R-34a) against a plain exhaustive search through the engine itself
(`Deal.legal_plays`, `push`; every line, no pruning, no table) on random endgames of every
option group, the hidden trump still face down at the claim among them, on both paths of
the search (compiled and Python)."""
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
import pytest

from referee.engine import resolve
from referee.engine.claims import ClaimEvent
from referee.engine.playrecord import PLAY, Event
from referee.solver import claims
from referee.solver.limits import SearchLimit

from .minimax import child, outcome
from .positions import random_position
from .test_against_minimax import GROUPS

SETTINGS = settings(max_examples=6, deadline=None, derandomize=True)


def settle(deal, search_class):
    """The claim settled as the referee settles it: its own search under the claim's default
    node limit (referee.budget.CLAIM_NODES)."""
    return claims.settle(deal, SearchLimit(2_000_000), search_class)


def restricted(deal, team, k):
    """R-34a read from the rulebook: perfect play (§13's outcome, the claimer's team raising
    it, the other lowering it) among the plays after which some line gives `team` exactly k
    more tricks; None when no line does."""
    if k < 0:
        return None
    if deal.is_over:
        stop = outcome(deal, team) if k == 0 else None
        if not deal.court_made:
            return stop
        on = deal.copy()
        on.begin_play_on()
        found = [v for v in (stop, restricted(on, team, k)) if v is not None]
        if not found:
            return None
        return max(found) if deal.first_seven == team else min(found)
    found = []
    for card in deal.legal_plays():
        after = child(deal, Event(deal.to_play, PLAY, card))
        v = restricted(after, team, k - (after.tricks_won[team] - deal.tricks_won[team]))
        if v is not None:
            found.append(v)
    if not found:
        return None
    return max(found) if deal.to_play & 1 == team else min(found)


def every_line(deal, team):
    """(g, reach): the tricks `team` takes from here against any defence, up to the deal's
    own end (a court team with play_on plays on when that gains it tricks), and for each
    number k of tricks some line gives it, the best outcome of such a line."""
    if deal.is_over:
        stop = outcome(deal, team)
        if not deal.court_made:
            return 0, {0: stop}
        on = deal.copy()
        on.begin_play_on()
        g, reach = every_line(on, team)
        reach = dict(reach)
        reach[0] = max(reach.get(0, stop), stop)
        return (max(0, g) if deal.first_seven == team else 0), reach
    values, reach = [], {}
    for card in deal.legal_plays():
        after = child(deal, Event(deal.to_play, PLAY, card))
        gain = after.tricks_won[team] - deal.tricks_won[team]
        g, sub = every_line(after, team)
        values.append(g + gain)
        for k, v in sub.items():
            reach[k + gain] = max(reach.get(k + gain, v), v)
    return (max(values) if deal.to_play & 1 == team else min(values)), reach


def expected_award(n, answer, g, reach):
    """R-34 read from the rulebook: min(n, g), n for an accepted claim some line makes; the
    nearest a line gives when none gives that (the largest below, else the smallest above);
    never below f, the fewest tricks any line gives (R-38)."""
    f = min(reach)
    if answer == "accept" and n in reach:
        return n
    award = max(min(n, g), f)
    if award in reach:
        return award
    below = [k for k in reach if k < award]
    return max(below) if below else min(reach)


def claim_at(deal, n, answer):
    seat = deal.to_play
    deal.push(ClaimEvent(seat, "claim", n))
    deal.push(ClaimEvent((seat + 1) % 4, answer))
    return seat & 1


@pytest.mark.parametrize("preset,overrides,reveal_rate", GROUPS, ids=[f"{p}{o or ''}-{r}" for p, o, r in GROUPS])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), left=st.integers(1, 3), in_trick=st.integers(0, 3),
       n=st.integers(0, 13), accept=st.booleans())
def test_a_settled_claim_is_what_every_line_of_play_says(preset, overrides, reveal_rate, seed, left, in_trick, n, accept,
                                                         search_class):
    options = resolve(preset, overrides)
    if options.trump in ("hidden", "band") or options.collection == "pile":
        left = min(left, 2)  # the exhaustive tree grows fast
    rng = random.Random(seed)
    deal = random_position(preset, rng, left, in_trick, options, reveal_rate)
    assume(deal is not None and not any(v.is_illegal_play for v in deal.violations))
    hidden = deal.trump.is_hidden
    n = n % (deal.remaining() + 1)
    answer = "accept" if accept else "dispute"
    team = claim_at(deal, n, answer)
    assert not (hidden and deal.trump.is_hidden)  # the claim shows the trump
    root = deal.copy()
    root.claimed = None
    g, reach = every_line(root, team)
    award = expected_award(n, answer, g, reach)
    line = settle(deal, search_class)
    fields = line.claim
    assert (fields["can_take"], fields["held"], fields["awarded"]) == (g, g >= n, award)
    assert (fields["defence"] is None) == (g >= n)
    end = root.copy()
    for e in line.events:
        end.push(e)
        end.finish()
    assert end.is_over
    assert end.tricks_won[team] - root.tricks_won[team] == award
    assert outcome(end, team) == restricted(root, team, award)  # the line is R-34a's
    if fields["defence"] is not None:
        beaten = root.copy()
        for p in fields["defence"]:
            beaten.push(Event(p["seat"], PLAY, next(c for c in beaten.legal_plays() if c.text == p["card"])))
            beaten.finish()
        assert beaten.tricks_won[team] - root.tricks_won[team] == g < n
