"""What a show-out proves (R-2, revoke.*, R-13, R-23, R-27).

A play off the suit led says "I hold no card of this suit": it declares its seat void in
the suit. So does an ask for the hidden trump (void in the suit led), a play that leaves an
obligation to trump unmet (void in trumps), and the caller following with the face-down card
(void in the suit led, bar that card). Each declaration is a `Void`. With hands it is judged
at once against the hand. Without them it stays open (`deal.voids`) until the same seat plays
a card of the suit, which proves it false (R-2); a void never contradicted is `unproven`. A
void proven false is a breach, a `Violation`.

(A claim is something else: a table claim of tricks, `claims.py`, R-33.)
"""
from __future__ import annotations

from .cards import SUIT_NAMES, Card
from .legal import excluded as set_aside_for, holds
from .trick import EVENT, FACE_DOWN, SEAT
from .violations import Violation, add

_WHAT = {
    "revoke": "played {card} on a {led} lead",
    "ask_while_able_to_follow": "asked for the hidden trump on a {led} lead",
    "must_trump_after_ask": "played {card} after the trump was shown to them",
    "must_lead_trump_after_reveal": "showed the trump on lead and then led {card}",
    "hidden_card_played": "followed a {led} lead with the face-down trump card {card}",
}


class Void:
    """A declared void: 'I hold no card of `suit`' (bar `excluded`), said by the play or ask
    at `event`. Proven false by the hand, or later by the same seat playing a card of the
    suit (R-2)."""

    __slots__ = ("code", "seat", "suit", "trick", "event", "card", "led", "play_event",
                 "excluded", "corrected", "asked", "band")

    def __init__(self, code, seat, suit, trick, event, card, led, play_event, excluded, asked=None, band=False):
        self.code, self.seat, self.suit, self.trick, self.event = code, seat, suit, trick, event
        self.card, self.led, self.play_event, self.excluded = card, led, play_event, excluded
        self.corrected = False
        self.asked = asked  # must_trump_after_ask: the void its ask declared
        self.band = band    # made by band's automatic reveal, not by an ask

    def violation(self, proof: str, evidence: Card, proof_event: int | None) -> Violation:
        """The breach this void was, proven by the `hand` or a `later_play` of `evidence`."""
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


def declare(deal, code, seat, suit, i, card, led, play_event, asked=None, excluded=None) -> Void | None:
    """Seat `seat` says at event `i` that it holds no `suit`. With hands: a breach now if it
    does (an ask's void is kept either way: a later obligation links to it); None when
    true. Without hands: open until a later play proves it false, unless the caller's shown
    trump card, back in their hand, already does."""
    if excluded is None:
        excluded = set_aside_for(deal, seat)
    band = code == "must_trump_after_ask" and asked is None or code == "hidden_card_played"
    if deal.hands is not None:
        held = holds(deal, seat, suit, excluded)
        if held is None and code != "ask_while_able_to_follow":
            return None  # true: nothing to record (only an ask's void is linked to later)
        void = Void(code, seat, suit, deal.number, i, card, led, play_event, excluded, asked, band)
        if held is not None and not (asked is not None and _broken(deal, asked)):
            add(deal, void.violation("hand", held, None))
        return void
    void = Void(code, seat, suit, deal.number, i, card, led, play_event, excluded, asked, band)
    known, trump = deal.trump.card, deal.trump
    if (seat == deal.caller and known is not None and deal.trump_mode.concealed and not trump.is_hidden
            and known in deal.unplayed and known.suit == suit and known is not excluded):
        add(deal, void.violation("hand", known, None))  # the shown card went back to the caller's hand
        return void
    deal.voids[seat].append(void)
    return void


def _broken(deal, void: Void) -> bool:
    return any(v.linked is void for v in deal.violations)


def contradict(deal, seat: int, card: Card, i: int) -> None:
    """`seat` plays `card` at event `i`: its open voids of that suit were false (R-2)."""
    voids = deal.voids[seat]
    if not voids:
        return
    keep = []
    for void in voids:
        if void.suit == card.suit and card is not void.excluded:
            _proven_false(deal, void, card, i)
        else:
            keep.append(void)
    deal.voids[seat] = keep


def _proven_false(deal, void: Void, card: Card, i: int) -> None:
    """A later play proves a void false (R-2). One failure is one breach (R-13, R-23): an
    obligation to trump falls when the same play is proven a revoke, or the ask it came from
    is proven illegal."""
    if void.code == "must_trump_after_ask" and any(
            v.play_event == void.play_event and v.code == "revoke" or void.asked is not None and v.linked is void.asked
            for v in deal.violations):
        return
    add(deal, void.violation("later_play", card, i))
    if void.code in ("revoke", "ask_while_able_to_follow"):
        deal.violations[:] = [v for v in deal.violations if not (
            v.code == "must_trump_after_ask" and v.linked is not None
            and (v.play_event == void.play_event or v.linked.asked is void))]


def unproven(deal) -> list[dict]:
    """Show-outs never contradicted, of seats that still hold cards: once a seat has
    played all 13, its hand is known and each show-out was legal (R-27)."""
    done = seats_done(deal)
    down = {p[EVENT] for t in deal.tricks for p in t.plays if p[FACE_DOWN]}
    down |= {p[EVENT] for p in deal.slots if p is not None and p[FACE_DOWN]}
    out = []
    for seat, voids in enumerate(deal.voids):
        if not done[seat]:
            out += [v.unproven(v.play_event in down) for v in voids
                    if v.code in ("revoke", "hidden_card_played") and not v.corrected]
    return out


def seats_done(deal) -> list[bool]:
    """Per seat: has it played all 13 of its cards?"""
    count = [0, 0, 0, 0]
    for t in deal.tricks:
        for p in t.plays:
            count[p[SEAT]] += 1
    for p in deal.slots:
        if p is not None:
            count[p[SEAT]] += 1
    return [n == 13 for n in count]
