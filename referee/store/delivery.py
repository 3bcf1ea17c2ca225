"""Webhook delivery, the worker's run loop: signed POSTs of feed events, in order per
subscription, at least once, and fair between subscriptions.

Runs in its own process (`referee deliver`). Each pass claims up to CLAIMS subscriptions
with events waiting, those due longest first (leases.py), then delivers round by round: one event to each claimed subscription in turn,
so no receiver makes the others wait for more than one of its attempts per round. A
subscription leaves the pass when its events are all delivered, when an attempt fails, or
when it has had its share: BATCH events, or its time budget (REFEREE_WEBHOOK_PASS_BUDGET
seconds of attempts); the next pass goes on where it stopped. Each attempt has one time
limit, connect to the answer's status (REFEREE_WEBHOOK_TIMEOUT; hookclient.py): a receiver
slower than that has failed the attempt, which is retried with backoff like a refusal, and
after REFEREE_WEBHOOK_MAX_FAILURES in a row the subscription is disabled.

Anything that goes wrong with one attempt is that attempt's failure (logged, retried
with backoff), never the worker's; address checks are in targets.py, signing in webhook_signing.py.
"""
from __future__ import annotations

import logging
import os
import random
import socket
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from . import leases
from .db import Database
from .hookclient import post
from .models import Delivery, FeedEvent, Webhook, utcnow
from .publishing import events_shown_now
from .secrets import unseal

log = logging.getLogger("referee.deliver")

BATCH = 50  # events per subscription per pass
CLAIMS = 16  # subscriptions one pass serves; the others wait for the next pass, or another worker


def settings() -> dict:
    env = os.environ
    return {
        "backoff": float(env.get("REFEREE_WEBHOOK_BACKOFF", "2")),         # first retry after ~this many seconds
        "max_backoff": float(env.get("REFEREE_WEBHOOK_MAX_BACKOFF", "3600")),
        "max_failures": int(env.get("REFEREE_WEBHOOK_MAX_FAILURES", "10")),  # then the subscription is disabled
        "timeout": float(env.get("REFEREE_WEBHOOK_TIMEOUT", "5")),          # one attempt, connect to status
        "budget": float(env.get("REFEREE_WEBHOOK_PASS_BUDGET", "10")),      # seconds of attempts per subscription per pass
        "turn": 1,                                                          # events per subscription per round
    }


def backoff(failures: int, conf: dict) -> float:
    """Exponential with jitter: ~base, 2 base, 4 base ... capped, times 0.5-1."""
    return min(conf["max_backoff"], conf["backoff"] * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)


@dataclass
class Share:
    """What one subscription has had of this pass."""

    sent: int = 0
    spent: float = 0.0


