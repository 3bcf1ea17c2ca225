"""Feed publishing: each accepted write adds its feed events (what feed.py's ledger says
changed) in the write's own transaction; and the feed read back, in sequence order."""
from __future__ import annotations

from functools import cache

import orjson
from sqlalchemy import bindparam, case, insert, or_, select, update
from sqlalchemy.orm import Session

from referee.visibility import CARD, PublicView, is_faced

from . import feed as ledger
from .db import Database
from .deals import head_of
from .held import sent
from .ids import new_id
from .keys import reader_sees_all
from .models import FeedEvent, Match, Tournament, utcnow
from .standings import standings_change
from .tournaments import load_tournament
from .views import Head, event_dict


def publish(s: Session, t: Tournament, m: Match, before: Head | None, after: Head,
            finished_before: bool, kind: str | None, why: str = "play", first: int | None = None) -> None:
    """Write this change's feed events (the ledger: see feed.py) in the same transaction;
    what they show of a live deal is what `after`, the current revision, shows. `first`: a
    live write's, whose `before` and `after` hold their deals from deal `first` on (every
    deal before it over and unchanged)."""
    events = facts(s, m, before, after, finished_before, kind, why, first)
    finished_now = m.status == "finished"
    if not (finished_before or finished_now):
        numbered(s, t, m, events)  # no standings to count
        return
    sent(s)  # the write's statements held (held.py), before the reads of the standings
    # SQLite: this writing transaction read it (a plain row, matches.live_rows_in: read it as an entity)
    if not isinstance(t, Tournament) or t not in s or s.get_bind().dialect.name == "postgresql":
        t = load_tournament(s, t.id, lock=True)  # to the commit: the feed numbered, the standings counted, in order
    old = before.verdict if before is not None else None
    counted = standings_change(s, t.id, (before.record, old) if finished_before else None,
                               (after.record, after.verdict) if finished_now else None)
    if counted is not None:
        events.append(("standings.changed", counted))
    numbered(s, t, m, events)


def facts(s: Session, m: Match, before: Head | None, after: Head, finished_before: bool, kind: str | None,
          why: str = "play", first: int | None = None) -> list[ledger.Event]:
    """publish's feed events but the standings': what the write changed of the match (m as
    the write leaves it). It reads this match's feed alone (what it announced), which only
    this match's writes change."""
    finished_now = m.status == "finished"
    old = before.verdict if before is not None else None
    new = after.verdict
    with s.no_autoflush:  # the feed's reads need nothing this write has yet to flush: flushed once, later
        events = _ledger_events(s, m, before, after, kind, why, first)
        # read only where it decides: a card that neither finishes the match nor changes its
        # outcome is published the same whether or not it was announced finished before
        ended = old is not None and ((finished_now and not finished_before) or old["match"] != new["match"]) \
            and _ended(s, m)
    if finished_now and not finished_before and not ended:
        payload = {"match": new["match"]}
        if kind == "close":
            payload["closed"] = True
        events.append(("match.finished", payload))
    elif kind == "revise" or (ended and old is not None and old["match"] != new["match"]):
        # a correction, or a change to a match outcome already announced (reopened, won again)
        events.append(("match.revised", {"revision": m.revision, "why": why, "previous": old["match"],
                                          "match": new["match"], "finished": finished_now}))
    return events


def numbered(s: Session, t: Tournament, m: Match, events: list[ledger.Event]) -> None:
    """A write's feed events, numbered by one UPDATE of its tournament's row, which also
    counts the write and keeps the latest change (the tournament's ETag and last change: the
    one place they are kept; on PostgreSQL the update holds the row lock to the commit), and
    inserted at once."""
    if isinstance(t, Tournament) and t in s and t in s.dirty:
        s.flush()  # a change of the row made through the session this transaction lands first
    last = sent(s, _COUNTED, {"tid": t.id, "n": len(events), "at": m.updated_at}).scalar_one()
    if isinstance(t, Tournament) and t in s:
        s.expire(t, ["feed_seq", "write_count", "changed_at"])  # read again if asked
    if events:
        s.execute(_ADD_EVENTS, [{"id": new_id(), "tournament_id": t.id, "seq": last - len(events) + 1 + i,
                                 "match_id": m.id, "type": type_, "payload": {"match": m.id, **payload},
                                 "created_at": utcnow(), "deal": deal_of(payload)}
                                for i, (type_, payload) in enumerate(events)])


