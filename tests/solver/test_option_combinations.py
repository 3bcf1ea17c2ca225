"""Perfect play under any combination of options the API accepts, not only the option groups
of test_against_minimax (GROUPS): a preset with any of the options the solver's rules and
scoring read set anew (tests/solver/combos.py; only what `effective` accepts), a random
endgame of 1-3 tricks, and every objective against the plain exhaustive search through the
engine, on both paths of the search (compiled and Python):

- `score` and `tricks`: every move's value and the best (test_against_minimax._same);
- `deal_tricks`: a claim's g, the tricks the team takes to the deal's own end (every_line);
- `exact` and `fewest`: the counts some line gives and f (every_line), and for each count the
  outcome of perfect play among the lines that give it (R-34a, `restricted`);
- a claim settled as the referee settles it (claims.settle): can_take, held and the award.

A few dozen examples a run, derandomized (CI runs the same ones). To run it long, with new
draws each run: REFEREE_COMBOS_EXAMPLES=2000 .venv/bin/python -m pytest
tests/solver/test_option_combinations.py -x -q (examples set: drawn at random; add
--hypothesis-seed=N to draw again the same). A failure prints its example: add it below as
a concrete test (preset, options, seed)."""
import itertools
import os
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.engine import resolve
from referee.engine.kernel import ENDS, FIELDS, SEALS, Rules
from referee.solver import _OBJECTIVE, Solver, claims, loader
from referee.solver.core_codes import WIDE
from referee.solver.limits import SearchLimit
from referee.solver.outcome import Margins

from .combos import option_sets
from .positions import random_position
from .test_against_minimax import _same
from .test_claims_against_minimax import claim_at, every_line, expected_award, restricted
from .test_exact_counts import counts_of

