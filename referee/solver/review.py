"""A record's positions under perfect play, read from the engine's own replay
(`referee.engine.position`, and the replay's steps for which positions have a seat to play):

- `analysis_at`: one position (the API's single form);
- `DealAnalysis`: every position of one deal in one pass, on one `Solver` (so a search that
  keeps its tables between calls answers the later positions from what the earlier ones
  learnt), each position given as it is solved (the API's whole-deal form streams them);
- `review_deal`: a deal's costly plays, from that pass (`referee analyse`).

Which plays are costly, and what they cost, is costs.py's to say (the one place that decides
it). A position past its search budget is reported as past it, never guessed.
"""
from __future__ import annotations

import time
from typing import Callable, Container, Iterator, NamedTuple

from ..engine.cards import team_of
from ..engine.deal import Deal
from ..engine.errors import RecordError
from ..engine.replay import deal_steps, position
from ..engine.options import resolve
from ..engine.playrecord import Record
from . import Analysis, SearchLimit, SearchLimitExceeded, Solver, UnsolvablePosition
from .costs import CostlyPlay, cost_against, costly_play, judged_move, plays, shown


class NoHands(UnsolvablePosition):
    """A deal recorded without hands: perfect play needs every seat's cards."""

    def __init__(self, index: int):
        super().__init__(f"deal {index + 1} has no hands: perfect play needs every seat's cards")  # counted from 1
        self.index = index


class NoSuchPosition(IndexError):
    """A deal or an event count the record does not have; `pointer` names the field."""

    def __init__(self, message: str, pointer: str):
        super().__init__(message)
        self.pointer = pointer


def analysis_at(record: Record, index: int, events: int | None, objective: str = "score",
                limit: SearchLimit | None = None, line: bool = True, settler=None) -> dict:
    """The analysis of deal `index` after its first `events` events (all when None), as the
    API answers it, with the record's move from there when it cost (`costly`); `settler`: for
    a claim settled before that point. Raises NoSuchPosition, the RecordError that stops the
    deal before that point, UnsolvablePosition or SearchLimitExceeded."""
    deal = _position(record, index, events, settler=settler)
    analysis = Solver(objective).solve(deal, limit, line)
    n = len(record.deals[index].events) if events is None else events
    return _answer(record, index, n, deal, analysis)


def _answer(record: Record, index: int, n: int, deal: Deal, analysis: Analysis) -> dict:
    costly = costly_play(record, index, n, deal, analysis)
    answer = {"deal": index, "event": n, "team": _team(deal, analysis), **analysis.as_dict(),
              "costly": None if costly is None else costly.as_dict()}
    for card, (_, value) in zip(answer["cards"], analysis.cards):
        card["cost"] = cost_against(analysis.value, value, record)
    return answer


def _team(deal: Deal, analysis: Analysis | None) -> int:
    """Whose values they are: the seat to play's team; once over, the last trick's leader's
    (the solver's own choice)."""
    over = deal.copy()
    over.finish()
    seat = over.to_play if analysis is None else analysis.to_play
    return team_of(seat if seat is not None else over.leader)


def _position(record: Record, index: int, events: int | None, field: str = "/event", settler=None) -> Deal:
    if not 0 <= index < len(record.deals):
        raise NoSuchPosition(f"the record has {len(record.deals)} deal(s), indexes 0 to {len(record.deals) - 1} "
                             f"(deal {index} is not one)", "/deal")
    count = len(record.deals[index].events)
    if events is not None and not 0 <= events <= count:
        raise NoSuchPosition(f"deal {index + 1} has {count} event(s); there is no position after {events}", field)
    if record.deals[index].hands is None:
        raise NoHands(index)
    return position(record, index, events, settler)


# -- budgets --------------------------------------------------------------------------

class PerPosition:
    """Each position under a fresh limit (`referee analyse`: --max-nodes and --max-seconds
    are per position)."""

    def __init__(self, make: Callable[[], SearchLimit] = SearchLimit):
        self.make = make

    def next(self) -> SearchLimit:
        return self.make()

    def spend(self, nodes: int) -> None:
        pass


class Shared:
    """One budget for every position of a request: `nodes` search nodes in all and `seconds`
    of wall time from its start (None: no such limit). Each position is searched under what
    is left; once nothing is left, the positions not yet searched are past it unsearched.
    `within`: the request's own budget (referee.budget), which each search spends from too (its
    client gone, it stops them)."""

    def __init__(self, nodes: int | None, seconds: float | None, within: SearchLimit | None = None):
        self.nodes, self.seconds, self.within = nodes, seconds, within
        self.spent = 0
        self.started = time.monotonic()
        self.stopped = False

    def stop(self) -> None:
        """Nothing more is searched (no search may start): the positions left are past the limit."""
        self.stopped = True

    def next(self) -> SearchLimit | None:
        if self.stopped:
            return None
        nodes = None if self.nodes is None else self.nodes - self.spent
        seconds = None if self.seconds is None else self.seconds - (time.monotonic() - self.started)
        if (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0):
            return None
        return SearchLimit(nodes, seconds, within=self.within)

    def spend(self, nodes: int) -> None:
        self.spent += nodes

    def as_dict(self) -> dict:
        return {"nodes": self.nodes, "seconds": self.seconds}


