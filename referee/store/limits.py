"""How large a match and a tournament may grow: bounded, so that no client can fill the
disk through one tournament. Each limit is a setting; over it, a write is a 413 problem
that names the setting (`limit_name`) and its value (`limit`)."""
from __future__ import annotations

import os

from sqlalchemy import event, select, update
from sqlalchemy.orm import Session

from .errors import TooLarge
from .models import Match, Tournament

# setting: (default, what it counts)
LIMITS = {
    "REFEREE_MAX_DEALS": (1_000, "deals in a match"),
    "REFEREE_MAX_EVENTS": (60_000, "events in a match (all its deals)"),
    "REFEREE_MAX_REVISIONS": (60_000, "revisions of a match (each accepted write is one)"),
    "REFEREE_MAX_MATCHES": (5_000, "matches in a tournament"),
}


def limit(name: str) -> int:
    value = os.environ.get(name)
    return int(value) if value else LIMITS[name][0]


def _refuse(name: str, count: int) -> None:
    most = limit(name)
    if count > most:
        raise TooLarge(f"this would make {count} {LIMITS[name][1]}; at most {most} are kept ({name})",
                       limit=most, limit_name=name)


def check_record(record: dict) -> None:
    """A record the store may keep: within the deals and events limits."""
    deals = record.get("deals", [])
    _refuse("REFEREE_MAX_DEALS", len(deals))
    _refuse("REFEREE_MAX_EVENTS", sum(len(d.get("events", ())) for d in deals))


def check_revisions(count: int) -> None:
    _refuse("REFEREE_MAX_REVISIONS", count)


def check_new_match(s: Session, tid: str) -> None:
    """Room for one more match in the tournament (under the tournament's lock): its kept
    count read, one row, however many matches it holds."""
    _refuse("REFEREE_MAX_MATCHES", s.scalar(select(Tournament.match_count).where(Tournament.id == tid)) + 1)


@event.listens_for(Match, "after_insert")
def _counted(mapper, connection, match: Match) -> None:
    """Every match stored counts itself in its tournament's `match_count`, in the insert's
    transaction, whichever write stores it (matches are never deleted)."""
    tournaments = Tournament.__table__
    connection.execute(update(tournaments).where(tournaments.c.id == match.tournament_id)
                       .values(match_count=tournaments.c.match_count + 1))
