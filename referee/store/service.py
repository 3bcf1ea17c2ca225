"""The store: every accepted write is one transaction that adds a revision (record +
verdict) and its feed events; nothing is edited in place.

`Store` is one handle on the rooms below, each a file named for its job:
tournaments.py (and keys.py), matches.py, writes.py (judging.py: referee/judge.py's verdict, an impossible record refused), revisions.py, archive.py (export
and restore), standings.py, director.py (a tournament as its director reads it), publishing.py (the feed); webhooks.py is separate
(`Webhooks(store)`), as is delivery.py (the worker that posts the feed)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from referee.budget import Budget, Limits
from referee.verdict_signing import Signer, ring_path

from .archive import Archive
from .db import Database
from .director import Director
from .matches import Matches
from .publishing import Feed
from .revisions import Revisions
from .standings import Standings
from .tournaments import Tournaments
from .writes import Writes


class Store(Tournaments, Matches, Writes, Revisions, Archive, Standings, Feed, Director):
    """`budget()`: the perfect-play budget of the write being made (the service's: the request's;
    by default one of its own per write, on CPU time, as the command line counts it)."""

    def __init__(self, db: Database, signing_keys: str | Path | None = None,
                 budget: Callable[[], Budget] | None = None):
        """`signing_keys`: the key ring that signs the verdicts (referee/verdict_signing.py); by default
        REFEREE_SIGNING_KEYS, else the file next to a SQLite database, else none (unsigned)."""
        self.db = db
        path = Path(signing_keys) if signing_keys else ring_path(db.url)
        self.signer: Signer | None = Signer(path) if path is not None else None
        self.budget = budget or _own_budget


def _own_budget() -> Budget:
    return Budget(Limits.from_settings(), clock="cpu")
