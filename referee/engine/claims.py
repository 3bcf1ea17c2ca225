"""Claims (R-33): a seat claims tricks for its team, the other team accepts or disputes.

`ClaimRules` is part of `Deal` (a mixin, like the hidden trump's rules). The engine only
checks the claim and its answer and then holds the deal, answered, for settling: settling
needs perfect play, which lives above the engine (referee.solver imports the engine), so
it is handed in through `referee.engine.settlement`. The referee's plays along the line
are then pushed as ordinary plays (`play_line`).
"""
from __future__ import annotations

from typing import NamedTuple

from .errors import RecordError

CLAIM, ACCEPT, DISPUTE = "claim", "accept", "dispute"
ANSWERS = (ACCEPT, DISPUTE)
CLAIM_KINDS = (CLAIM, ACCEPT, DISPUTE)


class ClaimEvent(NamedTuple):
    """A claim (`tricks`: the tricks claimed) or its answer; shaped like `playrecord.Event`."""
    seat: int
    kind: str  # CLAIM, ACCEPT or DISPUTE
    tricks: int | None = None
    face_down: bool = False

    def describe(self) -> str:
        if self.kind == CLAIM:
            return f"seat {self.seat} claims {self.tricks} of the remaining tricks"
        return f"seat {self.seat} {'accepts' if self.kind == ACCEPT else 'disputes'} the claim"


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


class ClaimRules:
    """R-33 for `Deal`: the claim event, its answer, and nothing after it."""

    claimed: TableClaim | None = None
    _settling = False

    @property
    def awaiting_answer(self) -> bool:
        return self.claimed is not None and self.claimed.answer is None

    @property
    def awaiting_settlement(self) -> bool:
        """Answered, and not yet finished along the referee's line."""
        return self.claimed is not None and self.claimed.answer is not None and self.claimed.settled is None

    def remaining(self) -> int:
        """The tricks a claim may count: those still to come, the current one included, and
        in pile games the pile waiting to be collected."""
        return 14 - self.number + self.collection.pile

    def _claim_event(self, ev: ClaimEvent, i: int) -> None:
        if ev.kind != CLAIM:
            raise RecordError("bad_answer", f"{ev.describe()}, but no claim is waiting for an answer", i)
        if self.hands is None:
            raise RecordError("claim_without_hands", f"{ev.describe()}: a claim faces every hand, so it needs "
                              "the deal's hands in the record", i)
        k = self.filled if self.first_back is None else self.position
        turn = (self.leader + k) & 3
        if ev.seat != turn:
            raise RecordError("bad_claim", f"{ev.describe()} in trick {self.number}, but it is seat {turn}'s turn", i)
        if not 0 <= ev.tricks <= self.remaining():
            raise RecordError("bad_claim", f"{ev.describe()}, but only {self.remaining()} remain to be taken", i)
        self.claimed = TableClaim(ev.seat, ev.tricks, i)
        if self.trump.is_hidden:  # every hand is faced: the face-down trump too
            self._reveal_trump(ev.seat, i, "claim")

    def _after_claim(self, ev, i: int) -> None:
        """An event once a claim is made: its answer, or an error."""
        claim = self.claimed
        if claim.answer is not None:
            raise RecordError("play_after_claim", f"{ev.describe()} after the claim of seat {claim.seat} was "
                              f"answered (event {claim.answer_event + 1}): the referee finishes the deal", i)
        if ev.kind not in ANSWERS:
            raise RecordError("play_after_claim" if ev.kind != CLAIM else "bad_claim",
                              f"{ev.describe()} while the claim of seat {claim.seat} waits for an answer", i)
        if ev.seat & 1 == claim.team:
            raise RecordError("bad_answer", f"{ev.describe()}, but seat {ev.seat} is of the claimer's team: "
                              f"seat {' or '.join(map(str, claim.answer_from))} answers", i)
        claim.answer, claim.answered_by, claim.answer_event = ev.kind, ev.seat, i

    def play_line(self, events, push_all=None) -> None:
        """The referee's plays (a settled claim's line, perfect play at the bell), pushed
        through the ordinary rules (by `push_all`, a recorder's, when given)."""
        self._settling = True
        try:
            if push_all is not None:
                push_all(events)
            else:
                for ev in events:
                    self.push(ev)
            self.finish()
        finally:
            self._settling = False
