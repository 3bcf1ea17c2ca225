"""Tricks: cards on the table, who wins (trick.winner, trump.*)."""
from __future__ import annotations

from typing import NamedTuple, Tuple

from .cards import Card

# A play as the replay stores it: (seat, card, event, face_down, trump). The replay's
# fast path builds plain tuples (a NamedTuple's constructor call per card cost ~7 us a
# deal); `Played` is the same tuple with names, made when someone looks (`Trick.cards`).
Play = Tuple[int, Card, int, bool, bool]
SEAT, CARD, EVENT, FACE_DOWN, TRUMP = range(5)


class Played(NamedTuple):
    """A card on the table, with whether it counted as a trump when played."""

    seat: int
    card: Card
    event: int
    face_down: bool = False
    trump: bool = False


def winning_play(plays: tuple[Play, ...], trump_suit: str | None) -> Play:
    """The highest active trump; if the trump suit is the suit led (or no trump was
    played), the highest card of the suit led. A face-down card never wins (and is
    never an active trump)."""
    led = plays[0][CARD].suit
    best = None
    top = -1
    if trump_suit != led:
        for p in plays:
            if p[TRUMP] and p[CARD].strength > top:
                best, top = p, p[CARD].strength
        if best is not None:
            return best
    for p in plays:
        card = p[CARD]
        if card.suit == led and card.strength > top and not p[FACE_DOWN]:
            best, top = p, card.strength
    return best  # type: ignore[return-value]  # the lead itself always qualifies


class Trick(NamedTuple):
    number: int
    leader: int
    plays: tuple[Play, ...]  # in play order; see `cards` for named values
    winner: int
    winning_card: Card
    collected_by: int | None
    pile_after: int
    collected: int = 0
    reveal: dict | None = None
    trump_set: dict | None = None
    rule: list[str] | None = None  # pile games: the rules behind what happened to the pile

    @property
    def cards(self) -> tuple[Played, ...]:
        return tuple(map(Played._make, self.plays))

    @property
    def led(self) -> str:
        return self.plays[0][CARD].suit

    def _cards_dicts(self) -> list[dict]:
        out = []
        for seat, card, event, face_down, trump in self.plays:
            data = {"seat": seat, "card": card.text, "event": event}
            if trump:
                data["trump"] = True
            if face_down:
                data["face_down"] = True
            out.append(data)
        return out

    def as_dict(self) -> dict:
        data = {
            "number": self.number,
            "leader": self.leader,
            "cards": self._cards_dicts(),
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
        if self.rule is not None:
            data["rule"] = self.rule
        return data
