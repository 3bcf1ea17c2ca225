"""How a deal ended, as its verdict and scoring read it: the penalty that decides it (R-1,
R-36), its status, the tricks that count (those up to the penalty), the facts a scoring
system scores, and the events a penalty leaves unplayed (R-11).

Functions of a `Deal`'s state; `Deal` has them as methods (`deal.penalty()`).
"""
from __future__ import annotations

from .cards import team_of
from .ending import is_complete, sweep
from .scoring import Facts
from .trick import Trick
from .violations import Violation


def tricks_over(deal) -> int:
    """How many tricks are over: those completed, and at the bell the open one (R-36)."""
    return len(deal.tricks) + (1 if deal.bell and deal.filled else 0)


def penalty(deal) -> Violation | None:
    """The first uncorrected illegal play in a trick that is over decides the deal (R-1, R-36)."""
    done = tricks_over(deal)
    found = [v for v in deal.violations
             if v.is_illegal_play and not v.corrected and v.trick is not None and v.trick <= done]
    return min(found, key=lambda v: (v.trick, v.event)) if found else None


OVER = ("complete", "ended_by_penalty", "redeal")  # the statuses of a deal the next one may follow


def status(deal, penalty: Violation | None) -> str:
    if deal.redeal:
        return "redeal"
    if penalty is not None:
        return "ended_by_penalty"
    return "complete" if is_complete(deal) else "in_progress"


def facts(deal, penalty: Violation | None) -> Facts:
    """What scoring needs of the deal, judged with `penalty` (or None)."""
    won = won_until(deal, penalty)
    pairs = deal.pairs
    return Facts(callers=deal.callers, tricks=won, first_seven=deal.first_seven, sweep=sweep(won, deal.options),
                 penalty=None if penalty is None else 1 - team_of(penalty.seat),
                 tens=tuple(deal.tens_won), bid=None if deal.bid is None else deal.bid.tricks,
                 decided=None if pairs is None or pairs.kind is None else (pairs.winner, pairs.kind, pairs.pair))


def won_until(deal, penalty: Violation | None) -> tuple[int, int]:
    """The tricks each team collected: all of them, or those up to the penalty's trick."""
    if penalty is None:
        return tuple(deal.tricks_won)
    return _count_collected(deal.tricks[:penalty.trick])


def _count_collected(tricks: list[Trick]) -> tuple[int, int]:
    won = [0, 0]
    for t in tricks:
        if t.collected_by is not None:
            won[t.collected_by] += t.collected
    return tuple(won)


def ignored_events(deal, penalty: Violation | None) -> list[int]:
    """The events after the penalty's trick, listed and not played (R-11)."""
    if penalty is None or penalty.trick > len(deal.trick_ends):
        return []  # (at the bell, R-36: the penalty trick is the open one, the last events')
    return list(range(deal.trick_ends[penalty.trick - 1] + 1, deal.n_events))
