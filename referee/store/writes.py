"""Writes to a match: events appended, a deal added, a correction, a close. Each is judged
first, outside any transaction (perfect play may take seconds, and on SQLite a
transaction holds the database's write lock), then stored in one transaction under the
match's row lock (the tournament's is taken only to number the feed events) as a new revision
with its feed events, if the match is still at the revision it was judged from (If-Match, checked again there); nothing is edited in place.
A claim or bell settled in the revision before is kept where its deal is unchanged. A live
write (a card, a deal added) reads the match's row and its last deal's, judges that deal alone
and stores those two rows (deals.tail); any other reads and judges the whole match. A live
write with nothing to search (no claim or bell to settle) is, on PostgreSQL, read, judged and
stored in one transaction under its match's row lock, its key and body checked there: judging
one deal takes well under a millisecond, less than the reads a second transaction would
repeat (issue 39, many tables). On SQLite, whose one write lock every table's writes share,
it is read, judged and its feed events made in a read transaction and stored by a writing one
that checks the match is still as read (_write_apart): the lock is held for the writes alone."""
from __future__ import annotations

from contextlib import nullcontext
from functools import cache, partial
from typing import Callable

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from referee.judge import resumes
from referee import midstate
from referee.provenance import place
from referee.settlers import Reusing

from . import limits
from .db import Database
from .deals import Tail, head_of, tail
from .errors import Conflict, PreconditionFailed, PreconditionRequired
from .ids import etag_of, keyed, strip_etag
from .keys import key_given, require_write_key
from .held import holding, kept, later
from .history import add_revision, snapshot
from .judging import judge, judge_tail
from .matches import live_rows_in, load_match, load_match_in, record_for, status_of
from .models import Match, Tournament, utcnow
from .publishing import facts, numbered, publish
from .views import Head, MatchView


def why_of(kind: str, record: dict, before: dict) -> str:
    """Why a published fact may change with this write: a correction, a close, a take-back
    among the new events, or a later play (which can prove or withdraw a breach)."""
    if kind in ("revise", "close"):
        return {"revise": "correction", "close": "close"}[kind]
    old_events = len(before["deals"][-1].get("events", [])) if before["deals"] and len(before["deals"]) == len(record["deals"]) else 0
    added = record["deals"][-1].get("events", [])[old_events:] if record["deals"] else []
    return "take_back" if any(e.get("take_back") for e in added) else "play"


def _read(s, m, t, kind: str, change, last=None) -> tuple[Tail | None, Head, dict, tuple | None]:
    """What a write reads, and the record it makes: a live write (events appended, a deal
    added) the match's tail alone, when its last deal may be judged alone (judge.resumes);
    any other the whole head. (tail, head read, new record, where it resumes). `last`: the
    last deal's row, when read with the match's."""
    at = tail(s, m, kind == "append", last) if kind in ("append", "deal") else None
    if at is not None:
        record = change(at.head.record, t)  # a new record (its deals from the tail's on)
        resume = resumes(record, *at.head, at.start)
        if resume is not None:
            check_tail(record, at)
            return at, at.head, record, resume
    before = head_of(s, m)
    record = change(before.record, t)  # a new record; the head's is left as it is
    limits.check_record(record)
    return None, before, record, None


def check_tail(record: dict, at: Tail) -> None:
    """limits.check_record of the whole record, counting the deals and events before the
    tail's from its place and prefix, not from their rows."""
    before = [{"events": range(at.prefix["events"])}, *[{}] * (at.first - 1)] if at.first else []
    limits.check_record({"deals": [*before, *record["deals"]]})


class WouldSearch(Exception):
    """A live write judged inside its transaction met a claim or a bell that perfect play must
    settle: it is judged again outside any transaction (a search may take seconds)."""


class Refusing:
    """The settler of a write judged inside its transaction: it never searches."""

    def settle(self, deal, index):
        raise WouldSearch

    def finish(self, deal, index):
        raise WouldSearch


