"""How many perfect-play searches may run at once, per process and per server (all the worker
processes of one `referee serve` share files in one folder: referee/slotfiles.py), and who
runs next when they all run.

A slot is held for one search, not for a request: taken when the search starts, given back
when it ends, so a client reading an answer slowly holds none. A request that finds every
slot taken waits its turn, for a while (`queue_seconds`), in a fair queue: the next free
slot goes to the waiter whose client holds the fewest slots now (a client is known by its
labels: its address, its key), then to the one that came first, so a client looping costly
requests cannot keep another's out. Each client waits with one request at a time, and a
process lets so many wait (`queue`, each a thread): past them, or past the wait, it is
refused (429) with a `Retry-After` from the holders' searches (when each should be over by
its measured pace, at the latest its time budget) and the waiters before it.
"""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Callable, NamedTuple

try:
    import fcntl
except ImportError:  # not a POSIX system: the bound per process only
    fcntl = None  # type: ignore[assignment]

POLL = 0.05  # seconds between two looks at the other processes' slots, while waiting
QUEUE, QUEUE_SECONDS = 4, 10.0


def lock_dir(database_url: str | None) -> Path | None:
    """Where the server's slots are: next to a SQLite file (`referee.db.search-slots`); for
    another database, a folder of this user's in the temporary folder named after the
    database's address (the workers of one server share it; lockdir refuses one made by
    another user). None for an in-memory database: it is one process's."""
    url = database_url or ""
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url[len("sqlite:///"):].split("?", 1)[0] + ".search-slots")
    if not url or url.startswith("sqlite"):
        return None
    import hashlib
    import tempfile

    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"referee-search-slots-{os.getuid() if hasattr(os, 'getuid') else 0}-{digest}"


class Holding(NamedTuple):
    until: float        # when its search should be over (epoch seconds)
    deadline: float     # when it must be, at the latest
    arrived: float
    labels: tuple[str, ...]


class Slot:
    """A slot taken; `release()` gives it back (once)."""

    def __init__(self, slots: "Slots", fd: int | None):
        self._slots, self._fd = slots, fd

    def release(self) -> None:
        if self._slots is not None:
            self._slots._give_back(self, self._fd)
            self._slots = None