# -- a whole deal ---------------------------------------------------------------------

class Solved(NamedTuple):
    """A position's analysis: the API's answer for it (`analysis_at`'s form)."""

    event: int
    answer: dict
    analysis: Analysis
    costly: CostlyPlay | None

    def as_dict(self) -> dict:
        return {"kind": "position", **self.answer}


class PastLimit(NamedTuple):
    """A position the budget did not reach an answer for (`nodes`: those searched on it; 0 when
    the budget was spent before it)."""

    deal: int
    event: int
    nodes: int

    def as_dict(self) -> dict:
        return {"kind": "past_limit", "deal": self.deal, "event": self.event, "nodes": self.nodes}


class Unanalysable(NamedTuple):
    """A position the solver does not take (an illegal play on record before it)."""

    deal: int
    event: int
    detail: str

    def as_dict(self) -> dict:
        return {"kind": "unanalysable", "deal": self.deal, "event": self.event, "detail": self.detail}


Found = Solved | PastLimit | Unanalysable


def deal_positions(record: Record, index: int, settler=None) -> tuple[list[int], RecordError | None]:
    """The positions of deal `index` with a seat to play, as event counts in order (the
    replay's steps with a seat to play), and the record error that ends the replay (`settler`:
    for its claim, which is otherwise unsettled). The referee's plays of a settled claim are
    no record's events, and the answer they follow is no position to play from either: the
    deal after it is the referee's line played out."""
    steps = deal_steps(resolve(record.preset, record.options), record.deals[index], settler, index)
    counts = {s.event + 1 for s, after in zip(steps, steps[1:] + [None])
              if s.to_play is not None and s.hands is not None and s.error is None and not s.ignored
              and not s.referee and not (after is not None and after.referee)}
    return sorted(counts), steps[-1].error


class DealAnalysis:
    """Every position of deal `index` with a seat to play (`deal_positions`, from `first`
    events on), solved on one Solver, the last position first: the late
    positions are quick, so under one budget the ones past it are the deepest. Iterate to
    solve them in turn; `found` keeps what was found, by event count. `settler`: perfect play
    for the deal's claim, which the replay of its positions settles.

    Raises, before anything is solved, what `analysis_at(record, index, first)` raises for the
    first position: NoSuchPosition, NoHands, the RecordError before it."""

    def __init__(self, record: Record, index: int, objective: str = "score", budget: PerPosition | Shared | None = None,
                 line: bool | Container[int] = True, first: int = 0, settler=None):
        _position(record, index, first, "/from_event", settler)
        self.record, self.index, self.objective = record, index, objective
        self.budget = budget or PerPosition()
        self.line = line
        counts, self.stopped = deal_positions(record, index, settler)
        self.events = [n for n in reversed(counts) if n >= first]  # the order they are solved in
        self.found: dict[int, Found] = {}
        self.solver = Solver(objective)
        self.settler, self.cancelled = settler, False

    def __iter__(self) -> Iterator[Found]:
        for n in self.events:
            found = self._solve(n)
            if found is None:  # cancelled: nobody wants the rest (the client has gone)
                self.cancelled = True
                return
            self.found[n] = found
            yield found

    def _solve(self, n: int) -> Found | None:
        limit = self.budget.next()
        if limit is None:
            return PastLimit(self.index, n, 0)
        try:
            deal = position(self.record, self.index, n, self.settler)
            analysis = self.solver.solve(deal, limit, line=self._line(n))
        except SearchLimitExceeded as exc:
            if exc.reason == "cancelled":
                return None
            self.budget.spend(exc.nodes)
            return PastLimit(self.index, n, exc.nodes)
        except (UnsolvablePosition, RecordError) as exc:
            return Unanalysable(self.index, n, str(exc))
        self.budget.spend(analysis.nodes)
        answer = _answer(self.record, self.index, n, deal, analysis)
        return Solved(n, answer, analysis, costly_play(self.record, self.index, n, deal, analysis))

    def _line(self, n: int) -> bool:
        return self.line if isinstance(self.line, bool) else n in self.line

    def of(self, kind: type) -> list[int]:
        """The event counts found of one kind, in the deal's order."""
        return sorted(n for n, f in self.found.items() if isinstance(f, kind))

    def costly(self) -> list[CostlyPlay]:
        return sorted((f.costly for f in self.found.values() if isinstance(f, Solved) and f.costly is not None),
                      key=lambda c: c.event)

    def first_stop(self) -> tuple[int, str] | None:
        """Where the analysis cannot go on, in the deal's order: the first position the solver
        does not take, else the record error that ends the replay ((event index, why))."""
        out = self.of(Unanalysable)
        if out:
            return out[0], self.found[out[0]].detail
        if self.stopped is not None:
            return self.stopped.event, self.stopped.message
        return None

    def start_dict(self) -> dict:
        stopped = self.stopped
        return {"kind": "deal", "deal": self.index, "objective": self.objective, "events": self.events,
                "limit": self.budget.as_dict() if isinstance(self.budget, Shared) else None,
                "stopped": None if stopped is None else {"event": stopped.event, "code": stopped.code,
                                                         "message": stopped.message}}

    def end_dict(self) -> dict:
        nodes = sum(f.analysis.nodes if isinstance(f, Solved) else f.nodes if isinstance(f, PastLimit) else 0
                    for f in self.found.values())
        return {"kind": "end", "deal": self.index, "analysed": self.of(Solved), "past_limit": self.of(PastLimit),
                "unanalysable": self.of(Unanalysable), "costly": [c.as_dict() for c in self.costly()], "nodes": nodes}


