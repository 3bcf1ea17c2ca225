"""A deal set up before its first event: the hands, the bid and the trump as the record gives
them, checked (record errors `bad_hands`, `bad_bid`, `bad_trump`; the violations
`wrong_caller` and `bad_redeal`) and made (trump.*, record.bid, R-9, R-22). Each trump mode
checks and makes its own trump (`TrumpMode.dealt`, in the mode's module); a redeal is this
module's (trump.redeal).

Functions that `Deal.__init__` calls on the deal being set up.
"""
from __future__ import annotations

from .cards import Card
from .errors import RecordError
from .playrecord import Bid, TrumpSpec
from .trump import Trump
from .violations import Violation


def checked_hands(hands) -> list[set[Card]] | None:
    """The four hands as sets, or the record error `bad_hands`."""
    if hands is None:
        return None
    if len(hands) != 4 or set(map(len, hands)) != {13}:
        raise RecordError("bad_hands", "hands must be four lists of 13 cards; got sizes "
                          + ", ".join(str(len(h)) for h in hands))
    if len(set().union(*hands)) != 52:
        cards = [c for h in hands for c in h]
        twice = [c.face for c in sorted({c for c in cards if cards.count(c) > 1})]
        raise RecordError("bad_hands", f"hands must hold the 52 cards once each; repeated: {', '.join(twice)}")
    return [set(h) for h in hands]


def checked_bid(options, bid: Bid | None) -> Bid | None:
    if options.bidding and bid is None:
        raise RecordError("bad_bid", "a bidding game's deal records its winning bid: {\"bid\": {\"seat\": S, \"tricks\": N}}")
    if bid is not None and not options.bidding:
        raise RecordError("bad_bid", "this game has no bidding: a deal records no bid")
    return bid


def make_trump(deal, spec: TrumpSpec) -> Trump:
    """The deal's trump from the record's `trump` under the game's trump mode (its module:
    trump_modes.py), or a redeal (trump.redeal)."""
    mode = deal.options.trump_mode()
    if spec.redeal:
        _check_redeal(deal)
        return Trump(mode)
    return mode.dealt(deal, spec)


def _check_redeal(deal) -> None:
    if not deal.options.weak_hand_redeal:
        why = "weak_hand_redeal is off"
    elif deal.hands is not None and any(c.strength >= 9 for c in deal.dealt[deal.caller][:5]):
        high = [c.face for c in deal.dealt[deal.caller][:5] if c.strength >= 9]
        why = f"the caller's first five hold {', '.join(high)} (a Jack or higher)"
    else:
        return
    deal.violations.append(Violation("bad_redeal", deal.caller, f"seat {deal.caller} claimed a redeal but {why}"))
