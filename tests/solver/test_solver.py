"""The solver's API, worked examples a person can check, its limit, and its purity."""
import ast
import random
from pathlib import Path

import pytest

import referee.solver
from referee.engine import Card, Deal, resolve
from referee.engine.playrecord import PLAY, Event, TrumpSpec
from referee.solver import Outcome, SearchLimit, SearchLimitExceeded, UnsolvablePosition, solve

from .positions import random_position


def cards(text):
    return [Card.parse(t) for t in text.split()]


SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"
# Seat 1 (the caller: dealer 0) holds twelve spades, trumps, and the 2 of hearts.
CALLER_12 = [cards("2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"), cards(SPADES + " 2H"),
             cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"), cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")]


def test_a_court_that_cannot_become_a_bavney_stops_at_the_court():
    """court-piece (play_on): seat 1 takes the first 7 with trumps (a court); playing on
    would lose the last trick, the 2 of hearts, so it is a court either way, and with no
    tricks term (R-38) the court team stops, as stopping is as good: 7 tricks, 28 plays."""
    deal = Deal(resolve("court-piece"), 0, CALLER_12, TrumpSpec(suit="S"))
    analysis = solve(deal, "score")
    assert analysis.value == Outcome(margin=1, deal=1) and analysis.value.as_dict() == {"margin": 1, "deal": "won"}
    assert analysis.result["kind"] == "court" and analysis.tricks_won == (0, 7)
    assert len(analysis.line) == 28 and analysis.line[0] == (1, Card.parse("3S"))  # the lowest of equal cards


def test_without_play_on_the_deal_ends_at_the_court():
    deal = Deal(resolve("court-piece", {"play_on": False}), 0, CALLER_12, TrumpSpec(suit="S"))
    analysis = solve(deal, "score")
    assert analysis.value == Outcome(margin=1, deal=1) and len(analysis.line) == 28


def test_all_thirteen_trumps_make_a_bavney():
    hands = [cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"), cards(SPADES + " 2S"),
             CALLER_12[2], CALLER_12[3]]
    analysis = solve(Deal(resolve("court-piece"), 0, hands, TrumpSpec(suit="S")), "score")
    assert analysis.value == Outcome(margin=52, deal=1) and analysis.result["kind"] == "bavney"


def test_tricks_plays_all_thirteen_whatever_the_end():
    """With objective tricks the deal does not stop at the court: 12 of 13."""
    deal = Deal(resolve("court-piece", {"play_on": False}), 0, CALLER_12, TrumpSpec(suit="S"))
    analysis = solve(deal, "tricks")
    assert analysis.value == 12 and len(analysis.line) == 52 and analysis.result is None
    assert dict(analysis.cards)[Card.parse("2H")] == 12 and dict(analysis.cards)[Card.parse("AS")] == 12


def test_the_same_position_gives_the_same_answer():
    deal = random_position("double-sir", random.Random(3), 4, 1)
    assert solve(deal, "score") == solve(deal, "score")
    assert deal.to_play is not None and len(deal.tricks) == 9  # the Deal itself is not moved


def test_a_finished_deal_has_nothing_to_play():
    deal = Deal(resolve("court-piece", {"play_on": False}), 0, CALLER_12, TrumpSpec(suit="S"))
    for seat, move in solve(deal, "score").line:
        deal.push(Event(seat, PLAY, move))
    analysis = solve(deal, "score")
    assert analysis.to_play is None and analysis.cards == [] and analysis.line == []
    assert analysis.value == Outcome(1, 1)


def test_the_limit_stops_the_search_with_a_clear_error():
    deal = random_position("seven-courts", random.Random(1), 13, 0)
    with pytest.raises(SearchLimitExceeded, match="stopped after .* nodes"):
        solve(deal, "tricks", SearchLimit(nodes=5_000))
    # a time limit too: one no search of over 5,000 nodes keeps (the core reports about every
    # 1,024), so it stops whatever the machine's speed (0.05 s no longer did, quiet and compiled)
    with pytest.raises(SearchLimitExceeded) as stopped:
        solve(deal, "tricks", SearchLimit(nodes=None, seconds=1e-6))
    assert stopped.value.reason == "seconds"


def test_positions_it_does_not_take():
    deal = Deal(resolve("court-piece"), 0, None, TrumpSpec(suit="S"))
    with pytest.raises(UnsolvablePosition, match="hands"):
        solve(deal)
    deal = Deal(resolve("court-piece"), 0, CALLER_12, TrumpSpec(suit="S"))
    deal.push(Event(1, PLAY, Card.parse("2H")))
    deal.push(Event(2, PLAY, Card.parse("AD")))  # seats 2 and 3 hold no heart: legal
    deal.push(Event(3, PLAY, Card.parse("AC")))
    deal.push(Event(0, PLAY, Card.parse("2S")))  # seat 0 holds hearts: a revoke
    with pytest.raises(UnsolvablePosition, match="illegal play"):
        solve(deal)
    with pytest.raises(ValueError, match="objective"):
        solve(Deal(resolve("court-piece"), 0, CALLER_12, TrumpSpec(suit="S")), "points")


def test_a_copy_of_a_deal_replays_like_the_original():
    """Deal.copy (the solver's search) against copying by replaying the same events."""
    rng = random.Random(11)
    for preset in ("hidden-rung", "dehla-pakad", "court-piece", "mendikot"):
        deal = random_position(preset, rng, 8, 2, reveal_rate=0.2)
        twin = deal.copy()
        for d in (deal, twin):
            play = random.Random(5)
            while not d.is_over:
                d.finish()
                if d.is_over:
                    break
                d.push(Event(d.to_play, PLAY, play.choice(d.legal_plays())))
            d.finish()
        assert twin.tricks == deal.tricks and twin.tricks_won == deal.tricks_won
        assert twin.facts(None) == deal.facts(None)


def test_the_solver_imports_only_the_engine():
    allowed = {"referee.engine", "referee.solver"}
    for path in Path(referee.solver.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1 or node.module.startswith("engine"), (path.name, node.module)
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                top = name.split(".")[0]
                assert top in ("__future__", "array", "copy", "dataclasses", "hashlib", "importlib", "os", "pathlib", "sys", "time",
                               "typing") or any(
                    name == a or name.startswith(a + ".") for a in allowed), (path.name, name)
