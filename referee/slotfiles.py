"""The server's side of the search slots (referee/slots.py): files in the referee's own folder
(referee/lockdir.py) that all the worker processes of one server share.

- `slot-N.lock`, held with an exclusive `flock` by the process whose search has that slot;
  it says when the search should be over (measured), when it must be at the latest (its
  time budget) and whose it is (its client's labels);
- `wait-PID-N`, held likewise by a request waiting for a slot: when it came and whose;
- `queue.lock`, held a moment while a process decides who goes next (and while a file is
  written, so nobody reads one half made).

The kernel lets a `flock` go when its process ends, however it ends: a file nobody holds is
nobody's, whatever it says.
"""
from __future__ import annotations

import fcntl
import itertools
import os
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NamedTuple

from .lockdir import CLOEXEC, DIRECTORY, UnsafeDirectory, open_file, private_dir


class Entry(NamedTuple):
    """A slot's holder or a waiter: `until` when its search should be over, `deadline` when
    it must be, `arrived` when it asked (epoch seconds), `labels` whose it is."""

    name: str
    until: float
    deadline: float
    arrived: float
    labels: tuple[str, ...]

    def text(self) -> bytes:
        return " ".join([f"{self.until:.3f}", f"{self.deadline:.3f}", f"{self.arrived:.6f}", *self.labels]).encode()

    @classmethod
    def parse(cls, name: str, text: bytes) -> "Entry":
        """What a held file says (a file being emptied says nothing: its holder is unknown)."""
        words = text.decode("utf-8", "replace").split()
        try:
            return cls(name, float(words[0]), float(words[1]), float(words[2]), tuple(words[3:]))
        except (IndexError, ValueError):
            return cls(name, 0.0, 0.0, 0.0, ())


class Files:
    """The files of `count` server slots in `directory` (made the referee's own, or refused)."""

    def __init__(self, directory: Path, count: int):
        self.count = count
        self.fd = private_dir(directory)
        weakref.finalize(self, os.close, self.fd)
        self._seq = itertools.count()

    @contextmanager
    def deciding(self) -> Iterator[None]:
        fd = open_file(self.fd, "queue.lock", os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # the lock goes with it

    def holders(self) -> list[Entry]:
        return self._held("slot-")

    def waiters(self, forget: bool = False) -> list[Entry]:
        """The waiters; `forget` (only while deciding, when no waiter is half made): remove
        the files of waiters whose process ended without cleaning up."""
        return self._held("wait-", forget)

    def lock_slot(self, entry: Entry) -> int | None:
        """A free slot's file, held and saying `entry` (call it while deciding); None if every
        slot is held (or is not a file of ours: that one is never free)."""
        first = os.getpid() % self.count  # processes start at different files
        for k in range(self.count):
            try:
                fd = open_file(self.fd, f"slot-{(first + k) % self.count}.lock", os.O_RDWR | os.O_CREAT)
            except UnsafeDirectory:
                continue
            if _try_lock(fd, fcntl.LOCK_EX):
                _write(fd, entry)
                return fd
            os.close(fd)
        return None

    def release(self, fd: int) -> None:
        os.ftruncate(fd, 0)  # no longer held: nobody counts it
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def wait(self, entry: Entry) -> tuple[int, str]:
        """A waiter's file, held (call it while deciding): (its descriptor, its name)."""
        name = f"wait-{os.getpid()}-{next(self._seq)}-{os.urandom(4).hex()}"  # a dead process's pid comes back
        fd = open_file(self.fd, name, os.O_RDWR | os.O_CREAT | os.O_EXCL)
        fcntl.flock(fd, fcntl.LOCK_EX)
        _write(fd, entry._replace(name=name))
        return fd, name

    def leave(self, fd: int, name: str) -> None:
        try:
            _unlink(self.fd, name)
        finally:
            os.close(fd)

    def _names(self) -> list[str]:
        """The folder's file names, read through a descriptor of this call's own: listing the
        shared one reads from one position that every thread moves (os.listdir of a descriptor
        reads a duplicate of it), so two threads listing at once could each see part, or none."""
        fd = os.open(".", os.O_RDONLY | DIRECTORY | CLOEXEC, dir_fd=self.fd)
        try:
            return os.listdir(fd)
        finally:
            os.close(fd)

    def _held(self, prefix: str, forget: bool = False) -> list[Entry]:
        """The entries of the files named `prefix...` that someone holds; `forget`: remove
        the others (a waiter's process ended without cleaning up)."""
        found = []
        for name in self._names():
            if not name.startswith(prefix):
                continue
            try:
                fd = open_file(self.fd, name, os.O_RDONLY)
            except (OSError, UnsafeDirectory):
                continue
            try:
                if not _try_lock(fd, fcntl.LOCK_SH):
                    found.append(Entry.parse(name, os.pread(fd, 4096, 0)))
                elif forget:
                    _unlink(self.fd, name)
            finally:
                os.close(fd)
        return found


def _unlink(directory: int, name: str) -> None:
    """Remove a waiter's file; gone already is fine (its waiter left, or another process
    forgot it as a dead waiter's, between our look and this)."""
    try:
        os.unlink(name, dir_fd=directory)
    except FileNotFoundError:
        pass


def _try_lock(fd: int, kind: int) -> bool:
    try:
        fcntl.flock(fd, kind | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _write(fd: int, entry: Entry) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, entry.text() + b"\n", 0)
