"""A record's positions under perfect play: the analysis of one position (what the API and the
page show) and the costly plays of a deal (`referee analyse`), read from the engine's own
replay positions (`referee.engine.position`).

A play is costly when its value, for the team of the seat that made it, is below the best
value of that moment; the cost is the difference. Each position is searched under its own
`SearchLimit`: a position past it is reported as not analysed, never guessed.
"""
from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

from ..engine.cards import Card, team_of
from ..engine.errors import RecordError
from ..engine.match import position
from ..engine.options import resolve
from ..engine.record import PLAY, REVEAL, TAKE_BACK, Record
from . import Analysis, Outcome, SearchLimit, SearchLimitExceeded, UnsolvablePosition, solve
from .position import REVEAL_MOVE


class NoHands(UnsolvablePosition):
    """A deal recorded without hands: perfect play needs every seat's cards."""

    def __init__(self, index: int):
        super().__init__(f"deal {index} has no hands: perfect play needs every seat's cards")
        self.index = index


class NoSuchPosition(IndexError):
    """A deal or an event count the record does not have; `pointer` names the field."""

    def __init__(self, message: str, pointer: str):
        super().__init__(message)
        self.pointer = pointer


def analysis_at(record: Record, index: int, events: int | None, objective: str = "score",
                limit: SearchLimit | None = None) -> dict:
    """The analysis of deal `index` after its first `events` events (all when None), as the
    API answers it. Raises NoSuchPosition, the RecordError that stops the deal before that
    point, UnsolvablePosition or SearchLimitExceeded."""
    deal = _position(record, index, events)
    analysis = solve(deal, objective, limit)
    n = len(record.deals[index].events) if events is None else events
    return {"deal": index, "event": n, "team": _team(deal, analysis), **analysis.as_dict()}


def _team(deal, analysis: Analysis) -> int:
    """Whose values they are: the seat to play's team; once over, the last trick's leader's
    (the solver's own choice)."""
    if analysis.to_play is not None:
        return team_of(analysis.to_play)
    over = deal.copy()
    over.finish()
    return team_of(over.leader)


def _position(record: Record, index: int, events: int | None):
    if not 0 <= index < len(record.deals):
        raise NoSuchPosition(f"the record has {len(record.deals)} deal(s); there is no deal {index}", "/deal")
    count = len(record.deals[index].events)
    if events is not None and not 0 <= events <= count:
        raise NoSuchPosition(f"deal {index} has {count} event(s); there is no position after {events}", "/event")
    if record.deals[index].hands is None:
        raise NoHands(index)
    return position(record, index, events)


class CostlyPlay(NamedTuple):
    deal: int
    event: int          # the event's index in the deal
    trick: int
    seat: int
    card: str           # a card, or "reveal"
    value: object       # the play's value (int: tricks; Outcome: score), its team's
    best: object        # the best value at that moment
    cost: str           # in words

    def as_dict(self) -> dict:
        def show(v):
            return v.as_dict() if isinstance(v, Outcome) else v
        return {"deal": self.deal, "event": self.event, "trick": self.trick, "seat": self.seat, "card": self.card,
                "value": show(self.value), "best": show(self.best), "cost": self.cost}


class DealReview(NamedTuple):
    deal: int
    objective: str
    perfect: Analysis | None    # perfect play from the first lead (None: past the limit)
    costly: list[CostlyPlay]
    unanalysed: list[int]       # the play events whose position was past the limit
    stopped: str | None         # why the review ended before the deal's last play, if it did

    def as_dict(self) -> dict:
        perfect = None if self.perfect is None else {
            "value": _show(self.perfect.value), "result": self.perfect.result,
            "tricks_won": list(self.perfect.tricks_won)}
        return {"deal": self.deal, "objective": self.objective, "perfect_play": perfect,
                "costly": [c.as_dict() for c in self.costly], "unanalysed": self.unanalysed, "stopped": self.stopped}


