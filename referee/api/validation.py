"""Load a request body with a marshmallow schema (and the record inside it with
`referee.records`), or answer 422 with a pointer per problem."""
from __future__ import annotations

from typing import Any, Callable

from marshmallow import Schema, ValidationError

from referee.records import RecordProblems

from .problems import Problem
from .schemas import pointers


def invalid(what: str, errors: list[dict]) -> Problem:
    return Problem(422, f"Invalid {what}", f"{len(errors)} problem(s) in the {what}; see errors", errors=errors)


def load(schema: Schema, data: Any, what: str = "request",
         parts: dict[str, Callable[[Any, str], Any]] | None = None) -> dict:
    """`parts`: fields checked by referee.records (name -> check(value, pointer))."""
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


def load_record(data: Any, check: Callable[[Any, str], Any], what: str = "record") -> Any:
    """A body that is a record (or a deal): checked by referee.records."""
    try:
        return check(data, "")
    except RecordProblems as exc:
        raise invalid(what, exc.problems) from None
