"""Schemas of the stored-match endpoints. A record inside a body is checked by
`referee.records` (see validation.load_with_record)."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.engine import OptionError, PRESETS, resolve

from .schemas import StrictBool

NAME = validate.Length(min=1, max=200, error="must be 1 to 200 characters long")


class TournamentCreateSchema(Schema):
    name = fields.String(required=True, validate=NAME)
    preset = fields.String(required=True, validate=validate.OneOf(list(PRESETS), error="must be one of {choices}"))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    public = StrictBool(load_default=True)

    @validates_schema
    def _options(self, data, **kwargs):
        if data.get("preset") in PRESETS:
            try:
                resolve(data["preset"], data.get("options") or {})
            except OptionError as exc:
                raise ValidationError({exc.option or "_schema": [str(exc)]}, "options") from None


class MatchCreateSchema(Schema):
    tournament = fields.String(required=True, validate=NAME)
    external_id = fields.String(validate=NAME, allow_none=True)
    record = fields.Raw(load_default=dict)  # absent: an empty match, its deals to come (live play)


class EventsSchema(Schema):
    events = fields.List(fields.Raw(), required=True,
                         validate=validate.Length(min=1, max=200, error="must hold 1 to 200 events"))


class ReviseSchema(Schema):
    record = fields.Raw(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000, error="must be 1 to 2000 characters long"))


class WebhookCreateSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=2000, error="must be 1 to 2000 characters long"))


class KeyRotateSchema(Schema):
    key = fields.String(required=True, validate=validate.OneOf(["write", "read"], error="must be \"write\" or \"read\""))
