"""A tournament's two keys (write, read-only): made, stored as hashes, checked in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets

from .errors import Forbidden, Unauthorized
from .models import Tournament


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def new_key(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def key_given(key: str | None) -> None:
    if key is None:
        raise Unauthorized("this needs the tournament's write key: Authorization: Bearer <key>")


def key_opens(t: Tournament, key: str | None) -> bool:
    """The write key."""
    return key is not None and hmac.compare_digest(hash_key(key), t.key_hash)


def key_reads(t: Tournament, key: str | None) -> bool:
    """The write key or the read-only key."""
    if key is None:
        return False
    digest = hash_key(key)
    return hmac.compare_digest(digest, t.key_hash) or hmac.compare_digest(digest, t.read_key_hash or "")


def require_write_key(t: Tournament, key: str | None) -> None:
    key_given(key)
    if not key_opens(t, key):
        why = "a read-only key cannot write" if key_reads(t, key) else "that key does not open this tournament"
        raise Forbidden(why)


def reader_sees_all(t: Tournament, key: str | None) -> bool:
    """May this reader read the tournament at all; and do they see everything?"""
    if key is not None or not t.public:
        key_given(key)
        if not key_reads(t, key):
            raise Forbidden("that key does not open this tournament")
        return True
    return False
