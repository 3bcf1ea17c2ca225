"""The tournament key, from `Authorization: Bearer <key>`."""
from __future__ import annotations

from functools import wraps

from flask import request

from referee.store.errors import Unauthorized


def bearer_key() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, key = header.strip().partition(" ")
    # A malformed header (a bare key, another scheme) is a key that opens nothing (403), not a missing one.
    return key.strip() if scheme.lower() == "bearer" and key.strip() else ""


def needs_key(view):
    """A write: without a key it is 401 before anything else (the body is not read)."""
    @wraps(view)
    def guarded(*args, **kwargs):
        if bearer_key() is None:
            raise Unauthorized("this needs the tournament's write key: Authorization: Bearer <key>")
        return view(*args, **kwargs)
    return guarded
