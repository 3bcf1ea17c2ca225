"""The hidden trump's whole life in one place (hidden, band): set aside face down, shown on
an ask, on the caller's lead, at a show-out (band), when the caller follows with it (band),
when played while hidden (never face down, R-35), as the caller's 13th card, and the
caller's face-down discards.

`HiddenTrumpRules` is part of `Deal` (a mixin: it reads and writes the deal's table); the
order in which its rules apply at a play is `_before_play_hidden`.
"""
from __future__ import annotations

from .cards import Card
from .errors import RecordError
from .playrecord import Event
from .trump import REVEAL_RULES
from .violations import Claim, Violation


class HiddenTrumpRules:
    """The rules of a face-down trump card, for `Deal`."""

    def _excluded(self, seat: int) -> Card | None:
        """The hidden card is set aside: holding it does not let its owner follow."""
        return self.trump.card if self.trump.is_hidden and seat == self.caller else None

    def _playable(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        if self.trump.is_hidden and seat == self.caller and self.trump.card in hand and len(hand) > 1:
            return [c for c in hand if c is not self.trump.card]
        return list(hand)

    def can_reveal(self) -> bool:
        seat = self.to_play
        if seat is None or not self.trump.is_hidden:
            return False
        if self.options.deciding_pair and seat & 1 == self.callers:
            return False  # Band Rang: only an opponent's show-out shows it (trump.hidden.opponent)
        if self.position == 0:
            return seat == self.caller
        return self.hands is None or self._holds(seat, self.led, self._excluded(seat)) is None

    def legal_after_reveal(self) -> list[Card] | None:
        """With hands: what the seat to play could play if it showed (or asked for) the
        hidden trump now: the shown card is back in the caller's hand, and the asker or
        the caller on lead must then play a trump if they hold one."""
        if self.hands is None or not self.can_reveal():
            return None
        seat, suit = self.to_play, self.trump._secret
        hand = list(self.hands[seat])
        obliged = self.trump.mode == "hidden" or self.trump.band_reveal != "auto"
        trumps = [c for c in hand if c.suit == suit] if obliged else []
        return sorted(trumps or hand)

    def plays_face_up(self, card: Card) -> bool:
        """R-35: the hidden card, played while it lies hidden, is never played face down: a
        play of it marked face down is played as if face up (the mark is disregarded, so it
        is no `bad_face_down` either), shown by being played and a trump from that play."""
        return card is self._set_aside and self.trump.is_hidden

    def _cite_face_up(self, i: int) -> None:
        """The hidden card's play at event `i` was marked face down: its reveal, and its
        `hidden_card_played` if any, also name R-35."""
        rule = [*self.trump.revealed["rule"], "R-35"]
        self.trump.revealed = dict(self.trump.revealed, rule=rule)
        self.trick_reveal = dict(self.trick_reveal, rule=rule)
        for v in self.violations:
            if v.event == i and v.code == "hidden_card_played":
                v.extra_rules = (*v.extra_rules, "R-35")

    def can_play_face_down(self) -> bool:
        return (self.options.hidden_caller_face_down and self.trump.mode == "hidden"
                and self.to_play == self.caller and self.trump.is_hidden and self.position > 0
                and (self.hands is None or self._holds(self.caller, self.led, self.trump.card) is None))

    def _reveal(self, ev: Event, i: int) -> None:
        seat, trump = ev.seat, self.trump
        if not trump.is_concealed_mode:
            raise RecordError("bad_reveal", f"seat {seat} asks for the trump, but trump mode \"{trump.mode}\" has no hidden trump", i)
        if not trump.is_hidden:
            raise RecordError("bad_reveal", f"seat {seat} asks for the trump, but it was already shown in trick {trump.revealed['trick']}", i)
        k = self._check_turn(seat, i, lambda: "reveals the trump")
        if self.options.deciding_pair and seat & 1 == self.callers:
            raise RecordError("bad_reveal", f"seat {seat} reveals the trump, but in Band Rang only an opponent "
                              "of the caller who cannot follow shows it", i)
        if k == 0:
            if seat != self.caller:
                raise RecordError("bad_reveal", f"seat {seat} reveals on lead, but only the caller (seat {self.caller}) may show the trump on their own lead", i)
            self._reveal_trump(seat, i, "on_lead")
            self.lead_must_trump = True
            return
        excluded = self._excluded(seat)
        self._reveal_trump(seat, i, "asked")
        self._ask_claim = self._claim("ask_while_able_to_follow", seat, self.led, i, None, self.led, None, excluded=excluded)
        if trump.mode == "hidden" or trump.band_reveal != "auto":
            self.asker = seat

    def _reveal_trump(self, seat: int, i: int, how: str) -> None:
        self.trump.reveal(self.number, i, seat, how)
        self.trick_reveal = {"event": i, "seat": seat, "after_cards": self.position, "how": how,
                             "rule": REVEAL_RULES[how]}

    def _before_play_hidden(self, seat: int, card: Card, face_down: bool, k: int, i: int) -> None:
        """While the trump card lies face down (hidden, band), before a card is placed:
        1. band auto: a show-out by any seat turns it up first (R-14, R-23);
        2. band auto: so does the caller following with it as their only card of the
           suit led (R-23); it is back in hand, so the play is legal;
        3. the hidden card played while still face down: legal as the 13th card (R-6),
           otherwise `hidden_card_played` (R-13, R-23)."""
        trump = self.trump
        hidden_card = card is self._set_aside
        if k > 0 and self._opponent_reveals(seat) and card.suit != self.led:
            self._reveal_trump(seat, i, "opponent_void")
            self.must_trump = seat
            return
        if k > 0 and trump.reveals_on_void:
            if face_down or card.suit != self.led:
                self._reveal_trump(seat, i, "void")
                if trump.must_trump_on_void:
                    self.must_trump = seat
                return
            if hidden_card:
                self._follow_with_hidden(seat, card, i)
                return
        if hidden_card:
            self._hidden_card_played(seat, card, i)

    def _opponent_reveals(self, seat: int) -> bool:
        """Band Rang's hidden form: a show-out by an opponent of the caller turns the trump up
        just before it, and they must trump (trump.hidden.opponent)."""
        return (self.options.deciding_pair and self.trump.mode == "hidden" and self.trump.is_hidden
                and seat & 1 != self.callers)

    def _follow_with_hidden(self, seat: int, card: Card, i: int) -> None:
        """R-23: the caller follows suit with the face-down card. Legal if it was their only
        card of the suit led (without hands: until a later play of the suit proves otherwise)."""
        led = self.led
        if self.number == 13:
            self._reveal_trump(seat, i, "last_card")
            return
        if self.hands is not None and self._holds(seat, led, card) is not None:
            self._hidden_card_played(seat, card, i)
            return
        self._reveal_trump(seat, i, "followed")
        if self.hands is None:
            self._pending[seat].append(Claim("hidden_card_played", seat, led, self.number, i, card, led, i, card, band=True))

    def _hidden_card_played(self, seat: int, card: Card, i: int) -> None:
        if self.number == 13:  # the last card; showing it and playing it is legal
            self._reveal_trump(seat, i, "last_card")
            return
        v = Violation("hidden_card_played", seat,
                      f"seat {seat} played the hidden trump card {card.face} while it was face down",
                      self.number, i, card, self.led, "hand", None, i)
        if self.trump.mode == "band":
            v.extra_rules = ("trump.band", "R-23")
        self._add(v)
        self._reveal_trump(seat, i, "played")

    def _check_face_down(self, seat: int, k: int, i: int) -> None:
        why = None
        if not (self.trump.mode == "hidden" and self.options.hidden_caller_face_down):
            why = "face-down play is allowed only in hidden trump with hidden_caller_face_down"
        elif seat != self.caller:
            why = f"only the caller (seat {self.caller}) may play face down"
        elif not self.trump.is_hidden:
            why = "the trump is already shown"
        elif k == 0:
            why = "a lead cannot be face down"
        if why:
            raise RecordError("bad_face_down", f"seat {seat} plays face down: {why}", i)
