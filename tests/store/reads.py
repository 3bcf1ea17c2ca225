"""What a database reads to answer, counted by the database itself, not timed: on
PostgreSQL the rows (tuples) its scans returned and fetched in this transaction, of every
table and index (pg_stat_xact_*); on SQLite the virtual machine's steps (its progress
handler called at each one), which grow with the rows a statement visits. Both are
counted around each statement the session sends (an SQLAlchemy event listener)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import event, text
from sqlalchemy.orm import Session

PG_READ = text("SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid) + pg_stat_get_xact_tuples_fetched(c.oid)), 0) "
               "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
               "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')")


class Reads:
    def __init__(self) -> None:
        self.work = 0         # rows read (PostgreSQL) or steps (SQLite)
        self.statements: list[str] = []


@contextmanager
def counted(s: Session) -> Iterator[Reads]:
    """The reads of the statements `s` sends inside the block (its connection's)."""
    conn = s.connection()
    raw = conn.connection.driver_connection
    reads = Reads()
    pg = conn.dialect.name == "postgresql"

    def steps() -> int:
        reads.work += 1
        return 0

    def pg_read() -> int:  # on a cursor of its own: the statement's rows stay for SQLAlchemy
        with raw.cursor() as cursor:
            cursor.execute(PG_READ.text)
            return int(cursor.fetchone()[0])

    def before(conn_, cursor, statement, *_):
        reads.statements.append(statement)
        if pg:
            reads.work -= pg_read()
        else:
            raw.set_progress_handler(steps, 1)

    def after(conn_, cursor, *_):
        if pg:
            reads.work += pg_read()
        else:
            raw.set_progress_handler(None, 1)

    event.listen(conn, "before_cursor_execute", before)
    event.listen(conn, "after_cursor_execute", after)
    try:
        yield reads
    finally:
        event.remove(conn, "before_cursor_execute", before)
        event.remove(conn, "after_cursor_execute", after)