_T = Tournament.__table__.c
_AT = bindparam("at", type_=_T.changed_at.type)
_COUNTED = update(Tournament.__table__).where(_T.id == bindparam("tid")).values(
    write_count=_T.write_count + 1, feed_seq=_T.feed_seq + bindparam("n"),
    changed_at=case((or_(_T.changed_at.is_(None), _T.changed_at < _AT), _AT), else_=_T.changed_at)).returning(_T.feed_seq)
_ADD_EVENTS = insert(FeedEvent.__table__)


def _ledger_events(s: Session, m: Match, before: Head | None, after: Head, kind: str | None,
                   why: str, first: int | None = None) -> list[ledger.Event]:
    """What the ledger says a write changed of the deals (feed.diff), compared on the deals
    from the first it changed on: for a live write, the deal it changed alone."""
    if first is None:
        first = window_start(before, after, kind)
        was, now = before and from_deal(before, first), from_deal(after, first)
    else:  # already from deal `first` on
        was, now = before and from_deal(before, first, True), from_deal(after, first, True)
    touched = ledger.changed_deals(was and was.verdict, now.verdict) | \
        _changed_records(was and was.record, now.record)
    read = cache(lambda: announced(s, m, {i + first for i in touched}) if was is not None else (set(), set()))
    # read when the diff first asks (a deal's fact or a violation that changed): a card that
    # changes neither, most of them, sends no statement for it
    deals = ledger.Later(lambda: {i - first for i in read()[0]})
    violations = ledger.Later(lambda: {(i - first, *rest) for i, *rest in read()[1]})
    events = ledger.diff(was and PublicView(*was), PublicView(*now), deals, violations, why, m.revision,
                         lambda indices: {(i - first, n) for i, n in announced_tricks(s, m, {i + first for i in indices})})
    return [(type_, renumbered(payload, first)) for type_, payload in events]


def window_start(before: Head | None, after: Head, kind: str | None) -> int:
    """The deal a live write (events appended, a deal added) changed, when every deal before
    it is the same on both sides and over (R-31: public, never hidden), so it says nothing
    new and the deals from there on decide what R-31 hides; else 0, the whole match."""
    if before is None or kind not in ("append", "deal") or not after.record["deals"]:
        return 0
    first = len(after.record["deals"]) - 1  # most often the very same objects: compared at once
    same = len(before.record["deals"]) >= first and before.record["deals"][:first] == after.record["deals"][:first] \
        and before.verdict["deals"][:first] == after.verdict["deals"][:first]
    return first if same and all(is_faced(v) for v in after.verdict["deals"][:first]) else 0


def from_deal(head: Head, first: int, cut: bool = False) -> Head:
    """`head` from deal `first` on, numbered from 0 there (the verdict's `next` too); `cut`:
    its deals are already those from `first` on."""
    if not first:
        return head
    nxt = head.verdict.get("next")
    if isinstance(nxt, dict) and isinstance(nxt.get("deal"), int):
        nxt = {**nxt, "deal": nxt["deal"] - first}
    at = 0 if cut else first
    return Head({**head.record, "deals": head.record["deals"][at:]},
                {**head.verdict, "deals": head.verdict["deals"][at:], "next": nxt})


def renumbered(payload: dict, first: int) -> dict:
    """A payload `from_deal` numbered, numbered as the match's deals are again (its deal, and
    that of the facts it says were and are)."""
    if not first:
        return payload
    out = {**payload, "deal": payload["deal"] + first}
    for key in ("previous", "now"):
        if isinstance(out.get(key), dict) and "deal" in out[key]:
            out[key] = {**out[key], "deal": out[key]["deal"] + first}
    return out


