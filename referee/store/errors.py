"""Errors of the store, each with the HTTP status the API answers with."""
from __future__ import annotations


class StoreError(Exception):
    status = 400
    title = "Bad Request"

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(StoreError):
    status, title = 404, "Not Found"


class Unauthorized(StoreError):
    status, title = 401, "Unauthorized"


class Forbidden(StoreError):
    status, title = 403, "Forbidden"


class Conflict(StoreError):
    status, title = 409, "Conflict"


class PreconditionFailed(StoreError):
    status, title = 412, "Precondition Failed"


class PreconditionRequired(StoreError):
    status, title = 428, "Precondition Required"


class Invalid(StoreError):
    status, title = 422, "Invalid request"


class Unavailable(StoreError):
    """The server is not set up for this (a setting is missing); no input can fix it."""

    status, title = 503, "Service Unavailable"


class TooLarge(StoreError):
    """The match or tournament would grow past a documented limit (see limits.py)."""

    status, title = 413, "Content Too Large"
