"""Stored tournaments and matches: every accepted write is one transaction that adds
a revision (record + verdict) and its feed events; nothing is edited in place."""
from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import hmac
import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable

from sqlalchemy import delete as sa_delete
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee.engine import OptionError, adjudicate_dict, resolve
from referee.engine.errors import shown
from referee.visibility import open_deals, public_record, public_verdict

from . import feed
from .db import Database
from .errors import (Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, PreconditionRequired, Unauthorized,
                     Unavailable)
from .secrets import SecretKeyMissing, seal
from .models import Delivery, FeedEvent, Match, Revision, Tournament, Webhook, utcnow


INT_MAX = 2**31 - 1  # the largest integer column value on every backend


def new_id() -> str:
    return uuid.uuid4().hex


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def new_key(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def etag_of(match: Match) -> str:
    return f'"{match.id}.{match.revision}"'


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


@dataclass
class MatchView:
    """A match as one reader sees it (the key holder sees everything)."""

    match: Match
    revision: Revision
    full: bool

    @property
    def etag(self) -> str:
        return etag_of(self.match)

    def as_dict(self) -> dict[str, Any]:
        record, verdict = self.revision.record, self.revision.verdict
        if not self.full:
            record, verdict = public_record(record, verdict), public_verdict(verdict)
        return {**summary(self.match, self.revision), "etag": self.etag, "record": record, "verdict": verdict}


def tournament_settings(t: Tournament) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "preset": t.preset, "options": t.options, "public": t.public,
            "created_at": iso(t.created_at)}


def summary(match: Match, head: Revision) -> dict[str, Any]:
    return {
        "id": match.id, "tournament": match.tournament_id, "external_id": match.external_id,
        "revision": match.revision, "status": match.status, "closed": match.closed,
        "players": head.record.get("players"), "deals": len(head.record["deals"]),
        "match": head.verdict["match"], "created_at": iso(match.created_at), "updated_at": iso(match.updated_at),
    }