LONG = os.environ.get("REFEREE_COMBOS_EXAMPLES")
SETTINGS = settings(max_examples=int(LONG or 30), deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def position_of(preset, options, seed, left, in_trick, reveal_rate, lean=0.0):
    """A random endgame under `options` (`lean`: positions.random_position's), none with an
    illegal play on record (its end is the penalty rules'); hidden, band and pile trees grow
    fast, so at most 2 tricks there."""
    if options.trump in ("hidden", "band") or options.collection == "pile":
        left = min(left, 2)
    deal = random_position(preset, random.Random(seed), left, in_trick, options, reveal_rate, lean=lean)
    if deal is None or any(v.is_illegal_play for v in deal.violations):
        return None
    return deal


def check_counts(deal, team, search_class):
    """deal_tricks, exact and fewest from `deal` for `team` against every line."""
    g, reach = every_line(deal, team)
    assert Solver("deal_tricks", search_class).prepare(deal, team).value() == g
    counts, fewest, _ = counts_of(deal, team, search_class)
    assert (counts, fewest) == (set(reach), min(reach))
    exact = Solver("exact", search_class).prepare(deal, team)
    for k in sorted(reach):
        assert Margins(deal.options).shown(exact.value(k)) == restricted(deal, team, k), k


def check_claim(deal, n, accept, search_class):
    """A claim of n at `deal`, accepted or disputed, settled as the referee settles it."""
    claimed = deal.copy()
    n = n % (claimed.remaining() + 1)
    answer = "accept" if accept else "dispute"
    team = claim_at(claimed, n, answer)
    root = claimed.copy()
    root.claimed, root.play_all = None, False
    g, reach = every_line(root, team)
    fields = claims.settle(claimed, SearchLimit(2_000_000), search_class).claim
    assert (fields["can_take"], fields["held"], fields["awarded"]) == (g, g >= n,
                                                                       expected_award(n, answer, g, reach))
    return root, team


def check_every_objective(preset, overrides, seed, left, in_trick, reveal_rate, search_class, n=0, accept=False,
                          other=False, lean=0.0):
    options = resolve(preset, overrides)
    deal = position_of(preset, options, seed, left, in_trick, reveal_rate, lean)
    if deal is None:
        return False
    for objective in ("score", "tricks"):
        _same(deal, objective, search_class)
    root, team = check_claim(deal, n, accept, search_class)  # the claim shows a face-down trump
    check_counts(root, team ^ other, search_class)
    return True


@SETTINGS
@given(combo=option_sets(), seed=st.integers(0, 2**32 - 1), left=st.integers(1, 3), in_trick=st.integers(0, 3),
       reveal_rate=st.sampled_from([0.0, 0.15, 0.3]), n=st.integers(0, 13), accept=st.booleans(),
       other=st.booleans(), lean=st.sampled_from([0.0, 0.9]))
def test_every_objective_under_any_accepted_options_is_what_exhaustive_search_says(
        combo, seed, left, in_trick, reveal_rate, n, accept, other, lean, search_class):
    """lean 0.9: one team's seats play high, the other's low, a court is played on (courts,
    play-ons and sweeps: bavneys, goon courts, whitewashes)."""
    preset, overrides, _ = combo
    example = (preset, overrides, seed, left, in_trick, reveal_rate, n, accept, other, lean)
    try:
        found = check_every_objective(preset, overrides, seed, left, in_trick, reveal_rate, search_class, n, accept,
                                      other, lean)
    except Exception as exc:  # the example, to be written below as a concrete test
        raise AssertionError(f"{example!r}: {type(exc).__name__}: {exc}") from exc
    assume(found)


# the rule settings the table's key reads (core_table._key, _fate_key, _owners_key), every value
KEYED = {"pile": (0, 1), "end": tuple(ENDS.values()), "tens": (0, 1), "settled": (0, 1), "pairs": (0, 1),
         "ace_rule": (0, 1), "ace_on_ace": (0, 1), "ace_seal": tuple(SEALS.values())}


def widest_key(search, kk, number):
    """The table's key with every field it packs at its largest: the trump and its face-down
    flag, the pile (its 11 bits), the tally, the first seven and the play-on, the deciding
    pair's run, the tens, the count asked, the owners of the tens and aces (12 bits each),
    the team and the leader; SCORE's goal id at its bound (below 2**32: core_table._goal) and
    a wide state's id at its (below 2**36, core_codes.WIDE)."""
    search.trump, search.hidden, search.number, search.team, search.leader = 3, 1, number, 1, 3
    search.pile, search.pw, search.pace, search.pest, search.pcoll, search.hot = 15, 3, 1, 1, 0, 1
    search.won, search.tens, search.pile_tens, search.first_seven, search.play_on = [13, 13], [4, 4], 4, 1, 1
    search.run_by, search.run, search.deferred, search.pkind, search.pwinner = 3, 3, 1, 3, 1
    search._owners = lambda rank: (1 << 12) - 1
    search._fate = lambda: 0
    search._goal = lambda fate, t: (1 << 32) - 1
    search.state_ids = _Crowded()
    return search._key(kk)


class _Crowded(dict):
    """As many wide states met as a key can number (2**36 - 1), the next id the largest."""

    def __len__(self):
        return (1 << WIDE) - 1


@pytest.mark.parametrize("objective", sorted(_OBJECTIVE))
def test_the_table_s_key_stays_in_one_word_for_every_objective_and_rule_setting(objective):
    """Static: for every objective and every combination of the settings the table's key
    reads, the key with each field at its largest has at most 64 bits (the compiled core
    keeps it in one unsigned 64-bit word: past it, it cut the key silently, 02519e2)."""
    search_class = loader.python_search()
    names = list(KEYED)
    widest = 0
    for values in itertools.product(*(KEYED[n] for n in names)):
        settings_ = dict(zip(names, values), pairs_hidden=0)
        rules = Rules(*[settings_.get(name, 0) for name in FIELDS])
        search = search_class(rules, _OBJECTIVE[objective], None)
        for number in (1, 13):  # SCORE keeps a pile with the tens whole before trick 7
            widest = max(widest, widest_key(search, 14, number).bit_length())
    assert 0 < widest <= 64


@pytest.mark.parametrize("preset,seed,left,in_trick", [("double-sir", 22, 2, 2), ("hidden-rung", 37, 2, 1)])
@pytest.mark.parametrize("count", [32769, 2**53 - 1])
def test_a_goon_court_of_more_courts_than_the_search_packs_is_valued_in_order(preset, seed, left, in_trick, count,
                                                                               search_class):
    """goon_court_courts past 32767 (any whole number is accepted): the search packs a value in
    18 bits (a table entry's threshold, a span's ends), so a sweep worth 32769 courts or more
    came out wrong in pile games ("no move keeps the value", a wrong best card). Now a margin
    past outcome.WINDOW is kept as its rank among the options' counts, and every objective is
    what the exhaustive search says."""
    assert check_every_objective(preset, {"goon_court_courts": count}, seed, left, in_trick, 0.3, search_class)
