"""Webhook delivery, the worker's run loop: signed POSTs of feed events, in order per
subscription, at least once, and fair between subscriptions.

Runs in its own process (`referee deliver`). A pass delivers on REFEREE_WEBHOOK_THREADS
threads at once, one attempt per subscription at a time (so its events stay in order). It
claims the subscriptions with events waiting, those due longest first (leases.py), and looks
for newly due ones whenever an attempt ends (and every POLL seconds): a subscription waiting
for its first attempt of the pass goes before every one that has had an attempt, so it waits
for no more than the attempts already under way, each within its time limit. A subscription
leaves the pass when its events are all delivered, when an attempt fails or is slow, or when
it has had its share: BATCH events, or its time budget (REFEREE_WEBHOOK_PASS_BUDGET seconds
of attempts); the next pass goes on where it stopped. Each attempt has one time limit,
connect to the answer's status (REFEREE_WEBHOOK_TIMEOUT; hookclient.py): a receiver slower
than that has failed the attempt, which is retried with backoff like a refusal, and after
REFEREE_WEBHOOK_MAX_FAILURES in a row the subscription is disabled. An answer that came but
took longer than REFEREE_WEBHOOK_SLOW seconds delivered its event and counts against the
receiver all the same: the subscription is backed off as after a failure (never disabled
for it), so a slow receiver takes a thread only now and then.

Anything that goes wrong with one attempt is that attempt's failure (logged, retried
with backoff), never the worker's; address checks are in targets.py, signing in webhook_signing.py.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import os
import random
import socket
import threading
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
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
POLL = 0.1  # seconds between looks for newly due subscriptions while attempts are under way


def settings() -> dict:
    env = os.environ
    return {
        "backoff": float(env.get("REFEREE_WEBHOOK_BACKOFF", "2")),         # first retry after ~this many seconds
        "max_backoff": float(env.get("REFEREE_WEBHOOK_MAX_BACKOFF", "3600")),
        "max_failures": int(env.get("REFEREE_WEBHOOK_MAX_FAILURES", "10")),  # then the subscription is disabled
        "timeout": float(env.get("REFEREE_WEBHOOK_TIMEOUT", "5")),          # one attempt, connect to status
        "budget": float(env.get("REFEREE_WEBHOOK_PASS_BUDGET", "10")),      # seconds of attempts per subscription per pass
        "threads": max(1, int(env.get("REFEREE_WEBHOOK_THREADS", "16"))),   # attempts under way at once
        "slow": float(env.get("REFEREE_WEBHOOK_SLOW", "2")),                # an answer slower than this is backed off
        "turn": 1,                                                          # events per subscription per turn
    }


def backoff(failures: int, conf: dict) -> float:
    """Exponential with jitter: ~base, 2 base, 4 base ... capped, times 0.5-1."""
    return min(conf["max_backoff"], conf["backoff"] * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)


@dataclass
class Share:
    """What one subscription has had of this pass."""

    sent: int = 0
    spent: float = 0.0
    turns: int = 0


class Worker:
    def __init__(self, db: Database, owner: str | None = None, conf: dict | None = None):
        self.db = db
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.conf = conf or settings()
        self.failed = 0  # failed attempts, for the operator's summary
        self._counting = threading.Lock()  # attempts end on several threads
        self.recent: dict[str, int] = {}  # turns each subscription had in the last pass

    def _next_event(self, wid: str) -> tuple[Webhook, FeedEvent | None, dict | None]:
        """The subscription, its next event, and that event as the feed shows it now (R-31)."""
        with self.db.transaction() as s:
            hook = s.get(Webhook, wid)
            event = s.scalars(select(FeedEvent).where(FeedEvent.tournament_id == hook.tournament_id,
                                                      FeedEvent.seq > hook.delivered_seq)
                              .order_by(FeedEvent.seq).limit(1)).one_or_none()
            return hook, event, events_shown_now(s, [event])[0] if event is not None else None

    def _record(self, hook: Webhook, event: FeedEvent, status: int | None, error: str | None,
                ms: int) -> tuple[bool, bool]:
        """Log the attempt and move the subscription on (delivered, or backed off): (delivered,
        goes on), which is False when it leaves the pass: a failure, a slow answer, or the
        subscription no longer ours."""
        ok = error is None
        slow = ok and ms > self.conf["slow"] * 1000
        with self.db.transaction() as s:
            live = s.get(Webhook, hook.id)
            if live is None or live.lease_owner != self.owner:  # deleted, or another worker owns it now
                return False, False
            s.add(Delivery(webhook_id=hook.id, event_id=event.id, seq=event.seq, attempt=live.failures + 1, ok=ok,
                           http_status=status, error=error, duration_ms=ms, created_at=utcnow()))
            now = utcnow()
            if ok and not slow:
                live.delivered_seq, live.failures, live.next_attempt_at = event.seq, 0, now
            elif ok:
                live.delivered_seq = event.seq
                self._back_off(live, now, event, f"answered in {ms / 1000:.1f} s, slower than {self.conf['slow']:g} s "
                                                 "(delivered, and backed off)")
            else:
                self._back_off(live, now, event, f"failed (attempt {live.failures + 1}): {error}")
                with self._counting:
                    self.failed += 1
                if live.failures >= self.conf["max_failures"]:
                    live.active = False
                    live.disabled_reason = f"disabled after {live.failures} failed attempts in a row: {error}"
                    log.error("webhook %s to %s disabled: %s", hook.id, hook.url, live.disabled_reason)
            live.leased_until = now + leases.LEASE
        return ok, ok and not slow

    def _back_off(self, live: Webhook, now, event: FeedEvent, why: str) -> None:
        live.failures += 1
        wait_for = backoff(live.failures, self.conf)
        live.next_attempt_at = now + timedelta(seconds=wait_for)
        log.warning("webhook %s: event %s to %s %s; next retry in %.1f s", live.id, event.seq, live.url, why, wait_for)

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
            delivered, goes_on = self._record(hook, event, status, error, int(spent * 1000))
            share.sent += delivered
            if not goes_on or share.sent >= BATCH or share.spent >= self.conf["budget"]:
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
        """One pass: the due subscriptions served on the worker's threads, fewest turns first."""
        with ThreadPoolExecutor(self.conf["threads"], thread_name_prefix="referee-deliver") as pool:
            return Pass(self, pool).run()

    def turn(self, wid: str, share: Share) -> bool:
        """One turn of a claimed subscription, on a thread of the pass."""
        try:
            return self._step(wid, share)
        except Exception:  # noqa: BLE001 - one subscription's trouble is not the others'
            log.exception("webhook %s: delivery stopped; it is tried again on the next pass", wid)
            return False