class Store:
    def __init__(self, db: Database):
        self.db = db

    # -- tournaments and keys ---------------------------------------------------------

    def create_tournament(self, name: str, preset: str, options: dict, public: bool,
                          tid: str | None = None) -> tuple[Tournament, str, str]:
        """A new tournament and its two keys (write, read-only), shown only now."""
        key, read_key = new_key("rk_"), new_key("rr_")
        with self.db.transaction() as s:
            t = Tournament(id=tid or new_id(), name=name, preset=preset, options=options, public=public,
                           key_hash=hash_key(key), read_key_hash=hash_key(read_key), created_at=utcnow(), feed_seq=0)
            s.add(t)
        return t, key, read_key

    def rotate_key(self, tid: str, key: str | None, which: str, trusted: bool = False) -> str:
        """A new write or read key; the old one stops working at once. `trusted`: the
        operator's own command on the server, which needs no key."""
        if not trusted:
            _key_given(key)
        new = new_key("rk_" if which == "write" else "rr_")
        with self.db.transaction() as s:
            t = self._tournament(s, tid, lock=True)
            if not trusted:
                self._require_key(t, key)
            if which == "write":
                t.key_hash = hash_key(new)
            else:
                t.read_key_hash = hash_key(new)
        return new

    def list_tournaments(self, key: str | None, limit: int, cursor: str | None) -> dict:
        """Public tournaments, and the private one a key opens, oldest first."""
        with self.db.transaction() as s:
            stmt = select(Tournament).order_by(Tournament.created_at, Tournament.id)
            if key is not None:
                digest = hash_key(key)
                stmt = stmt.where(Tournament.public.is_(True) | (Tournament.key_hash == digest)
                                  | (Tournament.read_key_hash == digest))
            else:
                stmt = stmt.where(Tournament.public.is_(True))
            if cursor:
                created, last_id = _decode_cursor(cursor)
                stmt = stmt.where((Tournament.created_at > created)
                                  | ((Tournament.created_at == created) & (Tournament.id > last_id)))
            rows = s.scalars(stmt.limit(limit + 1)).all()
            nxt = _encode_cursor(rows[limit - 1]) if len(rows) > limit else None
            return {"items": rows[:limit], "next_cursor": nxt}

    def _tournament(self, s: Session, tid: str, lock: bool = False) -> Tournament:
        _plausible_id(tid, "tournament")
        stmt = select(Tournament).where(Tournament.id == tid).execution_options(populate_existing=True)
        if lock and self.db.is_postgres:
            stmt = stmt.with_for_update()
        t = s.scalars(stmt).one_or_none()
        if t is None:
            raise NotFound(f"no tournament {shown(tid)}")
        return t

    @staticmethod
    def key_opens(t: Tournament, key: str | None) -> bool:
        """The write key."""
        return key is not None and hmac.compare_digest(hash_key(key), t.key_hash)

    @staticmethod
    def key_reads(t: Tournament, key: str | None) -> bool:
        """The write key or the read-only key."""
        if key is None:
            return False
        digest = hash_key(key)
        return hmac.compare_digest(digest, t.key_hash) or hmac.compare_digest(digest, t.read_key_hash or "")

    def _require_key(self, t: Tournament, key: str | None) -> None:
        _key_given(key)
        if not self.key_opens(t, key):
            why = "a read-only key cannot write" if self.key_reads(t, key) else "that key does not open this tournament"
            raise Forbidden(why)

    def _reader(self, t: Tournament, key: str | None) -> bool:
        """May this reader read the tournament at all; and do they see everything?"""
        if key is not None or not t.public:
            _key_given(key)
            if not self.key_reads(t, key):
                raise Forbidden("that key does not open this tournament")
            return True
        return False

    def tournament(self, tid: str, key: str | None, trusted: bool = False) -> Tournament:
        with self.db.transaction() as s:
            t = self._tournament(s, tid)
            if not trusted:
                self._reader(t, key)
            return t

    # -- matches ----------------------------------------------------------------------

    def _record_for(self, t: Tournament, record: dict, label: str = "match") -> dict:
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
                shown = json.dumps(getattr(t, field))
                raise Conflict(f"a match inherits its tournament's {field} ({shown}); this record has others",
                               errors=[{"pointer": f"/record/{field}", "detail": f"must be {shown} (the tournament's) or absent"}])
        players = record.get("players") or [f"{label} seat {s}" for s in range(4)]
        stored = {"preset": t.preset, "options": t.options, "players": players, "deals": record.get("deals", [])}
        if record.get("closed"):
            stored["closed"] = True
        return stored

    @staticmethod
    def _judge(record: dict) -> dict:
        verdict = adjudicate_dict(record)
        if not verdict["valid"]:
            first = verdict["errors"][0]
            raise Conflict(f"the record would be impossible: {first['message']} (deal {first['deal']}, event {first['event']})",
                           errors=verdict["errors"])
        return verdict

    def create_match(self, tid: str, key: str | None, record: dict, external_id: str | None,
                     trusted: bool = False) -> tuple[MatchView, bool]:
        """Store a match; with a known external_id, return the existing one (created False).
        `trusted` is for the operator's own tools (`referee import`), which need no key."""
        if not trusted:
            _key_given(key)
        try:
            with self.db.transaction() as s:
                t = self._tournament(s, tid, lock=True)
                if not trusted:
                    self._require_key(t, key)
                mid = new_id()
                if external_id is not None:
                    existing = s.scalars(select(Match).where(Match.tournament_id == tid, Match.external_id == external_id)).one_or_none()
                    if existing is not None:
                        return self._same_upload(s, existing, self._record_for(t, record, external_id)), False
                stored = self._record_for(t, record, external_id or mid)
                verdict = self._judge(stored)
                now = utcnow()
                m = Match(id=mid, tournament_id=tid, external_id=external_id, revision=1,
                          status=self._status(verdict, False), closed=False, created_at=now, updated_at=now)
                s.add(m)
                s.flush()
                head = Revision(match_id=m.id, number=1, kind="create", reason=None, record=stored, verdict=verdict, created_at=now)
                s.add(head)
                self._publish(s, t, m, None, verdict, False, None)
                return MatchView(m, head, True), True
        except IntegrityError:
            # A concurrent upload with the same external_id won the race: answer as a retry.
            with self.db.transaction() as s:
                existing = s.scalars(select(Match).where(Match.tournament_id == tid, Match.external_id == external_id)).one_or_none()
                if existing is None:
                    raise
                t = self._tournament(s, tid)
                return self._same_upload(s, existing, self._record_for(t, record, external_id)), False

    def _same_upload(self, s: Session, m: Match, record: dict) -> MatchView:
        head = self._head(s, m)
        first = s.scalars(select(Revision).where(Revision.match_id == m.id, Revision.number == 1)).one()
        if first.record != record:
            raise Conflict(f"external_id {shown(m.external_id)} is already match {m.id} with a different record",
                           match=m.id)
        return MatchView(m, head, True)

    @staticmethod
    def _status(verdict: dict, closed: bool) -> str:
        return "finished" if verdict["match"]["finished"] or closed else "in_progress"

    def _head(self, s: Session, m: Match) -> Revision:
        return s.scalars(select(Revision).where(Revision.match_id == m.id, Revision.number == m.revision)).one()

    def _match(self, s: Session, mid: str) -> Match:
        _plausible_id(mid, "match")
        m = s.scalars(select(Match).where(Match.id == mid).execution_options(populate_existing=True)).one_or_none()
        if m is None:
            raise NotFound(f"no match {shown(mid)}")
        return m

    def get_match(self, mid: str, key: str | None) -> MatchView:
        with self.db.transaction() as s:
            m = self._match(s, mid)
            full = self._reader(self._tournament(s, m.tournament_id), key)
            return MatchView(m, self._head(s, m), full)

    def list_matches(self, tid: str, key: str | None, status: str | None, limit: int, cursor: str | None) -> dict:
        with self.db.transaction() as s:
            t = self._tournament(s, tid)
            self._reader(t, key)
            stmt = select(Match, Revision).join(Revision, (Revision.match_id == Match.id) & (Revision.number == Match.revision))
            stmt = stmt.where(Match.tournament_id == tid).order_by(Match.created_at, Match.id)
            if status:
                stmt = stmt.where(Match.status == status)
            if cursor:
                created, last_id = _decode_cursor(cursor)
                stmt = stmt.where((Match.created_at > created) | ((Match.created_at == created) & (Match.id > last_id)))
            rows = s.execute(stmt.limit(limit + 1)).all()
            items = [summary(m, r) for m, r in rows[:limit]]
            nxt = _encode_cursor(rows[limit - 1][0]) if len(rows) > limit else None
            return {"items": items, "next_cursor": nxt}

    # -- writes to a match -----------------------------------------------------------

    def _write(self, mid: str, key: str | None, if_match: str | None, kind: str,
               change: Callable[[dict, Tournament], dict], reason: str | None = None, close: bool = False) -> MatchView:
        try:
            return self._write_once(mid, key, if_match, kind, change, reason, close)
        except IntegrityError:
            # Backstop for the row lock: another writer took this revision number first.
            raise PreconditionFailed("the match changed while this write was made; read it again") from None

    def _write_once(self, mid, key, if_match, kind, change, reason, close) -> MatchView:
        _key_given(key)
        with self.db.transaction() as s:
            _plausible_id(mid, "match")
            tid = s.scalars(select(Match.tournament_id).where(Match.id == mid)).one_or_none()
            if tid is None:
                raise NotFound(f"no match {shown(mid)}")
            t = self._tournament(s, tid, lock=True)  # serialises writes of this tournament
            self._require_key(t, key)
            if if_match is None:
                raise PreconditionRequired("send If-Match with the match's current ETag")
            m = self._match(s, mid)
            if _strip(if_match) != etag_of(m):
                raise PreconditionFailed(f"the match changed: its ETag is now {etag_of(m)}", etag=etag_of(m))
            if m.closed and kind != "revise":
                raise Conflict("the match is closed; a correction (PUT /record) is still possible")
            head = self._head(s, m)
            record = change(copy.deepcopy(head.record), t)
            verdict = self._judge(record)
            if close and verdict["deals"] and verdict["deals"][-1]["status"] == "in_progress":
                raise Conflict("the last deal is unfinished: finish it (or correct the record) before closing")
            finished_before = m.status == "finished"
            now = utcnow()
            new = Revision(match_id=m.id, number=m.revision + 1, kind=kind, reason=reason,
                           record=record, verdict=verdict, created_at=now)
            s.add(new)
            m.revision, m.updated_at = new.number, now
            m.closed = m.closed or close or bool(record.get("closed"))
            m.status = self._status(verdict, m.closed)
            self._publish(s, t, m, head.verdict, verdict, finished_before, kind, why_of(kind, record, head.record))
            return MatchView(m, new, True)

    def append_events(self, mid, key, if_match, events: list[dict]) -> MatchView:
        def change(record, _t):
            if not record["deals"]:
                raise Conflict("the match has no deal yet: start one with POST /v1/matches/{id}/deals")
            record["deals"][-1].setdefault("events", []).extend(events)
            return record
        return self._write(mid, key, if_match, "append", change)

    def add_deal(self, mid, key, if_match, deal: dict) -> MatchView:
        def change(record, _t):
            record["deals"].append(deal)
            return record
        return self._write(mid, key, if_match, "deal", change)

    def revise(self, mid, key, if_match, record: dict, reason: str) -> MatchView:
        """A correction of a data-entry mistake: the whole record, as a new revision."""
        def change(old, t):
            stored = self._record_for(t, {**record, "players": record.get("players") or old["players"]})
            if old.get("closed"):
                stored["closed"] = True  # a correction does not reopen a closed session
            return stored
        return self._write(mid, key, if_match, "revise", change, reason=reason)

    def close(self, mid, key, if_match) -> MatchView:
        """End a session played by time (or any match): it counts in the standings."""
        return self._write(mid, key, if_match, "close", lambda record, _t: {**record, "closed": True}, close=True)

    def revisions(self, mid: str, key: str | None) -> list[dict]:
        with self.db.transaction() as s:
            m = self._match(s, mid)
            self._reader(self._tournament(s, m.tournament_id), key)
            rows = s.scalars(select(Revision).where(Revision.match_id == mid).order_by(Revision.number)).all()
            return [{"number": r.number, "kind": r.kind, "reason": r.reason, "created_at": iso(r.created_at),
                     "deals": len(r.record["deals"]), "etag": f'"{mid}.{r.number}"'} for r in rows]

    def revision(self, mid: str, number: int, key: str | None) -> dict:
        view = self.revision_view(mid, number, key)
        return {k: view[k] for k in ("number", "kind", "reason", "created_at", "record", "verdict")}

    def revision_view(self, mid: str, number: int, key: str | None) -> dict:
        """One revision as this reader sees it. Without the key, a deal that is unfinished in
        this revision or in the current one is hidden as live (a correction that reopened a
        deal must not leave its hands readable in an older revision)."""
        with self.db.transaction() as s:
            m = self._match(s, mid)
            full = self._reader(self._tournament(s, m.tournament_id), key)
            r = None
            if 1 <= number <= INT_MAX:  # beyond the column's range there is no such revision
                r = s.scalars(select(Revision).where(Revision.match_id == mid, Revision.number == number)).one_or_none()
            if r is None:
                raise NotFound(f"match {mid} has no revision {number}")
            live_now: set[int] = set()
            if full:
                record, verdict = r.record, r.verdict
            else:
                live_now = open_deals(self._head(s, m).verdict)
                record, verdict = public_record(r.record, r.verdict, live_now), public_verdict(r.verdict, live_now)
            return {"number": r.number, "kind": r.kind, "reason": r.reason, "created_at": iso(r.created_at),
                    "record": record, "verdict": verdict, "full": full, "full_record": r.record,
                    "live_now": sorted(live_now)}

    def export(self, tid: str | None):
        """JSON-ready lines: per tournament its settings, then each of its matches with its
        external id, every revision's record and the current verdict; oldest first."""
        with self.db.transaction() as s:
            stmt = select(Tournament).order_by(Tournament.created_at, Tournament.id)
            if tid is not None:
                stmt = stmt.where(Tournament.id == tid)
            tournaments = s.scalars(stmt).all()
            if tid is not None and not tournaments:
                raise NotFound(f"no tournament {shown(tid)}")
            for t in tournaments:
                yield {"kind": "tournament", "tournament": tournament_settings(t)}
                matches = s.scalars(select(Match).where(Match.tournament_id == t.id)
                                    .order_by(Match.created_at, Match.id)).all()
                for m in matches:
                    revisions = s.scalars(select(Revision).where(Revision.match_id == m.id)
                                          .order_by(Revision.number)).all()
                    yield {"kind": "match", **summary(m, revisions[-1]), "record": revisions[-1].record,
                           "verdict": revisions[-1].verdict,
                           "revisions": [{"number": r.number, "kind": r.kind, "reason": r.reason,
                                          "created_at": iso(r.created_at), "record": r.record} for r in revisions]}

    def restore_match(self, tid: str, external_id: str, revisions: list[dict]) -> tuple[MatchView, bool]:
        """A match from an export: its revisions stored again in order, each judged anew.
        An external id already present is left as it is (created False)."""
        with self.db.transaction() as s:
            t = self._tournament(s, tid, lock=True)
            existing = s.scalars(select(Match).where(Match.tournament_id == tid, Match.external_id == external_id)).one_or_none()
            if existing is not None:
                return MatchView(existing, self._head(s, existing), True), False
            now = utcnow()
            m = Match(id=new_id(), tournament_id=tid, external_id=external_id, revision=0, status="in_progress",
                      closed=False, created_at=now, updated_at=now)
            s.add(m)
            s.flush()
            verdict = None
            for number, rev in enumerate(revisions, 1):
                record = self._record_for(t, rev["record"], external_id)
                verdict = self._judge(record)
                head = Revision(match_id=m.id, number=number, kind=rev.get("kind") or "import",
                                reason=rev.get("reason"), record=record, verdict=verdict, created_at=now)
                s.add(head)
            m.revision, m.closed = len(revisions), bool(head.record.get("closed"))
            m.status = self._status(verdict, m.closed)
            self._publish(s, t, m, None, verdict, False, None)
            return MatchView(m, head, True), True

    # -- standings and the feed ---------------------------------------------------------

    def _standings(self, s: Session, tid: str) -> list[dict]:
        from .standings import table

        rows = s.execute(
            select(Match, Revision).join(Revision, (Revision.match_id == Match.id) & (Revision.number == Match.revision))
            .where(Match.tournament_id == tid, Match.status == "finished")
        ).all()
        return table([(r.record, r.verdict) for _, r in rows])

    def standings(self, tid: str, key: str | None) -> list[dict]:
        with self.db.transaction() as s:
            self._reader(self._tournament(s, tid), key)
            return self._standings(s, tid)

    def _publish(self, s: Session, t: Tournament, m: Match, old: dict | None, new: dict,
                 finished_before: bool, kind: str | None, why: str = "play") -> None:
        """Write this change's feed events (the ledger: see feed.py) in the same transaction."""
        finished_now = m.status == "finished"
        deals, violations, ended = self._announced(s, m) if old is not None else (set(), set(), False)
        events = feed.diff(old, new, deals, violations, why, m.revision)
        if finished_now and not finished_before and not ended:
            payload = {"match": new["match"]}
            if kind == "close":
                payload["closed"] = True
            events.append(("match.finished", payload))
        elif kind == "revise" or (ended and old is not None and old["match"] != new["match"]):
            # a correction, or a change to a match outcome already announced (reopened, won again)
            events.append(("match.revised", {"revision": m.revision, "why": why, "previous": old["match"],
                                              "match": new["match"], "finished": finished_now}))
        if finished_before or finished_now:
            s.flush()
            events.append(("standings.changed", {"standings": self._standings(s, t.id)}))
        for type_, payload in events:
            t.feed_seq += 1
            s.add(FeedEvent(id=new_id(), tournament_id=t.id, seq=t.feed_seq, match_id=m.id, type=type_,
                            payload={"match": m.id, **payload}, created_at=utcnow()))

    @staticmethod
    def _announced(s: Session, m: Match) -> tuple[set[int], set[tuple], bool]:
        """The deals and violations this match's feed has ever announced, and whether it
        announced the match finished."""
        rows = s.execute(select(FeedEvent.type, FeedEvent.payload).where(
            FeedEvent.match_id == m.id,
            FeedEvent.type.in_(("deal.finished", "violation.found", "match.finished")))).all()
        deals = {p["deal"] for t, p in rows if t == "deal.finished"}
        violations = {feed.violation_key(p["deal"], p["violation"]) for t, p in rows if t == "violation.found"}
        return deals, violations, any(t == "match.finished" for t, _ in rows)

    def feed(self, tid: str, key: str | None, after: int, limit: int) -> dict:
        with self.db.transaction() as s:
            self._reader(self._tournament(s, tid), key)
            rows = s.scalars(select(FeedEvent).where(FeedEvent.tournament_id == tid, FeedEvent.seq > after)
                             .order_by(FeedEvent.seq).limit(limit)).all()
            events = [event_dict(e) for e in rows]
            return {"events": events, "next_cursor": str(rows[-1].seq if rows else after)}


