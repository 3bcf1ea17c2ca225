"""Exceptions that say where and why."""
from __future__ import annotations

import json


def shown(value, most: int = 60) -> str:
    """A value as a message quotes it: as JSON (`{"suit": "S"}`, `"XX"`), cut short, and safe
    for any input (a value nested a thousand deep is not walked to the bottom)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        return "a value that is not plain JSON" if not isinstance(value, (list, dict)) else "a deeply nested value"
    return text if len(text) <= most else text[:most - 1] + "…"


def nearest(name, known) -> str | None:
    """The known name a mistyped one most likely meant (`court_piece` -> `court-piece`), or None."""
    import difflib

    if not isinstance(name, str):
        return None
    found = difflib.get_close_matches(name.lower(), list(known), n=1, cutoff=0.75)
    return found[0] if found else None


def did_you_mean(name, known) -> str:
    """`; did you mean "court-piece"?` for a message about a mistyped name, or nothing."""
    near = nearest(name, known)
    return f"; did you mean {shown(near)}?" if near else ""


class RefereeError(ValueError):
    """Base of every error the engine raises."""


class InvalidCardError(RefereeError):
    """Text that is not a card or a suit."""


class OptionError(RefereeError):
    """An unknown preset, option, or a bad option value."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


class RecordFormatError(RefereeError):
    """A record whose shape is wrong (missing fields, wrong types)."""

    def __init__(self, message: str, pointer: str = ""):
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer
        self.detail = message


# The rule behind each record error code (rulebook ids).
ERROR_RULES = {
    "bad_hands": ["table.deal"], "card_not_in_hand": ["table.deal"], "card_played_twice": ["table.deal"],
    "out_of_turn": ["trick.turn"], "play_after_end": ["record.after-end"], "bad_take_back": ["R-12"],
    "bad_reveal": ["trump.hidden.lead", "R-13"], "bad_face_down": ["trump.hidden.face-down", "R-13"],
    "bad_trump": ["record.trump"], "illegal_play": ["R-3"], "unfinished_deal_not_last": ["record.deals"],
    "bad_bid": ["record.bid"],
    "claim_without_hands": ["R-33"], "bad_claim": ["R-33"], "bad_answer": ["R-33"], "play_after_claim": ["R-33"],
    "claim_unsettled": ["R-34"],
}


class RecordError(RefereeError):
    """A record that describes no game that could have been played."""

    def __init__(self, code: str, message: str, event: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
