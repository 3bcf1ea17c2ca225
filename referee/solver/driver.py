"""Values and lines from the core's yes/no question (core.Search.test).

A value is found by asking "does it reach t?" for a few t (a binary search over the values
the deal can still end with, started at a guess); a move's value is the tricks it takes at
once plus the value after it; a line takes, at each step, the first move in tie order
(the lowest card, then the suit S H D C; a reveal only when strictly better) that keeps the
value. The R-4 choice after a first-7 court is the court team's: stop when stopping is as
good as playing on.
"""
from __future__ import annotations

from .core_codes import DEAL_TRICKS, EXACT, FALSE, FEWEST, LOWEST, NONE, TRUE
from .position import as_move, tie_order


class Driver:
    """Questions about the position loaded in `search` (a core.Search), for its objective."""

    def __init__(self, search, candidates):
        self.search = search
        self.objective = search.objective
        self.counts = self.objective <= DEAL_TRICKS or self.objective == FEWEST
        self.candidates = candidates  # () -> the sorted values the deal can still end with

    def value(self, kk: int = 0, guess: int | None = None):
        """The exact value from here (None: EXACT with no line giving exactly kk)."""
        s = self.search
        if self.counts:
            values = list(range(s.remaining() + 1))
        else:
            if self.objective == EXACT and s.test(LOWEST, kk) == NONE:
                return None
            values = self.candidates()
        lo, hi = 0, len(values) - 1  # values[lo] is reached, values[hi + 1] is not
        near = None if guess is None else _index(values, guess)
        steps = 0
        while lo < hi:
            # the guess and its neighbours first (a good guess: two questions), then halves
            at = min(max(near, lo + 1), hi) if near is not None and steps < 3 else (lo + hi + 1) // 2
            steps += 1
            if s.test(values[at], kk) == TRUE:
                lo = at
                near = None if near is None else at + 1
            else:
                hi = at - 1
                near = None if near is None else at - 1
        return values[lo]

    def moves(self) -> list:
        """The legal moves in tie order, each (move, twin) as core codes."""
        found = self.search.legal()
        return sorted(found, key=lambda mt: tie_order(as_move(mt[0])))

    def move_values(self, kk: int = 0, guess: int | None = None) -> list:
        """[(move, value)] for every legal move, in tie order (touching cards once)."""
        worth = {}
        out = []
        s = self.search
        for move, twin in self.moves():
            if twin not in worth:
                gain = s.push(twin)
                rest = self._after(kk - gain if self.objective == EXACT else kk, guess)
                s.pop()
                worth[twin] = None if rest is None else rest + (gain if self.counts else 0)
                if rest is not None:
                    guess = rest
            out.append((move, worth[twin]))
        return out

    def after(self, kk, guess):
        """The value from the position a move has just made (pushed on the search)."""
        return self._after(kk, guess)

    def _after(self, kk, guess):
        s = self.search
        if s.over():
            return 0 if self.counts else (s.stop_value() if kk == 0 or self.objective != EXACT else None)
        return self.value(kk, guess)

    def line(self, value, kk: int = 0) -> list:
        """Perfect play from here to the end (value: the position's), as (seat, move code)
        pairs; the search is left where it started."""
        s = self.search
        line, pushed = [], 0
        while not s.over():
            court = s.court_team()
            if court >= 0:
                if self._stops(value, kk):
                    break
                s.begin_play_on()
                pushed += 1
                continue
            seat = s.to_play()
            mine = (seat & 1) == s.team
            for move, _ in self.moves():
                gain = s.push(move)
                rest = value - gain if self.counts else value
                left = kk - gain if self.objective == EXACT else kk
                if self._keeps(rest, left, mine):
                    line.append((seat, move))
                    value, kk = rest, left
                    pushed += 1
                    break
                s.pop()
            else:
                raise AssertionError("no move keeps the value")  # the value was not this position's
        for _ in range(pushed):
            s.pop()
        return line

    def _stops(self, value, kk) -> bool:
        s = self.search
        if self.counts:
            return value == 0
        return s.stop_value() == value and (self.objective != EXACT or kk == 0)

    def _keeps(self, rest, kk, mine) -> bool:
        """Is the value after the move `rest`? (a max node's children are at most its value,
        a min node's at least)."""
        s = self.search
        if s.over():
            if self.counts:
                return rest == 0
            return (kk == 0 or self.objective != EXACT) and s.stop_value() == rest
        if mine:
            return s.test(rest, kk) == TRUE
        return s.test(rest + 1, kk) == FALSE


def _index(values: list, guess) -> int:
    for i, v in enumerate(values):
        if v >= guess:
            return i
    return len(values) - 1


__all__ = ["Driver"]
