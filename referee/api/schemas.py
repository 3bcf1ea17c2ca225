"""Marshmallow schemas for the play record: shape and syntax (422); the engine judges the game."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.engine import Card, InvalidCardError, OptionError, PRESETS, resolve
from referee.engine.cards import SPELLINGS, parse_suit
from referee.engine.options import whole

SEAT = validate.Range(min=0, max=3, error="must be a seat 0..3")


class CardField(fields.Field):
    """A card in any accepted spelling, loaded as its canonical text."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> str:
        try:
            return str(Card.parse(value))
        except InvalidCardError as exc:
            raise ValidationError(str(exc)) from None


class SuitField(fields.Field):
    def _deserialize(self, value: Any, attr, data, **kwargs) -> str:
        try:
            return parse_suit(value)
        except InvalidCardError as exc:
            raise ValidationError(str(exc)) from None


class StrictBool(fields.Field):
    """true or false, nothing truthy."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class WholeNumber(fields.Field):
    """A JSON integer: 3 or 3.0, not "3" and not true."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> int:
        number = whole(value)
        if number is None:
            raise ValidationError("must be a whole number")
        return number


def _seat(**kwargs) -> fields.Field:
    return WholeNumber(validate=SEAT, **kwargs)


class TrumpSchema(Schema):
    suit = SuitField()
    by = _seat()
    hidden = CardField()
    blind = CardField()
    redeal = StrictBool()

    @validates_schema
    def _one_kind(self, data, **kwargs):
        kinds = [k for k in ("suit", "hidden", "blind", "redeal") if k in data]
        if data.get("redeal") is False:
            raise ValidationError("redeal, when given, must be true", "redeal")
        if "redeal" in data and len(kinds) > 1:
            raise ValidationError("a redeal claim stands alone: no suit, hidden or blind card")
        if not kinds:
            raise ValidationError("give one of suit, hidden, blind or redeal (or null for no trump)")
        if "by" in data and "suit" not in data:
            raise ValidationError("'by' goes with a called 'suit'", "by")
        if "hidden" in data and "blind" in data:
            raise ValidationError("a trump is either hidden or turned up, not both")


class EventSchema(Schema):
    seat = _seat(required=True)
    play = CardField()
    face_down = StrictBool()
    reveal = StrictBool()
    take_back = StrictBool()

    @validates_schema
    def _one_action(self, data, **kwargs):
        actions = [k for k in ("play", "reveal", "take_back") if k in data]
        if len(actions) != 1:
            raise ValidationError("an event has exactly one of play, reveal, take_back")
        for flag in ("reveal", "take_back"):
            if data.get(flag) is False:
                raise ValidationError("must be true", flag)
        if "face_down" in data and "play" not in data:
            raise ValidationError("face_down goes with a play", "face_down")


class _Plain(fields.List):
    """A list whose common, plain items are read by `read` (None: not plain); any other
    list goes through the item field as usual, with its pointers and messages. A record's
    52 plays and 52 cards are most of what is validated, and marshmallow costs ~10 us an item."""

    def __init__(self, inner, read, **kwargs):
        super().__init__(inner, **kwargs)
        self._read = read

    def _deserialize(self, value, attr, data, **kwargs):
        plain = self._read(value) if type(value) is list else None
        return plain if plain is not None else super()._deserialize(value, attr, data, **kwargs)


def _plain_plays(events: list) -> list | None:
    out = []
    for e in events:
        if type(e) is not dict or len(e) != 2:
            return None
        seat, text = e.get("seat"), e.get("play")
        card = SPELLINGS.get(text) if type(text) is str else None
        if type(seat) is not int or not 0 <= seat <= 3 or card is None:
            return None
        out.append({"seat": seat, "play": card.text})
    return out


def _plain_hands(hands: list) -> list | None:
    if not all(type(hand) is list for hand in hands):
        return None
    try:
        return [[SPELLINGS[c].text for c in hand] for hand in hands]
    except (KeyError, TypeError):  # not all card spellings
        return None


class DealSchema(Schema):
    dealer = _seat(required=True)
    hands = _Plain(fields.List(CardField()), _plain_hands, allow_none=True)
    trump = fields.Nested(TrumpSchema, allow_none=True)
    events = _Plain(fields.Nested(EventSchema), _plain_plays, load_default=list)


class RecordSchema(Schema):
    preset = fields.String(required=True, validate=validate.OneOf(list(PRESETS)))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    players = fields.List(fields.String(), validate=validate.Length(equal=4), allow_none=True)
    deals = fields.List(fields.Nested(DealSchema), required=True)
    closed = StrictBool()

    @validates_schema
    def _options(self, data, **kwargs):
        if data.get("preset") not in PRESETS:
            return
        try:
            resolve(data["preset"], data.get("options") or {})
        except OptionError as exc:
            if exc.option:
                raise ValidationError({exc.option: [str(exc)]}, "options") from None
            raise ValidationError(str(exc), "options") from None


def pointers(messages: Any, base: str = "") -> list[dict]:
    """Flatten marshmallow's nested error messages into RFC 6901 pointers."""
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            where = base if key == "_schema" else f"{base}/{_escape(key)}"
            out.extend(pointers(value, where))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [{"pointer": base or "/", "detail": m} for m in messages]
    if isinstance(messages, list):
        return [p for m in messages for p in pointers(m, base)]
    return [{"pointer": base or "/", "detail": str(messages)}]


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
