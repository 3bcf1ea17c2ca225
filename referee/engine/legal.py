"""What may be played now (trick.follow, trump.hidden.*, R-23, R-35): whose turn it is, the
cards the seat to play may play, and whether it may show the hidden trump or play face down.

Functions of a `Deal`'s state: the replay calls them, and so do its readers (the verdict's
`next`, the page's steps, simulations); `Deal` has them as methods too
(`deal.legal_plays()` is `legal_plays(deal)`).
"""
from __future__ import annotations

from .cards import Card
from .errors import RecordError
from .kernel import ask_obliges, may_reveal, must_trump


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


def playable(deal, seat: int) -> list[Card]:
    """The seat's cards it may play at all: the hidden card only as the caller's last."""
    hand = deal.hands[seat]
    if deal.trump.is_hidden and seat == deal.caller and deal.trump.card in hand and len(hand) > 1:
        return [c for c in hand if c is not deal.trump.card]
    return list(hand)


def legal_plays(deal) -> list[Card] | None:
    """The cards the seat to play may play now (None without hands)."""
    seat = deal.to_play
    if seat is None or deal.hands is None:
        return None
    hand = playable(deal, seat)
    trump = deal.trump
    if deal.position == 0:
        trumps = [c for c in hand if c.suit == trump.suit] if deal.lead_must_trump else []
        return sorted(trumps or hand)
    follow = [c for c in hand if c.suit == deal.led]
    if follow:
        return sorted(follow)
    if trump.is_hidden and trump.reveals_on_void and seat == deal.caller:
        hand = list(deal.hands[seat])  # turned up just before the play, back in hand
        follow = [c for c in hand if c.suit == deal.led]
        if follow:
            return follow
    obliged = must_trump(deal.rules, seat, -1 if deal.asker is None else deal.asker,
                         -1 if deal.must_trump is None else deal.must_trump, trump.is_hidden)
    suit = trump.suit or trump.secret_suit
    trumps = [c for c in hand if c.suit == suit] if obliged else []
    return sorted(trumps or hand)


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
    hidden trump now: the shown card is back in the caller's hand, and the asker or
    the caller on lead must then play a trump if they hold one."""
    if deal.hands is None or not can_reveal(deal):
        return None
    seat, suit = deal.to_play, deal.trump.secret_suit
    hand = list(deal.hands[seat])
    obliged = ask_obliges(deal.rules)
    trumps = [c for c in hand if c.suit == suit] if obliged else []
    return sorted(trumps or hand)


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
