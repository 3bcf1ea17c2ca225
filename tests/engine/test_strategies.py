"""The rules ask the strategies, never the options' names (issue 40, item 4): no module of
referee/engine, referee/solver or referee/cli compares the collection or the trump mode with
a string (an option's, or a verdict's `trump["mode"]`), but the strategy modules themselves,
nor the scoring with one of its values (`options.scores` says what a scoring decides:
`counts_tens`, `bidding`, the options `acting` under it), but scoring.py, the scorings' home;
and each strategy's module names the rules it is the home of, so that a reader finds it from
the rule's id."""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from referee.engine import Deal, TrumpSpec, catalogue, resolve
from referee.engine.collection import COLLECTIONS, Immediate
from referee.engine.kernel import rules_of
from referee.engine.kernel_play import must_trump
from referee.engine.options import ACTS_WHEN, SCORINGS
from referee.engine.pile import Pile
from referee.engine.scoring import SCORINGS as SCORING_SYSTEMS
from referee.engine.simulate import deal_hands
from referee.engine.trump_modes import MODES

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "referee" / "engine"
SCANNED = [ENGINE, ROOT / "referee" / "solver", ROOT / "referee" / "cli"]
# The strategies' own modules may spell the values; scoring.py, the scorings' home, a scoring.
ALLOWED = {"collection.py", "pile.py", "trump_modes.py"}
SCORING_HOME = "scoring.py"
# An attribute or a name holding an option's value (options.trump, trump.mode, mode).
SUBJECTS = {"collection", "trump", "mode"}
# A key of a JSON object holding one (a verdict's trump["mode"]).
KEYS = {"collection", "mode"}


def _subject(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in SUBJECTS
            or isinstance(node, ast.Name) and node.id in SUBJECTS
            or isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in KEYS)


def _spelled(node: ast.AST) -> bool:
    """A string, or a tuple, list or set of strings."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts) and all(map(_spelled, node.elts))


def _a_scoring(node: ast.AST) -> bool:
    """A scoring's value (alone or among others)."""
    return (isinstance(node, ast.Constant) and node.value in SCORINGS
            or isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(map(_a_scoring, node.elts)))


