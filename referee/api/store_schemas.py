"""Schemas of the stored-match endpoints."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.engine import OptionError, PRESETS, resolve

from .schemas import DealSchema, EventSchema, RecordSchema, StrictBool

NAME = validate.Length(min=1, max=200)


class TournamentCreateSchema(Schema):
    name = fields.String(required=True, validate=NAME)
    preset = fields.String(required=True, validate=validate.OneOf(list(PRESETS)))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    public = StrictBool(load_default=True)

    @validates_schema
    def _options(self, data, **kwargs):
        if data.get("preset") in PRESETS:
            try:
                resolve(data["preset"], data.get("options") or {})
            except OptionError as exc:
                raise ValidationError({exc.option or "_schema": [str(exc)]}, "options") from None


class MatchRecordSchema(RecordSchema):
    """A tournament match's record: preset and options come from the tournament."""

    preset = fields.String(validate=validate.OneOf(list(PRESETS)))
    deals = fields.List(fields.Nested(DealSchema), load_default=list)


class MatchCreateSchema(Schema):
    tournament = fields.String(required=True, validate=NAME)
    external_id = fields.String(validate=NAME, allow_none=True)
    record = fields.Nested(MatchRecordSchema, required=True)


class EventsSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True, validate=validate.Length(min=1, max=200))


class ReviseSchema(Schema):
    record = fields.Nested(MatchRecordSchema, required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class WebhookCreateSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=2000))