def webhook_dict(w: Webhook) -> dict:
    return {"id": w.id, "tournament": w.tournament_id, "url": w.url, "active": w.active,
            "disabled_reason": w.disabled_reason, "delivered_seq": w.delivered_seq,
            "failures": w.failures, "created_at": iso(w.created_at)}


def _plausible_id(value: str, what: str) -> None:
    """Ids are 32 hex digits (ours) or a restored export's; anything with NUL or far too long
    is no id of ours, on any backend (PostgreSQL cannot even compare text holding NUL)."""
    if "\x00" in value or len(value) > 64:
        raise NotFound(f"no {what} {shown(value)}")


def _key_given(key: str | None) -> None:
    if key is None:
        raise Unauthorized("this needs the tournament's write key: Authorization: Bearer <key>")


class Webhooks:
    """Subscriptions to a tournament's feed (delivery itself is in delivery.py)."""

    def __init__(self, store: "Store"):
        self.store = store
        self.db = store.db

    def register(self, tid: str, key: str | None, url: str) -> tuple[dict, str]:
        from .delivery import TargetRefused, check_target

        _key_given(key)
        secret = new_secret()
        with self.db.transaction() as s:
            t = self.store._tournament(s, tid, lock=True)
            self.store._require_key(t, key)
            try:
                check_target(url)
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
        _key_given(key)
        self.store._require_key(self.store._tournament(s, tid), key)
        _plausible_id(wid, "webhook")
        w = s.get(Webhook, wid)
        if w is None or w.tournament_id != tid:
            raise NotFound(f"no webhook {shown(wid)} in tournament {shown(tid)}")
        return w

    def list(self, tid: str, key: str | None) -> list[dict]:
        _key_given(key)
        with self.db.transaction() as s:
            self.store._require_key(self.store._tournament(s, tid), key)
            return [webhook_dict(w) for w in s.scalars(select(Webhook).where(Webhook.tournament_id == tid).order_by(Webhook.created_at))]

    def deliveries(self, tid: str, key: str | None, wid: str, limit: int) -> dict:
        with self.db.transaction() as s:
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


