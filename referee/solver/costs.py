"""The costly-play rule, in one place: a move is costly when it is a legal move of the seat to
play (a revoke or any other illegal play is the verdict's business, never a costly play) and
its value, for the team of the seat that made it, is below the best value of that moment; the
cost is the difference in words (`cost_against`), and the moves that were best are named with it.
It decides the record's plays (`judged_move`: what `referee analyse` and the API's `costly`
report, whichever way the values were found) and each move an analysis answer lists
(`cards[].cost`); the API, the command and the page show what it says and decide nothing of
their own."""
from __future__ import annotations

from typing import NamedTuple

from ..engine.cards import Card
from ..engine.deal import Deal
from ..engine.options import resolve
from ..engine.playrecord import PLAY, REVEAL, TAKE_BACK, Record
from . import Analysis, Outcome
from .position import REVEAL_MOVE


class CostlyPlay(NamedTuple):
    deal: int
    event: int          # the event's index in the deal
    trick: int
    seat: int
    card: str           # a card, or "reveal"
    value: object       # the play's value (int: tricks; Outcome: score), its team's
    best: object        # the best value at that moment
    cost: str           # in words
    best_cards: tuple   # the moves that had the best value (cards' texts, or "reveal"); () when not known

    def as_dict(self) -> dict:
        return {"deal": self.deal, "event": self.event, "trick": self.trick, "seat": self.seat, "card": self.card,
                "value": shown(self.value), "best": shown(self.best), "cost": self.cost,
                "best_cards": list(self.best_cards)}


def shown(v):
    """A value as JSON: tricks as they are, an Outcome as its dict."""
    return v.as_dict() if isinstance(v, Outcome) else v


def plays(record: Record, index: int) -> list[int]:
    """The events of a deal that are moves of the seat to play (plays and reveals), without
    those taken back at once (a take-back makes the play no move of the game)."""
    events = record.deals[index].events
    return [j for j, e in enumerate(events) if e.kind in (PLAY, REVEAL)
            and not (j + 1 < len(events) and events[j + 1].kind == TAKE_BACK)]


def costly_play(record: Record, index: int, n: int, deal: Deal, analysis: Analysis) -> CostlyPlay | None:
    """The record's move from the position after `n` events (its event `n`), when it cost:
    `deal` is that position and `analysis` its values (every legal move's: the API's form)."""
    values = dict(analysis.cards)

    def value_of(move):
        return (analysis.value, values[move]) if move in values else None

    return judged_move(record, index, n, deal, value_of,
                       lambda: [m for m, v in analysis.cards if v == analysis.value])


def judged_move(record: Record, index: int, n: int, deal: Deal, value_of, best_moves) -> CostlyPlay | None:
    """The rule for the record's move from position `deal` (after `n` events: its event `n`):
    None when the event is no move of the seat to play (not a play or reveal, taken back at
    once, after the end or out of turn), when it is no legal move there (a revoke: the
    verdict's business), or when it was as good as the best. `value_of(move)`: (best, the
    move's value) at that moment, None when not known; `best_moves()`: the moves of the best
    value, asked only for a costly move (a whole deal's review finds it then)."""
    events = record.deals[index].events
    if n >= len(events) or n not in plays(record, index):
        return None
    event = events[n]
    if deal.is_over or deal.to_play != event.seat:
        return None
    move = REVEAL_MOVE if event.kind == REVEAL else event.card
    if move not in legal_moves(deal):
        return None
    found = value_of(move)
    cost = None if found is None else cost_against(found[0], found[1], record)
    if cost is None:
        return None
    best = tuple(move_name(m) for m in best_moves())
    return CostlyPlay(index, n, deal.number, event.seat, move_name(move), found[1], found[0], cost, best)


def legal_moves(deal: Deal) -> list:
    """The engine's word on what the seat to play may do now: its legal cards, and the reveal
    where one is allowed."""
    return list(deal.legal_plays() or []) + ([REVEAL_MOVE] if deal.can_reveal() else [])


def cost_against(best, value, record: Record) -> str | None:
    """What a move of `value` costs when `best` was to be had, in words; None when nothing.
    The one place that decides it: the record's moves (`judged_move`, whichever way the
    values were found) and every move an answer lists (`cards[].cost`) alike."""
    return None if value == best else cost_words(best, value, record)


def move_name(move) -> str:
    return move.text if isinstance(move, Card) else move


def cost_words(best, value, record: Record) -> str:
    """What a play lost, in words: tricks, or the first difference of R-38's outcome (the
    margin, else the deal's winner: there is no third term)."""
    if not isinstance(best, Outcome):
        return _count(best - value, "trick")
    if best.margin != value.margin:
        unit = "point" if _by_points(record) else "court"
        return _count(best.margin - value.margin, unit) + " of the deal's margin"
    return f"the deal ({_DEAL[best.deal]} with best play, {_DEAL[value.deal]} after it)"


_DEAL = {1: "won", 0: "won by neither team", -1: "lost"}


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def _by_points(record: Record) -> bool:
    return resolve(record.preset, record.options).target_is_points