def deal_of(payload: dict) -> int | None:
    """The deal a feed event is about (a trick's, a deal's, a violation's), if any."""
    deal = payload.get("deal")
    return deal if type(deal) is int else None


def _changed_records(old: dict | None, new: dict) -> set[int]:
    """The deals whose record a write changed (a deal's public view is its record's and
    verdict's: the others show what they showed)."""
    before = old["deals"] if old is not None else []
    return {i for i, d in enumerate(new["deals"]) if i >= len(before) or before[i] != d} | \
        set(range(len(new["deals"]), len(before)))


# the write path's reads of the feed, built once (a statement built at each write costs more
# than the database's answer)
_DEALS = bindparam("deals", expanding=True)
_FEED = FeedEvent.__table__.c  # on the table: rows, no ORM entity to keep in step
ANNOUNCED = select(_FEED.type, _FEED.payload).where(
    _FEED.match_id == bindparam("match"), _FEED.type.in_(("deal.finished", "deal.abandoned", "violation.found")),
    _FEED.deal.in_(_DEALS))
ENDED = select(_FEED.id).where(_FEED.match_id == bindparam("match"), _FEED.deal.is_(None),
                               _FEED.type == "match.finished").limit(1)
TRICKS = select(_FEED.payload).where(_FEED.match_id == bindparam("match"), _FEED.type == "trick.finished",
                                     _FEED.deal.in_(_DEALS))


def announced(s: Session, m: Match, touched: set[int]) -> tuple[set[int], set[tuple]]:
    """Of the deals a write `touched` (only theirs can have changed), those and their
    violations this match's feed has ever announced. Read for those deals only: a write at
    deal 40 reads no more than at deal 2."""
    rows = s.execute(ANNOUNCED, {"match": m.id, "deals": sorted(touched)}).all() if touched else []
    deals = {p["deal"] for t, p in rows if t in ("deal.finished", "deal.abandoned")}
    violations = {ledger.violation_key(p["deal"], p["violation"]) for t, p in rows if t == "violation.found"}
    return deals, violations


def _ended(s: Session, m: Match) -> bool:
    """Has this match's feed announced it finished?"""
    return s.execute(ENDED, {"match": m.id}).first() is not None


def announced_tricks(s: Session, m: Match, deals: set[int]) -> set[tuple]:
    """The (deal, trick) pairs of these deals that this match's feed has ever announced."""
    rows = s.scalars(TRICKS, {"match": m.id, "deals": sorted(deals)}).all()
    return {(p["deal"], p["trick"]) for p in rows}


def events_shown_now(s: Session, rows: list[FeedEvent]) -> list[dict]:
    """Feed events as the feed and the webhooks show them: each payload that names a card,
    as its match's current revision lets it be seen (R-31, feed.shown_now). A match's
    record is read only for such a payload, once."""
    views: dict[str, PublicView | None] = {}
    events = []
    for row in rows:
        event = event_dict(row)
        if "deal" in row.payload and CARD.search(orjson.dumps(row.payload).decode()):
            if row.match_id not in views:
                m = s.get(Match, row.match_id)
                views[row.match_id] = PublicView(*head_of(s, m)) if m is not None else None
            if views[row.match_id] is not None:
                event["payload"] = ledger.shown_now(row.payload, views[row.match_id])
        events.append(event)
    return events


class Feed:
    db: Database

    def feed(self, tid: str, key: str | None, after: int, limit: int) -> dict:
        with self.db.reading() as s:
            reader_sees_all(load_tournament(s, tid), key)
            rows = s.scalars(select(FeedEvent).where(FeedEvent.tournament_id == tid, FeedEvent.seq > after)
                             .order_by(FeedEvent.seq).limit(limit)).all()
            return {"events": events_shown_now(s, rows), "next_cursor": str(rows[-1].seq if rows else after)}
