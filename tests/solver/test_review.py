"""referee.solver.review: a deal's costly plays from the engine's replay positions."""
import copy
import json
import random
from pathlib import Path

from referee.engine import Deal, Record, resolve
from referee.engine.record import PLAY, Event, TrumpSpec
from referee.engine.simulate import deal_hands
from referee.solver import Outcome, SearchLimit
from referee.solver.review import cost_words, plays, review_deal

DATA = json.loads((Path(__file__).parent / "records" / "one-costly-play.json").read_text())


def record(events=None, **options):
    data = copy.deepcopy(DATA)
    if events is not None:
        data["deals"][0]["events"] = events
    if options:
        data["options"] = options
    return Record.from_dict(data)


def test_the_one_costly_play_and_its_cost_under_both_objectives():
    for objective, value, best in (("tricks", 10, 11), ("score", Outcome(1, True, 11), Outcome(1, True, 12))):
        review = review_deal(record(), 0, objective)
        assert [(c.event, c.trick, c.seat, c.card, c.value, c.best, c.cost) for c in review.costly] == [
            (4, 2, 0, "2S", value, best, "1 trick")]
        assert review.unanalysed == [] and review.stopped is None


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
    assert seen == [(n, 48) for n in range(1, 49)]


def test_the_cost_in_words_follows_the_outcome_order():
    rec = record()
    assert cost_words(3, 1, rec) == "2 tricks"
    assert cost_words(Outcome(2, True, 9), Outcome(0, True, 7), rec) == "2 courts of the deal's margin"
    assert cost_words(Outcome(1, True, 7), Outcome(1, False, 6), rec) == "the deal (won with best play, lost after it)"
    assert cost_words(Outcome(1, True, 8), Outcome(1, True, 7), rec) == "1 trick"
    points = Record.from_dict({**DATA, "preset": "rr-double-sir"})
    assert cost_words(Outcome(5, True, 9), Outcome(4, True, 9), points) == "1 point of the deal's margin"
