"""Matches: a record stored as the tournament's (judged first, outside any transaction: an
impossible record is refused), uploaded once per external id, read and listed."""
from __future__ import annotations

import json
from functools import cache
from types import SimpleNamespace

from sqlalchemy import and_, bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee.engine import OptionError, resolve
from referee.engine.errors import shown
from referee.provenance import place

from . import limits
from .db import Database
from .deals import head_of, shell
from .errors import Conflict, NotFound
from .judging import judge
from .ids import decode_cursor, encode_cursor, new_id, plausible_id
from .keys import key_given, reader_sees_all, require_write_key
from .history import add_revision, snapshot
from .models import Match, MatchDeal, Tournament, utcnow
from .publishing import publish
from .tournaments import load_tournament
from .views import Head, MatchView, summary


def record_for(t: Tournament, record: dict, label: str = "match") -> dict:
    """The record as stored: the tournament's preset and options, always (a record may
    repeat them, in any spelling that means the same rules). Without player names, the
    players are named after the match: `<label> seat 0` ... `<label> seat 3`."""
    if record.get("preset") or record.get("options"):
        same = record.get("preset", t.preset) == t.preset
        if same:
            try:
                same = resolve(t.preset, record.get("options") or {}) == resolve(t.preset, t.options)
            except OptionError:
                same = False
        if not same:
            field = "preset" if record.get("preset", t.preset) != t.preset else "options"
            wanted = json.dumps(getattr(t, field))
            raise Conflict(f"a match inherits its tournament's {field} ({wanted}); this record has others",
                           errors=[{"pointer": f"/record/{field}", "detail": f"must be {wanted} (the tournament's) or absent"}])
    players = record.get("players") or [f"{label} seat {s}" for s in range(4)]
    stored = {"preset": t.preset, "options": t.options, "players": players, "deals": record.get("deals", [])}
    if record.get("closed"):
        stored["closed"] = True
    return stored


def status_of(verdict: dict, closed: bool) -> str:
    return "finished" if verdict["match"]["finished"] or closed else "in_progress"


def load_match(s: Session, mid: str, lock: bool = False) -> Match:
    """The match's summary row (its deals are rows of their own: deals.head_of); `lock`
    takes its row lock on PostgreSQL (serialising the match's writes, not its tournament's)."""
    reads = _reads()
    return _row(s, mid, reads["match"], reads["locked"] if lock else None)[0]


def load_match_in(s: Session, mid: str, lock: bool = False) -> tuple[Match, Tournament]:
    """load_match, and its tournament, in one statement (`lock`: the match's row alone)."""
    reads = _reads()
    row = _row(s, mid, reads["with"], reads["with_locked"] if lock else None)
    return row[0], row[1]


def live_rows_in(s: Session, mid: str) -> tuple[SimpleNamespace, SimpleNamespace, SimpleNamespace]:
    """A live write's reads by one Core statement, as plain objects (no ORM entity to load, to
    keep in the session and to compare at its flush: the match's row is written by one
    UPDATE, its tournament's by publishing's): the match's row, locked, its tournament's, and
    its last deal's (deals.tail: record, verdict, start, prefix and `expected`, the dealer the
    deal before it named; all None for a match with no deal)."""
    stmts, columns = _rows()
    values = _row(s, mid, stmts[False], stmts[True])._mapping
    return tuple(SimpleNamespace(**{k: values[prefix + k] for k in names}) for prefix, names in columns)


def _row(s: Session, mid: str, stmt, locked=None):
    """The row `stmt` reads of match `mid` (404 for none); `locked`, the statement that takes
    its row lock, read instead on PostgreSQL (SQLite's writes are serialised already)."""
    plausible_id(mid, "match")
    if locked is not None and s.get_bind().dialect.name == "postgresql":
        stmt = locked
    row = s.execute(stmt, {"id": mid}).one_or_none()
    if row is None:
        raise NotFound(f"no match {shown(mid)}")
    return row


@cache
def _rows() -> tuple[dict, list[tuple[str, list[str]]]]:
    """live_rows_in's statements (locked or not) and columns, built once at the first read: the
    last deal's row joined by its place, the count the match's record keeps."""
    m, t, d = Match.__table__, Tournament.__table__, MatchDeal.__table__
    earlier = d.alias()
    expected = select(earlier.c.verdict["next_dealer"].as_integer()).where(
        earlier.c.match_id == d.c.match_id, earlier.c.deal == d.c.deal - 1).scalar_subquery()
    last = [d.c.record, d.c.verdict, d.c.start, d.c.prefix, expected.label("expected")]
    joined = m.join(t, t.c.id == m.c.tournament_id).outerjoin(
        d, and_(d.c.match_id == m.c.id, d.c.deal == m.c.record["deals"].as_integer() - 1))
    stmt = select(*m.c, *[c.label("t_" + c.name) for c in t.c], *[c.label("d_" + c.name) for c in last]
                  ).select_from(joined).where(m.c.id == bindparam("id"))
    columns = [("", [c.name for c in m.c]), ("t_", [c.name for c in t.c]), ("d_", [c.name for c in last])]
    return {False: stmt, True: stmt.with_for_update(of=m)}, columns


