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


_COUNTED = {"deals": "deal", "events": "event"}


def place(pointer: str | None) -> str:
    """Where a JSON pointer points, as a person counts (deals, events and cards from 1; seats
    by number): "/deals/0/events/4/play" is "deal 1, event 5, play". Empty when it holds no index."""
    parts = (pointer or "").split("/")[1:]
    if not any(part.isdigit() for part in parts):
        return ""
    out = []
    for k, part in enumerate(parts):
        before = parts[k - 1] if k else None
        if not part.isdigit():
            out.append(part)
        elif before in _COUNTED:
            out[-1] = f"{_COUNTED[before]} {int(part) + 1}"
        elif before in ("hands", "players"):
            out[-1] = f"seat {part}'s {before[:-1]}"
        elif k >= 2 and parts[k - 2] == "hands":
            out.append(f"card {int(part) + 1}")
        else:
            out.append(f"item {int(part) + 1}")
    return ", ".join(out)
