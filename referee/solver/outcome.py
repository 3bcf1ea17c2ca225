"""§13's outcome (R-38) as one integer, so the search compares plain numbers.

A team's outcome is (margin, deal): the courts (points under points and tens scoring) this
deal gives it minus those it gives the other team, then +1 for winning the deal, 0 for a
deal neither team wins, -1 for losing it (R-38: no tricks term). It is zero-sum: the other
team's outcome is exactly its negative, and so is its code. `encode` keeps that order:
margin * 4 + deal.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.options import Options
from ..engine.scoring import Facts, Result, make_scoring

DEAL_WORDS = {1: "won", 0: "neither", -1: "lost"}


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


class Scorer:
    """The engine's scoring of a finished deal, from one team's side."""

    def __init__(self, options: Options, team: int):
        self.scoring = make_scoring(options)
        self.by_points = options.target_is_points
        self.penalties = options.bidding  # bid-penalty: points given to a team count against it
        self.team = team

    def result(self, facts: Facts) -> Result:
        return self.scoring.score(facts)

    def encode_result(self, result: Result) -> int:
        t = self.team
        given = result.points if self.by_points else result.courts
        margin = given[t] - given[1 - t]
        return encode(-margin if self.penalties else margin, deal_sign(result, t))