def _show(v):
    return v.as_dict() if isinstance(v, Outcome) else v


def plays(record: Record, index: int) -> list[int]:
    """The events of a deal that are moves of the seat to play (plays and reveals), without
    those taken back at once (a take-back makes the play no move of the game)."""
    events = record.deals[index].events
    return [j for j, e in enumerate(events) if e.kind in (PLAY, REVEAL)
            and not (j + 1 < len(events) and events[j + 1].kind == TAKE_BACK)]


def review_deal(record: Record, index: int, objective: str = "score", limit: Callable[[], SearchLimit] | None = None,
                progress: Callable[[int, int], None] | None = None) -> DealReview:
    """The costly plays of deal `index` (it needs hands): each play's position searched under a
    fresh `limit()`. `progress(done, total)` is called after each position."""
    fresh = limit or SearchLimit
    moves = plays(record, index)
    costly, unanalysed, stopped = [], [], None
    try:
        perfect = _try(lambda: solve(_position(record, index, 0), objective, fresh()))
    except (UnsolvablePosition, RecordError) as exc:
        return DealReview(index, objective, None, [], [], f"the first lead: {exc}")
    for done, j in enumerate(moves, 1):
        try:
            found = _costly_at(record, index, j, objective, fresh())
        except SearchLimitExceeded:
            unanalysed.append(j)
        except (UnsolvablePosition, RecordError) as exc:  # the deal cannot be searched past here
            stopped = f"event {j + 1}: {exc}"  # counted from 1, as every message
            break
        else:
            if found is not None:
                costly.append(found)
        if progress is not None:
            progress(done, len(moves))
    return DealReview(index, objective, perfect, costly, unanalysed, stopped)


def _try(run: Callable[[], Analysis]) -> Analysis | None:
    try:
        return run()
    except SearchLimitExceeded:
        return None


def _costly_at(record: Record, index: int, j: int, objective: str, limit: SearchLimit) -> CostlyPlay | None:
    deal = _position(record, index, j)
    event = record.deals[index].events[j]
    if deal.is_over or deal.to_play != event.seat:
        return None  # a play after the end or out of turn: the verdict's business, not a choice
    analysis = solve(deal, objective, limit, line=False)
    move = REVEAL_MOVE if event.kind == REVEAL else event.card
    values = dict(analysis.cards)
    if move not in values:
        raise UnsolvablePosition(f"seat {event.seat} played {move.face if isinstance(move, Card) else move}, not a legal move there (the verdict says why)")
    if values[move] == analysis.value:
        return None
    return CostlyPlay(index, j, deal.number, event.seat, _name(move), values[move], analysis.value,
                      cost_words(analysis.value, values[move], record))


def _name(move) -> str:
    return move.text if isinstance(move, Card) else move


def cost_words(best, value, record: Record) -> str:
    """What a play lost, in words: tricks, or the §13 outcome's first difference."""
    if not isinstance(best, Outcome):
        return _count(best - value, "trick")
    if best.margin != value.margin:
        unit = "point" if _by_points(record) else "court"
        return _count(best.margin - value.margin, unit) + " of the deal's margin"
    if best.won != value.won:
        return "the deal (won with best play, lost after it)"
    return _count(best.tricks - value.tricks, "trick")


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def _by_points(record: Record) -> bool:
    return resolve(record.preset, record.options).target_is_points


def reviews(record: Record, objective: str = "score", limit: Callable[[], SearchLimit] | None = None,
            progress: Callable[[int, int, int], None] | None = None) -> Iterator[DealReview | int]:
    """Each deal with hands reviewed in turn (a deal without hands: its index alone)."""
    for i, deal in enumerate(record.deals):
        if deal.hands is None:
            yield i
            continue
        yield review_deal(record, i, objective, limit,
                          None if progress is None else (lambda done, total, i=i: progress(i, done, total)))