# -- a deal's review (`referee analyse`) ---------------------------------------------

class DealReview(NamedTuple):
    deal: int
    objective: str
    perfect: object | None      # the first lead's value for its team (None: past the limit)
    costly: list[CostlyPlay]
    unanalysed: list[int]       # the play events whose position was past the limit
    stopped: str | None         # why the review ended before the deal's last play, if it did
    team: int | None = None     # whose `perfect` is: the first leader's team
    line: Analysis | None = None  # asked for (`line`): perfect play from the first lead to its end

    def as_dict(self) -> dict:
        return {"deal": self.deal, "objective": self.objective, "perfect_play": self._perfect(),
                "costly": [c.as_dict() for c in self.costly], "unanalysed": self.unanalysed, "stopped": self.stopped}

    def _perfect(self) -> dict | None:
        """The value; the result and the tricks at the end of the line when it was searched (the
        tricks without it too under `tricks`: every trick goes to one team or the other)."""
        if self.perfect is None:
            return None
        if self.line is not None:
            result, tricks = self.line.result, list(self.line.tricks_won)
        else:
            result = None
            tricks = None if self.objective != "tricks" else [
                self.perfect if t == self.team else 13 - self.perfect for t in (0, 1)]
        return {"value": shown(self.perfect), "team": self.team, "result": result, "tricks_won": tricks}


def review_deal(record: Record, index: int, objective: str = "score", limit: Callable[[], SearchLimit] | None = None,
                progress: Callable[[int, int], None] | None = None, settler=None, line: bool = False) -> DealReview:
    """The costly plays of deal `index` (it needs hands), as DDS's AnalysePlay finds them: the
    value of each position before a move and after it, for the mover's team, on one Solver (a
    move cost when the tricks it takes at once and the value after it fall short of the value
    before), each value under a fresh `limit()`; the first lead's value, and with `line` its
    line of perfect play (searched last, on what the deal's positions left in the table).
    `progress(done, total)` is called after each move; `settler`: for the deal's claim."""
    fresh = limit or SearchLimit
    solver = Solver(objective)
    try:
        first = _position(record, index, 0, settler=settler)
        team = _team(first, None)
        perfect = _try(lambda: solver.value(first, fresh()))
    except (UnsolvablePosition, RecordError) as exc:
        return DealReview(index, objective, None, [], [], f"the first lead: {exc}")
    moves, stopped = reviewed_moves(record, index, settler)
    costly, unanalysed, stop = [], [], None
    for done, j in enumerate(moves, 1):
        try:
            found = _costly_move(record, index, j, solver, fresh, settler)
        except SearchLimitExceeded:
            unanalysed.append(j)
        except (UnsolvablePosition, RecordError) as exc:  # the deal cannot be searched past here
            stop = f"event {j + 1}: {exc}"  # counted from 1, as every message
            break
        else:
            if found is not None:
                costly.append(found)
        if progress is not None:
            progress(done, len(moves))
    if stop is None and stopped is not None:
        stop = f"event {stopped.event + 1}: {stopped.message}"
    searched = _try(lambda: solver.solve(first, fresh())) if line and perfect is not None else None
    return DealReview(index, objective, perfect, costly, unanalysed, stop, team, searched)


def _try(run: Callable[[], Analysis]) -> Analysis | None:
    try:
        return run()
    except SearchLimitExceeded:
        return None


def reviewed_moves(record: Record, index: int, settler=None) -> tuple[list[int], RecordError | None]:
    """The events a review looks at (moves of the seat to play, at positions the replay
    reaches), and the record error that ends the replay."""
    counts, stopped = deal_positions(record, index, settler)
    reached = set(counts)
    return [j for j in plays(record, index) if j in reached], stopped


def _costly_move(record: Record, index: int, j: int, solver: Solver, fresh, settler) -> CostlyPlay | None:
    """Event j's move, when it cost its team (costs.py's rule): its value against the best at
    that moment; the best moves are searched for only when it cost (None known past the limit)."""
    before = _position(record, index, j, settler=settler)
    found: list = []

    def value_of(move):
        found[:] = solver.move_value(before, move, fresh())
        return tuple(found)

    def best_moves():
        try:
            return [m for m, v in solver.solve(before, fresh(), line=False).cards if v == found[0]]
        except SearchLimitExceeded:
            return []

    return judged_move(record, index, j, before, value_of, best_moves)
