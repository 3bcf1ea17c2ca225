"""Perfect play: the value of a position of a deal with hands, of each legal move of the
seat to play, and the line of perfect play.

    >>> from referee.solver import solve
    >>> analysis = solve(deal, "tricks")   # deal: a referee.engine.Deal with hands
    >>> analysis.value, analysis.cards, analysis.line

Objectives: `score` (R-38's zero-sum outcome: courts or points this deal gives the team
minus those it gives the other, then +1/0/-1 for winning, neither, losing the deal; an
`Outcome`, no tricks term) and
`tricks` (every remaining trick played whatever the deal's end; the tricks the team
takes, collected ones in pile games: the bridge double-dummy number). Values are the
team of the seat to play's. A hidden trump counts as known to the solver; a reveal (or
an ask) is a move where the engine allows one. Equal moves: the lowest card wins the tie
(rank, then suit S H D C), a reveal only when strictly better.

One search serves every question (core.py, compiled where a C compiler was found at
install: `COMPILED` says which). A `Solver` asked for several positions of one deal keeps
its table between them and searches them all for one team (a whole deal's analysis), so each
position meets what the others stored. Every search runs under a
`SearchLimit`; past it, `SearchLimitExceeded` is raised and nothing is returned.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..engine.cards import Card, team_of
from ..engine.deal import Deal
from ..engine.kernel import rules_key
from ..engine.playrecord import PLAY, REVEAL, Event
from . import position
from .core_codes import REVEAL as REVEAL_CODE
from .driver import Driver
from .limits import SearchLimit, SearchLimitExceeded
from .loader import COMPILED, Search
from .outcome import Margins, Outcome, Scorer
from .position import REVEAL_MOVE, NotAPosition, as_move

OBJECTIVES = ("score", "tricks")
_OBJECTIVE = {"score": 2, "tricks": 0, "deal_tricks": 1, "exact": 3, "fewest": 4}

__all__ = ["solve", "Solver", "Analysis", "Outcome", "SearchLimit", "SearchLimitExceeded", "UnsolvablePosition",
           "OBJECTIVES", "REVEAL_MOVE", "COMPILED"]


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
    line_note: str | None = None  # why the line was left out, though asked for (its search did not fit)

    def as_dict(self) -> dict:
        def show(v):
            return v.as_dict() if isinstance(v, Outcome) else v

        def name(m):
            return m.text if isinstance(m, Card) else m
        return {"objective": self.objective, "to_play": self.to_play, "value": show(self.value),
                "cards": [{"card": name(m), "value": show(v)} for m, v in self.cards],
                "line": [{"seat": s, "card": name(m)} for s, m in self.line],
                "result": self.result, "tricks_won": list(self.tricks_won), "nodes": self.nodes,
                **({"line_note": self.line_note} if self.line_note else {})}


def solve(deal: Deal, objective: str = "score", limit: SearchLimit | None = None, line: bool = True) -> Analysis:
    """Perfect play from `deal`'s position (the Deal is not changed). Without `line`, only
    the values (the line's `result` and `tricks_won` are then those of the position now)."""
    return Solver(objective).solve(deal, limit, line)


class Solver:
    """Perfect play for many positions of one deal under one objective (a whole deal's
    analysis, costly plays): `solve(deal)` per position. The search's tables are kept
    between calls, so ask for the positions of one deal, and of that deal only."""

    def __init__(self, objective: str = "score", core=None):
        """`core`: the Search class to use (the loader's choice by default; tests and the
        bench pass core.Search, the Python one, to run both)."""
        if objective not in _OBJECTIVE:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")
        self.objective = objective
        self.core = core or Search
        self.code = _OBJECTIVE[objective]
        self._search = None
        self._rules = None
        self._ends: dict = {}
        self.nodes = 0
        # the value last found for a position next to the one asked now (a whole deal is asked
        # position by position), as (team, value, tricks left there): the next search's first guess
        self._near: tuple | None = None
        self._team: int | None = None  # the side every position is searched for (`_shown`)

    def prepare(self, deal: Deal, team: int, limit: SearchLimit | None = None) -> Driver:
        """The search loaded with `deal`'s position, values for `team`, under `limit`."""
        if deal.hands is None:
            raise UnsolvablePosition("perfect play needs the hands")
        if any(v.is_illegal_play and not v.corrected for v in deal.violations):
            raise UnsolvablePosition("the deal has an illegal play on record; its end is decided by the penalty rules")
        rules = position.rules(deal)
        if rules_key(rules) != self._rules:
            self._rules, self._value = rules_key(rules), (_counted if self.objective == "deal_tricks"
                                                          else position.outcome(deal))
            self._search = self.core(rules, self.code, self._value)
            self._options, self._margins = deal.options, Margins(deal.options)
        self._search.spend = (limit or SearchLimit()).spend
        try:
            position.load(self._search, deal, team)
        except NotAPosition as exc:
            raise UnsolvablePosition(str(exc)) from None
        return Driver(self._search, self._candidates)

    def solve(self, deal: Deal, limit: SearchLimit | None = None, line: bool = True) -> Analysis:
        root, team, driver = self._load(deal, limit)
        seat = root.to_play
        search = driver.search
        before = search.nodes
        try:
            guess = self._guess(search.team)
            cards = driver.move_values(guess=guess) if seat is not None and not search.over() else []
            value = driver.value(guess=guess) if not cards else (
                max if search.team == team else min)(v for _, v in cards)  # the side searched's own best
            self._near = (search.team, value, search.remaining())
            plays, note = _line(driver, value, line)
        finally:
            self.nodes += search.nodes - before
        end = _played(root, plays)
        show = self._shown(search, team)
        counted = self.objective == "tricks"
        result = None if counted or not end.is_over else Scorer(root.options, team).result(end.facts(None)).as_dict()
        return Analysis(self.objective, seat, show(value), [(as_move(m), show(v)) for m, v in cards],
                        [(s, as_move(m)) for s, m in plays], result, tuple(end.tricks_won), search.nodes - before, note)

    def value(self, deal: Deal, limit: SearchLimit | None = None):
        """The value of `deal`'s position for the seat to play's team (once over, the last
        trick's leader's): no move's value and no line (`solve` for those)."""
        _, team, driver = self._load(deal, limit)
        search = driver.search
        before = search.nodes
        try:
            value = driver.value(guess=self._guess(search.team))
            self._near = (search.team, value, search.remaining())
        finally:
            self.nodes += search.nodes - before
        return self._shown(search, team)(value)

    def move_value(self, deal: Deal, move, limit: SearchLimit | None = None) -> tuple:
        """(best, value): the value of `deal`'s position for the seat to play's team, and that
        of `move` (a card, or REVEAL_MOVE) played there: what DDS's AnalysePlay asks at each
        card of a played deal, no other move's value and no line."""
        _, team, driver = self._load(deal, limit)
        search = driver.search
        before = search.nodes
        try:
            best = driver.value(guess=self._guess(search.team))
            gain = search.push(position.move_of(move))
            try:
                rest = driver.after(0, best)
                self._near = (search.team, rest, search.remaining())
            finally:
                search.pop()
        finally:
            self.nodes += search.nodes - before
        show = self._shown(search, team)
        return show(best), show(rest + gain if self.objective == "tricks" else rest)

    def _load(self, deal: Deal, limit: SearchLimit | None) -> tuple:
        """(root, team, driver): `deal`'s position as searched (every trick played under
        `tricks`), the team its values are asked for (the seat to play's; once over, the last
        trick's leader's), and the search loaded with it for the deal's one side (`_shown`)."""
        root = deal.copy()
        root.play_all = self.objective == "tricks"
        root.finish()
        team = team_of(root.to_play if root.to_play is not None else root.leader)
        if self._team is None:
            self._team = team
        return root, team, self.prepare(root, self._team, limit)

    def _shown(self, search, team: int):
        """A value of the side searched, as `team`'s and as answered (tricks; an Outcome). The
        side searched is the deal's first asked position's: the table's entries are one team's
        (its key says whose), so one side throughout lets each position meet what the others
        stored. R-38's outcome is zero-sum, and every trick left (`remaining` at the root, where
        the search is back) goes to one team or the other."""
        left = search.remaining()
        if self.objective == "tricks":
            return (lambda v: v) if search.team == team else (lambda v: left - v)
        shown = self._margins.shown
        return shown if search.team == team else (lambda v: shown(-v))

    def _guess(self, team: int):
        """The value of the position asked last, or of the one after the move valued last, for
        `team`: the exact value of a neighbour, so a good first guess here (a whole deal's
        positions: the one after each move is the next one asked). R-38's outcome is zero-sum,
        and every trick left goes to one team or the other."""
        if self._near is None:
            return None
        was, value, left = self._near
        if was == team:
            return value
        return left - value if self.objective == "tricks" else -value

    def _candidates(self) -> list:
        """The values the deal can still end with, from the tally now (a superset)."""
        s = self._search
        won0, won1, tens0, tens1, first_seven, _, _, _ = s.tally()
        key = (won0, won1, tens0, tens1, first_seven, s.remaining(), s.pkind, s.team)
        found = self._ends.get(key)
        if found is None:
            found = self._ends[key] = _ends(self._value, self._options, s, key)
        return found


def _counted(won0, won1, first_seven, tens0, tens1, kind, winner, team) -> int:
    """deal_tricks's outcome of a finished deal: the team's tricks (collected, in pile games),
    so the bounds' spans of every sequence of trick winners (core_bounds._pile_bound) bound
    the tricks it takes, as they bound the score."""
    return won1 if team else won0


def _ends(value, options, search, key) -> list:
    won0, won1, tens0, tens1, first_seven, left, kind, team = key
    sevens = [first_seven] if first_seven >= 0 else [-1, 0, 1]
    out = 4 - tens0 - tens1 if options.counts_tens else 0
    kinds = [(kind, search.pwinner)] if kind or search.r.pairs == 0 else [(k, w) for k in (1, 2, 3) for w in (0, 1)]
    found = set()
    for a in range(left + 1):
        for b in range(left + 1 - a):
            for seven in sevens:
                for x in range(out + 1):
                    for k, w in kinds:
                        found.add(value(won0 + a, won1 + b, seven, tens0 + x, tens1 + out - x, k, w, team))
    return sorted(found)


def _line(driver: Driver, value, asked: bool) -> tuple[list, str | None]:
    """The line, searched within what is left of the answer's budget; past it, none and why:
    a value the search found is never turned into a refusal by its line (a cancelled
    search is no answer at all, and goes on up)."""
    if not asked:
        return [], None
    try:
        return driver.line(value), None
    except SearchLimitExceeded as exc:
        if exc.reason == "cancelled":
            raise
        return [], (f"the line of perfect play is left out: searching it would pass this answer's limit "
                    f"({exc.limit.describe()}); the values stand, and a later position's line is quicker")


def _played(root: Deal, plays: list) -> Deal:
    """The engine's replay of the line: where it ends, and how."""
    end = root.copy()
    for seat, move in plays:
        end.push(Event(seat, REVEAL) if move == REVEAL_CODE else Event(seat, PLAY, as_move(move)))
        end.finish()
    return end
