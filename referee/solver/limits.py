"""How long a search may run: a node budget and a time budget, checked as it goes."""
from __future__ import annotations

import time


class SearchLimitExceeded(RuntimeError):
    """The search stopped at its limit; no answer was found in the budget."""

    def __init__(self, nodes: int, seconds: float, limit: "SearchLimit"):
        self.nodes, self.seconds, self.limit = nodes, seconds, limit
        super().__init__(f"the search stopped after {nodes} nodes and {seconds:.1f} s "
                         f"(limit: {limit.describe()})")


class SearchLimit:
    """At most `nodes` search nodes and `seconds` of wall time (None: no such limit).
    The clock is read every 1,024 nodes, so a search overruns `seconds` by well under
    a millisecond's work."""

    CHECK_EVERY = 1024

    def __init__(self, nodes: int | None = 20_000_000, seconds: float | None = None):
        self.nodes, self.seconds = nodes, seconds
        self.started = time.monotonic()

    def start(self) -> "SearchLimit":
        self.started = time.monotonic()
        return self

    def check(self, nodes: int) -> None:
        elapsed = time.monotonic() - self.started
        if (self.nodes is not None and nodes > self.nodes) or (self.seconds is not None and elapsed > self.seconds):
            raise SearchLimitExceeded(nodes, elapsed, self)

    def describe(self) -> str:
        parts = [f"{self.nodes} nodes"] if self.nodes is not None else []
        parts += [f"{self.seconds} s"] if self.seconds is not None else []
        return " or ".join(parts) or "none"
