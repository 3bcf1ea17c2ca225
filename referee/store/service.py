"""The store: every accepted write is one transaction that adds a revision (record +
verdict) and its feed events; nothing is edited in place.

`Store` is one handle on the rooms below, each a file named for its job:
tournaments.py (and keys.py), matches.py, writes.py, revisions.py, archive.py (export
and restore), standings.py, director.py (a tournament as its director reads it), publishing.py (the feed); webhooks.py is separate
(`Webhooks(store)`), as is delivery.py (the worker that posts the feed)."""
from __future__ import annotations

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
    def __init__(self, db: Database):
        self.db = db
