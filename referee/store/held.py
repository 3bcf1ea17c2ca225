"""A live write's statements sent together (issue 39, many tables): the revision inserted, the
deal's and the match's rows written are held while the write is stored and sent with its
tournament's count (publishing.numbered's UPDATE ... RETURNING), on PostgreSQL as one
statement, the held ones its data-modifying CTEs (one round trip where there were four),
elsewhere one by one in the order they were held. Only statements built once are held (each
with bind parameters of its own names); what the write reads meanwhile (the feed's rows) is
none of what they write, and a write that counts standings sends them before it reads any.
On PostgreSQL the CTEs run after the count has locked the tournament's row (the main statement
reads none of their rows), so that lock, which every table of the tournament waits for, now
also covers their server time (about 0.1 ms a card), where it was taken after them: the round
trips saved outweigh it in bench_live, and making the count read their RETURNING rows first
would order them before it."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy.orm import Session

_HELD = "referee.held"  # Session.info's key: the statements held, while a write holds them
# one statement per sequence held, built once; keyed by the statements themselves, which the
# key keeps alive (an id() could be reused by a statement made later)
_JOINED: dict[tuple, object] = {}


@contextmanager
def holding(s: Session, held: list | None = None) -> Iterator[None]:
    """`later`'s statements held until `sent` (any still held are sent at the end); `held`:
    statements `kept` in another session, held first."""
    s.info[_HELD] = list(held or ())
    try:
        yield
        sent(s)
    finally:
        s.info.pop(_HELD, None)


@contextmanager
def kept(s: Session) -> Iterator[list]:
    """`later`'s statements kept, never sent by `s`: the list given, for another session's
    `holding` (a write made in a read transaction, stored by a writing one)."""
    s.info[_HELD] = held = []
    try:
        yield held
    finally:
        s.info.pop(_HELD, None)


def later(s: Session, stmt, params: dict) -> None:
    """`stmt` executed with `params`: now, or with the statements held when they are sent."""
    held = s.info.get(_HELD)
    if held is None:
        s.execute(stmt, params)
    else:
        held.append((stmt, params))


def sent(s: Session, stmt=None, params: dict | None = None):
    """The statements held sent, then `stmt` (with `params`): its result, None without one."""
    held = s.info.get(_HELD) or []
    if held:
        s.info[_HELD] = []
    if stmt is not None and held and s.get_bind().dialect.name == "postgresql":
        key = (stmt, *(h for h, _ in held))
        joined = _JOINED.get(key)
        if joined is None:
            joined = _JOINED[key] = stmt.add_cte(*(h.cte(f"held_{i}") for i, (h, _) in enumerate(held)))
        together = dict(params)
        for _, p in held:
            together.update(p)
        return s.execute(joined, together)
    for h, p in held:
        s.execute(h, p)
    return None if stmt is None else s.execute(stmt, params)