def why_of(kind: str, record: dict, before: dict) -> str:
    """Why a published fact may change with this write: a correction, a close, a take-back
    among the new events, or a later play (which can prove or withdraw a breach)."""
    if kind in ("revise", "close"):
        return {"revise": "correction", "close": "close"}[kind]
    old_events = len(before["deals"][-1].get("events", [])) if before["deals"] and len(before["deals"]) == len(record["deals"]) else 0
    added = record["deals"][-1].get("events", [])[old_events:] if record["deals"] else []
    return "take_back" if any(e.get("take_back") for e in added) else "play"


def new_secret() -> str:
    return "whsec_" + secrets.token_hex(24)


def _sealed(secret: str) -> str:
    try:
        return seal(secret)
    except SecretKeyMissing as exc:
        raise Unavailable(str(exc)) from None


def event_dict(e: FeedEvent) -> dict:
    return {"id": e.id, "seq": e.seq, "type": e.type, "tournament": e.tournament_id, "match": e.match_id,
            "time": iso(e.created_at), "payload": e.payload}


def _strip(tag: str) -> str:
    """An If-Match value as an ETag: weak prefix dropped; quotes added when a client copied
    the ETag without them (`ID.3` means `"ID.3"`)."""
    tag = tag.strip()
    tag = tag[2:] if tag.startswith("W/") else tag
    return tag if tag.startswith('"') else f'"{tag}"'


def _encode_cursor(row) -> str:
    return base64.urlsafe_b64encode(f"{row.created_at.isoformat()}|{row.id}".encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, str]:
    """A cursor this API gave out: an aware time (in range once in UTC) and an id."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, rid = raw.split("|", 1)
        moment = datetime.fromisoformat(created)
        if moment.tzinfo is None or "\x00" in rid or len(rid) > 32:
            raise ValueError(cursor)
        return moment.astimezone(timezone.utc), rid
    except (ValueError, UnicodeDecodeError, OverflowError, binascii.Error):
        raise Invalid("cursor is not one this API gave out",
                      errors=[{"pointer": "/cursor", "detail": "unknown cursor"}]) from None
