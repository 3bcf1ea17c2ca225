"""Webhook subscriptions to a tournament's feed: registered (URL checked), listed, their
delivery log read, re-enabled, their secret rotated, deleted. Delivery is delivery.py's."""
from __future__ import annotations

import secrets

from sqlalchemy import delete as sa_delete
from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.engine.errors import shown

from .targets import TargetRefused, check_target
from .errors import Invalid, NotFound, Unavailable
from .ids import new_id, plausible_id
from .keys import key_given, require_write_key
from .models import Delivery, Webhook, utcnow
from .secrets import SecretKeyMissing, seal
from .tournaments import load_tournament
from .views import iso, webhook_dict


def new_secret() -> str:
    return "whsec_" + secrets.token_hex(24)


def _sealed(secret: str) -> str:
    try:
        return seal(secret)
    except SecretKeyMissing as exc:
        raise Unavailable(str(exc)) from None


class Webhooks:
    """Subscriptions to a tournament's feed (delivery itself is in delivery.py)."""

    def __init__(self, store):
        self.store = store
        self.db = store.db

    def register(self, tid: str, key: str | None, url: str) -> tuple[dict, str]:
        key_given(key)
        secret = new_secret()
        with self.db.transaction() as s:
            t = load_tournament(s, tid, lock=True)
            require_write_key(t, key)
            try:
                url = check_target(url).url  # stored as it is connected to
            except TargetRefused as exc:
                raise Invalid(str(exc), errors=[{"pointer": "/url", "detail": str(exc)}]) from None
            w = Webhook(id=new_id(), tournament_id=tid, url=url, secret=_sealed(secret), active=True,
                        delivered_seq=t.feed_seq, failures=0, next_attempt_at=utcnow(), created_at=utcnow())
            s.add(w)
            return webhook_dict(w), secret

    def delete(self, tid: str, key: str | None, wid: str) -> None:
        """Remove a subscription and its delivery log; nothing more is sent to it."""
        with self.db.transaction() as s:
            w = self._hook(s, tid, key, wid)
            s.execute(sa_delete(Delivery).where(Delivery.webhook_id == w.id))
            s.delete(w)

    def rotate_secret(self, tid: str, key: str | None, wid: str) -> tuple[dict, str]:
        """A new signing secret, used from the next delivery on (shown only now)."""
        secret = new_secret()
        with self.db.transaction() as s:
            w = self._hook(s, tid, key, wid)
            w.secret = _sealed(secret)
            return webhook_dict(w), secret

    def _hook(self, s: Session, tid: str, key: str | None, wid: str) -> Webhook:
        key_given(key)
        require_write_key(load_tournament(s, tid), key)
        plausible_id(wid, "webhook")
        w = s.get(Webhook, wid)
        if w is None or w.tournament_id != tid:
            raise NotFound(f"no webhook {shown(wid)} in tournament {shown(tid)}")
        return w

    def list(self, tid: str, key: str | None) -> list[dict]:
        key_given(key)
        with self.db.reading() as s:
            require_write_key(load_tournament(s, tid), key)
            return [webhook_dict(w) for w in s.scalars(select(Webhook).where(Webhook.tournament_id == tid).order_by(Webhook.created_at))]

    def deliveries(self, tid: str, key: str | None, wid: str, limit: int) -> dict:
        with self.db.reading() as s:
            w = self._hook(s, tid, key, wid)
            rows = s.scalars(select(Delivery).where(Delivery.webhook_id == wid).order_by(Delivery.id.desc()).limit(limit))
            return {"webhook": webhook_dict(w), "deliveries": [
                {"event": d.event_id, "seq": d.seq, "attempt": d.attempt, "ok": d.ok, "http_status": d.http_status,
                 "error": d.error, "duration_ms": d.duration_ms, "at": iso(d.created_at)} for d in rows]}

    def enable(self, tid: str, key: str | None, wid: str) -> dict:
        with self.db.transaction() as s:
            w = self._hook(s, tid, key, wid)
            w.active, w.disabled_reason, w.failures, w.next_attempt_at = True, None, 0, utcnow()
            return webhook_dict(w)
