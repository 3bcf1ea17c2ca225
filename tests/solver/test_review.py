"""referee.solver.review: a deal's positions under perfect play from the engine's replay, one
position at a time and the whole deal in one pass; the costly plays; one budget for a deal."""
import copy
import json
import random
from pathlib import Path

import pytest

from referee.engine import Deal, Record, resolve
from referee.engine.playrecord import PLAY, Event, TrumpSpec
from referee.engine.simulate import deal_hands
from referee.engine.replay import position
from referee.solver import Outcome, SearchLimit, Solver
from referee.solver.costs import cost_words, plays
from referee.solver.review import (DealAnalysis, PastLimit, Shared, Solved, Unanalysable, analysis_at,
                                   review_deal)

from .whole_deals import REPORT_EVERY, hidden_trump, lopsided

DATA = json.loads((Path(__file__).parent / "records" / "one-costly-play.json").read_text())
# seven-courts, spades trumps. Trick 2 (event 4): seat 0 leads the 2S; the AS would have
# dropped seat 1's lone KS, so seat 0's side would take all 11 tricks left, not 10.


def record(events=None, **options):
    data = copy.deepcopy(DATA)
    if events is not None:
        data["deals"][0]["events"] = events
    if options:
        data["options"] = options
    return Record.from_dict(data)


def test_the_one_costly_play_costs_a_trick_and_nothing_under_score():
    """The 2S gives a trick away (objective tricks) but neither the deal's court nor its
    winner: under score (R-38, no tricks term) it cost nothing."""
    review = review_deal(record(), 0, "tricks")
    assert [(c.event, c.trick, c.seat, c.card, c.value, c.best, c.cost) for c in review.costly] == [
        (4, 2, 0, "2S", 10, 11, "1 trick")]
    assert review.unanalysed == [] and review.stopped is None
    review = review_deal(record(), 0, "score")
    assert review.costly == [] and review.unanalysed == [] and review.stopped is None


def test_the_one_position_answer_carries_the_costly_play_made_from_it():
    rec = record()
    assert analysis_at(rec, 0, 4, "tricks")["costly"] == {
        "deal": 0, "event": 4, "trick": 2, "seat": 0, "card": "2S", "value": 10, "best": 11, "cost": "1 trick",
        "best_cards": ["AS"]}
    assert analysis_at(rec, 0, 5, "tricks")["costly"] is None  # the KS: seat 1's only spade
    assert analysis_at(rec, 0, None, "tricks")["costly"] is None  # the deal's end: no next event


def test_a_play_taken_back_at_once_is_no_move():
    events = copy.deepcopy(DATA["deals"][0]["events"][:5])
    events.insert(5, {"seat": 0, "take_back": True})
    events.append({"seat": 0, "play": "AS"})  # the 2S taken back, the AS played instead
    rec = record(events)
    assert plays(rec, 0) == [0, 1, 2, 3, 6]
    assert review_deal(rec, 0, "tricks").costly == []


