"""Engines, sessions and migrations."""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from .plain import Plain

MIGRATIONS = Path(__file__).resolve().parents[1] / "shipped" / "migrations"  # migrations/, shipped in the package
READ_ONLY = "referee_read_only"  # an execution option: this transaction only reads


def default_url() -> str:
    return os.environ.get("DATABASE_URL") or f"sqlite:///{Path.cwd() / 'referee.db'}"


_JSON = {"json_serializer": lambda value: orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode(),
         "json_deserializer": orjson.loads}


def make_engine(url: str) -> Engine:
    """The engine; stored JSON (a match's record and verdict, a feed payload) written and
    read with orjson, several times faster than the json module (a live write reads and
    writes its match's whole record and verdict)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **_JSON)
        _serialize_sqlite_writers(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, **_JSON)


def _serialize_sqlite_writers(engine: Engine) -> None:
    """SQLite: a writing transaction takes the write lock at BEGIN, so concurrent writers
    queue instead of failing half-way (the pysqlite recipe from SQLAlchemy's docs). A
    reading one (`Database.reading`) begins deferred and takes no lock: in WAL mode it reads
    its snapshot while writers go on, so a slow read holds up nobody."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA foreign_keys=ON")
        dbapi_connection.execute("PRAGMA journal_mode=WAL")  # kept in the file; a no-op once set

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE")


class Database:
    def __init__(self, url: str | None = None):
        self.url = url or default_url()
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # PostgreSQL: a read sees one snapshot (a match's summary row and its deals' rows as one
        # write left them); SQLite's read transaction is one already
        snapshot = {"isolation_level": "REPEATABLE READ"} if self.is_postgres else {}
        self.read_engine = self.engine.execution_options(**{READ_ONLY: True}, **snapshot)
        self.read_sessions = sessionmaker(self.read_engine, expire_on_commit=False)

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: committed whole, or rolled back whole."""
        with self.sessions.begin() as session:
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A transaction that only reads: on SQLite it does not take the write lock."""
        with self.read_sessions.begin() as session:
            yield session

    @contextmanager
    def plainly(self, reading: bool = False) -> Iterator[Plain]:
        """transaction() (`reading`: reading()) on a Core connection, not an ORM session: for
        a write that loads and flushes no entity (store/plain.py)."""
        with (self.read_engine if reading else self.engine).begin() as conn:
            yield Plain(conn)

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def upgrade_if_needed(url: str) -> str | None:
    """Migrate a database that is not at the latest schema (a new file, one never migrated, an
    older one): "created" when it held no table yet, "migrated" when it had an older schema,
    None when it was at the latest. A command's first use needs no `referee db upgrade` first."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import inspect

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            current = set(MigrationContext.configure(conn).get_current_heads())
            empty = not current and not inspect(conn).get_table_names()
    finally:
        engine.dispose()
    if current == set(ScriptDirectory.from_config(alembic_config(url)).get_heads()):
        return None
    upgrade(url)
    return "created" if empty else "migrated"
