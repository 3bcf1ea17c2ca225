"""A folder of the referee's own for its lock files (the search slots, referee/slots.py).

Its name can be guessed (the processes of one server find it by name), so whoever is there
first could make it: it is made owner-only (0700) and, when it exists, taken only if it is a
real folder (no symbolic link) of this user's. One of this user's that others could write in
is closed (0700) and emptied of what they may have put there (links, files not ours); one of
another user's is refused (UnsafeDirectory), never used. Its files are opened through the
folder's descriptor, never following a link, and taken only when they are plain files of
ours with one name: another local user can neither make the referee write through a link
nor hold its locks.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
DIRECTORY = getattr(os, "O_DIRECTORY", 0)
# what opening a link with O_NOFOLLOW raises (EMLINK on FreeBSD, EFTYPE on some BSDs)
_LINK_ERRORS = {getattr(errno, name) for name in ("ELOOP", "EMLINK", "EFTYPE") if hasattr(errno, name)}


class UnsafeDirectory(RuntimeError):
    """The lock folder, or a file in it, is not the referee's own: it is not used."""


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def private_dir(path: Path) -> int:
    """An open descriptor of folder `path`, made owner-only if missing (its parent, the
    operator's, must exist), else checked and closed to others as the module says."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # the operator's (REFEREE_SEARCH_LOCK_DIR's parents)
    parent = os.open(path.parent, os.O_RDONLY | DIRECTORY | CLOEXEC)
    try:
        try:
            os.mkdir(path.name, 0o700, dir_fd=parent)
        except FileExistsError:
            pass
        try:
            fd = os.open(path.name, os.O_RDONLY | DIRECTORY | NOFOLLOW | CLOEXEC, dir_fd=parent)
        except OSError as exc:  # a link (ELOOP) or not a folder (ENOTDIR)
            raise UnsafeDirectory(f"{path} is not a folder of the referee's own ({exc.strerror}); "
                                  "remove it or choose another (REFEREE_SEARCH_LOCK_DIR)") from None
    finally:
        os.close(parent)
    try:
        _own(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _own(fd: int, path: Path) -> None:
    st = os.fstat(fd)
    if st.st_uid != _uid():
        raise UnsafeDirectory(f"{path} belongs to user {st.st_uid}, not to the referee's ({_uid()}): it is not "
                              "used; remove it or choose another folder (REFEREE_SEARCH_LOCK_DIR)")
    if stat.S_IMODE(st.st_mode) & 0o077:
        os.fchmod(fd, 0o700)  # closed first, then emptied: nothing new can come in meanwhile
        for name in os.listdir(fd):
            entry = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if not _ours(entry):
                os.unlink(name, dir_fd=fd)


def _ours(st: os.stat_result) -> bool:
    """A plain file of this user's with one name (a hard link elsewhere has two)."""
    return stat.S_ISREG(st.st_mode) and st.st_uid == _uid() and st.st_nlink == 1


def open_file(directory: int, name: str, flags: int) -> int:
    """File `name` of the private folder `directory` (made 0600 with O_CREAT), never through
    a link; UnsafeDirectory if what is there is not a plain file of ours."""
    try:
        fd = os.open(name, flags | NOFOLLOW | CLOEXEC, 0o600, dir_fd=directory)
    except OSError as exc:
        if exc.errno in _LINK_ERRORS:
            raise UnsafeDirectory(f"{name} in the lock folder is a link: not followed") from None
        raise
    if not _ours(os.fstat(fd)):
        os.close(fd)
        raise UnsafeDirectory(f"{name} in the lock folder is not a plain file of the referee's own: not used")
    return fd


def read_file(directory: int, name: str) -> str | None:
    """The text of file `name` of the folder, None if it is gone or not ours."""
    try:
        fd = open_file(directory, name, os.O_RDONLY)
    except (OSError, UnsafeDirectory):
        return None
    try:
        return os.pread(fd, 4096, 0).decode("utf-8", "replace")
    finally:
        os.close(fd)
