"""A match's past: its revisions rebuilt from their patches, each exactly as it was."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterator

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from .deals import Tail, head_of, store_head
from .held import later
from .models import Match, Revision
from .patches import apply, diff
from .views import Head


@dataclass
class Snapshot:
    """One revision as it was stored: its record and the verdict it was given then."""

    number: int
    kind: str
    reason: str | None
    created_at: datetime
    record: dict
    verdict: dict


def history(s: Session, m: Match, upto: int | None = None, head: Head | None = None) -> Iterator[Snapshot]:
    """Revisions 1..upto (all by default), oldest first. The head comes from the match
    itself (`head`: when already read); an older revision is its predecessors' patches
    applied in turn."""
    upto = m.revision if upto is None else upto
    rows = s.execute(select(Revision.number, Revision.kind, Revision.reason, Revision.created_at,
                            Revision.record_patch, Revision.verdict_patch)
                     .where(Revision.match_id == m.id, Revision.number <= upto).order_by(Revision.number))
    record = verdict = None
    for number, kind, reason, created_at, record_patch, verdict_patch in rows:
        if number == m.revision:
            record, verdict = head if head is not None else head_of(s, m)
        else:
            record, verdict = apply(record, record_patch), apply(verdict, verdict_patch)
        yield Snapshot(number, kind, reason, created_at, record, verdict)


def snapshot(s: Session, m: Match, number: int) -> Snapshot | None:
    """Revision `number`, or None if the match has no such revision."""
    return with_previous(s, m, number)[1]


def with_previous(s: Session, m: Match, number: int, head: Head | None = None
                  ) -> tuple[Snapshot | None, Snapshot | None]:
    """Revisions `number` - 1 and `number` (None where the match has no such revision), read in
    one pass (`head`: the match's, when already read)."""
    before = last = None
    for snap in history(s, m, number, head):
        before, last = last, snap
    if last is None or last.number != number:
        return None, None
    return before, last


def add_revision(s: Session, m: Match, kind: str, reason: str | None, record: dict, verdict: dict,
                 now: datetime, head: Head | None = None, at: Tail | None = None) -> None:
    """Store the match's next revision as its patches from the head (`head`: its record and
    verdict, when already read); it becomes the head, stored by deal (deals.py). `at`: a live
    write's tail, `head`, `record` and `verdict` holding their deals from its last deal on
    (the deals before are the same on both sides: the patches are the whole match's)."""
    before = head if head is not None else head_of(s, m) if m.revision else None
    first = at.first if at is not None else 0
    # inserted by the write, not by the session's flush (the match's row is there: it is read or
    # flushed); a live write's with its other statements (held.py)
    later(s, _INSERT, {"rev_match_id": m.id, "rev_number": m.revision + 1, "rev_kind": kind, "rev_reason": reason,
                       "rev_deals": first + len(record["deals"]),
                       "rev_record_patch": shifted(diff(before and before.record, record), first),
                       "rev_verdict_patch": shifted(diff(before and before.verdict, verdict), first),
                       "rev_created_at": now})
    m.revision = m.revision + 1
    store_head(s, m, Head(record, verdict), before, at)


_REV = Revision.__table__.c
_INSERT = insert(Revision.__table__).values({name: bindparam("rev_" + name, type_=_REV[name].type) for name in (
    "match_id", "number", "kind", "reason", "deals", "record_patch", "verdict_patch", "created_at")})  # built once


def shifted(patch: dict, first: int) -> dict:
    """A patch of a match's deals from deal `first` on as the whole match's patch: its deals'
    edit begins `first` deals later."""
    edit = patch.get("d", {}).get("deals")
    if not first or edit is None:
        return patch
    keep, item, rest = edit["l"]
    return {"d": {**patch["d"], "deals": {"l": [keep + first, item, rest]}}}
