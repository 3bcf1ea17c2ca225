"""Band Rang's end of deal (docs/rules.md end.deciding-pair, end.deciding-pair-ace): the first
deciding pair, one player winning two tricks in a row, wins the deal outright."""
from __future__ import annotations

from .kernel import KIND_NAMES, KIND_NONE, KIND_PAIR, P_ACE, P_DEFERRED, P_KIND, P_RUN, P_TEAM, Rules, pair_counts, pair_state, pair_step


class DecidingPair:
    """Follows the run of the last trick's winner and says when a pair decides the deal
    (the rules themselves are the kernel's: pair_step, pair_counts).

    Open trump: only the defenders' pairs count, from one ending on trick 3; with none,
    the callers win at trick 13. Hidden trump: the callers' pairs count from one ending on
    trick 9, the defenders' once the trump is shown, from one ending on trick
    max(4, reveal trick + 1); with none, the winner of trick 13 takes the deal. With the ace
    rule a deciding pair completed by an ace (before trick 13) is deferred to the next trick.
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.callers = rules.callers
        self.hidden = bool(rules.pairs_hidden)
        self.ace_rule = bool(rules.ace_rule)
        self.run_by: int | None = None  # the seat winning in a row, and how many (two is all that counts)
        self.run = 0
        self.deferred = False           # a deciding pair completed by an ace waits (ace rule)
        self.winner: int | None = None  # the team the deal went to, with how and which tricks
        self.kind: str | None = None
        self.pair: list[int] | None = None
        self.rule: list[str] | None = None  # this trick's part in it, for the trick list

    def counts(self, team: int, number: int, revealed_trick: int | None) -> bool:
        """Does a pair of `team` ending on trick `number` decide the deal?"""
        return bool(pair_counts(self.rules, team, number, -1 if revealed_trick is None else revealed_trick))

    def on_trick(self, number: int, seat: int, ace: bool, revealed_trick: int | None) -> bool:
        """Record the trick's winner; True when the deal is decided (the kernel's pair_step)."""
        state = pair_step(self.rules, pair_state(-1 if self.run_by is None else self.run_by, self.run, self.deferred),
                          number, seat, ace, -1 if revealed_trick is None else revealed_trick)
        run_by = (state & 7) - 1
        self.run_by = None if run_by < 0 else run_by
        self.run = (state >> P_RUN) & 3
        self.deferred = bool(state & P_DEFERRED)
        kind = (state >> P_KIND) & 3
        ace_rule = ("end.deciding-pair-ace",) if state & P_ACE else ()
        if kind == KIND_NONE:
            self.rule = list(ace_rule) or None
            return False
        return self._decide(1 if state & P_TEAM else 0, KIND_NAMES[kind], [number - 1, number] if kind == KIND_PAIR else None,
                            *ace_rule)

    def _decide(self, team: int, kind: str, pair: list[int] | None, *extra: str) -> bool:
        self.winner, self.kind, self.pair = team, kind, pair
        self.rule = ["end.deciding-pair", *extra]
        return True
