"""A match's head stored by deal: the match row keeps its record and verdict but their deals
(`"deals"`: their count, in its place, so the key order is kept), and each deal is a row
with its record, its verdict, the standing it began from and its `prefix`: what else the
deals before it were to a live write (the SHA-256 states of the record's and the verdict's
canonical forms up to it, whose digests the provenance and signature take, and their
events' count, which the limits take). A write stores the rows of the deals it changed and
the match's; a live write (tail()) reads the last deal's row and the match's alone; a read
of the whole match puts the rows back in place."""
from __future__ import annotations

from typing import Iterable, NamedTuple

from sqlalchemy import Connection, bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from referee import judge as judging
from referee.engine import resolve
from referee.engine.totals import Match as Totals
from referee.midstate import Sha256, available
from referee.provenance import canonical
from referee.settlers import Recorded

from .held import later
from .models import Match, MatchDeal
from .views import Head


def shell(whole: dict) -> dict:
    """A record or verdict with its deals counted, not kept."""
    return {**whole, "deals": len(whole["deals"])}


def whole(shell_: dict, deals: list[dict]) -> dict:
    return {**shell_, "deals": deals}


def head_of(s: Session, m: Match) -> Head:
    """The match's current record and verdict, whole."""
    return filled(s, m.id, m.record, m.verdict)


def filled(s: Session | Connection, mid: str, record: dict, verdict: dict) -> Head:
    """A match's record and verdict as its row holds them, whole: its deals' rows put in
    place (a migration before 0006 reads a row that holds them whole)."""
    if not isinstance(record["deals"], int):
        return Head(record, verdict)
    rows = s.execute(select(MatchDeal.record, MatchDeal.verdict).where(MatchDeal.match_id == mid)
                     .order_by(MatchDeal.deal)).all()
    return Head(whole(record, [r.record for r in rows]), whole(verdict, [r.verdict for r in rows]))


class Tail(NamedTuple):
    """A match's head from its last deal on, as a live write reads it: `first`, that deal's
    place (0 when there is none); `head`, the record and verdict with their deals from there;
    `start`, the standing that deal began from; `prefix`, its row's (the deals before it);
    `expected`, the dealer the deal before it named (None: the first deal)."""

    first: int
    head: Head
    start: dict
    prefix: dict
    expected: int | None


def tail(s: Session, m: Match, appending: bool = True, row=None) -> Tail | None:
    """The match's last deal's row and its summary: what a live write reads (`appending`:
    events to that deal, which also needs the dealer the deal before it named; else a deal
    added; `row`: that row, read with the match's, matches.live_rows_in). None where that
    row keeps no prefix (made before migration 0010, or no resumable hash here)."""
    count = m.record["deals"]
    if not available() or not isinstance(count, int):
        return None
    if count == 0:
        return Tail(0, Head(whole(m.record, []), whole(m.verdict, [])), m.verdict["match"], fresh(), None)
    if row is None:
        row = s.execute(_TAIL, {"match": m.id, "deal": count - 1}).one()
    if row.prefix is None:
        return None
    expected = row.expected if appending and count > 1 else None
    return Tail(count - 1, Head(whole(m.record, [row.record]), whole(m.verdict, [row.verdict])), row.start,
                row.prefix, expected)


# tail()'s one statement, built once, on the table (no ORM entity to keep in step): the last
# deal's row and the dealer the deal before it named
_DEALS = MatchDeal.__table__
_EARLIER = _DEALS.alias()
_TAIL = select(_DEALS.c.record, _DEALS.c.verdict, _DEALS.c.start, _DEALS.c.prefix, select(
    _EARLIER.c.verdict["next_dealer"].as_integer()).where(
    _EARLIER.c.match_id == bindparam("match"), _EARLIER.c.deal == bindparam("deal") - 1).scalar_subquery().label("expected")
).where(_DEALS.c.match_id == bindparam("match"), _DEALS.c.deal == bindparam("deal"))
# a live write's update of its last deal's row and its insert of a deal added, built once
# (their bind parameters named for held.py, which may send them with others)
_UPDATE_LAST = update(_DEALS).where(_DEALS.c.match_id == bindparam("deal_match"), _DEALS.c.deal == bindparam("deal_index")
                                    ).values(record=bindparam("deal_record", type_=_DEALS.c.record.type),
                                             verdict=bindparam("deal_verdict", type_=_DEALS.c.verdict.type))
