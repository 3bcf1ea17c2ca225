"""What a database reads to answer, counted by the database itself, not timed: on
PostgreSQL the rows (tuples) its scans returned and fetched in the statement's transaction,
of every table and index (pg_stat_xact_*); on SQLite the virtual machine's steps (its
progress handler called at each one), which grow with the rows a statement visits. Both
are counted around each statement sent (SQLAlchemy's cursor events), with its text."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

PG_READ = ("SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid) + pg_stat_get_xact_tuples_fetched(c.oid)), 0) "
           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
           "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')")


class Reads:
    def __init__(self) -> None:
        self.work = 0  # rows read (PostgreSQL) or steps (SQLite)
        self.statements: list[str] = []


def _pg_read(raw) -> int:
    with raw.cursor() as cursor:  # a cursor of its own: the statement's rows stay for SQLAlchemy
        cursor.execute(PG_READ)
        return int(cursor.fetchone()[0])


@contextmanager
def counted(target: Session | Engine) -> Iterator[Reads]:
    """The reads of the statements sent inside the block by the session `target` (its
    connection's) or by any connection of the engine `target`."""
    on: Connection | Engine = target.connection() if isinstance(target, Session) else target
    reads = Reads()

    def steps() -> int:
        reads.work += 1
        return 0

    def before(conn: Connection, cursor, statement, *_):
        reads.statements.append(statement)
        raw = conn.connection.driver_connection
        if conn.dialect.name == "postgresql":
            reads.work -= _pg_read(raw)
        else:
            raw.set_progress_handler(steps, 1)

    def after(conn: Connection, *_):
        raw = conn.connection.driver_connection
        if conn.dialect.name == "postgresql":
            reads.work += _pg_read(raw)
        else:
            raw.set_progress_handler(None, 1)

    event.listen(on, "before_cursor_execute", before)
    event.listen(on, "after_cursor_execute", after)
    try:
        yield reads
    finally:
        event.remove(on, "before_cursor_execute", before)
        event.remove(on, "after_cursor_execute", after)