@cache
def _reads() -> dict:
    """load_match's and load_match_in's statements, built once, at the first read (an ORM
    statement built at import would set the mappers up then: tests/test_import_effects.py)."""
    match = select(Match).where(Match.id == bindparam("id")).execution_options(populate_existing=True)
    with_ = select(Match, Tournament).join(Tournament, Tournament.id == Match.tournament_id).where(
        Match.id == bindparam("id")).execution_options(populate_existing=True)
    return {"match": match, "locked": match.with_for_update(), "with": with_,
            "with_locked": with_.with_for_update(of=Match)}


def by_external_id(s: Session, tid: str, external_id: str) -> Match | None:
    return s.scalars(select(Match).where(Match.tournament_id == tid, Match.external_id == external_id)).one_or_none()


def _same_upload(s: Session, m: Match, record: dict) -> MatchView:
    if snapshot(s, m, 1).record != record:
        raise Conflict(f"external_id {shown(m.external_id)} is already match {m.id} with a different record",
                       match=m.id)
    return MatchView(m, True, head_of(s, m))


class Matches:
    db: Database

    def create_match(self, tid: str, key: str | None, record: dict, external_id: str | None,
                     trusted: bool = False) -> tuple[MatchView, bool]:
        """Store a match; with a known external_id, return the existing one (created False).
        `trusted` is for the operator's own tools (`referee import`), which need no key."""
        if not trusted:
            key_given(key)
        mid = new_id()
        with self.db.reading() as s:
            t, existing = self._upload_to(s, tid, key, record, external_id, trusted)
            if existing is not None:
                return existing, False
            stored = record_for(t, record, external_id or mid)
            limits.check_record(stored)
            limits.check_new_match(s, tid)
        # outside any transaction
        verdict = judge(stored, self.budget().settler(), self.signer, place(mid, 1, None))
        try:
            with self.db.transaction() as s:
                t, existing = self._upload_to(s, tid, key, record, external_id, trusted, lock=True)
                if existing is not None:  # uploaded while this one was judged
                    return existing, False
                limits.check_new_match(s, tid)
                now = utcnow()
                closed = bool(stored.get("closed"))  # a record closed elsewhere is stored closed
                m = Match(id=mid, tournament_id=tid, external_id=external_id, revision=0, record=shell(stored),
                          verdict=shell(verdict), status=status_of(verdict, closed), closed=closed, created_at=now, updated_at=now)
                s.add(m)
                s.flush()
                add_revision(s, m, "create", None, stored, verdict, now)
                publish(s, t, m, None, Head(stored, verdict), False, None)
                return MatchView(m, True, Head(stored, verdict)), True
        except IntegrityError:
            # A concurrent upload with the same external_id won the race: answer as a retry.
            with self.db.transaction() as s:
                existing = by_external_id(s, tid, external_id)
                if existing is None:
                    raise
                t = load_tournament(s, tid)
                return _same_upload(s, existing, record_for(t, record, external_id)), False

    @staticmethod
    def _upload_to(s: Session, tid: str, key: str | None, record: dict, external_id: str | None, trusted: bool,
                   lock: bool = False) -> tuple[Tournament, MatchView | None]:
        """The tournament a match is uploaded to (its key checked), and the match already
        uploaded with this external_id, if any."""
        t = load_tournament(s, tid, lock=lock)
        if not trusted:
            require_write_key(t, key)
        existing = by_external_id(s, tid, external_id) if external_id is not None else None
        return t, None if existing is None else _same_upload(s, existing, record_for(t, record, external_id))

    def check_match_write_key(self, mid: str, key: str | None) -> None:
        """As check_write_key, for a write to this match (404 when there is none)."""
        key_given(key)
        plausible_id(mid, "match")
        with self.db.reading() as s:
            tid = s.scalars(select(Match.tournament_id).where(Match.id == mid)).one_or_none()  # not the record
            if tid is None:
                raise NotFound(f"no match {shown(mid)}")
            require_write_key(load_tournament(s, tid), key)

    def get_match(self, mid: str, key: str | None) -> MatchView:
        with self.db.reading() as s:
            m = load_match(s, mid)
            full = reader_sees_all(load_tournament(s, m.tournament_id), key)
            return MatchView(m, full, head_of(s, m))

    def list_matches(self, tid: str, key: str | None, status: str | None, limit: int, cursor: str | None) -> dict:
        with self.db.reading() as s:
            t = load_tournament(s, tid)
            reader_sees_all(t, key)
            stmt = select(Match).where(Match.tournament_id == tid).order_by(Match.created_at, Match.id)
            if status:
                stmt = stmt.where(Match.status == status)
            if cursor:
                created, last_id = decode_cursor(cursor)
                stmt = stmt.where((Match.created_at > created) | ((Match.created_at == created) & (Match.id > last_id)))
            rows = s.scalars(stmt.limit(limit + 1)).all()
            items = [summary(m) for m in rows[:limit]]
            nxt = encode_cursor(rows[limit - 1]) if len(rows) > limit else None
            return {"items": items, "next_cursor": nxt}
