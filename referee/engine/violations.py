"""Rule breaches at the table, and the void claims that prove them (RULES.md §3, R-2, R-7)."""
from __future__ import annotations

from .cards import SUIT_NAMES, Card

ILLEGAL_PLAYS = frozenset({
    "revoke", "ask_while_able_to_follow", "must_trump_after_ask",
    "must_lead_trump_after_reveal", "hidden_card_played",
})

_WHAT = {
    "revoke": "played {card} on a {led} lead",
    "ask_while_able_to_follow": "asked for the hidden trump on a {led} lead",
    "must_trump_after_ask": "played {card} after the trump was shown to them",
    "must_lead_trump_after_reveal": "showed the trump on lead and then led {card}",
}


class Violation:
    """A breach made at the table; the record is still a possible game."""

    __slots__ = ("code", "trick", "event", "seat", "card", "led", "proof", "proof_event",
                 "corrected", "penalty", "message", "play_event", "linked")

    def __init__(self, code: str, seat: int, message: str, trick: int | None = None,
                 event: int | None = None, card: Card | None = None, led: str | None = None,
                 proof: str | None = None, proof_event: int | None = None,
                 play_event: int | None = None, linked: "Claim | None" = None):
        self.code, self.seat, self.message = code, seat, message
        self.trick, self.event, self.card, self.led = trick, event, card, led
        self.proof, self.proof_event, self.play_event = proof, proof_event, play_event
        self.corrected = False
        self.penalty = False
        self.linked = linked

    @property
    def is_illegal_play(self) -> bool:
        return self.code in ILLEGAL_PLAYS

    def as_dict(self) -> dict:
        data = {"code": self.code, "trick": self.trick, "event": self.event, "seat": self.seat,
                "card": str(self.card) if self.card else None, "led": self.led,
                "proof": self.proof, "corrected": self.corrected, "penalty": self.penalty,
                "message": self.message}
        if self.proof_event is not None:
            data["proof_event"] = self.proof_event
        return data


class Claim:
    """A play that says 'I hold no card of this suit'. Proven false by the hand,
    or later by the same player playing a card of the suit (R-2)."""

    __slots__ = ("code", "seat", "suit", "trick", "event", "card", "led", "play_event",
                 "excluded", "corrected", "asked")

    def __init__(self, code, seat, suit, trick, event, card, led, play_event, excluded, asked=None):
        self.code, self.seat, self.suit, self.trick, self.event = code, seat, suit, trick, event
        self.card, self.led, self.play_event, self.excluded = card, led, play_event, excluded
        self.corrected = False
        self.asked = asked  # must_trump_after_ask: the ask claim it depends on

    def violation(self, proof: str, evidence: Card, proof_event: int | None) -> Violation:
        what = _WHAT.get(self.code, self.code).format(card=self.card, led=SUIT_NAMES.get(self.led, self.led))
        if proof == "hand":
            why = f"while holding {evidence}"
        else:
            why = f"and later played {evidence} (event {proof_event}), so held a {SUIT_NAMES[self.suit]}"
        v = Violation(self.code, self.seat, f"seat {self.seat} {what} {why}", self.trick, self.event,
                      self.card, self.led, proof, proof_event, self.play_event, self)
        v.corrected = self.corrected
        return v

    def unproven(self) -> dict:
        return {"code": self.code, "trick": self.trick, "event": self.event, "seat": self.seat,
                "card": str(self.card) if self.card else None, "void": self.suit,
                "message": f"seat {self.seat} showed out of {SUIT_NAMES[self.suit]}s at event "
                           f"{self.event} and was never contradicted"}
