"""A plain record read in one walk, straight into the engine's values (`read_record`).

Each test here accepts only what the checking walk (walk.py) accepts unchanged and
`Record.from_dict` reads the same way; whatever it does not take (a problem, or anything to
clean up) is None, and the record then takes the two steps, which find and point at every
problem. tests/api/test_schemas.py holds the two ways to the same records."""
from __future__ import annotations

from typing import Any

from referee.engine import PRESETS, Record
from referee.engine.options import effective
from referee.engine.cards import SPELLINGS, SUITS
from referee.engine.errors import OptionError
from referee.engine.playrecord import Bid, DealRecord, TrumpSpec, plain_plays

from .walk import DEAL_FIELDS, RECORD_FIELDS, check_record


def read_record(data: Any, pointer: str = "") -> Record:
    """The engine's record, or RecordProblems: what `Record.from_dict(check_record(data))`
    gives, built in one walk when the record is plain (known fields only, every deal's events
    plain plays, its trump a called suit or none, and so on: `plain_record`); anything else
    takes the two steps, which find and point at every problem."""
    record = plain_record(data)
    return record if record is not None else Record.from_dict(check_record(data, pointer))


_RECORD_KEYS, _DEAL_KEYS, _BID_KEYS = frozenset(RECORD_FIELDS), frozenset(DEAL_FIELDS), frozenset(("seat", "tricks"))
_CALLED = {suit: TrumpSpec(suit=suit) for suit in SUITS}
_NO_TRUMP = TrumpSpec()


def plain_record(data: Any) -> Record | None:
    """The engine's record of a plain record, or None: then it takes the two steps."""
    if type(data) is not dict or not data.keys() <= _RECORD_KEYS:
        return None
    preset, options, deals = data.get("preset"), data.get("options", {}), data.get("deals")
    players, closed = data.get("players"), data.get("closed", False)
    if (type(preset) is not str or preset not in PRESETS or type(options) is not dict or type(deals) is not list
            or type(closed) is not bool or players is not None and not _plain_players(players)):
        return None
    try:
        bidding = effective(preset, options).bidding
    except OptionError:
        return None
    read = []
    for deal in deals:
        read.append(_plain_deal(deal, bidding))
        if read[-1] is None:
            return None
    return Record(preset, dict(options), tuple(read), tuple(players) if players is not None else None, closed)


def _plain_players(players: Any) -> bool:
    return type(players) is list and len(players) == 4 and all(
        type(p) is str and 1 <= len(p) <= 200 and "\x00" not in p for p in players)


def _plain_deal(data: Any, bidding: bool) -> DealRecord | None:
    if type(data) is not dict or not data.keys() <= _DEAL_KEYS:
        return None
    dealer, bid, hands, trump, events = (data.get("dealer"), data.get("bid"), data.get("hands"), data.get("trump"),
                                         data.get("events", []))
    if type(dealer) is not int or not 0 <= dealer <= 3 or type(events) is not list:
        return None
    if bidding:
        bid = _plain_bid(bid)
        if bid is None:
            return None
    elif bid is not None:
        return None
    if hands is not None:
        if type(hands) is not list or not all(type(h) is list for h in hands):
            return None
        try:
            hands = tuple([tuple([SPELLINGS[card] for card in hand]) for hand in hands])
        except (KeyError, TypeError):
            return None
    if trump is None:
        trump = _NO_TRUMP
    elif type(trump) is dict and len(trump) == 1 and type(trump.get("suit")) is str and trump["suit"] in _CALLED:
        trump = _CALLED[trump["suit"]]
    else:
        return None
    events = plain_plays(events)
    return None if events is None else DealRecord(dealer, events, hands, trump, bid)


def _plain_bid(data: Any) -> Bid | None:
    if type(data) is not dict or data.keys() != _BID_KEYS:
        return None
    seat, tricks = data["seat"], data["tricks"]
    if type(seat) is not int or not 0 <= seat <= 3 or type(tricks) is not int or not 7 <= tricks <= 13:
        return None
    return Bid(seat, tricks)
