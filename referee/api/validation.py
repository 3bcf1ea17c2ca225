"""Load a request body with a marshmallow schema, or answer 422 with pointers."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError

from .problems import Problem
from .schemas import pointers


def load(schema: Schema, data: Any, what: str = "request") -> dict:
    if not isinstance(data, dict):
        raise Problem(422, f"Invalid {what}", f"the {what} body must be a JSON object",
                      errors=[{"pointer": "/", "detail": "must be an object"}])
    try:
        return schema.load(data)
    except ValidationError as exc:
        errs = pointers(exc.messages)
        raise Problem(422, f"Invalid {what}", f"{len(errs)} problem(s) in the {what}; see errors", errors=errs) from None