class Worker:
    def __init__(self, db: Database, owner: str | None = None, conf: dict | None = None):
        self.db = db
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.conf = conf or settings()
        self.failed = 0  # failed attempts, for the operator's summary

    def _next_event(self, wid: str) -> tuple[Webhook, FeedEvent | None, dict | None]:
        """The subscription, its next event, and that event as the feed shows it now (R-31)."""
        with self.db.transaction() as s:
            hook = s.get(Webhook, wid)
            event = s.scalars(select(FeedEvent).where(FeedEvent.tournament_id == hook.tournament_id,
                                                      FeedEvent.seq > hook.delivered_seq)
                              .order_by(FeedEvent.seq).limit(1)).one_or_none()
            return hook, event, events_shown_now(s, [event])[0] if event is not None else None

    def _record(self, hook: Webhook, event: FeedEvent, status: int | None, error: str | None, ms: int) -> bool:
        ok = error is None
        with self.db.transaction() as s:
            live = s.get(Webhook, hook.id)
            if live is None or live.lease_owner != self.owner:  # deleted, or another worker owns it now
                return False
            s.add(Delivery(webhook_id=hook.id, event_id=event.id, seq=event.seq, attempt=live.failures + 1, ok=ok,
                           http_status=status, error=error, duration_ms=ms, created_at=utcnow()))
            now = utcnow()
            if ok:
                live.delivered_seq, live.failures, live.next_attempt_at = event.seq, 0, now
            else:
                live.failures += 1
                wait = backoff(live.failures, self.conf)
                live.next_attempt_at = now + timedelta(seconds=wait)
                self.failed += 1
                log.warning("webhook %s: event %s to %s failed (attempt %d): %s; next retry in %.1f s",
                            hook.id, event.seq, hook.url, live.failures, error, wait)
                if live.failures >= self.conf["max_failures"]:
                    live.active = False
                    live.disabled_reason = f"disabled after {live.failures} failed attempts in a row: {error}"
                    log.error("webhook %s to %s disabled: %s", hook.id, hook.url, live.disabled_reason)
            live.leased_until = now + leases.LEASE
        return ok

    def _step(self, wid: str, share: Share) -> bool:
        """One round's turn of a claimed subscription: its next event(s); False when it
        leaves this pass (nothing more to send, a failure, a lost lease, its share had)."""
        for _ in range(self.conf["turn"]):
            hook, event, shown = self._next_event(wid)
            if event is None or not leases.renew(self.db, wid, self.owner):
                return False
            start = time.monotonic()
            status, error = self._attempt(hook, event, shown)
            spent = time.monotonic() - start
            share.spent += spent
            if not self._record(hook, event, status, error, int(spent * 1000)):
                return False
            share.sent += 1
            if share.sent >= BATCH or share.spent >= self.conf["budget"]:
                return False
        return True

    def deliver(self, wid: str) -> int:
        """Deliver a claimed subscription's pending events in order, as if it were alone."""
        share = Share()
        while self._step(wid, share):
            pass
        return share.sent

    def _attempt(self, hook: Webhook, event: FeedEvent, shown: dict) -> tuple[int | None, str | None]:
        try:
            return post(hook.url, unseal(hook.secret), shown, self.conf["timeout"])
        except Exception:  # noqa: BLE001 - e.g. a secret this REFEREE_SECRET_KEY cannot open
            log.exception("webhook %s: event %s could not be sent", hook.id, event.seq)
            return None, "the referee could not send this event (see its log)"

    def run_once(self) -> int:
        """One pass: every due subscription claimed, then served in turn, round by round."""
        shares: dict[str, Share] = {}
        try:
            for wid in leases.due(self.db, CLAIMS):
                try:
                    if leases.claim(self.db, wid, self.owner):
                        shares[wid] = Share()
                except Exception:  # noqa: BLE001 - one subscription's trouble is not the others'
                    log.exception("webhook %s: could not be claimed; tried again on the next pass", wid)
            serving = list(shares)
            while serving:
                for wid in list(serving):
                    try:
                        more = self._step(wid, shares[wid])
                    except Exception:  # noqa: BLE001 - one subscription's trouble is not the others'
                        log.exception("webhook %s: delivery stopped; it is tried again on the next pass", wid)
                        more = False
                    if not more:
                        serving.remove(wid)
        finally:
            for wid in shares:
                try:
                    leases.release(self.db, wid, self.owner)
                except Exception:  # noqa: BLE001 - the lease then lapses by itself
                    log.exception("webhook %s: lease not released; it lapses", wid)
        return sum(share.sent for share in shares.values())


def run_forever(db: Database, once: bool = False, seconds: float | None = None, poll: float = 0.5) -> tuple[int, int]:
    """Deliver until stopped; (events delivered, failed attempts). A pass that fails (the
    database unreachable, say) is logged and the next one tried after `poll`."""
    worker = Worker(db)
    deadline = None if seconds is None else time.monotonic() + seconds
    sent = 0
    while True:
        try:
            sent += worker.run_once()
        except Exception:  # noqa: BLE001 - the worker outlives any one pass
            log.exception("delivery pass failed; trying again")
        if once or (deadline is not None and time.monotonic() >= deadline):
            return sent, worker.failed
        time.sleep(poll)
