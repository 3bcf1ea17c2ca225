"""The play record (docs/records.md) as the engine's plain values, read from already-parsed JSON
(record validation, the layer above the engine, checks a record's shape and points at its fields)."""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

from .cards import _PARSE, SUITS, Card, parse_suit
from .errors import InvalidCardError, RecordFormatError

PLAY, REVEAL, TAKE_BACK = "play", "reveal", "take_back"
CLAIM, ACCEPT, DISPUTE = "claim", "accept", "dispute"  # a table claim and its answers
ANSWERS = (ACCEPT, DISPUTE)
CLAIM_KINDS = (CLAIM, ACCEPT, DISPUTE)


class Event(NamedTuple):
    seat: int
    kind: str  # PLAY, REVEAL or TAKE_BACK
    card: Card | None = None
    face_down: bool = False

    def describe(self) -> str:
        if self.kind == PLAY:
            return f"seat {self.seat} plays {self.card.face}{' face down' if self.face_down else ''}"
        if self.kind == REVEAL:
            return f"seat {self.seat} reveals the trump"
        return f"seat {self.seat} takes back their card"


class ClaimEvent(NamedTuple):
    """A table claim (`tricks`: the tricks claimed) or its answer (R-33); shaped like `Event`."""
    seat: int
    kind: str  # CLAIM, ACCEPT or DISPUTE
    tricks: int | None = None
    face_down: bool = False

    def describe(self) -> str:
        if self.kind == CLAIM:
            return f"seat {self.seat} claims {self.tricks} of the remaining tricks"
        return f"seat {self.seat} {'accepts' if self.kind == ACCEPT else 'disputes'} the claim"


class TrumpSpec(NamedTuple):
    suit: str | None = None
    by: int | None = None
    hidden: Card | None = None
    blind: Card | None = None
    redeal: bool = False

    @property
    def is_empty(self) -> bool:
        return self == _NO_TRUMP


_NO_TRUMP = TrumpSpec()


class Bid(NamedTuple):
    """A bidding game's winning bid: the bidder and the tricks they bid (record.bid)."""
    seat: int
    tricks: int


class DealRecord(NamedTuple):
    dealer: int
    events: tuple[Event, ...] = ()
    hands: tuple[tuple[Card, ...], ...] | None = None
    trump: TrumpSpec = _NO_TRUMP
    bid: Bid | None = None


@dataclass(frozen=True)
class Record:
    preset: str
    options: dict[str, Any] = field(default_factory=dict)
    deals: tuple[DealRecord, ...] = ()
    players: tuple[str, ...] | None = None
    closed: bool = False  # the organiser ended the session

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        """Build a record from JSON data; raise RecordFormatError with a JSON pointer."""
        _require(isinstance(data, dict), "", "a record must be a JSON object")
        _require(isinstance(data.get("preset"), str), "/preset", "required: a preset name")
        options = data.get("options") or {}
        _require(isinstance(options, dict), "/options", "must be an object")
        deals = data.get("deals")
        _require(isinstance(deals, list), "/deals", "required: a list of deals")
        players = data.get("players")
        closed = data.get("closed", False)
        _require(isinstance(closed, bool), "/closed", "must be true or false")
        return cls(
            preset=data["preset"],
            options=dict(options),
            deals=tuple([_deal(d, f"/deals/{i}") for i, d in enumerate(deals)]),
            players=tuple(players) if players is not None else None,
            closed=closed,
        )


def _require(condition: bool, pointer: str, message: str) -> None:
    if not condition:
        raise RecordFormatError(message, pointer)


def _seat(value: Any, pointer: str) -> int:
    if type(value) is float and value.is_integer():
        value = int(value)
    _require(type(value) is int and 0 <= value <= 3, pointer, "must be a seat 0..3")
    return value


def _card(text: Any, pointer: str) -> Card:
    try:
        return Card.parse(text)
    except InvalidCardError as exc:
        raise RecordFormatError(str(exc), pointer) from None


_EVENT_KINDS = (PLAY, REVEAL, TAKE_BACK, CLAIM, ACCEPT, DISPUTE)


def _event(data: Any, pointer: str) -> Event:
    _require(isinstance(data, dict), pointer, "an event must be an object")
    seat = _seat(data.get("seat"), pointer + "/seat")
    kinds = [k for k in _EVENT_KINDS if k in data]
    _require(len(kinds) == 1, pointer, "an event has exactly one of play, reveal, take_back, claim, accept, dispute")
    kind = kinds[0]
    if kind == CLAIM:
        n = data[CLAIM]
        _require(type(n) is int and 0 <= n <= 13, pointer + "/claim", "must be a whole number 0..13")
        return ClaimEvent(seat, CLAIM, n)
    if kind == PLAY:
        face_down = data.get("face_down", False)
        _require(isinstance(face_down, bool), pointer + "/face_down", "must be true or false")
        return Event(seat, PLAY, _card(data[PLAY], pointer + "/play"), face_down)
    _require(data[kind] is True, f"{pointer}/{kind}", "must be true")
    return ClaimEvent(seat, kind) if kind in (ACCEPT, DISPUTE) else Event(seat, kind)


