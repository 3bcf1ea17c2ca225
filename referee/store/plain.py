"""A live write on a Core connection, not an ORM session (issue 39, many tables): a session
costs about twice a connection to begin, commit and close, and each statement through it
more, where a live write loads no entity (its rows are plain: matches.live_rows_in) and
flushes none (its statements are its own: held.py). `Plain` is the few calls of a session
such a write makes."""
from __future__ import annotations

from contextlib import nullcontext

from sqlalchemy import Connection


class Plain:
    """A connection in a transaction, answering a live write's session calls: execute,
    scalars, info (its own, for held.py), get_bind (the dialect) and no_autoflush (nothing
    to flush)."""

    no_autoflush = nullcontext()

    def __init__(self, conn: Connection):
        self.conn = conn
        self.info: dict = {}
        self.execute = conn.execute
        self.scalars = conn.scalars

    def get_bind(self) -> Connection:
        return self.conn
