"""What may be played now (trick.follow, trump.hidden.*, R-23, R-35): whose turn it is, the
cards the seat to play may play, and whether it may show the hidden trump or play face down.

Functions of a `Deal`'s state: the replay calls them, and so do its readers (the verdict's
`next`, the page's steps, simulations); `Deal` has them as methods too
(`deal.legal_plays()` is `legal_plays(deal)`).
"""
from __future__ import annotations

from .cards import Card
from .errors import RecordError
from .kernel import SUIT_NUMBER
from .kernel_play import L_HIDDEN, ask_obliges, legal_suits, may_reveal


def slot(deal) -> int:
    """Where the next card of the open trick goes: after the cards played, or once a
    take-back has begun the first free place."""
    return deal.filled if deal.first_back is None else deal.position


def check_turn(deal, seat: int, i: int, what) -> int:
    """The slot of `seat`'s card at event `i`, or the record error `out_of_turn` (`what()`
    says what it did)."""
    k = slot(deal)
    if seat != (deal.leader + k) & 3:
        expected = (deal.leader + k) & 3
        raise RecordError("out_of_turn", f"seat {seat} {what()} in trick {deal.number}, but it is seat {expected}'s turn", i)
    return k


def holds(deal, seat: int, suit: str, excluded: Card | None = None) -> Card | None:
    """With hands: the highest card of `suit` the seat holds (bar `excluded`)."""
    best = None
    for c in deal.hands[seat]:
        if c.suit == suit and c is not excluded and (best is None or c.strength > best.strength):
            best = c
    return best


def excluded(deal, seat: int) -> Card | None:
    """The hidden card is set aside: holding it does not let its owner follow."""
    return deal.trump.card if deal.trump.is_hidden and seat == deal.caller else None


def _set_aside(deal, seat: int, hsuit: int) -> Card | None:
    """`excluded` while the face-down card's suit is given (hsuit >= 0); None once it counts
    as shown (legal_after_reveal's -1)."""
    return excluded(deal, seat) if hsuit >= 0 else None


def legal_plays(deal) -> list[Card] | None:
    """The cards the seat to play may play now (None without hands): the kernel's
    legal_suits on the trick's state."""
    seat = deal.to_play
    if seat is None or deal.hands is None:
        return None
    hsuit = hidden_suit(deal)
    return _cards(deal, seat, _allowed_now(deal, seat, hsuit), hsuit)


def hidden_suit(deal) -> int:
    """The face-down card's suit (a number) while it lies face down, else -1."""
    trump = deal.trump
    return SUIT_NUMBER[trump.card.suit] if trump.is_hidden and trump.card is not None else -1


def may_play_hidden(deal, seat: int) -> bool:
    """With hands: may `seat`, to play now, play the face-down card while it lies face
    down (its last card, R-6; under band auto its only card of the suit led, R-23)?"""
    return bool(_allowed_now(deal, seat, hidden_suit(deal)) & L_HIDDEN)


def _allowed_now(deal, seat: int, hsuit: int) -> int:
    """legal_suits for `seat` to play now."""
    return _allowed(deal, seat, deal.position == 0, SUIT_NUMBER[deal.trump.suit], hsuit, int(deal.lead_must_trump),
                    deal.asker)


def obligations(deal, asker: int | None) -> tuple[int, int]:
    """The kernel's seats that must trump (must_trump): the asker as given and the seat a
    show-out obliged, -1 for none."""
    return -1 if asker is None else asker, -1 if deal.must_trump is None else deal.must_trump


def _allowed(deal, seat: int, lead: bool, trump: int, hsuit: int, lmt: int, asker: int | None) -> int:
    """legal_suits for `seat`'s hand with the trump (a number), the face-down card's suit,
    lead_must_trump and the asker as given."""
    hidden = _set_aside(deal, seat, hsuit)
    held = 0
    for c in deal.hands[seat]:
        if c is not hidden:
            held |= 1 << (c.code >> 4)
    return legal_suits(deal.rules, seat, int(lead), SUIT_NUMBER[deal.led], held, trump, hsuit, lmt,
                       *obligations(deal, asker))


def _cards(deal, seat: int, allowed: int, hsuit: int) -> list[Card]:
    """The cards of `seat`'s hand that legal_suits' answer `allowed` lets it play."""
    hidden = _set_aside(deal, seat, hsuit)
    hand = deal.hands[seat]
    out = [c for c in hand if (allowed >> (c.code >> 4)) & 1 and c is not hidden]
    if allowed & L_HIDDEN and hidden in hand:
        out.append(hidden)
    return sorted(out)


CALLER_BARRED = "trump.band.caller-reveals"


def can_reveal(deal) -> bool:
    """May the seat to play show (on its lead) or ask for the face-down trump now?"""
    seat = deal.to_play
    if seat is None or not deal.trump.is_hidden:
        return False
    lead = deal.position == 0
    can_follow = not lead and deal.hands is not None and holds(deal, seat, deal.led, excluded(deal, seat)) is not None
    return bool(may_reveal(deal.rules, seat, lead, can_follow))


def legal_after_reveal(deal) -> list[Card] | None:
    """With hands: what the seat to play could play if it showed (or asked for) the
    hidden trump now: the shown card is back in the caller's hand, the trump known, and
    the caller on lead or the asker (ask_obliges) must then play a trump if they hold one."""
    if deal.hands is None or not can_reveal(deal):
        return None
    seat, lead = deal.to_play, deal.position == 0
    asker = seat if not lead and ask_obliges(deal.rules) else None
    return _cards(deal, seat, _allowed(deal, seat, lead, SUIT_NUMBER[deal.trump.secret_suit], -1, int(lead), asker), -1)


def plays_face_up(deal, card: Card) -> bool:
    """R-35: the hidden card, played while it lies hidden, is never played face down: a
    play of it marked face down is played as if face up (the mark is disregarded, so it
    is no `bad_face_down` either), shown by being played and a trump from that play."""
    return card is deal.set_aside and deal.trump.is_hidden


def can_play_face_down(deal) -> bool:
    """May the seat to play play a card face down now (the caller, hidden_caller_face_down)?"""
    return (deal.trump_mode.face_down_discards
            and deal.to_play == deal.caller and deal.trump.is_hidden and deal.position > 0
            and (deal.hands is None or holds(deal, deal.caller, deal.led, deal.trump.card) is None))
