"""Tournaments: created with their keys, listed, read, and their keys rotated."""
from __future__ import annotations

from datetime import datetime
from functools import cache

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session

from referee.engine.errors import shown

from .db import Database
from .errors import Forbidden, NotFound
from .ids import decode_cursor, encode_cursor, new_id, plausible_id
from .keys import hash_key, key_given, new_key, reader_sees_all, require_write_key
from .models import Tournament, utcnow


def load_tournament(s: Session, tid: str, lock: bool = False) -> Tournament:
    """The tournament; `lock` takes its row lock on PostgreSQL, which serialises the
    tournament's writes (SQLite's transactions are serialised already)."""
    plausible_id(tid, "tournament")
    stmt = _reads()[lock and s.get_bind().dialect.name == "postgresql"]
    t = s.scalars(stmt, {"id": tid}).one_or_none()
    if t is None:
        raise NotFound(f"no tournament {shown(tid)}")
    return t


@cache
def _reads() -> dict[bool, Select]:
    """load_tournament's statements (locked: True), built once, at the first read (an ORM
    statement built at import would set the mappers up then: tests/test_import_effects.py)."""
    read = select(Tournament).where(Tournament.id == bindparam("id")).execution_options(populate_existing=True)
    return {False: read, True: read.with_for_update()}


def tournament_etag(t: Tournament) -> str:
    """Changes with every accepted write of any of its matches: read from its row alone."""
    return f'"t.{t.id}.{t.write_count}"'


class Tournaments:
    db: Database

    def create_tournament(self, name: str, preset: str, options: dict, public: bool,
                          tid: str | None = None, created_at: datetime | None = None) -> tuple[Tournament, str, str]:
        """A new tournament and its two keys (write, read-only), shown only now. `tid` and
        `created_at`: a restored export's."""
        key, read_key = new_key("rk_"), new_key("rr_")
        with self.db.transaction() as s:
            t = Tournament(id=tid or new_id(), name=name, preset=preset, options=options, public=public,
                           key_hash=hash_key(key), read_key_hash=hash_key(read_key), created_at=created_at or utcnow(),
                           feed_seq=0)
            s.add(t)
        return t, key, read_key

    def rotate_key(self, tid: str, key: str | None, which: str, trusted: bool = False) -> str:
        """A new write or read key; the old one stops working at once. `trusted`: the
        operator's own command on the server, which needs no key."""
        if not trusted:
            key_given(key)
        new = new_key("rk_" if which == "write" else "rr_")
        with self.db.transaction() as s:
            t = load_tournament(s, tid, lock=True)
            if not trusted:
                require_write_key(t, key)
            if which == "write":
                t.key_hash = hash_key(new)
            else:
                t.read_key_hash = hash_key(new)
        return new

    def list_tournaments(self, key: str | None, limit: int, cursor: str | None) -> dict:
        """Public tournaments, and the private one a key opens, oldest first."""
        with self.db.reading() as s:
            stmt = select(Tournament).order_by(Tournament.created_at, Tournament.id)
            if key is not None:
                digest = hash_key(key)
                stmt = stmt.where(Tournament.public.is_(True) | (Tournament.key_hash == digest)
                                  | (Tournament.read_key_hash == digest))
            else:
                stmt = stmt.where(Tournament.public.is_(True))
            if cursor:
                created, last_id = decode_cursor(cursor)
                stmt = stmt.where((Tournament.created_at > created)
                                  | ((Tournament.created_at == created) & (Tournament.id > last_id)))
            rows = s.scalars(stmt.limit(limit + 1)).all()
            nxt = encode_cursor(rows[limit - 1]) if len(rows) > limit else None
            return {"items": rows[:limit], "next_cursor": nxt}

    def check_write_key(self, tid: str, key: str | None) -> None:
        """401/403 (or 404) for a write before its body is read or judged; the write checks
        the key again in its own transaction (it may have been rotated meanwhile)."""
        key_given(key)
        with self.db.reading() as s:
            require_write_key(load_tournament(s, tid), key)

    def check_key_writes_any(self, key: str | None) -> None:
        """401/403 for a key that is the write key of no tournament: a write whose body names
        no tournament (or cannot be read) is refused so before its body is judged."""
        key_given(key)
        with self.db.reading() as s:
            found = s.scalars(select(Tournament.id).where(Tournament.key_hash == hash_key(key)).limit(1)).first()
        if found is None:
            raise Forbidden("that key writes no tournament")

    def has_tournament(self, tid: str | None) -> bool:
        with self.db.transaction() as s:
            return isinstance(tid, str) and 0 < len(tid) <= 32 and "\x00" not in tid and s.get(Tournament, tid) is not None

    def tournament(self, tid: str, key: str | None, trusted: bool = False) -> Tournament:
        with self.db.reading() as s:
            t = load_tournament(s, tid)
            if not trusted:
                reader_sees_all(t, key)
            return t
