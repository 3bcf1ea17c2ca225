"""Cards and seats as a person reads them: suit symbols, colours, spoken names."""
from __future__ import annotations

import re

from referee.engine import Card

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
         "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}


def card_view(text: str | None) -> dict:
    """A card for the page; None is a card seen only from the back (face down, unseen)."""
    if text is None:
        return {"text": None, "label": "a face-down card", "face": "🂠", "colour": "back"}
    card = Card.parse(text)
    return {"text": card.text, "label": f"{RANKS[card.rank]} of {SUITS[card.suit]}",
            "face": card.face, "colour": "red" if card.suit in "HD" else "black"}


SEAT = re.compile(r"\bseat ([0-3])\b")


def said(text: str | None, names: list[str]) -> str:
    """A message of the engine's with each seat called by the record's player name ("Asha (seat 2)")."""
    return SEAT.sub(lambda m: names[int(m.group(1))], text or "")


def seat_names(players) -> list[str]:
    """How the pages call each seat: "Asha (seat 2)" when the record names its players (a stored
    match without names holds "<table> seat 2", which says no more than "seat 2")."""
    if players and len(players) == 4 and not all(str(p).endswith(f"seat {s}") for s, p in enumerate(players)):
        return [f"{p} (seat {s})" for s, p in enumerate(players)]
    return [f"seat {s}" for s in range(4)]
