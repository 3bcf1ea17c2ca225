"""A deal event by event, as readers step through it (the page, a solver's positions): after
each event, the cards on the table, what each seat still holds (with hands), whose turn it is
and what they may play, the tricks taken, the pile and the trump. The judging replay records
it only when asked (`replay_deal(..., steps=[])`); without that it takes its fast path."""
from __future__ import annotations

from typing import NamedTuple

from .cards import Card, in_hand_order
from .deal import Deal
from .errors import RecordError
from .playrecord import PLAY, TAKE_BACK
from .trick import Played, Trick


class Step(NamedTuple):
    """The replay's state after one event (`event` -1: the cards dealt, before any event)."""

    event: int
    note: str
    trick: int                          # the trick on the table (the last one once the deal is over)
    table: tuple[Played, ...]           # its cards in play order; a trick this event completed stays shown
    won: Trick | None                   # the trick this event completed and the replay closed (R-12: no take-back followed)
    to_play: int | None
    legal: tuple[Card, ...] | None      # what `to_play` may play (with hands)
    hands: tuple[tuple[Card, ...], ...] | None  # what each seat still holds (with hands)
    tricks_won: tuple[int, int]         # tricks collected by each team so far
    pile: int                           # tricks in the pile, not yet collected (pile games)
    trump: str | None                   # the trump suit as the table knows it
    trump_hidden: bool                  # the hidden trump card is still face down
    error: RecordError | None = None    # the record error that stopped the replay at this event
    ignored: bool = False               # an event after a penalty: the state stays the penalty trick's
    referee: bool = False               # a play of the referee's (a settled claim's line, R-34; the bell, R-32)

    @classmethod
    def of(cls, deal: Deal, event: int, note: str, won: Trick | None) -> "Step":
        legal = deal.legal_plays()
        table = won.cards if won is not None else deal.on_table
        return cls(event, note, won.number if won is not None else deal.number if not deal.is_over else len(deal.tricks),
                   table, won, deal.to_play, None if legal is None else in_hand_order(legal),
                   None if deal.hands is None else tuple(in_hand_order(h) for h in deal.hands),
                   tuple(deal.tricks_won), deal.collection.pile, deal.trump.suit, deal.trump.is_hidden)

    def stopped(self, error: RecordError) -> "Step":
        """This state, at the event the record error names."""
        return self._replace(event=error.event if error.event is not None else self.event,
                             note=f"record error: {error.message}", won=None, error=error)

    def ignored_after(self, event: int, note: str) -> "Step":
        """An event after the penalty (R-11), at this state (the penalty trick's last card):
        it is listed, not played, so nothing of it reaches the table."""
        return self._replace(event=event, note=f"ignored after the penalty: {note}", table=(), won=None,
                             to_play=None, legal=None, ignored=True)

    def as_dict(self) -> dict:
        """The page's form of the step (cards as text; hands and legal cards in the order people
        hold them, `in_hand_order`; a face-down card keeps its face: the page's hiding takes it
        out for readers who may not see it)."""
        data = {
            "event": self.event, "note": self.note, "trick": self.trick,
            "table": [{"seat": p.seat, "card": p.card.text, "face_down": p.face_down, "event": p.event}
                      for p in self.table],
            "won": None if self.won is None else {
                "winner": self.won.winner, "winning_card": self.won.winning_card.text,
                "collected_by": self.won.collected_by, "collected": self.won.collected,
                "pile_after": self.won.pile_after},
            "to_play": self.to_play,
            "legal": None if self.legal is None else [c.text for c in self.legal],
            "hands": None if self.hands is None else [[c.text for c in h] for h in self.hands],
            "tricks_won": list(self.tricks_won), "pile": self.pile,
            "trump": self.trump, "trump_hidden": self.trump_hidden, "ignored": self.ignored,
        }
        if self.ignored:
            data["rule"] = ["R-11"]
        if self.error is not None:
            data["error"] = self.error.code
        if self.referee:
            data["referee"] = True
        return data


class Recorder:
    """Pushes events one at a time through the full rules, keeping each event's state.

    A trick of four cards is closed before its state is kept when the next event is not a
    take-back (`push` would close it first thing) or when the record ends there (`finish`),
    so the state at a trick's fourth card shows it won and collected."""

    def __init__(self, deal: Deal, steps: list[Step], dealt: bool = True):
        self.deal = deal
        self.steps = steps
        self._pending: tuple[int, str, bool] | None = None
        self._tricks = len(deal.tricks)
        if dealt:  # else: recording goes on after the record's events (the referee's plays)
            steps.append(Step.of(deal, -1, "the cards are dealt", None))

    def push_all(self, events, referee: bool = False) -> None:
        """`referee`: the events are the referee's plays, numbered on after the record's."""
        deal = self.deal
        for j, event in enumerate(events):
            if deal.filled == 4 and event.kind != TAKE_BACK:
                deal.finish()  # what `push` does first: the trick is won before this event
            self._keep()
            if referee:
                self._pending = (deal.n_events, f"the referee plays {event.card.face} for seat {event.seat}", True)
            else:
                self._pending = (j, _note(deal, event), False)
            try:
                deal.push(event)
            except RecordError:
                self._pending = None  # the event that failed has no state of its own
                raise

    def stop(self, error: RecordError | None) -> None:
        """The replay is over (`finish` done): keep the last event's state, the events after a
        penalty as ignored (R-11), then the error's state."""
        self._keep()
        penalty = self.deal.penalty()
        ignored = self.deal.ignored_events(penalty)
        if ignored:
            steps = self.steps
            first = next((k for k, s in enumerate(steps) if s.event == ignored[0]), len(steps))
            steps[first:] = [steps[first - 1].ignored_after(s.event, s.note) for s in steps[first:]]
        if error is not None:
            self.steps.append(self.steps[-1].stopped(error))

    def _keep(self) -> None:
        if self._pending is None:
            return
        deal = self.deal
        won = deal.tricks[-1] if len(deal.tricks) > self._tricks else None
        self._tricks = len(deal.tricks)
        event, note, referee = self._pending
        step = Step.of(deal, event, note, won)
        self.steps.append(step._replace(referee=True) if referee else step)
        self._pending = None


def _note(deal: Deal, event) -> str:
    """What an event does, for people; a hidden card marked face down is played face up (R-35)."""
    if event.kind == PLAY and event.face_down and deal.plays_face_up(event.card):
        return f"seat {event.seat} plays {event.card.face}, the hidden trump card: marked face down, it is played face up (R-35)"
    return event.describe()


def dealt_error_step(error: RecordError) -> Step:
    """The only step of a deal whose cards or trump the rules refuse."""
    return Step(-1, f"record error: {error.message}", 1, (), None, None, None, None, (0, 0), 0, None, False, error)
