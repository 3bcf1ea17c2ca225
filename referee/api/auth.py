"""The tournament key, from `Authorization: Bearer <key>`, checked before anything else of a
write: 401 without a key, 403 with one that does not write, both before the body is read
or validated (so a wrong key never learns what its body would have got)."""
from __future__ import annotations

from functools import wraps

from flask import current_app, request

from referee.store.errors import Forbidden, Unauthorized

MISSING = "this needs the tournament's write key: Authorization: Bearer <key>"


def bearer_key() -> str | None:
    """The key sent, None when none was; a header that is not `Bearer <key>` is refused
    (403) with what is wrong with it."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, key = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        raise Forbidden("the Authorization header has no Bearer scheme: send the key as Authorization: Bearer <key>")
    if not key.strip():
        raise Forbidden("the Authorization header holds no key after Bearer: send Authorization: Bearer <key>")
    return key.strip()


def needs_key(view):
    """A request that needs a key: without one it is 401 before anything else."""
    @wraps(view)
    def guarded(*args, **kwargs):
        if bearer_key() is None:
            raise Unauthorized(MISSING)
        return view(*args, **kwargs)
    return guarded


def check_write_key(tournament_id: str | None = None, match_id: str | None = None) -> None:
    """401/403 (404 for no such tournament or match) for the write key of either."""
    store, key = current_app.extensions["referee.store"], bearer_key()
    if key is None:
        raise Unauthorized(MISSING)
    if match_id is not None:
        store.check_match_write_key(match_id, key)
    else:
        store.check_write_key(tournament_id, key)


def writes(view):
    """A write to the tournament or match of the path (`tournament_id`, `match_id`): its key
    is checked first, before the body is read or validated; the write checks it again."""
    @wraps(view)
    def guarded(*args, **kwargs):
        check_write_key(kwargs.get("tournament_id"), kwargs.get("match_id"))
        return view(*args, **kwargs)
    return guarded