def random_deal(seed: int, cards: int) -> dict:
    """A seven-courts deal of random hands, `cards` cards played at random (legal ones)."""
    rng = random.Random(seed)
    hands = deal_hands(rng)
    deal = Deal(resolve("seven-courts"), 0, hands, TrumpSpec(suit="S"))
    events = []
    for _ in range(cards):
        deal.finish()
        card = rng.choice(deal.legal_plays())
        events.append({"seat": deal.to_play, "play": card.text})
        deal.push(Event(deal.to_play, PLAY, card))
    return {"preset": "seven-courts", "deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "hands": [[c.text for c in h] for h in hands], "events": events}]}


def test_positions_past_the_limit_are_listed_the_late_ones_analysed():
    rec = Record.from_dict(random_deal(5, 48))
    seen = []
    review = review_deal(rec, 0, "tricks", lambda: SearchLimit(nodes=1000), lambda done, total: seen.append((done, total)))
    assert review.perfect is None and review.unanalysed and review.unanalysed == sorted(review.unanalysed)
    assert 40 not in review.unanalysed and review.unanalysed[0] == 0  # 2 tricks left: quick; the first lead: not
    assert seen == [(n, 48) for n in range(1, 49)]  # every move reviewed: the 48 plays


def test_the_cost_in_words_follows_the_outcome_order():
    rec = record()
    assert cost_words(3, 1, rec) == "2 tricks"
    assert cost_words(Outcome(2, 1), Outcome(0, 1), rec) == "2 courts of the deal's margin"
    assert cost_words(Outcome(0, 1), Outcome(0, -1), rec) == "the deal (won with best play, lost after it)"
    assert cost_words(Outcome(0, 0), Outcome(0, -1), rec) == "the deal (won by neither team with best play, lost after it)"
    points = Record.from_dict({**DATA, "preset": "rr-double-sir"})
    assert cost_words(Outcome(5, 1), Outcome(4, 1), points) == "1 point of the deal's margin"


# -- the whole deal in one pass ---------------------------------------------------------

@pytest.mark.parametrize("objective", ["tricks", "score"])
def test_one_solver_searches_a_deal_for_one_side_and_answers_each_position_for_its_own(objective):
    """A Solver searches every position of the deal for the first one's team (so that each
    meets what the others left in its table), and turns the values to the seat to play's team:
    positions of both teams, asked in turn, answer as a Solver of their own does."""
    rec = record()
    solver = Solver(objective)
    for n in (5, 4, 6, 9, 0):  # seat 1 (team 1) first, then seats of both teams
        deal = position(rec, 0, n)
        assert alone(solver.solve(deal)._asdict()) == alone(Solver(objective).solve(deal)._asdict())
        card = deal.legal_plays()[-1]
        assert solver.move_value(deal, card) == Solver(objective).move_value(deal, card)
        assert solver.value(deal) == Solver(objective).solve(deal, line=False).value
    assert solver._search.team == 1



def alone(answer: dict) -> dict:
    """An answer without its node count (one pass may reuse what earlier positions found)."""
    return {k: v for k, v in answer.items() if k != "nodes"}


# Deals a pure-Python search takes whole (see whole_deals.py); the hidden-trump ones from
# their last tricks, the trump still face down (a full deal of them is minutes today).
# The line of perfect play is compared on half of them, the values on all (the line costs).
WHOLE = [
    pytest.param(lopsided("seven-courts", 1), "score", 0, True, id="seven-courts-score"),
    pytest.param(lopsided("seven-courts", 2), "tricks", 0, False, id="seven-courts-tricks"),
    pytest.param(lopsided("double-sir", 4), "score", 0, False, id="pile-score"),
    pytest.param(lopsided("double-sir", 6), "tricks", 0, True, id="pile-tricks"),
    pytest.param(hidden_trump("rr-hidden-rung", 10), "score", 32, True, id="hidden-trump-score"),
    pytest.param(hidden_trump("rr-hidden-rung", 3), "tricks", 34, False, id="hidden-trump-tricks"),
]


@pytest.mark.parametrize("data, objective, first, line", WHOLE)
def test_the_whole_deal_equals_each_position_analysed_alone_and_its_costly_plays(data, objective, first, line):
    rec = Record.from_dict(data)
    events = data["deals"][0]["events"]
    whole = DealAnalysis(rec, 0, objective, line=line, first=first)
    found = list(whole)
    # Every position before a play of the record (each deal is played to its end), the last first.
    assert [f.event for f in found] == list(range(len(events) - 1, first - 1, -1))
    assert all(isinstance(f, Solved) for f in found)
    one = {f.event: analysis_at(rec, 0, f.event, objective, line=line) for f in found}
    assert all(bool(a["line"]) == line for a in one.values())
    if "hidden" in data["deals"][0].get("trump", {}):  # the face-down trump: asking for it is a move
        assert any(c["card"] == "reveal" for f in found for c in f.answer["cards"])
    assert [alone(f.answer) for f in found] == [alone(one[f.event]) for f in found]
    # The costly plays, decided here again from the values alone: the card played is worth
    # less than the best card of its position.
    expected = []
    for n, answer in sorted(one.items()):
        played = {c["card"]: c["value"] for c in answer["cards"]}[events[n]["play"]]
        if played != answer["value"]:
            expected.append((n, events[n]["play"], played, answer["value"]))
    assert expected, "the deal should hold a costly play, or this test proves little"
    assert [(c["event"], c["card"], c["value"], c["best"]) for c in whole.end_dict()["costly"]] == expected
    assert [c for c in (a["costly"] for _, a in sorted(one.items())) if c] == whole.end_dict()["costly"]


def test_one_budget_for_the_whole_deal_the_deep_positions_past_it_reported_unsearched():
    rec = Record.from_dict(random_deal(5, 48))
    whole = DealAnalysis(rec, 0, "tricks", Shared(nodes=3000, seconds=None), line=False)
    found = list(whole)
    solved, past = whole.of(Solved), whole.of(PastLimit)
    assert solved and past and max(past) < min(solved)  # the late positions answered, the deep ones not
    assert whole.end_dict()["nodes"] <= 3000 + REPORT_EVERY  # the search stops at its next report
    searched = [f for f in found if isinstance(f, PastLimit) and f.nodes > 0]
    assert len(searched) <= 1  # at most one search ran out of the budget; the rest were never started
    for f in found:
        if isinstance(f, Solved):
            assert alone(f.answer) == alone(analysis_at(rec, 0, f.event, "tricks", line=False))


def test_a_deal_impossible_part_way_has_its_positions_up_to_the_error():
    events = copy.deepcopy(DATA["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "AS"}  # seat 0 holds the AS
    whole = DealAnalysis(record(events), 0, "tricks")
    assert whole.events == [5, 4, 3, 2, 1, 0]
    assert whole.start_dict()["stopped"] == {"event": 5, "code": "card_not_in_hand",
                                             "message": "seat 1 plays A♠, but it was dealt to seat 0"}
    list(whole)
    assert whole.first_stop() == (5, "seat 1 plays A♠, but it was dealt to seat 0")
    assert [c.event for c in whole.costly()] == [4]


def test_positions_after_an_illegal_play_on_record_are_said_to_be_unanalysable():
    events = copy.deepcopy(DATA["deals"][0]["events"])
    events[5] = {"seat": 1, "play": "2D"}  # a revoke: seat 1 holds the KS; the penalty decides the deal
    whole = DealAnalysis(record(events), 0, "tricks")
    found = {f.event: f for f in whole}
    assert isinstance(found[5], Solved) and all(isinstance(found[n], Unanalysable) for n in (6, 7))
    assert "illegal play on record" in found[6].detail
    assert review_deal(record(events), 0, "tricks").stopped.startswith("event 7: the deal has an illegal play")


@pytest.mark.parametrize("objective", ["tricks", "score"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_review_finds_the_costly_plays_every_value_of_the_whole_deal_shows(seed, objective):
    """The review asks two values a move (before it, and the move's), as DDS's AnalysePlay
    does; the whole deal's analysis finds every card's value at every position: the costly
    plays are the same (from the 5th trick on, so that the suite stays quick)."""
    rec = Record.from_dict(random_deal(seed, 36))
    review = review_deal(rec, 0, objective)
    whole = DealAnalysis(rec, 0, objective, line=False, first=16)
    list(whole)
    assert whole.of(PastLimit) == [] and not [j for j in review.unanalysed if j >= 16]
    assert [c for c in review.costly if c.event >= 16] == whole.costly()