# The usual trump, {"suit": S}, shared: specs are immutable values.
_CALLED = {suit: TrumpSpec(suit=suit) for suit in SUITS}


def _trump(data: Any, pointer: str) -> TrumpSpec:
    if data is None:
        return _NO_TRUMP
    if type(data) is dict and len(data) == 1 and type(data.get("suit")) is str and data["suit"] in _CALLED:
        return _CALLED[data["suit"]]
    _require(isinstance(data, dict), pointer, "must be an object or null")
    if data.get("redeal") is True:
        return TrumpSpec(redeal=True)
    suit = data.get("suit")
    by = data.get("by")
    return TrumpSpec(
        suit=_parse_suit(suit, pointer + "/suit") if suit is not None else None,
        by=_seat(by, pointer + "/by") if by is not None else None,
        hidden=_card(data["hidden"], pointer + "/hidden") if data.get("hidden") is not None else None,
        blind=_card(data["blind"], pointer + "/blind") if data.get("blind") is not None else None,
    )


def _parse_suit(text: Any, pointer: str) -> str:
    try:
        return parse_suit(text)
    except InvalidCardError as exc:
        raise RecordFormatError(str(exc), pointer) from None


# Every plain play event, shared (events are immutable values): _PLAYS[seat][text].
_PLAYS = {seat: {text: Event(seat, PLAY, card) for text, card in _PARSE.items()} for seat in range(4)}
_SEAT = itemgetter("seat")


def plain_plays(events: list) -> tuple[Event, ...] | None:
    """The events when every one is a plain {"seat": 0..3, "play": card} (any accepted spelling),
    read without a check per field; None when any is something else."""
    try:
        fast = tuple([_PLAYS[e["seat"]][e["play"]] for e in events])
    except (KeyError, TypeError):  # not all plain plays
        return None
    # No other field hidden beside seat and play, and no seat `true` (equal to 1 as a key).
    if sum(map(len, events)) == 2 * len(fast) and bool not in set(map(type, map(_SEAT, events))):
        return fast
    return None


def _events(events: list, pointer: str) -> tuple[Event, ...]:
    # Fast path: every event a plain play; else one by one.
    fast = plain_plays(events)
    if fast is not None:
        return fast
    plays = _PLAYS
    out = []
    for j, e in enumerate(events):
        if type(e) is dict and len(e) == 2:
            seat, text = e.get("seat"), e.get("play")
            if type(seat) is int and seat in plays and type(text) is str and text in plays[seat]:
                out.append(plays[seat][text])
                continue
        out.append(_event(e, f"{pointer}/{j}"))
    return tuple(out)


def _hands(hands: Any, pointer: str) -> tuple[tuple[Card, ...], ...] | None:
    if hands is None:
        return None
    if type(hands) is not list or set(map(type, hands)) - {list}:
        raise RecordFormatError("must be a list of four lists of cards", pointer)
    try:
        parsed = tuple([tuple(map(_PARSE.__getitem__, cards)) for cards in hands])
    except (KeyError, TypeError):  # a bad card (or an unhashable value): find it
        for s, cards in enumerate(hands):
            for j, c in enumerate(cards):
                _card(c, f"{pointer}/{s}/{j}")
        raise  # unreachable: _card raised
    return parsed


def _deal(data: Any, pointer: str) -> DealRecord:
    if type(data) is not dict:
        raise RecordFormatError("a deal must be an object", pointer)
    events = data.get("events") or []
    if type(events) is not list:
        raise RecordFormatError("must be a list", pointer + "/events")
    dealer = data.get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        dealer = _seat(dealer, pointer + "/dealer")
    trump = data.get("trump")
    return DealRecord(
        dealer,
        _events(events, pointer + "/events"),
        _hands(data.get("hands"), pointer + "/hands"),
        _trump(trump, pointer + "/trump") if trump is not None else _NO_TRUMP,
        _bid(data["bid"], pointer + "/bid") if data.get("bid") is not None else None,
    )


def _bid(data: Any, pointer: str) -> Bid:
    _require(isinstance(data, dict), pointer, "must be an object")
    tricks = data.get("tricks")
    _require(type(tricks) is int and 7 <= tricks <= 13, pointer + "/tricks", "must be a whole number 7..13")
    return Bid(_seat(data.get("seat"), pointer + "/seat"), tricks)
