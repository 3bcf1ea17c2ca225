"""A match's running totals, fed one scored deal at a time: courts, points, the seven-deal
streaks (R-5, R-19), the target that ends the match, and the winner when a session is closed
(R-26, R-32)."""
from __future__ import annotations

from .deal import Deal
from .options import Options
from .scoring import COURT_KINDS, Result, make_scoring
from .violations import Violation


class Match:
    """Running totals of a match, fed one replayed deal at a time."""

    def __init__(self, options: Options):
        self.options = options
        self.scoring = make_scoring(options)
        self.courts = [0, 0]
        self.points = [0, 0]
        self.streak = [0, 0]
        self.winner: int | None = None
        self.closed = False
        self.rule: list[str] | None = None  # what decided the winner

    def score(self, deal: Deal, penalty: Violation | None) -> Result:
        result = self.scoring.score(deal.facts(penalty))
        result = self._streak(result)
        for team in (0, 1):
            self.courts[team] += result.courts[team]
            self.points[team] += result.points[team]
        self._check_target(result.winner)
        return result

    def _streak(self, result: Result) -> Result:
        """Seven deals in a row score a court or a bonus; any court resets both counts (R-5, R-19)."""
        if not self.scoring.has_streaks:
            return result
        if result.kind in COURT_KINDS:
            self.streak = [0, 0]
            return result
        w = result.winner
        self.streak[w] += 1
        self.streak[1 - w] = 0
        if self.streak[w] >= 7:
            self.streak = [0, 0]
            return result.with_bonus(*self.scoring.streak_bonus())
        return result

    def _check_target(self, team: int) -> None:
        target = self.options.target
        totals = self.points if self.options.target_is_points else self.courts
        if self.options.bidding:  # penalty points: the team that reaches the target loses
            team = 0 if self.points[0] >= self.points[1] else 1
        if target is not None and self.winner is None and totals[team] >= target:
            self.winner = 1 - team if self.options.bidding else team
            self.rule = ["match.target", "score.bid-penalty"] if self.options.bidding else ["match.target"]

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.closed

    def close(self, abandoned: bool = False) -> None:
        """R-26: the organiser ends the session; more courts (points under points/tens) wins.
        R-32: also during a deal (abandoned, not scored) or before a target was reached."""
        if self.finished:
            return
        self.closed = True
        totals = self.points if self.options.target_is_points else self.courts
        self.winner = None if totals[0] == totals[1] else int((totals[1] > totals[0]) != self.options.bidding)
        self.rule = ["match.closed", "R-26"] + (["R-32"] if abandoned or self.options.target is not None else [])

    def as_dict(self) -> dict:
        data = {"courts": list(self.courts), "points": list(self.points), "streak": list(self.streak),
                "target": self.options.target, "winner": self.winner, "finished": self.finished}
        if self.closed:
            data["closed"] = True
        if self.rule is not None:
            data["rule"] = self.rule
        return data
