"""A match's head stored by deal: the match row keeps its record and verdict but their deals
(`"deals"`: their count, in its place, so the key order is kept), and each deal is a row
with its record, its verdict and the standing it began from. A write stores the rows of the
deals it changed and the match's; a read of the whole match puts the rows back in place."""
from __future__ import annotations

from typing import Iterable

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.orm import Session

from referee import judge as judging
from referee.engine import resolve
from referee.engine.totals import Match as Totals
from referee.settlers import Recorded

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


def store_head(s: Session, m: Match, after: Head, before: Head | None) -> None:
    """Make `after` the match's head, from `before` (None: no rows yet): the rows of the
    deals it changed, with the standing each begins from, from the first changed one on;
    the deals before it, and their rows, are as they were."""
    m.record, m.verdict = shell(after.record), shell(after.verdict)
    # not flushed here: the match row is updated once, at the write's end (updated twice in
    # one transaction, PostgreSQL checks its tournament key again: a share lock on the
    # tournament's row, which two writes then both hold while each waits for the other's)
    with s.no_autoflush:
        _store_deals(s, m, after, before)


def _store_deals(s: Session, m: Match, after: Head, before: Head | None) -> None:
    count = len(after.record["deals"])
    old_count = len(before.record["deals"]) if before else 0
    touched = changed(before, after)
    if old_count > count:
        s.execute(delete(MatchDeal).where(MatchDeal.match_id == m.id, MatchDeal.deal >= count))
    if not touched:
        return
    first = touched[0]
    if first == count - 1 < old_count:  # a live deal changed: it began where it began
        s.execute(update(MatchDeal).where(MatchDeal.match_id == m.id, MatchDeal.deal == first).values(
            record=after.record["deals"][first], verdict=after.verdict["deals"][first]))
        return
    starts = standings(after, first, _start(s, m, after, before, first))
    for i in range(first, count):
        values = {"record": after.record["deals"][i], "verdict": after.verdict["deals"][i], "start": starts[i - first]}
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
    as the whole judge's loop goes (its recorded settlements: no search)."""
    record, verdict = head
    end = len(record["deals"]) if end is None else end
    out, settler = [start], Recorded(verdict)
    unclosed = judging.without(record, "closed")  # a close comes after every deal
    for i in range(first, end - 1):
        judged = {"valid": True, "errors": [], "deals": verdict["deals"][:i], "match": out[-1]}
        before = ({**unclosed, "deals": record["deals"][:i]}, judged)
        out.append(judging.judge({**unclosed, "deals": record["deals"][:i + 1]}, settler, before=before)["match"])
    return out
