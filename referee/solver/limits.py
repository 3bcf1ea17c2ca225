"""The budget of perfect play: how much a search may do, reported as it goes.

A search reports its work with `limit.spend(n)` (n nodes since its last report; the searches
report about every 1,024 nodes), which raises `SearchLimitExceeded` once the budget is spent:
its nodes, its time on its clock, or cancelled (the work is no longer wanted: the client
has gone). A budget may be a part of another (`part`): what a part spends is spent from the
whole too, so the searches of one request share the request's budget and none can
multiply it, while each search keeps its own node limit.

Nothing here imports the solver: the service builds a request's budget before it knows
whether a search will run.
"""
from __future__ import annotations

import time
from typing import Callable

# "wall": time passing, for the service (a request holds a worker for that long);
# "cpu": this process's CPU time, for the command line (a loaded machine does not shorten it).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}
POLL_EVERY = 0.05  # seconds (on the budget's clock) between two looks at `cancelled()`


class SearchLimitExceeded(RuntimeError):
    """The search stopped at a limit (`limit`, the budget that was spent: a part or the whole);
    `reason` says which of its limits: "nodes", "seconds" or "cancelled". No answer was found."""

    def __init__(self, limit: "SearchLimit", reason: str):
        self.limit, self.reason = limit, reason
        self.nodes, self.seconds = limit.spent, limit.elapsed()
        why = "it was cancelled" if reason == "cancelled" else f"limit: {limit.describe()}"
        super().__init__(f"the search stopped after {self.nodes} nodes and {self.seconds:.1f} s ({why})")


class SearchLimit:
    """At most `nodes` search nodes and `seconds` on `clock` (None: no such limit), until
    `cancelled()` is true. The time counts from `started` (a reading of the clock; now by
    default). `within`: the budget this one is a part of."""

    def __init__(self, nodes: int | None = 20_000_000, seconds: float | None = None, clock: str = "wall",
                 cancelled: Callable[[], bool] | None = None, started: float | None = None,
                 within: "SearchLimit | None" = None):
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}; got {clock!r}")
        self.nodes, self.seconds, self.clock, self.cancelled, self.within = nodes, seconds, clock, cancelled, within
        self._now = CLOCKS[clock]
        self.started = self._now() if started is None else started
        self.spent = 0
        self._next_poll = self.started
        self._gone = False

    def part(self, nodes: int | None = None, seconds: float | None = None) -> "SearchLimit":
        """A budget within this one, with limits of its own (one search of a request)."""
        return SearchLimit(nodes, seconds, self.clock, within=self)

    def spend(self, n: int) -> None:
        """Count `n` more nodes; raise SearchLimitExceeded when a limit is passed (this budget's
        nodes first, which decide the same way on every machine; then its time; then the
        whole it is a part of)."""
        self.spent += n
        if self.nodes is not None and self.spent > self.nodes:
            raise SearchLimitExceeded(self, "nodes")
        if self.seconds is not None or self.cancelled is not None:
            now = self._now()
            if self.seconds is not None and now - self.started > self.seconds:
                raise SearchLimitExceeded(self, "seconds")
            if self.cancelled is not None and (self._gone or now >= self._next_poll):
                self._next_poll = now + POLL_EVERY
                self._gone = self._gone or self.cancelled()  # once gone, gone: every later search stops at once
                if self._gone:
                    raise SearchLimitExceeded(self, "cancelled")
        if self.within is not None:
            self.within.spend(n)

    def elapsed(self) -> float:
        return self._now() - self.started

    def describe(self) -> str:
        parts = [f"{self.nodes} nodes"] if self.nodes is not None else []
        parts += [f"{self.seconds:g} s{' of CPU time' if self.clock == 'cpu' else ''}"] if self.seconds is not None else []
        return " or ".join(parts) or "none"
