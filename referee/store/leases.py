"""Which worker delivers to a subscription: a lease, claimed by an atomic conditional UPDATE
(on PostgreSQL the row lock makes a second worker see it; on SQLite every transaction takes
the database write lock), renewed before each attempt so that it outlives the attempt, and
released at the end of the pass. A worker whose lease lapsed and was claimed by another
learns it at its next renewal and stops: no event is sent twice to one subscription unless
a worker dies mid-delivery (its lease then expires and the event is sent again)."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import or_, select, update

from .db import Database
from .models import Tournament, Webhook, utcnow

LEASE = timedelta(seconds=60)  # far longer than one attempt's time limit


def due(db: Database, limit: int) -> list[str]:
    """Up to `limit` active subscriptions with events waiting, whose next attempt is due and
    that no live lease holds: those due longest first (a subscription just served is due
    from now, so it goes behind the others)."""
    now = utcnow()
    with db.transaction() as s:
        return list(s.scalars(select(Webhook.id).join(Tournament, Tournament.id == Webhook.tournament_id).where(
            Webhook.active.is_(True), Webhook.next_attempt_at <= now, Webhook.delivered_seq < Tournament.feed_seq,
            or_(Webhook.leased_until.is_(None), Webhook.leased_until < now))
            .order_by(Webhook.next_attempt_at, Webhook.id).limit(limit)))


def claim(db: Database, wid: str, owner: str) -> bool:
    now = utcnow()
    with db.transaction() as s:
        result = s.execute(update(Webhook).where(
            Webhook.id == wid, Webhook.active.is_(True),
            or_(Webhook.leased_until.is_(None), Webhook.leased_until < now),
        ).values(lease_owner=owner, leased_until=now + LEASE))
        return result.rowcount == 1


def renew(db: Database, wid: str, owner: str) -> bool:
    """Extend the lease before an attempt; False when another worker owns it now."""
    with db.transaction() as s:
        result = s.execute(update(Webhook).where(Webhook.id == wid, Webhook.lease_owner == owner)
                           .values(leased_until=utcnow() + LEASE))
        return result.rowcount == 1


def release(db: Database, wid: str, owner: str) -> None:
    with db.transaction() as s:
        s.execute(update(Webhook).where(Webhook.id == wid, Webhook.lease_owner == owner)
                  .values(lease_owner=None, leased_until=None))