_INSERT_LAST = insert(_DEALS).values(match_id=bindparam("deal_match"), deal=bindparam("deal_index"), **{
    name: bindparam("deal_" + name, type_=_DEALS.c[name].type) for name in ("record", "verdict", "start", "prefix")})


def fresh() -> dict:
    """The prefix of a first deal: nothing before it."""
    state = Sha256().update(b'{"deals":[').state()
    return {"record": state, "verdict": state, "events": 0}


def advanced(prefix: dict, record: dict, verdict: dict) -> dict:
    """The prefix of the deal after the one (`record`, `verdict`) whose prefix is `prefix`."""
    return {"record": Sha256(prefix["record"]).update(canonical(record) + b",").state(),
            "verdict": Sha256(prefix["verdict"]).update(canonical(verdict) + b",").state(),
            "events": prefix["events"] + len(record.get("events") or ())}


def prefixes(head: Head, first: int, end: int) -> list[dict | None]:
    """The prefixes of deals `first` .. `end` - 1 of a whole head, hashed from its first deal
    (a write that judged the whole match); None where no hash can be resumed here."""
    if not available():
        return [None] * (end - first)
    out, prefix = [], fresh()
    for i in range(end):
        if i >= first:
            out.append(prefix)
        if i < end - 1:
            prefix = advanced(prefix, head.record["deals"][i], head.verdict["deals"][i])
    return out


def heads_of(s: Session, matches: Iterable[Match]) -> dict[str, Head]:
    """Many matches' heads, read in one query."""
    matches = list(matches)
    parts: dict[str, tuple[list, list]] = {m.id: ([], []) for m in matches}
    if parts:
        rows = s.execute(select(MatchDeal.match_id, MatchDeal.record, MatchDeal.verdict)
                         .where(MatchDeal.match_id.in_(list(parts))).order_by(MatchDeal.match_id, MatchDeal.deal))
        for mid, record, verdict in rows:
            parts[mid][0].append(record)
            parts[mid][1].append(verdict)
    return {m.id: Head(whole(m.record, parts[m.id][0]), whole(m.verdict, parts[m.id][1])) for m in matches}


def changed(before: Head | None, after: Head) -> list[int]:
    """The deals whose record or verdict `after` changed from `before` (new ones included);
    an unchanged deal is most often the same object, compared at once."""
    old_records, old_verdicts = (before.record["deals"], before.verdict["deals"]) if before else ([], [])
    return [i for i, (record, verdict) in enumerate(zip(after.record["deals"], after.verdict["deals"]))
            if i >= len(old_records) or old_records[i] != record or old_verdicts[i] != verdict]


def store_head(s: Session, m: Match, after: Head, before: Head | None, at: Tail | None = None) -> None:
    """Make `after` the match's head, from `before` (None: no rows yet): the rows of the
    deals it changed, with the standing each begins from, from the first changed one on;
    the deals before it, and their rows, are as they were. `at`: a live write's tail, whose
    `before` and `after` hold their deals from its last deal on."""
    first = at.first if at is not None else 0
    m.record = {**after.record, "deals": first + len(after.record["deals"])}
    m.verdict = {**after.verdict, "deals": first + len(after.verdict["deals"])}
    # not flushed here: the match row is updated once, at the write's end (updated twice in
    # one transaction, PostgreSQL checks its tournament key again: a share lock on the
    # tournament's row, which two writes then both hold while each waits for the other's)
    with s.no_autoflush:
        if at is None:
            _store_deals(s, m, after, before)
        else:
            _store_tail(s, m, after, before, at)