class Writes:
    db: Database

    def _write(self, mid: str, key: str | None, if_match: str | None, kind: str,
               change: Callable[[dict, Tournament], dict], reason: str | None = None, close: bool = False,
               trusted: bool = False, body: Callable[[], None] = lambda: None) -> MatchView:
        """`body`: checks the request's body once the key is known to open the match (422)."""
        try:
            if not trusted:
                key_given(key)
            if kind in ("append", "deal") and midstate.available():
                live = self._write_live if self.db.is_postgres else self._write_apart
                try:
                    return live(mid, key, if_match, kind, change, body)
                except WouldSearch:
                    pass  # rolled back: judged below, outside the transaction
            return self._write_once(mid, key, if_match, kind, change, reason, close, trusted, body)
        except IntegrityError:
            # Backstop for the row lock: another writer took this revision number first.
            raise PreconditionFailed("the match changed while this write was made; read it again") from None

    def _checked(self, s, mid, key, if_match, kind, trusted, body, live=False) -> tuple[Match, Tournament, str, object]:
        """The match and its tournament, the write's key, body and precondition checked:
        401/403/404, then 422, then 428/412, then 409. `live`: the match's row locked, read as
        a plain row with its last deal's (the fourth value: matches.live_rows_in)."""
        m, t, last = live_rows_in(s, mid) if live else (*load_match_in(s, mid), None)
        if not trusted:
            require_write_key(t, key)
        body()
        etag = etag_of(m)
        if if_match is None and trusted:
            if_match = etag
        if if_match is None:
            raise PreconditionRequired("send If-Match with the match's current ETag")
        if strip_etag(if_match) != etag:
            now = keyed(etag)  # the writer holds the key: its view's ETag
            raise PreconditionFailed(f"the match changed: its ETag is now {now}", etag=now)
        if m.closed and kind != "revise":
            raise Conflict("the match is closed; a correction (PUT /record) is still possible")
        limits.check_revisions(m.revision + 1)
        return m, t, etag, last

    def _write_live(self, mid, key, if_match, kind, change, body) -> MatchView:
        """A card or a deal added, in one transaction under the match's row lock: read, judged
        (its last deal alone, when it may be: else WouldSearch, as for a claim or bell to
        settle) and stored."""
        with self.db.transaction() as s:
            m, t, live, before, record, verdict = self._judged_live(s, mid, key, if_match, kind, change, body)
            return self._store(s, m, t, kind, None, False, live, before, record, verdict)

    def _judged_live(self, s, mid, key, if_match, kind, change, body) -> tuple:
        """A live write read and its last deal judged: (match, tournament, tail, head read,
        new record, new verdict); WouldSearch where it cannot be so judged."""
        m, t, _, last = self._checked(s, mid, key, if_match, kind, False, body, live=True)
        live, before, record, resume = _read(s, m, t, kind, change, last)
        if live is None:
            raise WouldSearch  # the whole match judged: outside the transaction
        settler = Reusing(record, before.record, before.verdict, Refusing(), live.first)
        verdict = judge_tail(record, live, resume, settler, self.signer, m.id, m.revision + 1)
        return m, t, live, before, record, verdict

    def _write_apart(self, mid, key, if_match, kind, change, body) -> MatchView:
        """SQLite: a card or a deal added read, judged, signed and compared for the feed in a
        read transaction, which takes no lock, then stored by a writing one (which holds the
        database's one write lock) if the match's revision and its tournament's write key are
        still those read (a compare-and-swap: nothing else the write read can have changed
        without them, its feed's announcements included); else read again from the new head,
        where its If-Match (or its key) no longer holds: 412 (or 403), as if it had come after.
        A write that finishes its match or comes after its finish (the standings counted, under
        the lock) is made whole under the lock."""
        for _ in range(2):  # the second read refuses it; the loop's end is a guard only
            with self.db.plainly(reading=True) as s:
                m, t, live, before, record, verdict = self._judged_live(s, mid, key, if_match, kind, change, body)
                if m.status == "finished" or status_of(verdict, m.closed) == "finished":
                    break
                seen = (m.revision, t.key_hash)
                with kept(s) as held:
                    _revised(s, m, kind, None, False, live, before, record, verdict)
                    events = facts(s, m, before, Head(record, verdict), False, kind,
                                   why_of(kind, record, before.record), live.first)
            with self.db.plainly() as s:
                now = s.execute(_seen(), {"id": mid}).one_or_none()
                if now is not None and tuple(now) == seen:
                    with holding(s, held):
                        numbered(s, t, m, events)
                    return self._view(m, live, verdict, record)
        return self._write_live(mid, key, if_match, kind, change, body)

    def _write_once(self, mid, key, if_match, kind, change, reason, close, trusted, body) -> MatchView:
        """`trusted`: the operator's own command on the server (no key, the current ETag)."""
        with self.db.reading() as s:
            m, t, etag, _ = self._checked(s, mid, key, if_match, kind, trusted, body)
            live, before, record, resume = _read(s, m, t, kind, change)
        first = live.first if live is not None else 0
        settler = Reusing(record, before.record, before.verdict, self.budget().settler(), first)
        # signed as the next revision after the head it was judged from (If-Match keeps both)
        if live is not None:  # a live write: its last deal judged alone, the rest hashed no more
            verdict = judge_tail(record, live, resume, settler, self.signer, m.id, m.revision + 1)
        else:
            verdict = judge(record, settler, self.signer, place(m.id, m.revision + 1, before.verdict))
        with self.db.transaction() as s:
            # the match's row lock serialises its writes; the tournament's is taken by publish,
            # for the feed's numbering only, so writes to other matches go on meanwhile
            m, t = load_match_in(s, mid, lock=True)  # the head judged from is `before`, if the ETag says so
            if not trusted:
                require_write_key(t, key)  # the keys may have changed while it was judged
            if etag_of(m) != etag:
                now = keyed(etag_of(m))
                raise PreconditionFailed(f"the match changed while this write was judged: its ETag is now {now}",
                                         etag=now)
            return self._store(s, m, t, kind, reason, close, live, before, record, verdict)

    def _store(self, s, m, t, kind, reason, close, live, before, record, verdict) -> MatchView:
        """The write stored: its revision, the match's row, its feed events."""
        finished_before = m.status == "finished"
        # a live write's revision and rows are sent with the feed's count (held.py)
        with holding(s) if live is not None else nullcontext():
            _revised(s, m, kind, reason, close, live, before, record, verdict)
            publish(s, t, m, before, Head(record, verdict), finished_before, kind,
                    why_of(kind, record, before.record), None if live is None else live.first)
        return self._view(m, live, verdict, record)

    def _view(self, m, live, verdict, record) -> MatchView:
        """A write's answer: a live write's the deal it changed, the whole match when asked."""
        if live is None:
            return MatchView(m, True, Head(record, verdict))
        changed = (live.first + len(verdict["deals"]) - 1, verdict["deals"][-1])
        return MatchView(m, True, read=partial(self._head_at, m.id, m.revision), changed=changed)

    def _head_at(self, mid: str, revision: int) -> Head:
        """Revision `revision` of the match, whole (a live write's view, when asked for it)."""
        with self.db.reading() as s:
            m = load_match(s, mid)
            if m.revision == revision:
                return head_of(s, m)
            snap = snapshot(s, m, revision)  # written over since: its revision rebuilt
            return Head(snap.record, snap.verdict)

    def append_events(self, mid, key, if_match, events: list[dict] | Callable[[], list[dict]]) -> MatchView:
        """`events`, or what gives them once the key is checked (the request's body)."""
        events, body = _given(events)

        def change(record, _t):
            if not record["deals"]:
                raise Conflict("the match has no deal yet: start one with POST /v1/matches/{id}/deals")
            last = record["deals"][-1]
            return {**record, "deals": [*record["deals"][:-1], {**last, "events": [*last.get("events", []), *events[0]]}]}
        return self._write(mid, key, if_match, "append", change, body=body)

    def add_deal(self, mid, key, if_match, deal: dict | Callable[[], dict]) -> MatchView:
        """`deal`, or what gives it once the key is checked (the request's body)."""
        deal, body = _given(deal)
        return self._write(mid, key, if_match, "deal", lambda record, _t: {**record, "deals": [*record["deals"], deal[0]]},
                           body=body)

    def revise(self, mid, key, if_match, record: dict, reason: str, trusted: bool = False) -> MatchView:
        """A correction of a data-entry mistake: the whole record, as a new revision."""
        def change(old, t):
            stored = record_for(t, {**record, "players": record.get("players") or old["players"]})
            if old.get("closed"):
                stored["closed"] = True  # a correction does not reopen a closed session
            return stored
        return self._write(mid, key, if_match, "revise", change, reason=reason, trusted=trusted)

    def close(self, mid, key, if_match, trusted: bool = False) -> MatchView:
        """End a session played by time (or any match): it counts in the standings."""
        return self._write(mid, key, if_match, "close", lambda record, _t: {**record, "closed": True}, close=True,
                           trusted=trusted)


