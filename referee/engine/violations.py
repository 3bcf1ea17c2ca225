"""Rule breaches at the table, and the void claims that prove them (revoke.*, R-2, R-7)."""
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
    "hidden_card_played": "followed a {led} lead with the face-down trump card {card}",
}


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
                 play_event: int | None = None, linked: "Claim | None" = None):
        self.code, self.seat, self.message = code, seat, message
        self.trick, self.event, self.card, self.led = trick, event, card, led
        self.proof, self.proof_event, self.play_event = proof, proof_event, play_event
        self.corrected = False
        self.penalty = False
        self.pending = False  # its trick is still open, so it may be taken back
        self.linked = linked
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


class Claim:
    """A play that says 'I hold no card of this suit'. Proven false by the hand,
    or later by the same player playing a card of the suit (R-2)."""

    __slots__ = ("code", "seat", "suit", "trick", "event", "card", "led", "play_event",
                 "excluded", "corrected", "asked", "band")

    def __init__(self, code, seat, suit, trick, event, card, led, play_event, excluded, asked=None, band=False):
        self.code, self.seat, self.suit, self.trick, self.event = code, seat, suit, trick, event
        self.card, self.led, self.play_event, self.excluded = card, led, play_event, excluded
        self.corrected = False
        self.asked = asked  # must_trump_after_ask: the ask claim it depends on
        self.band = band    # made by band's automatic reveal, not by an ask

    def violation(self, proof: str, evidence: Card, proof_event: int | None) -> Violation:
        what = _WHAT.get(self.code, self.code).format(card=self.card.face if self.card else None, led=SUIT_NAMES.get(self.led, self.led))
        if proof == "hand":
            why = f"while holding {evidence.face}"
        else:
            another = "another " if self.code == "hidden_card_played" else "a "
            why = f"and later played {evidence.face} (event {proof_event + 1}), so held {another}{SUIT_NAMES[self.suit]}"
        v = Violation(self.code, self.seat, f"seat {self.seat} {what} {why}", self.trick, self.event,
                      self.card, self.led, proof, proof_event, self.play_event, self)
        v.proof_card = evidence
        v.corrected = self.corrected
        return v

    def unproven(self, face_down: bool = False) -> dict:
        data = {"code": self.code, "trick": self.trick, "event": self.event, "seat": self.seat,
                "card": str(self.card) if self.card else None, "void": self.suit,
                "message": self._unproven_message()}
        if face_down:
            data["face_down"] = True
        return data

    def _unproven_message(self) -> str:
        suit = SUIT_NAMES[self.suit]
        if self.code == "hidden_card_played":
            return (f"seat {self.seat} followed with the face-down trump card {self.card.face} at event {self.event + 1}; "
                    f"whether they held another {suit} is not known yet")
        return f"seat {self.seat} showed out of {suit}s at event {self.event + 1} and was never contradicted"
