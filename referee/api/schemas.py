"""Marshmallow for the bodies that are not records (tournaments, webhooks, keys), speaking
the project's voice. Records themselves are checked by `referee.records`, shared with the CLI."""
from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

# One voice: marshmallow's stock messages ("Missing data for required field.") in the
# project's words, for every field of every schema of this service.
_VOICE = {
    fields.Field: {"required": "required", "null": "must not be null", "validator_failed": "invalid value"},
    fields.String: {"invalid": "must be a string", "invalid_utf8": "must be valid text"},
    fields.Boolean: {"invalid": "must be true or false"},
    fields.List: {"invalid": "must be a list"},
    fields.Dict: {"invalid": "must be an object"},
    fields.Mapping: {"invalid": "must be an object"},
    fields.Nested: {"type": "must be an object"},
}
for _field, _messages in _VOICE.items():
    _field.default_error_messages = {**_field.default_error_messages, **_messages}
UNKNOWN_FIELD = "unknown field"


class StrictBool(fields.Field):
    """true or false, nothing truthy."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


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
