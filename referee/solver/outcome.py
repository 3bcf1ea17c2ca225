"""§13's outcome (R-38) as one integer, so the search compares plain numbers.

A team's outcome is (margin, deal): the courts (points under points and tens scoring) this
deal gives it minus those it gives the other team, then +1 for winning the deal, 0 for a
deal neither team wins, -1 for losing it (R-38: no tricks term). It is zero-sum: the other
team's outcome is exactly its negative, and so is its code. `encode` keeps that order:
margin * 4 + deal. The search packs a value in 18 bits (a table entry's threshold, a span's
ends): a margin past WINDOW (a house rule's goon court or bavney of 100,000 courts) is kept as
its rank among the options' counts past it, just above WINDOW (`Margins`), in the same order.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.options import Options
from ..engine.scoring import Facts, Result, make_scoring

DEAL_WORDS = {1: "won", 0: "neither", -1: "lost"}
# the largest margin kept as it is: with the ranks above it (one per count of the options,
# fewer than 16) every code stays within the search's +-0x1FFFF (margin * 4 + deal)
WINDOW = 0x7FFF - 16


class Outcome(NamedTuple):
    """The `score` objective's value for one team, compared in this order (R-38)."""

    margin: int
    deal: int   # +1 won, 0 neither team won, -1 lost

    def as_dict(self) -> dict:
        return {"margin": self.margin, "deal": DEAL_WORDS[self.deal]}


def encode(margin: int, deal: int) -> int:
    return margin * 4 + deal


def decode(value: int) -> Outcome:
    margin = (value + 1) >> 2
    return Outcome(margin, value - 4 * margin)


def deal_sign(result: Result, team: int) -> int:
    """R-38: +1 when `team` wins the deal, -1 when the other team does, 0 when neither."""
    return 0 if result.winner is None else 1 if result.winner == team else -1


class Margins:
    """A deal's margins as the search keeps them: as they are up to WINDOW; past it (a court
    worth one of the options' counts, set by a house rule) the count's rank among the options'
    counts past WINDOW, above WINDOW: the same order, and back (`margin`) for the answer."""

    def __init__(self, options: Options):
        self.big = sorted({v for v in vars(options).values() if type(v) is int and v > WINDOW})

    def code(self, margin: int) -> int:
        size = abs(margin)
        if size <= WINDOW:
            return margin
        if size not in self.big:  # scoring.py gives a deal no other margin
            raise ValueError(f"a margin of {margin} is none of the options' counts")
        return (WINDOW + 1 + self.big.index(size)) * (1 if margin > 0 else -1)

    def margin(self, code: int) -> int:
        size = abs(code)
        return code if size <= WINDOW else self.big[size - WINDOW - 1] * (1 if code > 0 else -1)

    def shown(self, value: int) -> Outcome:
        """A value of the search as the answer gives it (decoded, the margin as scored)."""
        found = decode(value)
        return Outcome(self.margin(found.margin), found.deal)


class Scorer:
    """The engine's scoring of a finished deal, from one team's side."""

    def __init__(self, options: Options, team: int):
        self.scoring = make_scoring(options)
        self.by_points = options.target_is_points
        self.penalties = options.bidding  # bid-penalty: points given to a team count against it
        self.team = team
        self.margins = Margins(options)

    def result(self, facts: Facts) -> Result:
        return self.scoring.score(facts)

    def encode_result(self, result: Result) -> int:
        t = self.team
        given = result.points if self.by_points else result.courts
        margin = given[t] - given[1 - t]
        return encode(self.margins.code(-margin if self.penalties else margin), deal_sign(result, t))
