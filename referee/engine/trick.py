"""Tricks: cards on the table, who wins (trick.winner, trump.*)."""
from __future__ import annotations

import json
from typing import NamedTuple, Tuple

from .cards import Card
from .kernel import SUIT_NUMBER, trick_winner

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
    """The play that wins the trick so far (the kernel's trick_winner: the highest active
    trump, else the highest card of the suit led; a face-down card never wins)."""
    # kernel.table_card's bytes (T_TRUMP is bit 6, T_DOWN bit 7); a whole trick (closing it)
    # without a loop: about a sixth less time (bench in the README)
    if len(plays) == 4:
        (_, c0, _, d0, t0), (_, c1, _, d1, t1), (_, c2, _, d2, t2), (_, c3, _, d3, t3) = plays
        cards = (c0.code | t0 << 6 | d0 << 7 | (c1.code | t1 << 6 | d1 << 7) << 8 | (c2.code | t2 << 6 | d2 << 7) << 16
                 | (c3.code | t3 << 6 | d3 << 7) << 24)
    else:
        cards = 0
        for p in reversed(plays):
            cards = cards << 8 | p[CARD].code | p[TRUMP] << 6 | p[FACE_DOWN] << 7
    return plays[trick_winner(cards, len(plays), SUIT_NUMBER[trump_suit])]


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

    def json_text(self) -> str:
        """`as_dict()` written as compact JSON text (the bytes orjson writes for it), without
        building the dicts: a verdict's tricks are most of its size. One `%` per trick, from
        a template per leader and card flags."""
        number, leader, plays, winner, card, collected_by, pile_after, collected, reveal, trump_set, rule = self
        if reveal is not None or trump_set is not None or rule is not None:
            return json.dumps(self.as_dict(), separators=(",", ":"), ensure_ascii=False)
        (_, c0, e0, d0, t0), (_, c1, e1, d1, t1), (_, c2, e2, d2, t2), (_, c3, e3, d3, t3) = plays
        shape = leader | (t0 | d0 << 1) << 2 | (t1 | d1 << 1) << 4 | (t2 | d2 << 1) << 6 | (t3 | d3 << 1) << 8
        return _TRICK_TEXT[shape] % (number, c0.text, e0, c1.text, e1, c2.text, e2, c3.text, e3, winner,
                                     winner & 1, card.text, "null" if collected_by is None else collected_by,
                                     pile_after, collected)

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


class _TrickTexts(dict):
    """`Trick.json_text`'s templates, one per leader and the four cards' trump and face-down
    flags (as `Trick._cards_dicts` writes them), made when first needed."""

    _FLAGS = ("}", ',"trump":true}', ',"face_down":true}', ',"trump":true,"face_down":true}')

    def __missing__(self, shape: int) -> str:
        leader = shape & 3
        cards = ",".join(f'{{"seat":{(leader + k) & 3},"card":"%s","event":%d{self._FLAGS[shape >> (2 + 2 * k) & 3]}'
                         for k in range(4))
        text = ('{"number":%d,"leader":' + str(leader) + ',"cards":[' + cards + '],"winner":%d,"winning_team":%d,'
                '"winning_card":"%s","collected_by":%s,"pile_after":%d,"collected":%d}')
        self[shape] = text
        return text


_TRICK_TEXT = _TrickTexts()
