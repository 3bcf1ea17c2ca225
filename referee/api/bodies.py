"""The API's request bodies: each one's marshmallow schema, in the project's voice, loaded into
values or refused with a 422 that points at every problem (`load`). A record inside a body
(or a body that is a record) is checked by `referee.record_shape`, shared with the command
line (`load(..., parts=...)`, `load_record`)."""
from __future__ import annotations

from functools import cache
from typing import Any, Callable

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.engine import OptionError, PRESETS
from referee.engine.options import effective
from referee.record_shape import RecordProblems, check_events

from .problems import Problem

# -- one voice ------------------------------------------------------------------------------
# marshmallow's stock messages ("Missing data for required field.") in the project's words.
# Each schema here is built of these fields; marshmallow's own classes are left as they are.

_FIELD = {"required": "required", "null": "must not be null", "validator_failed": "invalid value"}
UNKNOWN_FIELD = "unknown field"


class Field(fields.Field):
    default_error_messages = _FIELD


class Raw(fields.Raw):
    default_error_messages = _FIELD


class String(fields.String):
    default_error_messages = {**_FIELD, "invalid": "must be a string", "invalid_utf8": "must be valid text"}


class List(fields.List):
    default_error_messages = {**_FIELD, "invalid": "must be a list"}


class Dict(fields.Dict):
    default_error_messages = {**_FIELD, "invalid": "must be an object"}


class StrictBool(Field):
    """true or false, nothing truthy (not 1, not "true")."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class Index(Field):
    """A whole number from 0 (not true/false, not 1.5, not "1")."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> int:
        if type(value) is not int or value < 0:
            raise ValidationError("must be a whole number from 0")
        return value


# -- the stored matches' bodies ---------------------------------------------------------------

NAME = validate.Length(min=1, max=200, error="must be 1 to 200 characters long")


class TournamentCreateSchema(Schema):
    name = String(required=True, validate=NAME)
    preset = String(required=True, validate=validate.OneOf(list(PRESETS), error="must be one of {choices}"))
    options = Dict(keys=String(), load_default=dict)
    public = StrictBool(load_default=True)

    @validates_schema
    def _options(self, data, **kwargs):
        if data.get("preset") in PRESETS:
            try:
                effective(data["preset"], data.get("options") or {})
            except OptionError as exc:
                raise ValidationError({exc.option or "_schema": [str(exc)]}, "options") from None


class MatchCreateSchema(Schema):
    tournament = String(required=True, validate=NAME)
    external_id = String(validate=NAME, allow_none=True)
    record = Raw(load_default=dict)  # absent: an empty match, its deals to come (live play)


class EventsSchema(Schema):
    events = List(Raw(), required=True, validate=validate.Length(min=1, max=200, error="must hold 1 to 200 events"))


class ReviseSchema(Schema):
    record = Raw(required=True)
    reason = String(required=True, validate=validate.Length(min=1, max=2000, error="must be 1 to 2000 characters long"))


class WebhookCreateSchema(Schema):
    url = String(required=True, validate=validate.Length(min=1, max=2000, error="must be 1 to 2000 characters long"))


class KeyRotateSchema(Schema):
    key = String(required=True, validate=validate.OneOf(["write", "read"], error="must be \"write\" or \"read\""))


# -- loading ----------------------------------------------------------------------------------

def invalid(what: str, errors: list[dict]) -> Problem:
    return Problem(422, f"Invalid {what}", f"{len(errors)} problem(s) in the {what}; see errors", errors=errors)


@cache
def _shared(schema: type[Schema]) -> Schema:
    """One instance of a schema for every request: making one copies its fields (about 0.1 ms,
    a tenth of Flask's own cost a request), and a load leaves nothing on it."""
    return schema()


def load(schema: Schema | type[Schema], data: Any, what: str = "request",
         parts: dict[str, Callable[[Any, str], Any]] | None = None) -> dict:
    """`schema`: a schema, or its class (its one shared instance); `parts`: fields checked by
    referee.record_shape (name -> check(value, pointer))."""
    if isinstance(schema, type):
        schema = _shared(schema)
    if not isinstance(data, dict):
        raise Problem(422, f"Invalid {what}", f"the {what} body must be a JSON object",
                      errors=[{"pointer": "/", "detail": "must be an object"}])
    errors: list[dict] = []
    try:
        loaded = schema.load(data)
    except ValidationError as exc:
        errors = pointers(exc.messages)
        loaded = {}
    for name, check in (parts or {}).items():
        if name in data:
            try:
                loaded[name] = check(data[name], f"/{name}")
            except RecordProblems as exc:
                errors += exc.problems
    if errors:
        raise invalid(what, errors)
    return loaded


def load_events(data: Any) -> list:
    """A live write's events (EventsSchema's, each event checked by referee.record_shape). A
    body that is {"events": [...]} alone, 1 to 200 events, none of them null, passes the
    schema as it is: it is checked without it (the schema's load cost as much as the check,
    on every card); any other body is `load`ed, every problem pointed at as before."""
    events = data.get("events") if type(data) is dict and len(data) == 1 else None
    if type(events) is list and 1 <= len(events) <= 200 and not any(e is None for e in events):
        try:
            return check_events(events, "/events")
        except RecordProblems as exc:
            raise invalid("events", exc.problems) from None
    return load(EventsSchema, data, "events", {"events": check_events})["events"]


def load_record(data: Any, check: Callable[[Any, str], Any], what: str = "record") -> Any:
    """A body that is a record (or a deal): checked by referee.record_shape."""
    try:
        return check(data, "")
    except RecordProblems as exc:
        raise invalid(what, exc.problems) from None


def pointers(messages: Any, base: str = "") -> list[dict]:
    """Flatten marshmallow's nested error messages into RFC 6901 pointers."""
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            where = base if key == "_schema" else f"{base}/{_escape(key)}"
            out.extend(pointers(value, where))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [{"pointer": base or "/", "detail": _voice(m)} for m in messages]
    if isinstance(messages, list):
        return [p for m in messages for p in pointers(m, base)]
    return [{"pointer": base or "/", "detail": _voice(str(messages))}]


def _voice(message: str) -> str:
    return UNKNOWN_FIELD if message == "Unknown field." else message


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
