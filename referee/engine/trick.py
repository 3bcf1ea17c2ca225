"""Tricks: cards on the table, who wins (RULES.md §2, §5)."""
from __future__ import annotations

from typing import NamedTuple

from .cards import Card


class Played:
    """A card on the table, with whether it counted as a trump when played."""

    __slots__ = ("seat", "card", "event", "face_down", "trump")

    def __init__(self, seat: int, card: Card, event: int, face_down: bool, trump: bool):
        self.seat = seat
        self.card = card
        self.event = event
        self.face_down = face_down
        self.trump = trump

    def as_dict(self) -> dict:
        data = {"seat": self.seat, "card": self.card.text, "event": self.event}
        if self.trump:
            data["trump"] = True
        if self.face_down:
            data["face_down"] = True
        return data


def winning_play(cards: list[Played], trump_suit: str | None) -> Played:
    """The highest active trump; if the trump suit is the suit led (or no trump was
    played), the highest card of the suit led. A face-down card never wins."""
    led = cards[0].card.suit
    best = None
    if trump_suit != led:
        for p in cards:
            if p.trump and not p.face_down and (best is None or p.card.strength > best.card.strength):
                best = p
        if best is not None:
            return best
    for p in cards:
        if p.card.suit == led and not p.face_down and (best is None or p.card.strength > best.card.strength):
            best = p
    return best  # the lead itself always qualifies


class Trick(NamedTuple):
    number: int
    leader: int
    cards: tuple[Played, ...]
    winner: int
    winning_card: Card
    collected_by: int | None
    pile_after: int
    collected: int = 0
    reveal: dict | None = None
    trump_set: dict | None = None

    @property
    def led(self) -> str:
        return self.cards[0].card.suit

    def as_dict(self) -> dict:
        data = {
            "number": self.number,
            "leader": self.leader,
            "cards": [{"seat": p.seat, "card": p.card.text, "event": p.event} if not (p.trump or p.face_down)
                      else p.as_dict() for p in self.cards],
            "winner": self.winner,
            "winning_team": self.winner & 1,
            "winning_card": self.winning_card.text,
            "collected_by": self.collected_by,
            "pile_after": self.pile_after,
            "collected": self.collected,
        }
        if self.reveal is not None:
            data["reveal"] = self.reveal
        if self.trump_set is not None:
            data["trump_set"] = self.trump_set
        return data
