"""Band Rang's end of deal (docs/rules.md end.deciding-pair, end.deciding-pair-ace): the first
deciding pair, one player winning two tricks in a row, wins the deal outright."""
from __future__ import annotations

from .cards import team_of
from .options import Options


class DecidingPair:
    """Follows the run of the last trick's winner and says when a pair decides the deal.

    Open trump: only the defenders' pairs count, from one ending on trick 3; with none,
    the callers win at trick 13. Hidden trump: the callers' pairs count from one ending on
    trick 9, the defenders' once the trump is shown, from one ending on trick
    max(4, reveal trick + 1); with none, the winner of trick 13 takes the deal. With the ace
    rule a deciding pair completed by an ace (before trick 13) is deferred to the next trick.
    """

    def __init__(self, options: Options, callers: int, hidden: bool):
        self.callers = callers
        self.hidden = hidden
        self.ace_rule = options.deciding_pair_ace_rule
        self.run_by: int | None = None  # the seat winning in a row, and how many
        self.run = 0
        self.deferred = False           # a deciding pair completed by an ace waits (ace rule)
        self.winner: int | None = None  # the team the deal went to, with how and which tricks
        self.kind: str | None = None
        self.pair: list[int] | None = None
        self.rule: list[str] | None = None  # this trick's part in it, for the trick list

    def counts(self, team: int, number: int, revealed_trick: int | None) -> bool:
        """Does a pair of `team` ending on trick `number` decide the deal?"""
        if not self.hidden:
            return team != self.callers and number >= 3
        if team == self.callers:
            return number >= 9
        return revealed_trick is not None and number >= max(4, revealed_trick + 1)

    def on_trick(self, number: int, seat: int, ace: bool, revealed_trick: int | None) -> bool:
        """Record the trick's winner; True when the deal is decided."""
        self.rule = None
        if seat != self.run_by:
            self.run_by, self.run, self.deferred = seat, 1, False
        elif self.deferred and ace:  # the ace rule: an ace again restarts the run
            self.run, self.deferred = 1, False
            self.rule = ["end.deciding-pair-ace"]
        elif self.deferred:
            return self._decide(team_of(seat), "deciding_pair", [number - 1, number], "end.deciding-pair-ace")
        else:
            self.run += 1
        if self.run >= 2 and self.counts(team_of(seat), number, revealed_trick):
            if self.ace_rule and ace and number < 13:
                self.deferred = True
                self.rule = ["end.deciding-pair-ace"]
                return False
            return self._decide(team_of(seat), "deciding_pair", [number - 1, number])
        if number == 13:
            fallback = team_of(seat) if self.hidden else self.callers
            return self._decide(fallback, "last_trick" if self.hidden else "no_pair", None)
        return False

    def _decide(self, team: int, kind: str, pair: list[int] | None, *extra: str) -> bool:
        self.winner, self.kind, self.pair = team, kind, pair
        self.rule = ["end.deciding-pair", *extra]
        return True
