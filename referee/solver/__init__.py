"""Perfect play: the value of a position of a deal with
hands, of each legal move of the seat to play, and the line of perfect play.

    >>> from referee.solver import solve
    >>> analysis = solve(deal, "tricks")   # deal: a referee.engine.Deal with hands
    >>> analysis.value, analysis.cards, analysis.line

Objectives: `score` (the outcome order: courts or points this deal gives the team minus
those it gives the other, then winning the deal, then its tricks; an `Outcome`) and
`tricks` (every remaining trick played whatever the deal's end; the tricks the team
takes, collected ones in pile games: the bridge double-dummy number). Values are the
team of the seat to play's. A hidden trump counts as known to the solver; a reveal (or
an ask) is a move where the engine allows one. Equal moves: the lowest card wins the tie
(rank, then suit S H D C), a reveal only when strictly better.

Every search runs under a `SearchLimit` (default: 20 million nodes, no time limit);
past it, `SearchLimitExceeded` is raised and nothing is returned.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..engine.cards import Card, team_of
from ..engine.deal import Deal
from .limits import SearchLimit, SearchLimitExceeded
from .outcome import Outcome, decode
from .search import REVEAL_MOVE, Context, apply, moves

OBJECTIVES = ("score", "tricks")

__all__ = ["solve", "Solver", "Analysis", "Outcome", "SearchLimit", "SearchLimitExceeded", "UnsolvablePosition",
           "OBJECTIVES", "REVEAL_MOVE"]


class UnsolvablePosition(ValueError):
    """A position the solver does not take: no hands, or an illegal play already on record."""


class Analysis(NamedTuple):
    objective: str
    to_play: int | None           # None: the deal is over
    value: Any                    # tricks: int; score: Outcome (the team of to_play's)
    cards: list                   # [(move, value)] for every legal move, in tie order
    line: list                    # [(seat, move)]: perfect play to the end
    result: dict | None           # score: the result the deal gets at the line's end
    tricks_won: tuple[int, int]   # each team's tricks at the line's end
    nodes: int

    def as_dict(self) -> dict:
        def show(v):
            return v.as_dict() if isinstance(v, Outcome) else v

        def name(m):
            return m.text if isinstance(m, Card) else m
        return {"objective": self.objective, "to_play": self.to_play, "value": show(self.value),
                "cards": [{"card": name(m), "value": show(v)} for m, v in self.cards],
                "line": [{"seat": s, "card": name(m)} for s, m in self.line],
                "result": self.result, "tricks_won": list(self.tricks_won), "nodes": self.nodes}


def solve(deal: Deal, objective: str = "score", limit: SearchLimit | None = None, line: bool = True) -> Analysis:
    """Perfect play from `deal`'s position (the Deal is not changed). Without `line`, only
    the values (the line's `result` and `tricks_won` are then those of the position now)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")
    if deal.hands is None:
        raise UnsolvablePosition("perfect play needs the hands")
    if any(v.is_illegal_play and not v.corrected for v in deal.violations):
        raise UnsolvablePosition("the deal has an illegal play on record; its end is decided by the penalty rules")
    root = deal.copy()
    root.play_all = objective == "tricks"
    root.finish()
    seat = root.to_play
    team = team_of(seat if seat is not None else root.leader)
    ctx = Context(root.options, objective, team, (limit or SearchLimit()).start())
    cards = []
    if seat is not None:
        guess, found = None, moves(root)
        twins, worth = ctx.twins(root, found), {}
        for move in found:
            twin = twins.get(move, move)
            if twin not in worth:
                child = apply(root, twin)
                worth[twin] = ctx.gain(root, child) + ctx.exact(child, guess)
                guess = worth[twin] - ctx.gain(root, child)
            cards.append((move, worth[twin]))
        value = max(v for _, v in cards)
    else:
        value = ctx.exact(root)
    plays, end = _line(ctx, root, value, cards) if line else ([], root)
    show = (lambda v: v) if ctx.tricks else decode
    result = None if ctx.tricks or not end.is_over else ctx.scorer.result(end.facts(None)).as_dict()
    return Analysis(objective, seat, show(value), [(m, show(v)) for m, v in cards], plays, result,
                    tuple(end.tricks_won), ctx.nodes)


class Solver:
    """Perfect play for many positions of one deal under one objective (a whole deal's
    analysis, costly plays): `solve(deal)` per position; each call may reuse what earlier
    calls learnt, so ask for the positions of one deal, and of that deal only."""

    def __init__(self, objective: str = "score"):
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")
        self.objective = objective

    def solve(self, deal: Deal, limit: SearchLimit | None = None, line: bool = True) -> Analysis:
        return solve(deal, self.objective, limit, line)


def _line(ctx: Context, pos: Deal, value: int, first: list) -> tuple[list, Deal]:
    """Perfect play from `pos` (value `value`), the first optimal move in tie order at each step."""
    line = []
    while True:
        if pos.is_over:
            if ctx.tricks or not pos.court_made:
                return line, pos
            if ctx.scorer.value(pos) == value:
                return line, pos  # stopping is as good as playing on
            pos = pos.copy()
            pos.begin_play_on()
        maxing = ctx.maximises(pos)
        choice = None
        for move, v in first:
            if v == value:
                choice = apply(pos, move), move
                break
        first = []
        for move in moves(pos) if choice is None else ():
            child = apply(pos, move)
            want = value - ctx.gain(pos, child)
            if ctx.at_least(child, want) if maxing else ctx.at_most(child, want):
                choice = child, move
                break
        child, move = choice
        line.append((pos.to_play, move))
        value -= ctx.gain(pos, child)
        pos = child
