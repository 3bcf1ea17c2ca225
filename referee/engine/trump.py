"""Trump modes (docs/rules.md: trump.*): when a suit counts as trump, and who may reveal it."""
from __future__ import annotations

from .cards import Card


# How the face-down card came to be shown, and the rule that showed it.
REVEAL_RULES = {
    "on_lead": ["trump.hidden.lead"],
    "asked": ["trump.hidden.ask"],
    "void": ["trump.band", "R-14", "R-23"],
    "followed": ["trump.band", "R-23"],
    "played": ["trump.hidden.card", "R-13"],
    "last_card": ["trump.hidden.card", "R-6"],
    "opponent_void": ["trump.hidden.opponent"],
    "claim": ["R-33"],
}


class Trump:
    """The trump of one deal.

    `suit` is the trump suit once the table knows it (None while hidden or unset);
    `card` the hidden or turned-up card, if any; `secret_suit` the suit as set when dealt
    (the face-down card's, known to its caller, before the table knows it). Modes differ only in when `suit`
    becomes known: at once (called, blind, random), at a reveal (hidden, band), or
    at the first card played by a player who cannot follow (first_void).
    """

    __slots__ = ("mode", "suit", "card", "by", "band_reveal", "revealed", "set_by", "secret_suit",
                 "is_concealed_mode", "is_hidden")

    def __init__(self, mode: str, suit: str | None = None, card: Card | None = None,
                 by: int | None = None, band_reveal: str = "ask"):
        self.mode = mode
        self.card = card
        self.by = by
        self.band_reveal = band_reveal if mode == "band" else "ask"
        self.revealed: dict | None = None  # {"trick", "event", "seat", "implied"?}
        self.set_by: dict | None = None     # first_void: who set it
        self.secret_suit = suit
        self.is_concealed_mode = mode in ("hidden", "band")
        self.is_hidden = self.is_concealed_mode  # the face-down card is still face down
        self.suit = None if self.is_concealed_mode or mode == "first_void" else suit

    @property
    def reveals_on_void(self) -> bool:
        """band auto variants: the first show-out turns the card up (R-14)."""
        return self.mode == "band" and self.band_reveal != "ask"

    @property
    def must_trump_on_void(self) -> bool:
        return self.mode == "band" and self.band_reveal == "auto_must_trump"

    def reveal(self, trick: int, event: int, seat: int, how: str) -> None:
        self.revealed = {"trick": trick, "event": event, "seat": seat, "how": how, "rule": REVEAL_RULES[how]}
        self.suit = self.secret_suit
        self.is_hidden = False

    def set_first_void(self, suit: str, trick: int, event: int, seat: int) -> None:
        self.suit = suit
        self.set_by = {"trick": trick, "event": event, "seat": seat, "rule": ["trump.first-void", "R-15"]}

    def unset_first_void(self) -> None:
        self.suit = None
        self.set_by = None

    def as_dict(self, finished: bool = True) -> dict:
        """The trump as the verdict shows it; a card never shown is turned up
        when the deal is over (trump.hidden.end), not before."""
        data: dict = {"mode": self.mode, "suit": self.suit}
        if self.mode in ("hidden", "band") and self.card is None:
            data["redeal"] = True
        elif self.mode in ("hidden", "band"):
            data["card"] = str(self.card)
            data["revealed"] = self.revealed
            if self.revealed is None:
                data["turned_up_at_end"] = finished
                if finished:
                    data["suit"] = self.secret_suit
                    data["rule"] = ["trump.hidden.end"]
        elif self.card is not None:
            data["card"] = str(self.card)
            data["rule"] = ["trump.random"] if self.mode == "random" else ["trump.blind"]
        elif self.mode != "first_void" and self.suit is None:
            data["redeal"] = True
        if self.by is not None:
            data["by"] = self.by
            data["rule"] = ["trump.called", "trump.pass"]
        if self.mode == "first_void":
            data["set"] = self.set_by
        return data