class Slots:
    """At most `per_process` searches at once in this process and `per_server` in all the
    processes sharing `directory` (0 or None: no such bound); `seconds`: the longest a
    search holds its slot when it does not say."""

    def __init__(self, per_process: int | None, per_server: int | None, directory: Path | None,
                 seconds: float | None = None, queue: int = QUEUE, queue_seconds: float = QUEUE_SECONDS):
        self.per_process, self.per_server = per_process or None, per_server or None
        self.directory = directory if self.per_server and fcntl is not None else None
        self.files = None
        if self.directory is not None:
            from .slotfiles import Files

            self.files = Files(self.directory, self.per_server)  # UnsafeDirectory: refused
        self.seconds, self.queue, self.queue_seconds = seconds, queue, queue_seconds
        self._cond = threading.Condition()
        self._held: dict[Slot, Holding] = {}
        self._waiting: list[Holding] = []  # waiting for a place in this process, in order
        self._placed: list[Holding] = []   # placed in this process, waiting for a server slot
        self.pace: float | None = None      # measured: seconds a search takes, on average

    def take(self, hold: float | None = None, labels: tuple[str, ...] = (), wait: float = 0.0,
             until: float | None = None, gone: Callable[[], bool] | None = None) -> Slot | None:
        """A slot for one search that must end within `hold` seconds (the operator's budget
        when not said) and should within `until` (measured; `hold` when not said), for the
        client `labels`; waiting its turn up to `wait` seconds, or until `gone()` (its client
        has left: its place in line is freed at once). None: refused."""
        hold = hold if hold is not None else self.seconds
        now = time.time()
        deadline = now + (hold if hold is not None else 0.0)
        me = Holding(min(deadline, now + until) if until is not None else deadline, deadline, now, tuple(labels))
        if not self._in_line(me, wait):
            return None
        give_up = _GiveUp(time.monotonic() + wait, gone)
        if not self._place(me, give_up):
            return None
        fd = None
        try:
            if self.files is not None:
                fd = self._server_slot(me, give_up)
                if fd is None:
                    return None
            slot = Slot(self, fd)
            with self._cond:
                self._held[slot] = me
            return slot
        finally:
            with self._cond:
                self._placed.remove(me)
                self._cond.notify_all()

    def measured(self, seconds: float) -> None:
        """A search took `seconds`: the pace a refusal's Retry-After counts waiters at."""
        self.pace = seconds if self.pace is None else 0.8 * self.pace + 0.2 * seconds

    def retry_after(self) -> int:
        """Whole seconds until a slot is free for one more request (1 at least): the holders'
        searches, soonest over first, each taken by a waiter in turn."""
        now = time.time()
        holders = self._holders()
        ends = sorted(max(h.until if h.until > now else h.deadline, now) for h in holders)
        if not ends:
            return 1
        ahead = self._waiters_count()
        rounds, k = divmod(ahead, len(ends))
        per_round = self.pace if self.pace is not None else (self.seconds or 1.0)
        return max(1, int(ends[k] - now + rounds * per_round + 0.999))

    # -- waiting in line -----------------------------------------------------------------

    def _in_line(self, me: Holding, wait: float) -> bool:
        """Join this process's line, unless the client waits already (here or in another
        process of the server) or the line is full."""
        with self._cond:
            if wait > 0:
                here = self._waiting + self._placed
                there = self.files.waiters() if self.files is not None else []
                if len(here) >= self.queue or any(set(w.labels) & set(me.labels) for w in here + there):
                    return False
            self._waiting.append(me)
            return True

    def _place(self, me: Holding, give_up: "_GiveUp") -> bool:
        """Wait for a place in this process, first in line by fairness; False past `give_up`."""
        with self._cond:
            try:
                while True:
                    room = self.per_process is None or len(self._held) + len(self._placed) < self.per_process
                    if room and self._first(self._waiting) is me:
                        self._placed.append(me)
                        return True
                    left = give_up.left()
                    if left <= 0:
                        return False
                    self._cond.wait(min(left, POLL) if self.files is not None or give_up.gone else left)
            finally:
                self._waiting.remove(me)
                self._cond.notify_all()

    def _first(self, waiters: list) -> object:
        """The waiter whose turn it is: its client holds the fewest slots now, then it came first."""
        held = [h.labels for h in self._holders()]

        def load(w) -> int:
            return max((sum(label in labels for labels in held) for label in w.labels), default=0)
        return min(waiters, key=lambda w: (load(w), w.arrived, getattr(w, "name", "")), default=None)

    def _server_slot(self, me: Holding, give_up: "_GiveUp") -> int | None:
        """One of the server's slots, in turn with the other processes' waiters."""
        from .slotfiles import Entry

        entry = Entry("", me.until, me.deadline, me.arrived, me.labels)
        with self.files.deciding():
            fd, name = self.files.wait(entry)
        try:
            while True:
                with self.files.deciding():
                    if self._first(self.files.waiters(forget=True)).name == name:
                        locked = self.files.lock_slot(entry)
                        if locked is not None:
                            return locked
                left = give_up.left()
                if left <= 0:
                    return None
                time.sleep(min(left, POLL))
        finally:
            self.files.leave(fd, name)

    def _holders(self) -> list:
        return self.files.holders() if self.files is not None else list(self._held.values())

    def _waiters_count(self) -> int:
        with self._cond:
            here = len(self._waiting) + len(self._placed)
        return len(self.files.waiters()) + len(self._waiting) if self.files is not None else here

    def _give_back(self, slot: Slot, fd: int | None) -> None:
        if fd is not None:
            self.files.release(fd)
        with self._cond:
            self._held.pop(slot, None)
            self._cond.notify_all()


class _GiveUp(NamedTuple):
    """When a waiter stops waiting: at `at` (monotonic seconds), or once `gone()`."""

    at: float
    gone: Callable[[], bool] | None

    def left(self) -> float:
        return 0.0 if self.gone is not None and self.gone() else self.at - time.monotonic()
