"""§13's outcome order as one integer, so the search compares plain numbers.

A team's outcome is (margin, won, tricks): the courts (points under points and tens
scoring) this deal gives it minus those it gives the other team, then 1 if it wins the
deal, then its tricks (collected ones in pile games). `encode` keeps that order:
margin * 1024 + won * 32 + tricks, with tricks <= 13.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.options import Options
from ..engine.scoring import Facts, Result, make_scoring


class Outcome(NamedTuple):
    """The `score` objective's value for one team, compared in this order."""

    margin: int
    won: bool
    tricks: int

    def as_dict(self) -> dict:
        return {"margin": self.margin, "won": self.won, "tricks": self.tricks}


def encode(margin: int, won: bool, tricks: int) -> int:
    return margin * 1024 + (32 if won else 0) + tricks


def decode(value: int) -> Outcome:
    low = value & 1023
    return Outcome(value >> 10, bool(low & 32), low & 31)


class Scorer:
    """The engine's scoring of a finished deal, from one team's side, remembered per facts."""

    def __init__(self, options: Options, team: int):
        self.scoring = make_scoring(options)
        self.by_points = options.target_is_points
        self.penalties = options.bidding  # bid-penalty: points given to a team count against it
        self.team = team
        self._memo: dict = {}

    def result(self, facts: Facts) -> Result:
        return self.scoring.score(facts)

    def value(self, tally) -> int:
        """The outcome of a finished deal; `tally` is a Deal or anything with its `facts`."""
        won = tuple(tally.tricks_won)
        pairs = tally.pairs  # Band Rang: the deal goes to the deciding pair, whatever the tricks
        key = (won, tally.first_seven, tuple(tally.tens_won), pairs and (pairs.winner, pairs.kind))
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = self.encode_result(self.scoring.score(tally.facts(None)), won)
        return v

    def encode_result(self, result: Result, won) -> int:
        t = self.team
        given = result.points if self.by_points else result.courts
        margin = given[t] - given[1 - t]
        return encode(-margin if self.penalties else margin, result.winner == t, won[t])
