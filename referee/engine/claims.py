"""Table claims (R-33): a seat claims tricks for its team, the other team accepts or disputes.

The engine only checks the claim and its answer and then holds the deal, answered, for
settling: settling needs perfect play, which lives above the engine (referee.solver imports
the engine), so the caller hands it in (`settlement.Settler`). The referee's plays along the
line are then pushed as ordinary plays (`play_line`).

Functions of a `Deal`'s state that the replay calls (`Deal` has the readers' ones as methods).
A claim is always a table claim: what a show-out says of a hand is a declared void (`voids.py`).
"""
from __future__ import annotations

from .errors import RecordError
from .hidden import show
from .legal import slot
from .playrecord import ANSWERS, CLAIM, ClaimEvent  # the claim and its answers as the record has them


class TableClaim:
    """A claim made at the table: who, how many, its answer, and once settled the verdict's
    `claim` object (filled in by the settling step)."""

    __slots__ = ("seat", "tricks", "event", "answer", "answered_by", "answer_event", "at_close", "settled")

    def __init__(self, seat: int, tricks: int, event: int):
        self.seat, self.tricks, self.event = seat, tricks, event
        self.answer: str | None = None
        self.answered_by: int | None = None
        self.answer_event: int | None = None
        self.at_close = False  # R-34b: unanswered when the session was closed, settled as disputed
        self.settled: dict | None = None

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def answer_from(self) -> list[int]:
        return [s for s in range(4) if s & 1 != self.team]

    def as_dict(self) -> dict:
        data = {"seat": self.seat, "tricks": self.tricks, "event": self.event, "answer": self.answer,
                "answered_by": self.answered_by}
        if self.at_close:
            data["at_close"] = True
        return {**data, **self.settled} if self.settled is not None else data


def awaiting_answer(deal) -> bool:
    return deal.claimed is not None and deal.claimed.answer is None


def awaiting_settlement(deal) -> bool:
    """Answered, and not yet finished along the referee's line."""
    return deal.claimed is not None and deal.claimed.answer is not None and deal.claimed.settled is None


def remaining(deal) -> int:
    """The tricks a claim may count: those still to come, the current one included, and
    in pile games the pile waiting to be collected."""
    return 14 - deal.number + deal.collection.pile


def claim(deal, ev: ClaimEvent, i: int) -> None:
    """A claim event with no claim made yet: the claim, or the record error it is."""
    if ev.kind != CLAIM:
        raise RecordError("bad_answer", f"{ev.describe()}, but no claim is waiting for an answer", i)
    if deal.hands is None:
        raise RecordError("claim_without_hands", f"{ev.describe()}: a claim faces every hand, so it needs "
                          "the deal's hands in the record", i)
    turn = (deal.leader + slot(deal)) & 3
    if ev.seat != turn:
        raise RecordError("bad_claim", f"{ev.describe()} in trick {deal.number}, but it is seat {turn}'s turn", i)
    if not 0 <= ev.tricks <= remaining(deal):
        raise RecordError("bad_claim", f"{ev.describe()}, but only {remaining(deal)} remain to be taken", i)
    deal.claimed = TableClaim(ev.seat, ev.tricks, i)
    if deal.trump.is_hidden:  # every hand is faced: the face-down trump too
        show(deal, ev.seat, i, "claim")


def answer(deal, ev, i: int) -> None:
    """An event once a claim is made: its answer, or an error."""
    made = deal.claimed
    if made.answer is not None:
        raise RecordError("play_after_claim", f"{ev.describe()} after the claim of seat {made.seat} was "
                          f"answered (event {made.answer_event + 1}): the referee finishes the deal", i)
    if ev.kind not in ANSWERS:
        raise RecordError("play_after_claim" if ev.kind != CLAIM else "bad_claim",
                          f"{ev.describe()} while the claim of seat {made.seat} waits for an answer", i)
    if ev.seat & 1 == made.team:
        raise RecordError("bad_answer", f"{ev.describe()}, but seat {ev.seat} is of the claimer's team: "
                          f"seat {' or '.join(map(str, made.answer_from))} answers", i)
    made.answer, made.answered_by, made.answer_event = ev.kind, ev.seat, i


def play_line(deal, events, push_all=None) -> None:
    """The referee's plays (a settled claim's line, perfect play at the bell), pushed
    through the ordinary rules (by `push_all`, a recorder's, when given)."""
    deal.settling = True
    try:
        if push_all is not None:
            push_all(events)
        else:
            for ev in events:
                deal.push(ev)
        deal.finish()
    finally:
        deal.settling = False
