"""The settlers the engine's replay is handed (engine/settlement.py): perfect play for an
answered claim (R-34) and for a deal at the bell (R-32).

- `Searching` finds it with the solver, within one request's budget (referee.budget); the
  solver is imported at the first search, so a record without claims never loads it.
- `Recorded` replays the lines a stored revision's verdict holds (`claim.line` with the
  claim's verdict fields, `at_close.line`), after checking that they fit the position: a
  reader of a stored match (its page, its steps, its analysis, the standings) never searches.
- `Reusing` is a writer's: a deal whose record is unchanged up to the claim's answer (or, at
  the bell, unchanged) keeps the line of the revision before; only the rest is searched.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .engine.cards import Card
from .engine.errors import RecordError, RefereeError
from .engine.playrecord import PLAY, REVEAL, Event
from .engine.settlement import Line
from .judge import alike

if TYPE_CHECKING:
    from .engine.deal import Deal

NOT_RECORDED = "not_recorded"  # at_close.reason: a reader found no line for the bell


class Searching:
    """Perfect play by search, each search a part of `budget` (a referee.budget.Budget: its own
    node limit within the request's, a search slot while it runs)."""

    def __init__(self, budget):
        self.budget = budget
        self.searches = 0  # how many searches this settler started (the tests count them)

    def settle(self, deal: "Deal", index: int) -> Line:
        from .solver import claims
        from .solver.limits import SearchLimitExceeded

        self.searches += 1
        try:
            with self.budget.search(self.budget.limits.claim_nodes) as limit:
                return claims.settle(deal, limit)
        except SearchLimitExceeded as exc:
            raise self.budget.stopped(exc) from None

    def finish(self, deal: "Deal", index: int) -> Line | str:
        if deal.hands is None:
            return "no_hands"
        from .solver import claims
        from .solver.limits import SearchLimitExceeded

        self.searches += 1
        try:
            with self.budget.search(self.budget.limits.bell_nodes) as limit:
                return claims.finish(deal, limit)
        except SearchLimitExceeded as exc:
            raise self.budget.stopped(exc) from None


class Recorded:
    """The lines of a stored verdict (docs/records.md's form), replayed; never a search. A
    claim with no line that fits is the record error claim_unsettled; a bell with none keeps
    the deal abandoned (reason `not_recorded`)."""

    def __init__(self, verdict: dict, first: int = 0):
        """`first`: the place of the verdict's first deal (a live write's holds its last ones)."""
        self.deals = verdict.get("deals") or []
        self.first = first

    def settle(self, deal: "Deal", index: int) -> Line:
        line = self.line(deal, index)
        if line is None:
            raise RecordError("claim_unsettled", f"no settlement of the claim of seat {deal.claimed.seat} is recorded "
                              "with this revision that fits its position", deal.claimed.event)
        return line

    def line(self, deal: "Deal", index: int) -> Line | None:
        """The recorded settlement of deal `index`'s claim, when it is this claim's and fits."""
        claim = self._deal(index).get("claim")
        table = deal.claimed.as_dict()  # the claim as the table made it: seat, tricks, event, answer
        if not isinstance(claim, dict) or "line" not in claim or any(claim.get(k) != v for k, v in table.items()):
            return None
        events = _plays(claim["line"])
        if events is None or not _fits(deal, events):
            return None
        return Line(events, {k: v for k, v in claim.items() if k not in table})

    def finish(self, deal: "Deal", index: int) -> Line | str:
        at_close = self._deal(index).get("at_close")
        if not isinstance(at_close, dict):
            return NOT_RECORDED
        if not at_close.get("perfect_play"):
            return at_close.get("reason") or NOT_RECORDED
        events = _plays(at_close.get("line"))
        if events is None or at_close.get("event") != deal.n_events or not _fits(deal, events):
            return NOT_RECORDED
        return Line(events, None)

    def _deal(self, index: int) -> dict:
        index -= self.first
        deal = self.deals[index] if 0 <= index < len(self.deals) else None
        return deal if isinstance(deal, dict) else {}


class Reusing:
    """A write's settler: `record` (the new one, as stored) is judged; where its deal is the
    same as in `before` up to the point settled, the line of `before_verdict` is kept, and
    only other claims and bells are searched by `searching`. `first`: the place of their
    first deal (a live write's records and verdict hold their last deals only)."""

    def __init__(self, record: dict, before: dict | None, before_verdict: dict | None, searching, first: int = 0):
        self.deals = record.get("deals") or []
        self.before = (before or {}).get("deals") or []
        self.recorded = Recorded(before_verdict or {}, first)
        self.searching = searching
        self.first = first

    def settle(self, deal: "Deal", index: int) -> Line:
        answered = deal.claimed.answer_event  # None: a claim settled at the close (R-34b)
        if self._same(index, None if answered is None else answered + 1):
            line = self.recorded.line(deal, index)
            if line is not None:
                return line
        return self.searching.settle(deal, index)

    def finish(self, deal: "Deal", index: int) -> Line | str:
        if self._same(index, None):
            found = self.recorded.finish(deal, index)
            if found != NOT_RECORDED:
                return found
        return self.searching.finish(deal, index)

    def _same(self, index: int, events: int | None) -> bool:
        """Deal `index` of both records alike (judge.alike): all but the events, and the first
        `events` events (all of them when None)."""
        index -= self.first
        if not 0 <= index < min(len(self.before), len(self.deals)):
            return False
        a, b = self.deals[index], self.before[index]
        return isinstance(a, dict) and isinstance(b, dict) and alike(a, b, events)


def _plays(line) -> tuple | None:
    """A verdict's line ([{seat, card}], a reveal of the face-down trump as the card "reveal")
    as the engine's events; None if it is not one."""
    try:
        return tuple(Event(p["seat"], REVEAL) if p["card"] == "reveal" else Event(p["seat"], PLAY, Card.parse(p["card"]))
                     for p in line)
    except (TypeError, KeyError, RefereeError):
        return None


def _fits(deal: "Deal", events: tuple) -> bool:
    """The line, played from `deal` by the engine's own rules, is legal throughout (no error,
    no new violation) and ends the deal."""
    trial = deal.copy()
    violations = len(trial.violations)
    try:
        trial.play_line(events)
    except RecordError:
        return False
    return trial.is_over and len(trial.violations) == violations
