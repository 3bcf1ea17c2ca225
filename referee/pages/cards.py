"""Cards and seats as a person reads them: suit symbols, colours, spoken names."""
from __future__ import annotations

from referee.engine import Card

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
         "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}


def card_view(text: str | None) -> dict:
    """A card for the page; None is a card seen only from the back (face down, unseen)."""
    if text is None:
        return {"text": None, "label": "a face-down card", "face": "🂠", "colour": "back"}
    card = Card.parse(text)
    rank = "10" if card.rank == "T" else card.rank
    return {"text": card.text, "label": f"{RANKS[card.rank]} of {SUITS[card.suit]}",
            "face": rank + SYMBOLS[card.suit], "colour": "red" if card.suit in "HD" else "black"}


def seat_names(players) -> list[str]:
    if players and len(players) == 4:
        return [f"{p} (seat {s})" for s, p in enumerate(players)]
    return [f"seat {s}" for s in range(4)]
