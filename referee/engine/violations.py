"""Rule breaches at the table (revoke.*, R-1, R-7). Most illegal plays are a declared void
proven false (`voids.py`)."""
from __future__ import annotations

from .cards import Card
from .errors import RecordError

ILLEGAL_PLAYS = frozenset({
    "revoke", "ask_while_able_to_follow", "must_trump_after_ask",
    "must_lead_trump_after_reveal", "hidden_card_played",
})

# The rule each breach breaks (rulebook ids); `Violation.rule` adds how it was proven and judged.
BREACH_RULES = {
    "revoke": ("trick.follow",),
    "ask_while_able_to_follow": ("trump.hidden.ask", "R-13"),
    "must_trump_after_ask": ("trump.hidden.ask", "R-23"),
    "must_lead_trump_after_reveal": ("trump.hidden.lead",),
    "hidden_card_played": ("trump.hidden.card", "R-13"),
    "wrong_dealer": ("dealer.next",),
    "wrong_caller": ("trump.pass", "R-22"),
    "bad_redeal": ("trump.redeal", "R-9"),
}


class Violation:
    """A breach made at the table; the record is still a possible game."""

    __slots__ = ("code", "trick", "event", "seat", "card", "led", "proof", "proof_event",
                 "corrected", "penalty", "message", "play_event", "linked", "pending", "extra_rules", "proof_card")

    def __init__(self, code: str, seat: int, message: str, trick: int | None = None,
                 event: int | None = None, card: Card | None = None, led: str | None = None,
                 proof: str | None = None, proof_event: int | None = None,
                 play_event: int | None = None, linked=None):
        self.code, self.seat, self.message = code, seat, message
        self.trick, self.event, self.card, self.led = trick, event, card, led
        self.proof, self.proof_event, self.play_event = proof, proof_event, play_event
        self.corrected = False
        self.penalty = False
        self.pending = False  # its trick is still open, so it may be taken back
        self.linked = linked  # the declared void (voids.Void) this breach proved false
        self.extra_rules: tuple[str, ...] = ()
        self.proof_card: Card | None = None  # the card that proves it: held in hand, or played later

    @property
    def is_illegal_play(self) -> bool:
        return self.code in ILLEGAL_PLAYS

    @property
    def rule(self) -> list[str]:
        """The rules that decided it: the one broken, then how it was proven and judged."""
        rules = list(BREACH_RULES[self.code]) + list(self.extra_rules)
        if self.linked is not None and self.linked.band:  # band auto: the reveal came unasked
            rules = ["trump.band", "R-23"] if self.code != "revoke" else rules + ["R-23"]
        if self.proof == "later_play":
            rules.append("R-2")
        if self.corrected:
            rules.append("revoke.correct")
        if self.penalty:
            rules += ["revoke.penalty", "R-1"]
        if self.pending:
            rules.append("R-28")
        return list(dict.fromkeys(rules))

    def as_dict(self) -> dict:
        data = {"code": self.code, "trick": self.trick, "event": self.event, "seat": self.seat,
                "card": str(self.card) if self.card else None, "led": self.led,
                "proof": self.proof, "corrected": self.corrected, "penalty": self.penalty,
                "pending": self.pending, "message": self.message, "rule": self.rule}
        if self.proof_event is not None:
            data["proof_event"] = self.proof_event
        if self.proof_card is not None:
            data["proof_card"] = self.proof_card.text
        return data


def add(deal, violation: Violation) -> None:
    """A breach found in `deal`; under `illegal_play: reject` an illegal play is refused (R-3)."""
    deal.violations.append(violation)
    if deal.options.illegal_play == "reject" and violation.is_illegal_play:
        raise RecordError("illegal_play", f"illegal play: {violation.message}", violation.event)