def _revised(s, m, kind, reason, close, live, before, record, verdict) -> None:
    """The write's revision added and the match's row set (`m` left as the write leaves it)."""
    at = utcnow()
    add_revision(s, m, kind, reason, record, verdict, at, before if m.revision else None, live)
    m.updated_at = at
    m.closed = m.closed or close or bool(record.get("closed"))
    m.status = status_of(verdict, m.closed)
    _row_written(s, m)


_ROW = Match.__table__.c
_WRITTEN = ("revision", "record", "verdict", "updated_at", "closed", "status")  # what a write changes of the row
_UPDATE_ROW = update(Match.__table__).where(_ROW.id == bindparam("the_id")).values(
    {name: bindparam(f"new_{name}", type_=_ROW[name].type) for name in _WRITTEN})  # built once


def _row_written(s, m: Match) -> None:
    """The match's row as the write leaves it, by one statement built once, not by the
    session's flush (which compares every attribute first): the object is left clean."""
    values = {name: getattr(m, name) for name in _WRITTEN}
    with s.no_autoflush:
        later(s, _UPDATE_ROW, {"the_id": m.id, **{f"new_{name}": v for name, v in values.items()}})
    if isinstance(m, Match):  # not a plain row (matches.live_rows_in)
        for name, value in values.items():
            set_committed_value(m, name, value)


@cache
def _seen():
    """What _write_apart compares under the write lock, built once at its first use."""
    m, t = Match.__table__, Tournament.__table__
    return select(m.c.revision, t.c.key_hash).join_from(m, t, t.c.id == m.c.tournament_id).where(m.c.id == bindparam("id"))


def _given(value) -> tuple[list, Callable[[], None]]:
    """A write's body, in a box the write fills once its key is checked (`value` a callable
    giving it: the request's body, read and validated then), and what fills it."""
    box = [None if callable(value) else value]

    def body():
        if box[0] is None:
            box[0] = value()
    return box, body