class Pass:
    """One pass of a worker: up to `threads` attempts under way at once, one per subscription;
    the subscription with the fewest turns goes next, counting from its turns in the worker's
    last pass (so one newly due goes first). The pass takes newly due subscriptions for its
    first `budget` seconds, then ends with the attempts under way; one that left it (nothing
    more to send, a failure, a slow answer, its share had) waits for the next pass."""

    def __init__(self, worker: Worker, pool: ThreadPoolExecutor):
        self.worker, self.pool, self.threads = worker, pool, worker.conf["threads"]
        self.closes = time.monotonic() + worker.conf["budget"]
        self.shares: dict[str, Share] = {}   # every subscription this pass claimed
        self.queue: list[tuple[int, int, str]] = []  # (rank, arrival, id): waiting for a thread
        self.running: dict[Future, str] = {}
        self.arrival = itertools.count()

    def run(self) -> int:
        try:
            self._claim_due()
            while self.queue or self.running:
                while self.queue and len(self.running) < self.threads:
                    _, _, wid = heapq.heappop(self.queue)
                    self.running[self.pool.submit(self.worker.turn, wid, self.shares[wid])] = wid
                done, _ = wait(list(self.running), timeout=POLL, return_when=FIRST_COMPLETED)
                open_ = time.monotonic() < self.closes
                for future in done:
                    self._ended(self.running.pop(future), future.result() and open_)  # turn() raises nothing
                if open_:
                    self._claim_due()
                else:
                    self.queue.clear()  # the next pass, in a moment, takes them again
        finally:
            wait(list(self.running))  # the attempts under way end within their time limit
            self._release()
        self.worker.recent = {wid: share.turns for wid, share in self.shares.items() if share.turns}
        return sum(share.sent for share in self.shares.values())

    def _ended(self, wid: str, more: bool) -> None:
        share = self.shares[wid]
        share.turns += 1
        if more:
            heapq.heappush(self.queue, (self._rank(wid), next(self.arrival), wid))

    def _rank(self, wid: str) -> int:
        return self.worker.recent.get(wid, 0) + self.shares[wid].turns

    def _claim_due(self) -> None:
        """Take the subscriptions due now, unless `threads` of them already wait for their
        first turn. One held by this pass is not due (its lease is ours until the pass ends)."""
        if sum(1 for rank, _, _ in self.queue if rank == 0) >= self.threads:
            return
        try:
            due = leases.due(self.worker.db, 4 * self.threads)
        except Exception:  # noqa: BLE001 - the database away for a moment: looked at again soon
            log.exception("could not look for due subscriptions; looking again")
            return
        for wid in due:
            try:
                if leases.claim(self.worker.db, wid, self.worker.owner):
                    self.shares[wid] = Share()
                    heapq.heappush(self.queue, (self._rank(wid), next(self.arrival), wid))
            except Exception:  # noqa: BLE001 - one subscription's trouble is not the others'
                log.exception("webhook %s: could not be claimed; tried again on the next pass", wid)

    def _release(self) -> None:
        for wid in self.shares:
            try:
                leases.release(self.worker.db, wid, self.worker.owner)
            except Exception:  # noqa: BLE001 - the lease then lapses by itself
                log.exception("webhook %s: lease not released; it lapses", wid)


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
