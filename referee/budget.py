"""The operator's limits on perfect play, and one request's budget of it.

Perfect play (settling a claim, finishing a deal at the bell, an analysis) is the only costly
work a small request can ask for, so every search runs under a budget:

- each search its own node limit, which decides the verdict the same way on every machine
  and every path (a claim past it is the record error `claim_unsettled`; a deal at the bell
  past it stays abandoned, `at_close.reason` "search_limit");
- the searches of one request share one time budget, so a record of a thousand claims
  cannot multiply it; past it there is no verdict at all (a verdict never depends on the
  machine's load): the request is refused, nothing is stored, and it may be sent again;
- a search stops when its client has gone (where the server can see it);
- at most so many searches run at once, per process and per server; a request that would
  start one more is refused at once (429) instead of queueing.

The settings are environment variables (or the app's config keys without `REFEREE_`); the
README's operations section says what a client sees past each. Nothing here imports the
solver: it is imported when the first search of a request starts.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from .engine.settlement import Stopped

CLAIM_NODES = 2_000_000    # one claim's search
BELL_NODES = 2_000_000     # one deal finished at the bell
SECONDS = 30.0             # one request's searches together


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _setting(config: Mapping[str, Any], name: str, default, kind: Callable):
    """config[name], else the environment's REFEREE_<name>, else the default."""
    value = config.get(name)
    if value is None:
        text = os.environ.get(f"REFEREE_{name}")
        value = kind(text) if text else default
    return value


@dataclass(frozen=True)
class Limits:
    claim_nodes: int = CLAIM_NODES
    bell_nodes: int = BELL_NODES
    seconds: float | None = SECONDS   # None: no time budget
    per_process: int | None = 1       # None: no bound
    per_server: int | None = None
    lock_dir: Path | None = None
    watch_clients: bool = True        # a search stops when its client has gone

    @classmethod
    def from_settings(cls, config: Mapping[str, Any] | None = None, database_url: str | None = None) -> "Limits":
        """The operator's settings: `config` (the app's) first, then the environment."""
        config = config or {}
        seconds = _setting(config, "PERFECT_PLAY_MAX_SECONDS", SECONDS, float)
        directory = _setting(config, "SEARCH_LOCK_DIR", None, str)
        return cls(claim_nodes=_setting(config, "CLAIM_MAX_NODES", CLAIM_NODES, int),
                   bell_nodes=_setting(config, "BELL_MAX_NODES", BELL_NODES, int),
                   seconds=seconds or None,
                   per_process=_setting(config, "SEARCHES_PER_PROCESS", 1, int) or None,
                   per_server=_setting(config, "SEARCHES_PER_SERVER", _cores(), int) or None,
                   lock_dir=Path(directory) if directory else _lock_dir(database_url),
                   watch_clients=_setting(config, "PERFECT_PLAY_WATCH_CLIENTS", 1, int) != 0)

    def slots(self):
        """The search slots these limits allow (referee.slots), for a server's processes to share."""
        from .slots import Slots

        return Slots(self.per_process, self.per_server, self.lock_dir, self.seconds)


def _lock_dir(database_url: str | None) -> Path | None:
    if not database_url:
        return None  # no server's database, no slots to share (`referee check`): slots.py not imported
    from .slots import lock_dir

    return lock_dir(database_url)


class Budget:
    """One request's perfect play: its time budget (`seconds` on `clock`, from its first
    search), its cancellation (`cancelled()`: the client has gone), and a search slot taken
    when its first search starts and held until `close()`. `nodes`, `seconds`: the whole
    request's limits, when not the operator's (an analysis has its own)."""

    def __init__(self, limits: Limits | None = None, clock: str = "wall", cancelled: Callable[[], bool] | None = None,
                 slots=None, nodes: int | None = None, seconds: float | None | str = "limits"):
        self.limits = limits or Limits()
        self.clock, self.cancelled, self.slots = clock, cancelled, slots
        self.nodes = nodes
        self.seconds = self.limits.seconds if seconds == "limits" else seconds
        self._limit = None
        self._slot = None

    def limit(self):
        """The request's SearchLimit (referee.solver.limits), made at its first search."""
        if self._limit is None:
            if self.slots is not None:
                self._slot = self.slots.take(self.seconds)
                if self._slot is None:
                    raise Stopped("busy", f"as many searches for perfect play run as the referee allows "
                                  f"({self._bounds()}); nothing was judged", self.slots.retry_after(),
                                  "REFEREE_SEARCHES_PER_SERVER")
            from .solver.limits import SearchLimit

            self._limit = SearchLimit(self.nodes, self.seconds, self.clock, self.cancelled)
        return self._limit

    def part(self, nodes: int):
        """One search's budget: its own node limit, within the request's."""
        return self.limit().part(nodes)

    def settler(self):
        from .settlers import Searching

        return Searching(self)

    def stopped(self, exc) -> Stopped:
        """What SearchLimitExceeded of the request's own limit means for the request."""
        if exc.reason == "cancelled":
            return Stopped("cancelled", f"the client has gone; perfect play stopped after {exc.nodes} "
                           f"node{'' if exc.nodes == 1 else 's'}")
        if exc.reason == "nodes":
            return Stopped("nodes", f"perfect play for this request went past its limit of {self.nodes} nodes",
                           limit=self.nodes)
        clock = " of CPU time" if self.clock == "cpu" else ""
        return Stopped("seconds", f"perfect play for this request went past the referee's limit of "
                       f"{self.seconds:g} s{clock} (REFEREE_PERFECT_PLAY_MAX_SECONDS); nothing was judged",
                       retry_after=max(1, int(self.seconds)), setting="REFEREE_PERFECT_PLAY_MAX_SECONDS",
                       limit=self.seconds)

    def _bounds(self) -> str:
        said = []
        if self.slots.per_process:
            said.append(f"{self.slots.per_process} per process, REFEREE_SEARCHES_PER_PROCESS")
        if self.slots.per_server:
            said.append(f"{self.slots.per_server} per server, REFEREE_SEARCHES_PER_SERVER")
        return "; ".join(said)

    def close(self) -> None:
        """The request is over: its slot is free, and a next search starts a new budget."""
        if self._slot is not None:
            self._slot.release()
            self._slot = None
        self._limit = None

    def __enter__(self) -> "Budget":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
