"""The hidden trump's whole life in one place (hidden, band): set aside face down, shown on
an ask, on the caller's lead, at a show-out (band), when the caller follows with it (band),
when played while hidden (never face down, R-35), as the caller's 13th card, and the
caller's face-down discards.

Functions of a `Deal`'s state that the replay calls; the order in which they apply at a
play is `before_play`'s. What a seat may do about the hidden card now is `legal.py`'s.
"""
from __future__ import annotations

from .cards import Card
from .errors import RecordError
from .kernel_play import (BAR_CALLER, BAR_NONE, BAR_NOT_CALLER_ON_LEAD, BAR_PAIR_CALLERS, REVEAL_FOLLOWED,
                          REVEAL_OPPONENT, REVEAL_PLAYED, REVEAL_VOID, REVEAL_VOID_MUST, ask_obliges, reveal_at_play,
                          reveal_bar)
from .legal import CALLER_BARRED, check_turn, excluded, may_play_hidden
from .trump import REVEAL_RULES
from .violations import Violation, add
from .voids import Void, declare


def reveal(deal, ev, i: int) -> None:
    """The `reveal` event: the caller shows the trump on their lead, or a seat that cannot
    follow asks for it (trump.hidden.lead, trump.hidden.ask)."""
    seat, trump = ev.seat, deal.trump
    if not deal.trump_mode.concealed:
        raise RecordError("bad_reveal", f"seat {seat} asks for the trump, but trump mode \"{trump.mode}\" has no hidden trump", i)
    if not trump.is_hidden:
        raise RecordError("bad_reveal", f"seat {seat} asks for the trump, but it was already shown in trick {trump.revealed['trick']}", i)
    k = check_turn(deal, seat, i, lambda: "reveals the trump")
    bar = reveal_bar(deal.rules, seat, k == 0)
    if bar != BAR_NONE:
        raise RecordError("bad_reveal", f"seat {seat} {BARRED[bar](deal)}", i)
    if k == 0:
        show(deal, seat, i, "on_lead")
        deal.lead_must_trump = True
        return
    set_aside = excluded(deal, seat)  # before the card is shown
    show(deal, seat, i, "asked")
    deal.ask_void = declare(deal, "ask_while_able_to_follow", seat, deal.led, i, None, deal.led, None, excluded=set_aside)
    if ask_obliges(deal.rules):
        deal.asker = seat


# What a bad reveal is told, by what barred it (kernel.reveal_bar).
BARRED = {
    BAR_PAIR_CALLERS: lambda deal: "reveals the trump, but in Band Rang only an opponent of the caller who cannot "
                                   "follow shows it",
    BAR_CALLER: lambda deal: f"reveals the trump, but with band_caller_reveals false the caller never shows it "
                             f"({CALLER_BARRED})",
    BAR_NOT_CALLER_ON_LEAD: lambda deal: f"reveals on lead, but only the caller (seat {deal.caller}) may show the "
                                         "trump on their own lead",
}


def show(deal, seat: int, i: int, how: str) -> None:
    """The face-down card is turned up at event `i` (`how`: a key of REVEAL_RULES)."""
    deal.trump.reveal(deal.number, i, seat, how)
    deal.trick_reveal = {"event": i, "seat": seat, "after_cards": deal.position, "how": how,
                         "rule": REVEAL_RULES[how]}


def before_play(deal, seat: int, card: Card, face_down: bool, k: int, i: int) -> None:
    """While the trump card lies face down (hidden, band), before a card is placed:
    1. band auto: a show-out by any seat turns it up first (R-14, R-23);
    2. band auto: so does the caller following with it as their only card of the
       suit led (R-23); it is back in hand, so the play is legal;
    3. the hidden card played while still face down: legal as the 13th card (R-6),
       otherwise `hidden_card_played` (R-13, R-23)."""
    hidden_card = card is deal.set_aside
    code = reveal_at_play(deal.rules, seat, k, k > 0 and (face_down or card.suit != deal.led), hidden_card)
    if code == REVEAL_OPPONENT:
        show(deal, seat, i, "opponent_void")
        deal.must_trump = seat
    elif code == REVEAL_VOID or code == REVEAL_VOID_MUST:
        show(deal, seat, i, "void")
        if code == REVEAL_VOID_MUST:
            deal.must_trump = seat
    elif code == REVEAL_FOLLOWED:
        _follow_with_hidden(deal, seat, card, i)
    elif code == REVEAL_PLAYED:
        _hidden_card_played(deal, seat, card, i)


def _follow_with_hidden(deal, seat: int, card: Card, i: int) -> None:
    """R-23: the caller follows suit with the face-down card. Legal if it was their only
    card of the suit led (without hands: until a later play of the suit proves otherwise)."""
    led = deal.led
    if deal.number == 13:
        show(deal, seat, i, "last_card")
        return
    if deal.hands is not None and not may_play_hidden(deal, seat):
        _hidden_card_played(deal, seat, card, i)
        return
    show(deal, seat, i, "followed")
    if deal.hands is None:
        deal.voids[seat].append(Void("hidden_card_played", seat, led, deal.number, i, card, led, i, card, band=True))


def _hidden_card_played(deal, seat: int, card: Card, i: int) -> None:
    if deal.number == 13:  # the last card; showing it and playing it is legal
        show(deal, seat, i, "last_card")
        return
    v = Violation("hidden_card_played", seat,
                  f"seat {seat} played the hidden trump card {card.face} while it was face down",
                  deal.number, i, card, deal.led, "hand", None, i)
    v.extra_rules = deal.trump_mode.played_rules
    add(deal, v)
    show(deal, seat, i, "played")


def cite_face_up(deal, i: int) -> None:
    """The hidden card's play at event `i` was marked face down: its reveal, and its
    `hidden_card_played` if any, also name R-35."""
    rule = [*deal.trump.revealed["rule"], "R-35"]
    deal.trump.revealed = dict(deal.trump.revealed, rule=rule)
    deal.trick_reveal = dict(deal.trick_reveal, rule=rule)
    for v in deal.violations:
        if v.event == i and v.code == "hidden_card_played":
            v.extra_rules = (*v.extra_rules, "R-35")


def check_face_down(deal, seat: int, k: int, i: int) -> None:
    """A card played face down: only by the caller, not on lead, while the trump is hidden
    (hidden_caller_face_down); else the record error `bad_face_down`."""
    why = None
    if not deal.trump_mode.face_down_discards:
        why = "face-down play is allowed only in hidden trump with hidden_caller_face_down"
    elif seat != deal.caller:
        why = f"only the caller (seat {deal.caller}) may play face down"
    elif not deal.trump.is_hidden:
        why = "the trump is already shown"
    elif k == 0:
        why = "a lead cannot be face down"
    if why:
        raise RecordError("bad_face_down", f"seat {seat} plays face down: {why}", i)
