"""What the engine's replay asks of perfect play: settling an answered claim (R-34) and finishing
a deal at the bell (R-32, `abandoned_deal: perfect_play`).

Perfect play is the solver's (`referee.solver`), which imports the engine, so the engine cannot
import it: the caller hands a settler in (`judge(record, settler=...)`, `replay_deal`,
`position`); `referee.settlers` has the one that searches and the one that replays the lines a
stored revision recorded. Without a settler a claim cannot be settled (the record error
`claim_unsettled`) and a deal at the bell stays abandoned (reason `no_solver`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from .deal import Deal


class Line(NamedTuple):
    """The referee's plays to the deal's end, and what the verdict says of them."""
    events: tuple          # playrecord.Event plays, in order
    claim: dict | None     # a settled claim's verdict fields (held, can_take, awarded, line, defence, rule)


class Settler(Protocol):
    """Perfect play for the replay of deal `index` of a record (0-based)."""

    def settle(self, deal: "Deal", index: int) -> Line:
        """The line of the deal's answered claim; raises RecordError (`claim_unsettled`)."""

    def finish(self, deal: "Deal", index: int) -> Line | str:
        """Perfect play to the deal's end at the bell, or why not (the `at_close` reason: the
        deal stays abandoned)."""


class Stopped(Exception):
    """Perfect play stopped for the request, not for the record: the request's budget is spent
    (`reason` "seconds"), its client has gone ("cancelled"), or no search may start now ("busy":
    as many run as the server allows). There is no verdict, so nothing is stored; the caller
    answers with a problem. `retry_after`: seconds after which the same request may succeed."""

    def __init__(self, reason: str, message: str, retry_after: int | None = None, setting: str | None = None,
                 limit: float | int | None = None):
        super().__init__(message)
        self.reason, self.message, self.retry_after = reason, message, retry_after
        self.setting, self.limit = setting, limit