def _store_tail(s: Session, m: Match, after: Head, before: Head, at: Tail) -> None:
    """A live write's rows: the last deal's updated (events appended), or a deal's added."""
    old, new = before.record["deals"], after.record["deals"]
    values = {"deal_match": m.id, "deal_index": at.first + len(old), "deal_record": new[-1],
              "deal_verdict": after.verdict["deals"][-1]}
    if len(new) == len(old):
        later(s, _UPDATE_LAST, {**values, "deal_index": at.first})
        return
    prefix = advanced(at.prefix, old[-1], before.verdict["deals"][-1]) if old else at.prefix
    start = before.verdict["match"] if old else initial(after.record)
    later(s, _INSERT_LAST, {**values, "deal_start": start, "deal_prefix": prefix})


def _store_deals(s: Session, m: Match, after: Head, before: Head | None) -> None:
    count = len(after.record["deals"])
    old_count = len(before.record["deals"]) if before else 0
    touched = changed(before, after)
    if old_count > count:
        s.execute(delete(MatchDeal).where(MatchDeal.match_id == m.id, MatchDeal.deal >= count))
    if not touched:
        return
    first = touched[0]
    kept = prefixes(after, first, count)
    if first == count - 1 < old_count:  # a live deal changed: it began where it began
        s.execute(update(MatchDeal).where(MatchDeal.match_id == m.id, MatchDeal.deal == first).values(
            record=after.record["deals"][first], verdict=after.verdict["deals"][first], prefix=kept[0]))
        return
    starts = standings(after, first, _start(s, m, after, before, first))
    for i in range(first, count):
        values = {"record": after.record["deals"][i], "verdict": after.verdict["deals"][i], "start": starts[i - first],
                  "prefix": kept[i - first]}
        if i >= old_count:
            s.execute(insert(MatchDeal).values(match_id=m.id, deal=i, **values))
        else:
            s.execute(update(MatchDeal).where(MatchDeal.match_id == m.id, MatchDeal.deal == i).values(**values))


def _start(s: Session, m: Match, after: Head, before: Head | None, first: int) -> dict:
    """The standing deal `first` begins from, the deals before it unchanged: its row's, or
    for a deal added after the others the old head's own (the deal before it was over)."""
    if first < (len(before.record["deals"]) if before else 0):
        return s.scalars(select(MatchDeal.start).where(MatchDeal.match_id == m.id, MatchDeal.deal == first)).one()
    if first == 0:
        return initial(after.record)
    if not before.verdict["match"].get("closed"):
        return before.verdict["match"]
    last = s.scalars(select(MatchDeal.start).where(MatchDeal.match_id == m.id, MatchDeal.deal == first - 1)).one()
    return standings(after, first - 1, last, first + 1)[-1]


def initial(record: dict) -> dict:
    """The standing before any deal."""
    return Totals(resolve(record["preset"], record.get("options"))).as_dict()


def standings(head: Head, first: int, start: dict, end: int | None = None) -> list[dict]:
    """The standings deals `first` .. `end` - 1 (all from `first` by default) begin from,
    deal `first` from `start`: each deal before the last judged alone from the one before,
    as the whole judge's loop goes (its recorded settlements: no search). The deals of a
    stored head before its last are over, and none is invalid (judge.resumes)."""
    record, verdict = head
    end = len(record["deals"]) if end is None else end
    out, settler = [start], Recorded(verdict)
    unclosed = judging.without(record, "closed")  # a close comes after every deal
    for i in range(first, end - 1):
        expected = verdict["deals"][i - 1]["next_dealer"] if i else None
        out.append(judging.judge_deal({**unclosed, "deals": [record["deals"][i]]}, i, out[-1], expected, settler)["match"])
    return out
