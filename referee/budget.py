"""The operator's limits on perfect play, and one request's budget of it.

Perfect play (settling a claim, finishing a deal at the bell, an analysis) is the only costly
work a small request can ask for, so every search runs under a budget:

- each search its own node limit, which decides the verdict the same way on every machine
  and every path (a claim past it is the record error `claim_unsettled`; a deal at the bell
  past it stays abandoned, `at_close.reason` "search_limit");
- the searches of one request share one time budget (the time they search, not the time
  the client takes to read), so a record of a thousand claims cannot multiply it; past it
  there is no verdict at all (a verdict never depends on the machine's load): the request
  is refused, nothing is stored, and it may be sent again;
- a search stops when its client has gone (where the server can see it);
- at most so many searches run at once, per process and per server, each holding its slot
  while it runs; a request that finds none free waits its turn a while in a fair queue
  (referee/slots.py), then is refused (429) with when a slot should be free.

The settings are environment variables (or the app's config keys without `REFEREE_`); the
README's operations section says what a client sees past each. Nothing here imports the
solver: it is imported when the first search of a request starts.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
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
    queue: int = 4                    # requests of a process waiting their turn for a slot
    queue_seconds: float = 10.0       # the longest one waits

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
                   watch_clients=_setting(config, "PERFECT_PLAY_WATCH_CLIENTS", 1, int) != 0,
                   queue=_setting(config, "SEARCH_QUEUE", 4, int),
                   queue_seconds=_setting(config, "SEARCH_QUEUE_SECONDS", 10.0, float))

    def slots(self):
        """The search slots these limits allow (referee.slots), for a server's processes to share."""
        from .slots import Slots

        return Slots(self.per_process, self.per_server, self.lock_dir, self.seconds, self.queue, self.queue_seconds)


def _lock_dir(database_url: str | None) -> Path | None:
    if not database_url:
        return None  # no server's database, no slots to share (`referee check`): slots.py not imported
    from .slots import lock_dir

    return lock_dir(database_url)


class Budget:
    """One request's perfect play: its time budget (`seconds` on `clock`, counted while it
    searches), its cancellation (`cancelled()`: the client has gone), and a search slot held
    by each search while it runs (`search()`), taken in turn for its client (`labels`).
    `nodes`, `seconds`: the whole request's limits, when not the operator's (an analysis has
    its own)."""

    def __init__(self, limits: Limits | None = None, clock: str = "wall", cancelled: Callable[[], bool] | None = None,
                 slots=None, nodes: int | None = None, seconds: float | None | str = "limits",
                 labels: tuple[str, ...] = ()):
        self.limits = limits or Limits()
        self.clock, self.cancelled, self.slots, self.labels = clock, cancelled, slots, labels
        self.nodes = nodes
        self.seconds = self.limits.seconds if seconds == "limits" else seconds
        self._limit = None
        self._slot = None
        self._depth, self._searched, self._started = 0, 0.0, 0.0

    def limit(self):
        """The request's SearchLimit (referee.solver.limits): its nodes in all, its client's going."""
        if self._limit is None:
            from .solver.limits import SearchLimit

            self._limit = SearchLimit(self.nodes, None, self.clock, self.cancelled)
        return self._limit

    @contextmanager
    def search(self, nodes: int | None = None):
        """One search's budget (its own node limit, the request's time left), with a slot held
        while it runs: taken in turn when it starts (Stopped "busy" when none comes), given
        back when it ends. A search within a search keeps the outer one's slot."""
        whole = self.limit()
        if self._depth == 0:
            if self.seconds is not None and self.time_left() <= 0:
                raise self._past_time()
            self.reserve()
            self._started = whole.elapsed()
        self._depth += 1
        try:
            left = None if self.seconds is None else self.seconds - self._searched - (whole.elapsed() - self._started)
            yield whole.part(None, left).part(nodes)  # the request's time left, then the search's own nodes
        finally:
            self._depth -= 1
            if self._depth == 0:
                took = whole.elapsed() - self._started
                self._searched += took
                self._give_back(took)

    def time_left(self) -> float | None:
        """Seconds of searching the request has left (None: no time budget)."""
        return None if self.seconds is None else self.seconds - self._searched

    def reserve(self) -> None:
        """Take a slot now, if none is held (Stopped "busy" when none comes in turn): the next
        search holds it."""
        if self._slot is None and self.slots is not None:
            self._slot = self.slots.take(self.time_left(), self.labels, self.slots.queue_seconds, self.slots.pace,
                                         self.cancelled)
            if self._slot is None and self.cancelled is not None and self.cancelled():
                raise Stopped("cancelled", "the client has gone while its request waited for a search slot")
            if self._slot is None:
                raise Stopped("busy", f"as many searches for perfect play run as the referee allows "
                              f"({self._bounds()}), and none was free in this request's turn; nothing was judged",
                              self.slots.retry_after(), "REFEREE_SEARCHES_PER_SERVER")

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
        return self._past_time()

    def _past_time(self) -> Stopped:
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

    def _give_back(self, took: float) -> None:
        if self._slot is not None:
            self._slot.release()
            self._slot = None
            self.slots.measured(took)

    def close(self) -> None:
        """The request is over: its slot is free, and a next search starts a new budget."""
        if self._slot is not None:
            self._slot.release()
            self._slot = None
        self._limit = None
        self._searched = 0.0

    def __enter__(self) -> "Budget":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