def string_tests(source: str, scoring: bool = True) -> list[int]:
    """The lines that compare a collection or a trump mode with its name, or (`scoring`) the
    scoring with one of its values."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            scored = scoring and any(isinstance(o, ast.Attribute) and o.attr == "scoring"
                                     or isinstance(o, ast.Name) and o.id == "scoring" for o in operands)
            if (any(map(_subject, operands)) and any(map(_spelled, operands))
                    or scored and any(map(_a_scoring, operands))):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize("source", [
    'if options.collection == "pile": pass',
    'x = self.o.collection != "pile"',
    'x = collection in ("immediate", "pile")',
    'if deal.trump.mode == "band": pass',
    'x = mode in ("hidden", "band")',
    'x = o.trump != "first_void"',
    'x = 4 - t if options.scoring == "tens" else 0',
    'x = self.o.scoring in ("deal-courts", "tens")',
    'if trump["mode"] in ("hidden", "band"): pass',
    'x = {"band_reveal": lambda o: o.trump == "band"}',
    'x = {"kot": (lambda o: o.scoring == "deal-courts", "why")}',
    'x = o.scoring in ("courts", "rr-courts", "points")',
    'x = self.scoring == "bid-penalty"',
    'if scoring != "hokm": pass',
])
def test_the_scan_finds_a_string_test(source):
    assert string_tests(source) == [1]


def test_the_home_of_the_scorings_may_spell_them_but_no_trump_mode():
    assert string_tests('x = self.o.scoring == "rr-courts"', scoring=False) == []
    assert string_tests('x = lambda o: o.trump == "band"', scoring=False) == [1]
    assert string_tests('x = o.scoring == "seven"') == []  # not a scoring's value


def test_no_rule_module_compares_the_collection_the_trump_mode_or_the_scoring_with_a_string():
    found = [f"{path.relative_to(ROOT)}:{line}" for folder in SCANNED for path in sorted(folder.glob("*.py"))
             if path.name not in ALLOWED
             for line in string_tests(path.read_text(encoding="utf-8"), scoring=path.name != SCORING_HOME)]
    assert found == []


def test_the_old_concealed_test_is_gone():
    sources = [p.read_text(encoding="utf-8") for folder in SCANNED for p in folder.glob("*.py")]
    assert not any("is_concealed_mode" in s for s in sources)


def values_in_the_rulebook(option: str) -> tuple[str, ...]:
    """The values docs/rules.md lists for `option` (ticked, before the presets that change it)."""
    return tuple(re.findall(r"`([^`]+)`", catalogue()[f"option.{option}"].text.split("Changed by")[0]))


def test_each_collection_value_has_its_strategy():
    # the rulebook's values, each a strategy (CHOICES, what a record may give, is made of COLLECTIONS)
    assert tuple(COLLECTIONS) == values_in_the_rulebook("collection") == ("immediate", "pile")
    assert resolve("double-sir").collects is Pile and resolve("court-piece").collects is Immediate
    assert [c.piles for c in COLLECTIONS.values()] == [False, True]


def test_each_trump_mode_value_has_its_strategy():
    # the rulebook's values, each a strategy (CHOICES, what a record may give, is made of MODES)
    assert tuple(MODES) == values_in_the_rulebook("trump") == ("called", "blind", "hidden", "first_void", "random", "band")
    options = resolve("court-piece")
    assert [options.trump_mode(name).name for name in MODES] == list(MODES)
    assert [name for name in MODES if options.trump_mode(name).concealed] == ["hidden", "band"]
    assert resolve("hidden-rung").trump_mode().face_down_discards
    assert not resolve("rr-hidden-rung").trump_mode().face_down_discards  # the option is off
    options = resolve("mendikot", {"trump": "band", "band_reveal": "auto", "band_caller_reveals": False})
    band = options.trump_mode()
    # whether a show-out must trump is the kernel's rule, asked of the deal's Rules
    seat_must_trump = must_trump(rules_of(options, "band", 0, 0, 0), 1, -1, -1, 1)
    assert (band.reveals_on_void, seat_must_trump, band.caller_reveals) == (True, 0, False)


def test_each_scoring_value_has_its_strategy():
    # the rulebook's values, each a strategy (SCORINGS, what a record may give, is made of them)
    assert tuple(SCORING_SYSTEMS) == values_in_the_rulebook("scoring") == (
        "courts", "rr-courts", "points", "deal-courts", "tens", "deals", "bid-penalty", "hokm")
    under = {name: resolve("court-piece", {"scoring": name}) for name in SCORING_SYSTEMS}
    assert [name for name, o in under.items() if o.end == "thirteen"] == ["deal-courts", "tens"]
    assert [name for name, o in under.items() if o.bidding] == ["bid-penalty"]
    assert [name for name, o in under.items() if not o.target_is_points] == ["courts", "rr-courts", "deal-courts"]
    assert [name for name in SCORING_SYSTEMS if resolve("rr-single-sir", {"scoring": name}).target == 3] == [
        "courts", "rr-courts"]
    acting = {name: sorted(o.scores.acting) for name, o in under.items() if o.scores.acting}
    assert acting == {"courts": ["bavney_courts", "goon_court_courts", "streak_courts"],
                      "rr-courts": ["bavney_courts", "goon_court_courts", "streak_courts"],
                      "points": ["bavney_courts", "goon_court_courts", "streak_points"],
                      "deal-courts": ["defenders_double", "kot"], "tens": ["mendikot_loser_deals", "tens_end"]}
    assert {name for names in acting.values() for name in names} <= set(ACTS_WHEN)  # each one is checked


def test_a_called_game_may_turn_up_a_blind_trump():
    """The deal's trump mode is its trump's (blind), not the options' (called)."""
    hands = deal_hands(random.Random(4))
    deal = Deal(resolve("court-piece"), 0, hands, TrumpSpec(blind=hands[1][7]))
    assert (deal.trump.mode, deal.trump_mode.card_rule) == ("blind", "trump.blind")
    assert deal.trump.as_dict()["rule"] == ["trump.blind"]


HOMES = {"collection.immediate": "collection.py", "pile.collect": "pile.py", "pile.delayed": "pile.py",
         "pile.each-win": "pile.py", "R-30": "pile.py", "trump.called": "trump_called.py",
         "trump.blind": "trump_called.py", "trump.random": "trump_called.py", "trump.first-void": "trump_first_void.py",
         "R-15": "trump_first_void.py", "trump.hidden": "trump_hidden.py", "trump.hidden.face-down": "trump_hidden.py",
         "trump.hidden.end": "trump_hidden.py", "trump.band": "trump_band.py",
         "trump.band.caller-reveals": "trump_band.py", "R-14": "trump_band.py", "option.trump": "trump_modes.py",
         "option.collection": "collection.py", "mendikot.tens": "tens.py", "end.tens-settled": "tens.py"}


def test_the_tens_are_counted_under_tens_scoring_only():
    assert [name for name in ("mendikot", "dehla-pakad", "court-piece", "double-sir") if resolve(name).counts_tens] == [
        "mendikot", "dehla-pakad"]
    assert resolve("dehla-pakad", {"tens_end": "settled"}).tens_settled and not resolve("dehla-pakad").tens_settled


@pytest.mark.parametrize("rule, module", sorted(HOMES.items()))
def test_a_rule_id_leads_to_its_strategy_module(rule, module):
    doc = ast.get_docstring(ast.parse((ENGINE / module).read_text(encoding="utf-8")))
    named = set(re.findall(r"\b(?:R-\d+|[a-z]+(?:\.[a-z-]+)+)\b", doc))
    assert rule in named
    families = {rule_id.split(".")[0] for rule_id in catalogue()}
    assert {n for n in named if n.split(".")[0] in families and not n.endswith(".py")} <= set(catalogue())
