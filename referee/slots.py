"""How many perfect-play searches may run at once: per process, and per server (all the worker
processes of one `referee serve` share lock files in one directory, next to a SQLite database).

A slot of the server is a file `slot-N.lock` held with an exclusive `flock`: the kernel lets
it go when its process ends, however it ends, so no slot is lost to a killed worker. Each
holder writes when its search must have stopped (it runs under a time budget), so a refusal
can say when the first slot will be free at the latest. The folder is the referee's own
(referee/lockdir.py: owner-only, no link followed), opened when the slots are made.
"""
from __future__ import annotations

import os
import threading
import time
import weakref
from pathlib import Path

from .lockdir import UnsafeDirectory, open_file, private_dir, read_file

try:
    import fcntl
except ImportError:  # not a POSIX system: the bound per process only
    fcntl = None  # type: ignore[assignment]


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
    processes sharing `directory` (0 or None: no such bound)."""

    def __init__(self, per_process: int | None, per_server: int | None, directory: Path | None,
                 seconds: float | None = None):
        self.per_process, self.per_server = per_process or None, per_server or None
        self.directory = directory if self.per_server and fcntl is not None else None
        self._dir_fd = None if self.directory is None else private_dir(self.directory)  # UnsafeDirectory: refused
        if self._dir_fd is not None:
            weakref.finalize(self, os.close, self._dir_fd)
        self.seconds = seconds  # the longest a search holds its slot when it does not say (for Retry-After)
        self._lock = threading.Lock()
        self._held: dict[Slot, float] = {}  # this process's slots, each with when it is free at the latest

    def take(self, hold: float | None = None) -> Slot | None:
        """A free slot, held for at most `hold` seconds (the operator's time budget when not
        said), or None when as many searches run as allowed (never waits)."""
        hold = hold if hold is not None else self.seconds
        with self._lock:
            if self.per_process is not None and len(self._held) >= self.per_process:
                return None
            until = time.time() + (hold if hold is not None else 0.0)
            fd = self._lock_a_file(until) if self.directory is not None else None
            if self.directory is not None and fd is None:
                return None
            slot = Slot(self, fd)
            self._held[slot] = until
            return slot

    def retry_after(self) -> int:
        """Whole seconds until a slot is free at the latest (1 at least): the soonest a search
        that holds one must stop."""
        free_at = list(self._held.values()) + self._taken_elsewhere()
        return max(1, int(min(free_at, default=0.0) - time.time() + 0.999))

    def _give_back(self, slot: Slot, fd: int | None) -> None:
        with self._lock:
            self._held.pop(slot, None)
        if fd is not None:
            os.ftruncate(fd, 0)  # no longer taken: a refusal does not count it
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _lock_a_file(self, until: float) -> int | None:
        first = os.getpid() % self.per_server  # processes start at different files
        for k in range(self.per_server):
            try:
                fd = open_file(self._dir_fd, f"slot-{(first + k) % self.per_server}.lock", os.O_RDWR | os.O_CREAT)
            except UnsafeDirectory:  # a link or a stranger's file where a slot should be: that slot is never free
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{until:.3f} {os.getpid()}\n".encode(), 0)
            return fd
        return None

    def _taken_elsewhere(self) -> list[float]:
        if self.directory is None:
            return []
        out = []
        for name in os.listdir(self._dir_fd):
            text = read_file(self._dir_fd, name) if name.startswith("slot-") else None
            try:
                out.append(float(text.split()[0]))
            except (AttributeError, ValueError, IndexError):
                continue
        return out
