"""A card played or taken back, by the full rules (trick.follow, R-2, R-12, R-15, R-28): the
record errors a play can be (out of turn, a card not held or played twice), the voids it
declares and the breaches it makes, first_void's trump set by it, and the take-back that corrects a
possible revoke.

Functions of a `Deal`'s state that the replay (`Deal.push`) calls; the replay's fast path
places a plain legal play itself.
"""
from __future__ import annotations

from .cards import SUIT_NAMES, SUITS, Card
from .errors import RecordError
from .hidden import before_play, check_face_down, cite_face_up
from .kernel import SUIT_NUMBER
from .kernel_play import follow_suit, ruff_suit
from .legal import check_turn, hidden_suit, obligations, plays_face_up, slot
from .trick import Played
from .violations import Violation, add
from .voids import contradict, declare


def play(deal, ev, i: int) -> None:
    """The play event `ev` at event `i`."""
    seat, card, face_down = ev.seat, ev.card, ev.face_down
    trump = deal.trump
    face_up = face_down and plays_face_up(deal, card)
    if face_up:
        face_down = False  # the hidden card is never played face down
    k = slot(deal)
    if seat != (deal.leader + k) & 3:
        check_turn(deal, seat, i, lambda: f"plays {card.face}")
    hand = deal.held[seat]
    # A played card has left the hand, so one test covers both errors.
    if card not in hand or card is deal.set_aside:
        _check_card(deal, seat, card, i)
    if face_down:
        check_face_down(deal, seat, k, i)
    if deal.voids[seat]:
        contradict(deal, seat, card, i)
    if trump.is_hidden:
        before_play(deal, seat, card, face_down, k, i)
        if face_up:
            cite_face_up(deal, i)
    if k == 0:
        must = follow_suit(1, -1, SUIT_NUMBER[trump.suit], int(deal.lead_must_trump))
        if must >= 0 and card.code >> 4 != must:
            declare(deal, "must_lead_trump_after_reveal", seat, SUITS[must], i, card, None, i)
    elif face_down or card.suit != deal.slots[0].card.suit:
        _follow(deal, seat, card, face_down, i)
    deal.slots[k] = Played(seat, card, i, face_down, not face_down and card.suit == trump.suit)
    deal.filled += 1
    hand.discard(card)


def _check_card(deal, seat: int, card: Card, i: int) -> None:
    if _was_played(deal, card):
        raise RecordError("card_played_twice", f"seat {seat} plays {card.face}, which was already played in this deal", i)
    if deal.trump.card is card and deal.trump_mode.concealed and seat != deal.caller:
        raise RecordError("card_not_in_hand", f"seat {seat} plays {card.face}, but it is the caller's "
                          f"(seat {deal.caller}) face-down trump card", i)
    if deal.hands is not None and card not in deal.hands[seat]:
        owner = next((s for s in range(4) if card in deal.hands[s]), None)
        where = f"it was dealt to seat {owner}" if owner is not None else "it is not in their hand"
        raise RecordError("card_not_in_hand", f"seat {seat} plays {card.face}, but {where}", i)


def _was_played(deal, card: Card) -> bool:
    return not any(card in hand for hand in deal.held)


def _follow(deal, seat: int, card: Card, face_down: bool, i: int) -> None:
    """A card that does not follow suit (or is face down) after the lead."""
    led, trump = deal.led, deal.trump
    if face_down and card.suit == led:
        v = Violation("revoke", seat, f"seat {seat} played {card.face} face down on a "
                      f"{SUIT_NAMES[led]} lead: a card of the suit led must be played face up",
                      deal.number, i, card, led, "hand", None, i)
        v.extra_rules = ("trump.hidden.face-down", "R-13")
        add(deal, v)
        return
    if card.suit == led:
        return
    if deal.trump_mode.set_by_void and trump.suit is None:
        _set_first_void(deal, card, seat, i)
    # the kernel's order of what must be played (legal_suits): the suit led, then a trump
    revoke = declare(deal, "revoke", seat, SUITS[follow_suit(0, SUIT_NUMBER[led], -1, 0)], i, card, led, i)
    must = ruff_suit(deal.rules, seat, SUIT_NUMBER[led], SUIT_NUMBER[trump.suit], hidden_suit(deal),
                     *obligations(deal, deal.asker))
    # one failure, one breach. The obligation to trump binds only a player who
    # could not follow (with hands: known now; without: until a revoke is proven).
    if must >= 0 and card.code >> 4 != must and not face_down and (deal.hands is None or revoke is None):
        asked = deal.ask_void if seat == deal.asker else None
        declare(deal, "must_trump_after_ask", seat, SUITS[must], i, card, led, i, asked)


def _set_first_void(deal, card: Card, seat: int, i: int) -> None:
    deal.trump.set_first_void(card.suit, deal.number, i, seat)
    deal.trick_trump_set = dict(deal.trump.set_by)
    deal.slots[:] = [None if p is None else p._replace(trump=not p.face_down and p.card.suit == card.suit)
                     for p in deal.slots]


def _reset_first_void(deal) -> None:
    """R-15: trump is set by the earliest off-suit card still on the table."""
    deal.trump.unset_first_void()
    deal.trick_trump_set = None
    led = deal.led
    deal.slots[:] = [None if p is None else p._replace(trump=False) for p in deal.slots]
    for p in deal.slots:
        if p is not None and led is not None and p.card.suit != led:
            _set_first_void(deal, p.card, p.seat, p.event)
            break


def take_back(deal, ev, i: int) -> None:
    """The take_back event: a card of the open trick back to its hand, to correct a possible
    revoke, and after it the cards played since (revoke.correct, R-12)."""
    seat = ev.seat
    k = next((k for k, p in enumerate(deal.slots) if p is not None and p.seat == seat), None)
    if k is None:
        raise RecordError("bad_take_back", f"seat {seat} takes back a card, but has none in the unfinished trick {deal.number}", i)
    played = deal.slots[k]
    possible_revoke = _may_be_illegal(deal, played)
    if deal.first_back is None and not possible_revoke:
        raise RecordError("bad_take_back", f"seat {seat} takes back {played.card.face}, which was a legal play: "
                          "a take-back must first correct a possible revoke", i)
    if deal.first_back is not None and k <= deal.first_back and not possible_revoke:
        raise RecordError("bad_take_back", f"seat {seat} takes back {played.card.face}, but only players who "
                          "played after the revoke may take back their cards", i)
    if deal.first_back is None:
        deal.first_back = k
    deal.slots[k] = None
    deal.filled -= 1
    deal.held[seat].add(played.card)
    _mark_corrected(deal, played.event)
    if deal.trump_mode.set_by_void and deal.trick_trump_set and deal.trick_trump_set["event"] == played.event:
        _reset_first_void(deal)


def _may_be_illegal(deal, played: Played) -> bool:
    if any(v.play_event == played.event and v.is_illegal_play for v in deal.violations):
        return True
    return any(v.play_event == played.event for v in deal.voids[played.seat])


def _mark_corrected(deal, play_event: int) -> None:
    for v in deal.violations:
        if v.play_event == play_event:
            v.corrected = True
    for voids in deal.voids:
        for v in voids:
            if v.play_event == play_event:
                v.corrected = True
