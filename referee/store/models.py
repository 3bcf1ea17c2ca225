"""SQLAlchemy models. The schema is made only by the Alembic migrations in migrations/."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator):
    """Aware UTC datetimes on every backend (SQLite keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(timezone.utc)
            if dialect.name == "sqlite":
                value = value.replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, datetime: UTCDateTime()}


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    preset: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]]
    public: Mapped[bool]
    key_hash: Mapped[str] = mapped_column(String(64))          # the write key's hash
    read_key_hash: Mapped[str | None] = mapped_column(String(64))  # the read-only key's hash
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The last feed sequence number given out; bumped under the tournament's row lock,
    # so feed events are numbered in commit order.
    feed_seq: Mapped[int] = mapped_column(default=0)
    # Its matches, counted by each insert of one (limits.py): what its match limit reads.
    match_count: Mapped[int] = mapped_column(default=0, server_default="0")
    # Those finished, counted by each write that finishes or reopens one (standings.py).
    finished_count: Mapped[int] = mapped_column(default=0, server_default="0")
    # Every write of one of its matches counts itself here and leaves its match's `updated_at`
    # if later (publishing.numbered): what its ETag and the list's last change read.
    write_count: Mapped[int] = mapped_column(default=0, server_default="0")
    changed_at: Mapped[datetime | None]


class Match(Base):
    """A stored match's summary: what lists show of it, its ETag's revision, and its current
    record and verdict (the head) but their deals, which are its `MatchDeal` rows (`deals`
    holds their count there, in its place), so that a write touches the rows of the deals it
    changes and this one, never the whole match. Its history is the append-only revisions."""

    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("tournament_id", "external_id", name="uq_matches_tournament_external"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    external_id: Mapped[str | None] = mapped_column(String(200))
    revision: Mapped[int]
    status: Mapped[str] = mapped_column(String(20))
    closed: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    record: Mapped[dict[str, Any]]   # the head revision's record, "deals": their count (deals.py)
    verdict: Mapped[dict[str, Any]]  # and its verdict, likewise


class MatchDeal(Base):
    """One deal of a match's head: its record and verdict, and the match's standing when it
    began (the verdict's `match` with the deals before it alone: what judging it alone starts
    from). Its `prefix` is what else a live write needs of the deals before it, should it be
    the last (every row keeps one: a correction that drops deals leaves another last): the
    SHA-256 states of the record's and the verdict's canonical forms up to it, and their
    events' count (deals.py; null on a row made before 0010, or where no hash resumes)."""

    __tablename__ = "match_deals"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)  # its place, from 0
    record: Mapped[dict[str, Any]]
    verdict: Mapped[dict[str, Any]]
    start: Mapped[dict[str, Any]]
    prefix: Mapped[dict[str, Any] | None]


class Revision(Base):
    """One accepted write, never changed: what it changed in the record and in the verdict
    (patches from the revision before; see patches.py), so that every revision can be
    rebuilt as it was without storing the whole match again."""

    __tablename__ = "revisions"
    __table_args__ = (UniqueConstraint("match_id", "number", name="uq_revisions_match_number"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(Text)
    deals: Mapped[int]                        # deals in this revision's record, for the list
    record_patch: Mapped[dict[str, Any]]
    verdict_patch: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class FeedEvent(Base):
    """The outbox: what the referee decided, written with the change that caused it."""

    __tablename__ = "feed_events"
    __table_args__ = (UniqueConstraint("tournament_id", "seq", name="uq_feed_events_tournament_seq"),
                      Index("ix_feed_events_match_id_deal", "match_id", "deal"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    seq: Mapped[int]
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id"), index=True)
    type: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # the deal it is about (its payload's), so that a write reads what its deal's feed said,
    # not every event of the match
    deal: Mapped[int | None]


class Webhook(Base):
    __tablename__ = "webhooks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    url: Mapped[str] = mapped_column(Text)
    secret: Mapped[str] = mapped_column(Text)  # sealed (encrypted) with REFEREE_SECRET_KEY: see secrets.py
    active: Mapped[bool] = mapped_column(default=True)
    disabled_reason: Mapped[str | None] = mapped_column(Text)
    delivered_seq: Mapped[int] = mapped_column(default=0)  # feed events up to here are delivered
    failures: Mapped[int] = mapped_column(default=0)       # consecutive failed attempts
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    leased_until: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Delivery(Base):
    """The delivery log: one row per attempt."""

    __tablename__ = "deliveries"
    __table_args__ = (Index("ix_deliveries_webhook_id_id", "webhook_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhooks.id"))
    event_id: Mapped[str] = mapped_column(String(32))
    seq: Mapped[int]
    attempt: Mapped[int]
    ok: Mapped[bool]
    http_status: Mapped[int | None]
    error: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class StandingRow(Base):
    """A team's figures in its tournament's standings, kept by each write that finishes,
    corrects or closes one of its matches (standings.py: the match's old result taken off,
    its new one added). Its rank is not kept but counted (StandingMerit), so that a match
    changes its teams' rows only, not every row it moves."""

    __tablename__ = "standings"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    team_key: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 of the team's JSON
    team: Mapped[list[str]] = mapped_column(JSON)  # the pair of partners, in name order
    played: Mapped[int]
    won: Mapped[int]
    lost: Mapped[int]
    drawn: Mapped[int]
    courts_for: Mapped[int]
    courts_against: Mapped[int]
    points_for: Mapped[int]
    points_against: Mapped[int]
    # What the director's table shows beside the figures, of the same matches: the deals
    # they had, and each rule id that decided one of their outcomes with how many it decided,
    # [[id, matches], ...] in the order first counted.
    deals: Mapped[int] = mapped_column(default=0, server_default="0")
    rules: Mapped[list[list]] = mapped_column(JSON, default=list)


class StandingMerit(Base):
    """How many of a tournament's teams have each merit (won, court difference, points
    difference: what the ranking compares): a rank is one more than the teams of the merits
    above it, summed over merits, which are few beside the teams."""

    __tablename__ = "standing_merits"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    won: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    court_difference: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    points_difference: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    teams: Mapped[int]
