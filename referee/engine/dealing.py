"""A deal set up before its first event: the hands, the bid and the trump as the record gives
them, checked (record errors `bad_hands`, `bad_bid`, `bad_trump`; the violations
`wrong_caller` and `bad_redeal`) and made (trump.*, record.bid, R-9, R-22).

Functions that `Deal.__init__` calls on the deal being set up.
"""
from __future__ import annotations

from .cards import Card, partner, team_of
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


def _bad_trump(message: str) -> RecordError:
    return RecordError("bad_trump", message)


def make_trump(deal, spec: TrumpSpec) -> Trump:
    """The deal's trump from the record's `trump` under the game's trump mode."""
    mode = deal.options.trump
    if spec.redeal:
        _check_redeal(deal)
        return Trump(mode)
    if mode == "first_void":
        if not spec.is_empty:
            raise _bad_trump("no trump is called in a first-void game: trump must be null")
        return Trump(mode)
    if mode in ("hidden", "band"):
        return _hidden_trump(deal, spec, mode)
    if spec.hidden is not None:
        raise _bad_trump(f"a hidden trump card is not part of trump mode \"{mode}\"")
    if mode == "random":
        if spec.blind is None:
            raise _bad_trump("random trump needs the card shown before the deal, as {\"blind\": \"QC\"}")
        return _turned_up(spec, mode)
    if spec.blind is not None:
        _check_blind_card(deal, spec.blind)
        return _turned_up(spec, "blind")
    if mode == "blind":
        raise _bad_trump("blind trump needs the turned-up card, as {\"blind\": \"QC\"}")
    if spec.suit is None:
        raise _bad_trump("the caller's trump suit is missing: {\"suit\": \"S\"} (or \"H\", \"D\", \"C\")")
    _check_caller(deal, spec.by)
    return Trump("called", spec.suit, by=spec.by)


def _turned_up(spec: TrumpSpec, mode: str) -> Trump:
    if spec.suit is not None and spec.suit != spec.blind.suit:
        raise _bad_trump(f"suit {spec.suit} does not match the turned-up card {spec.blind.face}")
    return Trump(mode, spec.blind.suit, card=spec.blind)


def _hidden_trump(deal, spec: TrumpSpec, mode: str) -> Trump:
    card = spec.hidden
    if card is None:
        raise _bad_trump(f"trump mode \"{mode}\" needs the face-down card, as {{\"hidden\": \"QC\"}}")
    if deal.hands is not None and card not in deal.dealt[deal.caller][:5]:
        raise _bad_trump(f"the hidden card {card.face} is not among the caller's (seat {deal.caller}) first five cards")
    if spec.suit is not None and spec.suit != card.suit:
        raise _bad_trump(f"suit {spec.suit} does not match the hidden card {card.face}")
    return Trump(mode, card.suit, card=card, band_reveal=deal.options.band_reveal)


def _check_blind_card(deal, card: Card) -> None:
    if deal.hands is None:
        return
    seats = range(4) if deal.options.pass_once else [deal.caller]
    if not any(card in deal.dealt[s][5:] for s in seats):
        where = "any player's" if deal.options.pass_once else f"the caller's (seat {deal.caller})"
        raise _bad_trump(f"the blind card {card.face} is not among {where} cards 6-13")


def _check_caller(deal, by: int | None) -> None:
    if by is None or by == deal.caller:
        return
    if deal.bid is not None:
        v = Violation("wrong_caller", by, f"trump was called by seat {by}, but the bidder, seat {deal.caller}, names trump")
        v.extra_rules = ("record.bid",)
        deal.violations.append(v)
        return
    if by == partner(deal.caller) and deal.options.pass_once:
        return
    why = "a defender" if team_of(by) != deal.callers else "the caller's partner, but pass_once is off"
    deal.violations.append(Violation(
        "wrong_caller", by, f"trump was called by seat {by}, {why}; the caller is seat {deal.caller}"))


def _check_redeal(deal) -> None:
    if not deal.options.weak_hand_redeal:
        why = "weak_hand_redeal is off"
    elif deal.hands is not None and any(c.strength >= 9 for c in deal.dealt[deal.caller][:5]):
        high = [c.face for c in deal.dealt[deal.caller][:5] if c.strength >= 9]
        why = f"the caller's first five hold {', '.join(high)} (a Jack or higher)"
    else:
        return
    deal.violations.append(Violation("bad_redeal", deal.caller, f"seat {deal.caller} claimed a redeal but {why}"))
